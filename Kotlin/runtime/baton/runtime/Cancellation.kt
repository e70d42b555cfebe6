package baton.runtime

import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

/**
 * Asks a fetch to stop: the Kotlin form of Swift's task cancellation. A handle gives each of its fetches one and
 * cancels it when it detaches; the transport aborts the exchange in flight (`HttpURLConnection.disconnect`, OkHttp's
 * `Call.cancel`) and the environment's retry waits end at once. Thread-safe; cancelling twice is cancelling once.
 */
class Cancellation {
    private val lock = Any()
    private val cancelled = CountDownLatch(1)
    private val actions = LinkedHashMap<Int, () -> Unit>()
    private var nextAction = 0

    /** Whether [cancel] was called. */
    val isCancelled: Boolean get() = cancelled.count == 0L

    /** Cancels: runs every registered action once, on this thread. */
    fun cancel() {
        val toRun = synchronized(lock) {
            if (isCancelled) return
            cancelled.countDown()
            val list = ArrayList(actions.values)
            actions.clear()
            list
        }
        for (action in toRun) action()
    }

    /**
     * Runs [action] when this is cancelled (at once, on this thread, when it already is); the returned
     * [Observation] unregisters it.
     */
    fun onCancel(action: () -> Unit): Observation {
        val id = synchronized(lock) {
            if (isCancelled) null else {
                val id = nextAction++
                actions[id] = action
                id
            }
        }
        if (id == null) {
            action()
            return Observation {}
        }
        return Observation { synchronized(lock) { actions.remove(id) } }
    }

    /** Waits up to [millis]; returns whether it was cancelled meanwhile (a retry's wait that a detach ends). */
    fun await(millis: Long): Boolean = cancelled.await(millis, TimeUnit.MILLISECONDS)
}
