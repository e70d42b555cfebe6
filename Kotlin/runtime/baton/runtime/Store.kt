package baton.runtime

/**
 * What a slot holds: a scalar exactly as the server wrote it, a link to a record, a list, or null.
 */
sealed class StoredValue {
    /** The server wrote `null`. */
    object Null : StoredValue() {
        override fun toString(): String = "null"
    }

    /** A JSON string (strings, IDs, enum values, custom scalars written as strings). */
    data class Text(val text: String) : StoredValue()

    /** A JSON number's literal text, never rounded. */
    data class Number(val literal: String) : StoredValue()

    /** A JSON Boolean. */
    data class Bool(val value: Boolean) : StoredValue()

    /** A custom scalar the server wrote as a JSON object or array, kept as compact JSON text. */
    data class JsonText(val json: String) : StoredValue()

    /** A link to another record by its key. */
    data class Link(val key: String) : StoredValue()

    /** A list of values or links. */
    data class Items(val items: List<StoredValue>) : StoredValue()
}

/** A field of a record under its storage key: its value and, beside it, the field errors that produced it. */
data class Slot(val value: StoredValue, val errors: List<FieldError> = emptyList())

/**
 * A normalized record: its type name, its slots by storage key, and its age.
 *
 * Immutable: a commit replaces a record it changes, so a [StoreSnapshot] holding the old one never sees the
 * change. [updatedAt] is when a server response last wrote the record (seconds since 1970, kept in the image);
 * [invalidated] marks it stale until a response writes it again. [isDeleted]: a mutation's `@deleteRecord` deleted
 * it (no slots; links to it read null, a lens holding it reads nothing missing); a response writing it revives it.
 */
data class Record(
    val typename: String?,
    val slots: Map<String, Slot> = emptyMap(),
    val updatedAt: Double = 0.0,
    val invalidated: Boolean = false,
    val isDeleted: Boolean = false
)

/** What a commit did: the slots that changed (sorted) and the errors that named no slot of the response. */
data class CommitResult(val changed: List<SlotId>, val unattachedErrors: List<FieldError>) {
    /** The changed slots space-separated, as Plate 3 prints them. */
    val changedDescription: String get() = changed.joinToString(" ")
}

/** One slot of one record, as notifications name it: `Character:1.gender`. */
data class SlotId(val record: String, val storageKey: String) : Comparable<SlotId> {
    override fun toString(): String = "$record.$storageKey"

    /** The order of [toString]'s texts, compared without building them. */
    override fun compareTo(other: SlotId): Int {
        val length = record.length + 1 + storageKey.length
        val otherLength = other.record.length + 1 + other.storageKey.length
        for (index in 0 until minOf(length, otherLength)) {
            val a = charAt(index)
            val b = other.charAt(index)
            if (a != b) return a - b
        }
        return length - otherLength
    }

    private fun charAt(index: Int): Char = when {
        index < record.length -> record[index]
        index == record.length -> '.'
        else -> storageKey[index - record.length - 1]
    }
}

/**
 * The store's records at one moment, immutable: lenses read through snapshots without locking, and everything
 * read through one snapshot (and the lenses it produces) is consistent: a read never sees half a batch.
 *
 * Two snapshots are equal when they are the same version of the same store, so lenses over them compare equal
 * exactly when they would read the same values.
 */
class StoreSnapshot internal constructor(
    private val owner: Any,
    /** Counts the store's changes: every commit that changes a slot, every invalidation and image load. */
    val version: Long,
    /** The records by key. */
    val records: Map<String, Record>,
    /** The records optimistic updates wrote (what a lens's `isOptimistic` reads); empty without any in flight. */
    val optimisticRecords: Set<String> = emptySet()
) {
    /** A snapshot of no records, belonging to no store. */
    constructor(records: Map<String, Record> = emptyMap()) : this(Any(), 0, records)

    /** The record under [key], if any. */
    operator fun get(key: String): Record? = records[key]

    override fun equals(other: Any?): Boolean =
        other is StoreSnapshot && other.owner === owner && other.version == version

    override fun hashCode(): Int = System.identityHashCode(owner) * 31 + version.hashCode()

    /**
     * Reads [operation]'s data lens.
     *
     * A `@required` null that bubbles to the root throws [RequiredFieldException]; under `@throwOnFieldError` an
     * uncaught field error throws [FieldErrorsException].
     */
    fun <D : Any> read(operation: Operation<D>, reporter: ReadReporter = ReadReporter.SILENT): D {
        val context = ReadContext(this, operation.resolvedVariables(), reporter)
        val root = RecordReader(context, operation.rootTypename, null)
        val missing = root.missingRequired(operation.selections)
        if (missing != null) throw RequiredFieldException(missing.components)
        if (operation.throwOnFieldError) {
            val errors = root.uncaughtErrors(operation.selections)
            if (errors.isNotEmpty()) throw FieldErrorsException(FieldErrors(errors))
        }
        return operation.data(root)
    }
}

/**
 * What one batch did to the store's server records, for a persistence layer (Kotlin/sqlite's `SQLiteCache`), as the
 * Swift runtime's `StoreBatch`: the records a commit or an invalidation wrote (each as it is after the batch), the
 * keys it removed (a garbage collection's, a deleted connection record a page replaced), or, with [replacesAll],
 * every record (an image was loaded, the store was cleared). Optimistic layers are never in a batch.
 */
class StoreBatch(
    /** These records, as they are now. */
    val records: List<Pair<String, Record>>,
    /** These records are gone. */
    val removed: List<String> = emptyList(),
    /** The store now holds exactly [records]. */
    val replacesAll: Boolean = false
)

/** A response that is not a GraphQL response (not JSON, not an object, or neither `data` nor `errors`). */
class MalformedResponseException(val reason: String) : RuntimeException("malformed response: $reason")

/**
 * The normalized store: records keyed by data ID, committed in batches, read through snapshots.
 *
 * Records are keyed `Type:id` when the object has an `id`, otherwise by the parent's key, a dot and the
 * storage key of the field that reached it, plus `.index` per list level (`Query.character({"id":"1"})`).
 * The root record's key is the root type's name: the keys and slots the Swift runtime gives the same response.
 *
 * Thread-safe: a commit parses and normalizes outside the lock, merges under it, and notifies subscribers
 * after releasing it, once per batch. Reads take a [snapshot] (the record table is shared with it and copied
 * on the next write), so they never lock and never see a batch half applied.
 *
 * [clock] stamps records' ages in seconds since 1970.
 */
class RecordStore(val clock: () -> Double = Clocks.SYSTEM) {
    private val lock = Any()
    private var records = HashMap<String, Record>()
    private var version = 0L
    /** The snapshot of the current version, when one was taken: `records` is then shared with it. */
    private var current: StoreSnapshot? = null
    private val subscribers = LinkedHashMap<Int, Subscriber>()
    private var nextSubscriber = 0

    private class Subscriber(var slots: Set<SlotId>, val callback: (Set<SlotId>) -> Unit)

    /** Every connection record made (a superset: `@deleteRecord` removes edges from each that still exists). */
    private var connections = HashSet<String>()

    /** Optimistic layers: the server's records apart while any is in flight (see [addOptimisticLayer]). */
    private var base: HashMap<String, Record>? = null
    private val layers = ArrayList<Pair<Int, NormalizedWrite>>()
    private var nextLayer = 0
    private var layered = HashSet<SlotId>()
    private var optimisticRecords: Set<String> = emptySet()

    /** Hears of every batch, in order, under the lock (a persistence layer; see [StoreBatch]). */
    private var batchObserver: ((StoreBatch) -> Unit)? = null

    /** A consistent view of every record now. */
    fun snapshot(): StoreSnapshot = synchronized(lock) {
        current ?: StoreSnapshot(this, version, records, optimisticRecords).also { current = it }
    }

    /** The record under [key], if the store has it. */
    fun record(key: String): Record? = synchronized(lock) { records[key] }

    /** Every record key, sorted. */
    fun keys(): List<String> = synchronized(lock) { records.keys.sorted() }

    /**
     * Commits a response to [operation] as a server batch: normalizes `data` by the operation's selections
     * (aliases mapped back to storage keys, `@include`/`@skip` evaluated), stores each entry of `errors` beside the
     * slot its `path` names, merges, and notifies subscribers of the slots that changed (their value or their
     * errors), once.
     *
     * A response with `errors` and no `data` is a request error: nothing changes and [RequestFailedException] is
     * thrown. A body that is not a GraphQL response throws [MalformedResponseException].
     */
    fun commit(operation: Operation<*>, responseText: String): CommitResult {
        val (result, deliver) = commitDeferringNotifications(operation, responseText)
        deliver()
        return result
    }

    /** [commit] from the response body's UTF-8 bytes. */
    fun commit(operation: Operation<*>, body: ByteArray): CommitResult = commit(operation, String(body, Charsets.UTF_8))

    /** Commits a response by explicit selections and variables (what [commit] does for an operation). */
    fun commit(
        responseText: String, selections: List<Selection>, variables: Map<String, Any?> = emptyMap(),
        rootKey: String = "Query", rootTypename: String = "Query"
    ): CommitResult {
        val write = normalize(responseText, selections, variables, rootKey, rootTypename)
        val (result, deliver) = merge(write)
        deliver()
        return result
    }

    /** [commit], handing back the notifications to deliver, so the environment logs the commit before them. */
    internal fun commitDeferringNotifications(
        operation: Operation<*>, responseText: String, replacing: Int? = null
    ): Pair<CommitResult, () -> Unit> {
        val write = normalize(
            responseText, operation.selections, operation.resolvedVariables(), operation.rootTypename,
            operation.rootTypename
        )
        return merge(write, replacing)
    }

    /** Normalizes an optimistic response's `data` for [operation], as a server's would be. */
    /**
     * Normalizes an optimistic response's object as the body it spells (written out as JSON and read back), so a
     * builder's values (enums, numbers) take the path a server's do.
     */
    @Suppress("UNCHECKED_CAST")
    internal fun normalizeOptimistic(operation: Operation<*>, data: Map<String, Any?>): NormalizedWrite =
        Normalizer.normalize(
            Json.parse(Json.write(data)) as Map<String, Any?>, emptyList(), operation.rootTypename,
            operation.rootTypename, operation.selections, operation.resolvedVariables()
        )

    private fun normalize(
        responseText: String, selections: List<Selection>, variables: Map<String, Any?>, rootKey: String,
        rootTypename: String
    ): NormalizedWrite {
        val response = GraphQLResponse.parse(responseText)
        val data = response.data ?: throw RequestFailedException(FieldErrors(response.errors))
        return Normalizer.normalize(data, response.errors, rootKey, rootTypename, selections, variables)
    }

    private fun merge(write: NormalizedWrite, replacing: Int? = null): Pair<CommitResult, () -> Unit> {
        val now = clock()
        var changed = HashSet<SlotId>()
        val notify = ArrayList<Pair<(Set<SlotId>) -> Unit, Set<SlotId>>>()
        synchronized(lock) {
            if (layers.isEmpty()) {
                applyWrite(write, writable(), now, changed, observed = true)
            } else {
                changed = rebase(write, replacing, null, now)
            }
            if (changed.isNotEmpty()) {
                version++
                collectNotifications(changed, notify)
            } else if (write.pending.isNotEmpty()) {
                version++ // ages changed
            }
        }
        val result = CommitResult(changed.sorted(), write.unattachedErrors)
        return Pair(result, { for ((callback, slots) in notify) callback(slots) })
    }

    /**
     * Writes incremental delivery's marks ([IncrementalMarks]: record key, storage key, the slot or null to remove
     * it) in one batch and notifies the subscribers of the slots they change; marks are the delivery's state, not
     * the server's data (the Swift runtime's `Store.write(_ marks:)`).
     */
    internal fun writeMarks(marks: List<Triple<String, String, Slot?>>) {
        if (marks.isEmpty()) return
        val notify = ArrayList<Pair<(Set<SlotId>) -> Unit, Set<SlotId>>>()
        synchronized(lock) {
            val changed = HashSet<SlotId>()
            val table = writable()
            for ((key, storageKey, slot) in marks) {
                val record = table[key] ?: continue
                if (record.slots[storageKey] == slot) continue
                table[key] = record.copy(slots = marked(record.slots, storageKey, slot))
                base?.get(key)?.let { server -> base?.put(key, server.copy(slots = marked(server.slots, storageKey, slot))) }
                changed.add(SlotId(key, storageKey))
            }
            if (changed.isNotEmpty()) {
                version++
                collectNotifications(changed, notify)
            }
        }
        for ((callback, slots) in notify) callback(slots)
    }

    private fun marked(slots: Map<String, Slot>, storageKey: String, slot: Slot?): Map<String, Slot> {
        val result = HashMap(slots)
        if (slot == null) result.remove(storageKey) else result[storageKey] = slot
        return result
    }

    /** The subscribers to call for a batch that changed [changed]. Call under the lock. */
    private fun collectNotifications(changed: Set<SlotId>, into: MutableList<Pair<(Set<SlotId>) -> Unit, Set<SlotId>>>) {
        for (subscriber in subscribers.values) {
            val hit = subscriber.slots.filterTo(HashSet()) { it in changed }
            if (hit.isNotEmpty()) into.add(Pair(subscriber.callback, hit))
        }
    }

    /**
     * Applies one write to a table: its records slot by slot, then its connection pages and updates. With
     * [observed] (the server's table), the batch observer hears of every record the write touched.
     */
    private fun applyWrite(
        write: NormalizedWrite, table: HashMap<String, Record>, now: Double, changed: MutableSet<SlotId>,
        observed: Boolean = false
    ) {
        for (pending in write.pending) {
            table[pending.key] = apply(pending, table[pending.key], now, changed)
        }
        var touched: Set<String> = emptySet()
        if (write.connectionWrites.isNotEmpty()) {
            val connectionTable = ConnectionTable(table, now)
            connectionTable.apply(write.connectionWrites, write.variables, connections)
            changed.addAll(connectionTable.changed)
            touched = connectionTable.touched
        }
        val observer = batchObserver
        if (!observed || observer == null || (write.pending.isEmpty() && touched.isEmpty())) return
        val keys = LinkedHashSet<String>()
        for (pending in write.pending) keys.add(pending.key)
        keys.addAll(touched)
        val written = ArrayList<Pair<String, Record>>(keys.size)
        val removed = ArrayList<String>()
        for (key in keys) {
            val record = table[key]
            if (record == null) removed.add(key) else written.add(Pair(key, record))
        }
        observer(StoreBatch(written, removed))
    }

    /**
     * Applies a server write (if any) to the server's records, removes and adds layers, and applies the layers
     * again over the result, as the Swift runtime's `rebase`. Returns the slots whose content, as reads see it,
     * changed. Call under the lock.
     */
    private fun rebase(server: NormalizedWrite?, removing: Int?, adding: Pair<Int, NormalizedWrite>?, now: Double): HashSet<SlotId> {
        val serverTable = base ?: HashMap(records)
        val candidates = HashSet(layered)
        if (server != null) applyWrite(server, serverTable, now, candidates, observed = true)
        if (removing != null) layers.removeAll { it.first == removing }
        if (adding != null) layers.add(adding)
        val visible = HashMap(serverTable)
        val nowLayered = HashSet<SlotId>()
        for ((_, layer) in layers) applyWrite(layer, visible, now, nowLayered)
        candidates.addAll(nowLayered)
        val old = records
        val changed = candidates.filterTo(HashSet()) { slot ->
            old[slot.record]?.slots?.get(slot.storageKey) != visible[slot.record]?.slots?.get(slot.storageKey)
        }
        records = visible
        current = null
        base = if (layers.isEmpty()) null else serverTable
        layered = nowLayered
        optimisticRecords = nowLayered.mapTo(HashSet()) { it.record }
        return changed
    }

    /** Applies an optimistic write as a new layer; returns its id and the notifications to deliver. */
    internal fun addOptimisticLayer(write: NormalizedWrite): Triple<Int, CommitResult, () -> Unit> {
        val now = clock()
        val notify = ArrayList<Pair<(Set<SlotId>) -> Unit, Set<SlotId>>>()
        val (id, changed) = synchronized(lock) {
            val id = nextLayer++
            val changed = rebase(null, null, Pair(id, write), now)
            version++
            collectNotifications(changed, notify)
            Pair(id, changed)
        }
        return Triple(id, CommitResult(changed.sorted(), emptyList()), { for ((callback, slots) in notify) callback(slots) })
    }

    /** Removes a layer (rolls it back): reads see again what they saw without it. */
    internal fun removeOptimisticLayer(id: Int): Pair<CommitResult, () -> Unit> {
        val now = clock()
        val notify = ArrayList<Pair<(Set<SlotId>) -> Unit, Set<SlotId>>>()
        val changed = synchronized(lock) {
            if (layers.none { it.first == id }) return Pair(CommitResult(emptyList(), emptyList()), {})
            val changed = rebase(null, id, null, now)
            version++
            collectNotifications(changed, notify)
            changed
        }
        return Pair(CommitResult(changed.sorted(), emptyList()), { for ((callback, slots) in notify) callback(slots) })
    }

    /** How many optimistic layers are in flight. */
    val optimisticLayerCount: Int get() = synchronized(lock) { layers.size }

    /** The server's records, without optimistic layers: what an image and a persisted cache save. */
    fun serverRecords(): Map<String, Record> = synchronized(lock) { HashMap(base ?: records) }

    /**
     * Removes every record [roots] do not reach and returns how many went, as the Swift runtime's
     * `collectGarbage(keeping:)`: links and lists of links of the selected fields, a `@connection` field's
     * connection record, fragments whose type matches. Nothing is collected while optimistic updates are in flight.
     */
    fun collectGarbage(roots: List<RetainedRoot>): Int = synchronized(lock) {
        if (layers.isNotEmpty()) return 0
        val reachable = reachable(roots, records)
        val before = records.size
        val kept = HashMap<String, Record>(records.size * 2)
        for ((key, record) in records) if (key in reachable) kept[key] = record
        val removed = before - kept.size
        if (removed > 0) {
            batchObserver?.let { observer -> observer(StoreBatch(emptyList(), records.keys.filter { it !in kept })) }
            records = kept
            current = null
            version++
            connections = connections.filterTo(HashSet()) { kept.containsKey(it) }
        }
        removed
    }

    /** The keys of the records [roots] reach now (what an image keeps). */
    fun reachableRecords(roots: List<RetainedRoot>): Set<String> = reachable(roots, serverRecords())

    /** The record table, copied first when a snapshot shares it. Call under the lock. */
    private fun writable(): HashMap<String, Record> {
        if (current != null) {
            records = HashMap(records)
            current = null
        }
        return records
    }

    /** One record after a batch wrote [pending] into [old], collecting the slots that changed. */
    private fun apply(pending: PendingRecord, old: Record?, now: Double, changed: MutableSet<SlotId>): Record {
        val typename = pending.typename ?: old?.typename
        if (old == null || old.slots.isEmpty()) {
            for (storageKey in pending.slots.keys) changed.add(SlotId(pending.key, storageKey))
            return Record(typename, HashMap(pending.slots), now, false)
        }
        val slots = HashMap<String, Slot>(old.slots)
        for ((storageKey, slot) in pending.slots) {
            if (slots.put(storageKey, slot) != slot) changed.add(SlotId(pending.key, storageKey))
        }
        return Record(typename, slots, now, false)
    }

    /**
     * Calls [callback] once per committed batch that changes any of [slots], with the changed ones, on the
     * committing thread after the store's lock is released.
     */
    fun subscribe(slots: Set<SlotId>, callback: (Set<SlotId>) -> Unit): Subscription = synchronized(lock) {
        val id = nextSubscriber++
        subscribers[id] = Subscriber(slots, callback)
        Subscription(this, id)
    }

    internal fun updateSubscription(id: Int, slots: Set<SlotId>) {
        synchronized(lock) { subscribers[id]?.slots = slots }
    }

    internal fun cancelSubscription(id: Int) {
        synchronized(lock) { subscribers.remove(id) }
    }

    /** How many subscriptions are live (a handle holds one while attached): for leak checks. */
    internal val subscriptionCount: Int get() = synchronized(lock) { subscribers.size }

    /** Marks the records [predicate] picks stale; returns how many. */
    internal fun invalidate(predicate: (String, Record) -> Boolean): Int = synchronized(lock) {
        val table = writable()
        var count = 0
        val marked = ArrayList<Pair<String, Record>>()
        for ((key, record) in ArrayList(table.entries)) {
            if (predicate(key, record)) {
                table[key] = record.copy(invalidated = true)
                val server = base
                if (server == null) {
                    if (!record.invalidated) marked.add(Pair(key, table.getValue(key)))
                } else {
                    server[key]?.let { old ->
                        server[key] = old.copy(invalidated = true)
                        if (!old.invalidated) marked.add(Pair(key, server.getValue(key)))
                    }
                }
                count++
            }
        }
        version++
        if (marked.isNotEmpty()) batchObserver?.invoke(StoreBatch(marked))
        count
    }

    /** The oldest `updatedAt` among the records of [keys] the store has, and whether any is invalidated. */
    internal fun staleness(keys: Set<String>): Pair<Double?, Boolean> = synchronized(lock) {
        var oldest: Double? = null
        var invalidated = false
        for (key in keys) {
            val record = records[key] ?: continue
            if (record.invalidated) invalidated = true
            val age = oldest
            if (age == null || record.updatedAt < age) oldest = record.updatedAt
        }
        Pair(oldest, invalidated)
    }

    /** Replaces every record (loading an image); optimistic layers in flight are dropped. */
    fun replaceRecords(replacement: Map<String, Record>) {
        synchronized(lock) {
            replace(replacement)
            batchObserver?.invoke(StoreBatch(replacement.toList(), replacesAll = true))
        }
    }

    /**
     * Replaces every record with [replacement] and, in the same step, starts (or with null stops) handing each later
     * batch to [observer]: a persistence layer loads what it kept and then hears of every change after it. The
     * observer is called under the store's lock, in the order batches apply: it must only hand the batch on (to a
     * thread of its own) and never call back into the store.
     */
    fun replaceRecords(replacement: Map<String, Record>, thenObserveBatches: ((StoreBatch) -> Unit)?) {
        synchronized(lock) {
            replace(replacement)
            batchObserver = thenObserveBatches
        }
    }

    /** Stops handing batches to the observer [replaceRecords] set. */
    fun stopObservingBatches() {
        synchronized(lock) { batchObserver = null }
    }

    /** Makes [replacement] the whole content. Call under the lock. */
    private fun replace(replacement: Map<String, Record>) {
        records = HashMap(replacement)
        current = null
        version++
        base = null
        layers.clear()
        layered = HashSet()
        optimisticRecords = emptySet()
        connections = replacement.keys.filterTo(HashSet()) { it.contains(".__connection:") }
    }

    /** Removes every record. */
    fun clear() = replaceRecords(emptyMap())

    /** Reads [operation]'s data lens from a snapshot taken now (see [StoreSnapshot.read]). */
    fun <D : Any> read(operation: Operation<D>, reporter: ReadReporter = ReadReporter.SILENT): D =
        snapshot().read(operation, reporter)
}

/** What a collection keeps: a root record read through selections with variables, and everything it reaches. */
class RetainedRoot(val key: String, val selections: List<Selection>, val variables: Map<String, Any?>) {
    companion object {
        /** [operation]'s root, read through its selections with its resolved variables. */
        fun of(operation: Operation<*>): RetainedRoot =
            RetainedRoot(operation.rootTypename, operation.selections, operation.resolvedVariables())
    }
}

/** The marking of [RecordStore.collectGarbage]: each record reached through each field at most once. */
internal fun reachable(roots: List<RetainedRoot>, records: Map<String, Record>): Set<String> {
    val marked = HashSet<String>()
    val visited = HashSet<Pair<String, Any>>()
    val pending = ArrayList<Triple<String, List<Selection>, Map<String, Any?>>>()
    for (root in roots) pending.add(Triple(root.key, root.selections, root.variables))
    while (pending.isNotEmpty()) {
        val (key, selections, variables) = pending.removeAt(pending.size - 1)
        marked.add(key)
        val record = records[key] ?: continue
        if (record.isDeleted) continue
        val stack = ArrayList<List<Selection>>()
        stack.add(selections)
        while (stack.isNotEmpty()) {
            selections@ for (selection in stack.removeAt(stack.size - 1)) {
                when (selection) {
                    is Field<*> -> {
                        if (!selection.isComposite) continue@selections
                        if (selection.conditions.isNotEmpty() && !selection.conditions.all { it.holds(variables) }) continue@selections
                        val slot = record.slots[selection.readKey(variables)] ?: continue@selections
                        val values = ArrayList<StoredValue>()
                        values.add(slot.value)
                        while (values.isNotEmpty()) {
                            when (val value = values.removeAt(values.size - 1)) {
                                is StoredValue.Link -> if (visited.add(Pair(value.key, selection))) {
                                    pending.add(Triple(value.key, selection.selections, variables))
                                }
                                is StoredValue.Items -> values.addAll(value.items)
                                else -> Unit
                            }
                        }
                    }
                    is InlineFragment<*> -> {
                        if (!selection.conditions.all { it.holds(variables) }) continue@selections
                        if (!typeMatches(record.typename, selection.possibleTypes)) continue@selections
                        stack.add(selection.selections)
                    }
                    is FragmentSpread<*> -> {
                        if (!selection.conditions.all { it.holds(variables) }) continue@selections
                        if (!typeMatches(record.typename, selection.possibleTypes)) continue@selections
                        stack.add(selection.selections)
                    }
                }
            }
        }
    }
    return marked
}

/** A store subscription; cancel it when the reader goes away. */
class Subscription internal constructor(private val store: RecordStore, private val id: Int) {
    /** Replaces the watched slots. */
    fun update(slots: Set<SlotId>) = store.updateSubscription(id, slots)

    /** Stops notifications. */
    fun cancel() = store.cancelSubscription(id)
}

/** Clocks: seconds since 1970 as a Double. */
object Clocks {
    /** The system clock. */
    val SYSTEM: () -> Double = { System.currentTimeMillis() / 1000.0 }
}

/** A server's response: `data` (null when absent or not an object) and `errors`. */
class GraphQLResponse(val data: Map<*, *>?, val errors: List<FieldError>) {
    companion object {
        /**
         * Parses a response body. A body that is not a JSON object, or has neither `data` nor `errors`, throws
         * [MalformedResponseException].
         */
        fun parse(text: String): GraphQLResponse {
            val json = try {
                Json.parse(text)
            } catch (error: JsonException) {
                throw MalformedResponseException(error.message ?: "not JSON")
            }
            val response = json as? Map<*, *> ?: throw MalformedResponseException("the response is not a JSON object")
            val data = response["data"] as? Map<*, *>
            val errors = (response["errors"] as? List<*>)?.map { FieldError.fromJson(it) } ?: emptyList()
            if (data == null && errors.isEmpty()) throw MalformedResponseException("the response has neither data nor errors")
            return GraphQLResponse(data, errors)
        }
    }
}
