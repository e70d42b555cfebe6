package baton.runtime

/**
 * When the environment collects records nothing reaches, and how many recent operations it keeps reachable, as the
 * Swift runtime's `GarbageCollection`: the store keeps what attached handles, retained operations and the last
 * [bufferSize] operations fetched, mutated or released reach; the rest is collected after a handle detaches or a
 * retention is released ([automatic]), or when the app calls [BatonEnvironment.collectGarbage].
 */
class GarbageCollection(bufferSize: Int = 10, val automatic: Boolean = true) {
    val bufferSize: Int = maxOf(0, bufferSize)

    companion object {
        /** Ten recent operations, collected after every release. */
        val STANDARD = GarbageCollection()

        /** Collected only when the app calls `collectGarbage()`. */
        val MANUAL = GarbageCollection(automatic = false)
    }
}

/** The environment's retained and recent roots. */
internal class RetentionState {
    val retained = LinkedHashMap<Int, RetainedRoot>()
    var nextRetention = 0
    /** The most recent last. */
    val recent = ArrayList<RetainedRoot>()
    var collectionScheduled = false
}

/** An operation the store keeps reachable until [release]. */
class Retention internal constructor(private val environment: BatonEnvironment, private val id: Int) {
    /** Stops keeping the operation (it joins the recent operations, then may be collected). */
    fun release() = environment.endRetention(id)
}

/** Keeps [operation]'s data in the store, whatever handles are attached, until the retention is released. */
fun BatonEnvironment.retain(operation: Operation<*>): Retention = retain(RetainedRoot.of(operation))

/** Keeps what [root] reaches (data committed with raw selections, say) until the retention is released. */
fun BatonEnvironment.retain(root: RetainedRoot): Retention {
    val id = synchronized(retention) {
        val id = retention.nextRetention++
        retention.retained[id] = root
        id
    }
    return Retention(this, id)
}

internal fun BatonEnvironment.endRetention(id: Int) {
    val root = synchronized(retention) { retention.retained.remove(id) }
    if (root != null) release(root)
}

/** A root nothing holds any more: it joins the recent operations, and a collection is scheduled. */
internal fun BatonEnvironment.release(root: RetainedRoot) {
    keepRecent(root)
    if (garbageCollection.automatic) scheduleCollection()
}

/** Makes [root] the most recent operation (dropping the oldest past the buffer). */
internal fun BatonEnvironment.keepRecent(root: RetainedRoot) {
    synchronized(retention) {
        retention.recent.add(root)
        while (retention.recent.size > garbageCollection.bufferSize) retention.recent.removeAt(0)
    }
}

/** Every root the store keeps: attached handles' operations, retained operations, recent operations. */
internal val BatonEnvironment.retainedRoots: List<RetainedRoot>
    get() {
        val handles = attachedHandles.map { RetainedRoot.of(it.operation) }
        return handles + synchronized(retention) { retention.retained.values.toList() + retention.recent }
    }

/** Removes every record no root reaches and logs `collected {"records":N}`; returns how many went. */
fun BatonEnvironment.collectGarbage(): Int {
    val removed = store.collectGarbage(retainedRoots)
    log.record(LogEvent("collected", linkedMapOf<String, Any?>("records" to removed)))
    return removed
}

/** Runs one collection soon, on the executor (so `settle()` waits for it); several releases in a row collect once. */
internal fun BatonEnvironment.scheduleCollection() {
    val schedule = synchronized(retention) {
        if (retention.collectionScheduled) false else {
            retention.collectionScheduled = true
            true
        }
    }
    if (!schedule) return
    track {
        synchronized(retention) { retention.collectionScheduled = false }
        collectGarbage()
    }
}
