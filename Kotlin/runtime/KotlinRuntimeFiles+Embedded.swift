// Written by KotlinRuntimeEmbedder from Kotlin/runtime/baton/runtime. Do not edit; after changing a
// .kt file there, run `swift run KotlinRuntimeEmbedder` in the repository's root.

extension KotlinRuntimeFiles {
    /// The runtime's source files, by file name, sorted: each file's text without its final newline.
    package static let sources: [(name: String, text: String)] = [
("Authenticator.kt",
#"""
package baton.runtime

/**
 * Credentials for every HTTP request, refreshed once when the server answers 401 (the Swift runtime's
 * `Authenticator`). [GraphQLHttp] asks for [headers] before each exchange; after a 401 it calls [refresh] with the
 * headers that were rejected and sends the request once more; a second 401 is the failure (`HTTP status 401`).
 * Both are called on the fetch's thread and may block.
 */
interface Authenticator {
    /** The headers that authenticate a request (`Authorization: Bearer …`). */
    fun headers(): Map<String, String>

    /**
     * Called after a 401 to the request sent with [rejected]; the request is then sent again with [headers].
     * Concurrent 401s should share one refresh: compare [rejected] with the current credentials.
     */
    fun refresh(rejected: Map<String, String>)
}

/**
 * A bearer token refreshed by [fetchToken], once for any number of requests rejected with the same token: a 401
 * that arrives while another thread refreshes waits for that refresh and sends with its token.
 */
class BearerTokenAuthenticator(token: String, private val fetchToken: () -> String) : Authenticator {
    private val lock = Any()
    private var token = token
    private var refreshes = 0

    /** How many times the token was refreshed. */
    val refreshCount: Int get() = synchronized(lock) { refreshes }

    override fun headers(): Map<String, String> = synchronized(lock) { mapOf("Authorization" to "Bearer $token") }

    override fun refresh(rejected: Map<String, String>) {
        synchronized(lock) {
            if (rejected["Authorization"] != "Bearer $token") return
            token = fetchToken()
            refreshes++
        }
    }
}
"""#),
("BatonEnvironment.kt",
#"""
package baton.runtime

import java.io.File
import java.util.Locale
import java.util.concurrent.Executor
import java.util.concurrent.Executors
import java.util.concurrent.RejectedExecutionException
import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.ReentrantLock

/**
 * The client: a store, a transport and a log. It fetches, commits, logs, heals and revalidates, with the Swift
 * runtime's events and payloads.
 *
 * Views [attach] handles; one-off reads use [fetch]. Handles fetch on [executor] (by default a pool of daemon
 * threads); [settle] waits until every fetch the environment started, and the heals they cause, is done.
 * [clock] measures ages in seconds since 1970 (inject one in tests). A query is sent again after a transient
 * transport failure as [retryPolicy] allows (mutations never are); subscriptions go to [subscriptionTransport].
 */
class BatonEnvironment(
    val transport: Transport,
    val log: EventLog = MemoryLog(),
    val clock: () -> Double = Clocks.SYSTEM,
    store: RecordStore? = null,
    executor: Executor? = null,
    /** When a query is sent again after a transport failure (mutations never are). */
    val retryPolicy: RetryPolicy = RetryPolicy.STANDARD,
    /** Where subscriptions go (null: [subscribe] fails at once). */
    val subscriptionTransport: SubscriptionTransport? = null,
    /** When unreachable records are collected, and how many recent operations stay reachable. */
    val garbageCollection: GarbageCollection = GarbageCollection.STANDARD
) {
    /** The store (a new one on [clock] unless given). */
    val store: RecordStore = store ?: RecordStore(clock)

    private val executor: Executor = executor ?: Executors.newCachedThreadPool { work ->
        Thread(work, "baton-fetch").apply { isDaemon = true }
    }
    private val lock = Any()
    private val handles = LinkedHashMap<Int, WeakHandle>()
    private var nextHandle = 0
    private val invalidatedOperations = HashSet<OperationIdentity>()
    private val tasks = ReentrantLock()
    private val idle = tasks.newCondition()
    private var inFlight = 0

    /** Retained and recent roots (Retention.kt), and paginations shared per connection (Pagination.kt). */
    internal val retention = RetentionState()
    internal val paginations = HashMap<String, java.lang.ref.WeakReference<Any>>()

    private class WeakHandle(handle: Handle<*>) {
        val reference = java.lang.ref.WeakReference(handle)
    }

    /** Attaches a handle for [operation] under [policy]; [expiration] (seconds) overrides the operation's. */
    fun <D : Any> attach(
        operation: Operation<D>, policy: FetchPolicy = FetchPolicy.STORE_OR_NETWORK, expiration: Double? = null
    ): Handle<D> {
        val handle = Handle(operation, policy, expiration ?: operation.expiration, this)
        synchronized(lock) { handles[nextHandle++] = WeakHandle(handle) }
        handle.start()
        return handle
    }

    internal fun detach(handle: Handle<*>) {
        synchronized(lock) {
            val iterator = handles.values.iterator()
            while (iterator.hasNext()) {
                val held = iterator.next().reference.get()
                if (held == null || held === handle) iterator.remove()
            }
        }
        release(RetainedRoot.of(handle.operation))
    }

    internal val attachedHandles: List<Handle<*>>
        get() = synchronized(lock) {
            val live = ArrayList<Handle<*>>()
            val iterator = handles.values.iterator()
            while (iterator.hasNext()) {
                val handle = iterator.next().reference.get()
                if (handle == null) iterator.remove() else live.add(handle)
            }
            live
        }

    /**
     * Fetches [operation] on the calling thread (call it off the main thread), commits the answer and reads its
     * data. Logs `fetchStarted`, `committed`, `fetchCompleted` or `fetchFailed` (`fetchCancelled` when
     * [cancellation] was cancelled meanwhile, and then nothing is committed); throws [FetchException].
     * [headers] go with this request alone, over the transport's.
     */
    fun <D : Any> fetch(
        operation: Operation<D>, headers: Map<String, String> = emptyMap(), cancellation: Cancellation = Cancellation()
    ): D {
        send(operation, {}, {}, headers, cancellation)
        keepRecent(RetainedRoot.of(operation))
        try {
            return store.read(operation, LoggingReporter(log))
        } catch (error: RequiredFieldException) {
            throw FetchException(FetchError.Read(error))
        } catch (error: FieldErrorsException) {
            throw FetchException(FetchError.Read(error))
        }
    }

    /** The fetch pipeline shared by [fetch] and handles. */
    internal fun send(
        operation: Operation<*>, beforeDelivery: () -> Unit, afterDelivery: () -> Unit,
        headers: Map<String, String> = emptyMap(), cancellation: Cancellation = Cancellation(),
        replacing: Int? = null
    ) {
        val name = operation.operationName
        log.record(LogEvent("fetchStarted", linkedMapOf<String, Any?>("operation" to name)))
        try {
            val body = receive(GraphQLRequest(operation, headers, cancellation))
            if (cancellation.isCancelled) throw FetchException(FetchError.Transport(TransportException.CANCELLED))
            val (result, deliver) = try {
                store.commitDeferringNotifications(operation, String(body, Charsets.UTF_8), replacing)
            } catch (error: MalformedResponseException) {
                throw FetchException(FetchError.MalformedResponse(error.reason))
            } catch (error: RequestFailedException) {
                throw FetchException(FetchError.Request(error.errors.errors))
            }
            log.record(LogEvent("committed", linkedMapOf<String, Any?>("kind" to "server", "changed" to result.changed.size)))
            beforeDelivery()
            try {
                deliver()
            } finally {
                afterDelivery()
            }
            synchronized(lock) { invalidatedOperations.remove(OperationIdentity.of(operation)) }
        } catch (error: FetchException) {
            val cancelled = error.error == FetchError.Transport(TransportException.CANCELLED)
            log.record(
                LogEvent(
                    if (cancelled) "fetchCancelled" else "fetchFailed",
                    linkedMapOf<String, Any?>("operation" to name, "error" to error.error.payload)
                )
            )
            throw error
        }
        log.record(LogEvent("fetchCompleted", linkedMapOf<String, Any?>("operation" to name)))
    }

    /**
     * Sends [request] through the transport, again after a transient failure of a query as [retryPolicy] allows
     * (logging `retry`); a wait ends at once when the request is cancelled. A failure that ends it is a
     * [FetchError.Transport].
     */
    private fun receive(request: GraphQLRequest): ByteArray {
        var retry = 0
        while (true) {
            try {
                return transport.send(request)
            } catch (error: Exception) {
                val cancelled = request.cancellation.isCancelled
                val failure = error as? TransportException
                retry++
                val delay = if (cancelled || failure == null || request.operationType != "query") null else {
                    retryPolicy.delay(retry, failure)
                }
                if (delay == null) {
                    val reason = if (cancelled) TransportException.CANCELLED else error.message ?: error.javaClass.simpleName
                    throw FetchException(FetchError.Transport(reason))
                }
                log.record(
                    LogEvent(
                        "retry",
                        linkedMapOf<String, Any?>(
                            "operation" to request.operationName, "attempt" to retry,
                            "delay" to JsonNumber(String.format(Locale.ROOT, "%.3f", delay)), "error" to error.message
                        )
                    )
                )
                if (request.cancellation.await(Math.round(delay * 1000))) {
                    throw FetchException(FetchError.Transport(TransportException.CANCELLED))
                }
            }
        }
    }

    /** Runs [work] on the executor as a tracked task, so [settle] can wait for it. */
    internal fun track(work: () -> Unit) {
        tasks.lock()
        try {
            inFlight++
        } finally {
            tasks.unlock()
        }
        try {
            executor.execute {
                try {
                    work()
                } finally {
                    finish()
                }
            }
        } catch (error: RejectedExecutionException) {
            finish()
            throw error
        }
    }

    private fun finish() {
        tasks.lock()
        try {
            inFlight--
            if (inFlight == 0) idle.signalAll()
        } finally {
            tasks.unlock()
        }
    }

    /**
     * Waits until no fetch the environment started (including heals and refetches they cause) is running;
     * returns false when [timeoutMillis] (0: no limit) passed first.
     */
    fun settle(timeoutMillis: Long = 0): Boolean {
        tasks.lock()
        try {
            var remaining = TimeUnit.MILLISECONDS.toNanos(timeoutMillis)
            while (inFlight > 0) {
                if (timeoutMillis <= 0) {
                    idle.await()
                } else {
                    if (remaining <= 0) return false
                    remaining = idle.awaitNanos(remaining)
                }
            }
            return true
        } finally {
            tasks.unlock()
        }
    }

    /** Marks the record [key] stale. */
    fun invalidateRecord(key: String) {
        val count = store.invalidate { candidate, _ -> candidate == key }
        log.record(LogEvent("invalidated", linkedMapOf<String, Any?>("record" to key, "records" to count)))
        notifyStalenessChanged()
    }

    /** Marks every record of the type [typename] stale. */
    fun invalidateType(typename: String) {
        val count = store.invalidate { _, record -> record.typename == typename }
        log.record(LogEvent("invalidated", linkedMapOf<String, Any?>("type" to typename, "records" to count)))
        notifyStalenessChanged()
    }

    /** Marks [operation] (with its variables) stale until it is fetched again. */
    fun invalidate(operation: Operation<*>) {
        val identity = OperationIdentity.of(operation)
        synchronized(lock) { invalidatedOperations.add(identity) }
        log.record(
            LogEvent("invalidated", linkedMapOf<String, Any?>("operation" to identity.name, "variables" to identity.variables))
        )
        notifyStalenessChanged()
    }

    internal fun isInvalidated(identity: OperationIdentity): Boolean =
        synchronized(lock) { identity in invalidatedOperations }

    private fun notifyStalenessChanged() {
        for (handle in attachedHandles) handle.stalenessChanged()
    }

    /** Refetches every attached handle whose data went stale (call it when the app returns to the foreground). */
    fun revalidate() {
        for (handle in attachedHandles) if (handle.isStale) handle.refetch("stale")
    }

    /** Saves the store to an image file (atomically) and logs `imageSaved`. Throws [ImageException]. */
    fun saveImage(file: File) {
        val count = StoreImage.save(store, file, store.reachableRecords(retainedRoots))
        log.record(LogEvent("imageSaved", linkedMapOf<String, Any?>("records" to count)))
    }

    /**
     * Loads the store from an image file. A missing file leaves the store empty quietly; a corrupt, truncated or
     * future-version image is logged as `imageRejected` and the store starts empty. Returns whether it loaded.
     */
    fun loadImage(file: File): Boolean {
        return try {
            val count = StoreImage.load(store, file)
            log.record(LogEvent("imageLoaded", linkedMapOf<String, Any?>("records" to count)))
            true
        } catch (error: ImageException) {
            if (error.kind != ImageException.Kind.ABSENT) {
                log.record(LogEvent("imageRejected", linkedMapOf<String, Any?>("reason" to error.message)))
            }
            false
        }
    }
}
"""#),
("Cancellation.kt",
#"""
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
"""#),
("ConnectionId.kt",
#"""
package baton.runtime

/**
 * A connection record's identity: what `@connection(key:filters:)` keeps one record for, per parent record, key
 * and filter values, whatever the paging arguments. A view reads it from the connection's lens
 * (`issue.comments.connectionID`) and passes it to a mutation's `connections`. It is the connection record's key,
 * the Swift runtime's `ConnectionID`: `Repository:1.__connection:RepositoryIssues_issues({"states":["OPEN"]})`.
 */
data class ConnectionId(val recordKey: String) : Comparable<ConnectionId> {
    override fun toString(): String = recordKey

    override fun compareTo(other: ConnectionId): Int = recordKey.compareTo(other.recordKey)

    companion object {
        /** The connection of [key] on the record [parent], for these filter values (those the field was given). */
        fun of(parent: String, key: String, filters: Map<String, Any?> = emptyMap()): ConnectionId {
            val slot = if (filters.isEmpty()) "__connection:$key" else
                "__connection:$key(" + Json.write(filters, sortKeys = true) + ")"
            return ConnectionId("$parent.$slot")
        }
    }
}
"""#),
("Connections.kt",
#"""
package baton.runtime

/** A field's `@connection`: its key and the arguments that are its filters (sorted), as generated code declares it. */
class ConnectionSpec(val key: String, filters: List<String> = emptyList()) {
    val filters: List<String> = filters.sorted()
}

/**
 * A declarative update a mutation's (or subscription's) response field carries, applied to the store inside the
 * response's batch. [connections] is the `connections:` argument (usually a [Variable]).
 */
class RecordUpdate(
    val kind: Kind,
    val connections: Any? = null,
    val edgeTypename: String? = null,
    val typename: String? = null
) {
    enum class Kind { APPEND_EDGE, PREPEND_EDGE, APPEND_NODE, PREPEND_NODE, DELETE_RECORD, DELETE_EDGE }
}

/** A `@connection` page or a declarative update the normalizer noted: the field and the slot it was written to. */
internal class ConnectionWrite(val field: Field<*>, val parent: String, val storageKey: String)

/**
 * Applies a write's connection pages and declarative updates to a table of records, as the Swift runtime's
 * `ConnectionWrites` does (the same rules, the same keys and slots): pages merge into `parent.__connection:KEY`,
 * after the end cursor appended, before the start cursor prepended, from the start replacing, without an edge whose
 * node or cursor is shown; updates copy, make, remove edges and delete records.
 */
internal class ConnectionTable(val records: HashMap<String, Record>, private val now: Double) {
    val changed = HashSet<SlotId>()

    private fun slot(key: String, storageKey: String): Slot? = records[key]?.slots?.get(storageKey)

    private fun link(key: String, storageKey: String): String? = (slot(key, storageKey)?.value as? StoredValue.Link)?.key

    private fun text(key: String, storageKey: String): String? = (slot(key, storageKey)?.value as? StoredValue.Text)?.text

    private fun edges(key: String): List<StoredValue>? = (slot(key, EDGES)?.value as? StoredValue.Items)?.items

    private fun nodeOf(edge: StoredValue): String? = (edge as? StoredValue.Link)?.let { link(it.key, NODE) }

    private fun cursorOf(edge: StoredValue): String? = (edge as? StoredValue.Link)?.let { text(it.key, CURSOR) }

    /** Sets one slot, making the record when it is new; a change is noted. */
    fun set(slot: Slot, storageKey: String, key: String, typename: String?) {
        val old = records[key]
        val slots = HashMap(old?.slots ?: emptyMap())
        val previous = slots.put(storageKey, slot)
        records[key] = Record(old?.typename ?: typename, slots, now, old?.invalidated ?: false, old?.isDeleted ?: false)
        if (previous != slot) changed.add(SlotId(key, storageKey))
    }

    fun apply(writes: List<ConnectionWrite>, variables: Map<String, Any?>, connections: MutableSet<String>) {
        for (write in writes) {
            if (write.field.connection != null) mergePage(write, variables, connections)
            val update = write.field.update
            if (update != null) apply(update, write, variables, connections)
        }
    }

    private fun mergePage(write: ConnectionWrite, variables: Map<String, Any?>, connections: MutableSet<String>) {
        val pageSlot = slot(write.parent, write.storageKey) ?: return
        val connectionSlot = write.field.readKey(variables)
        val id = write.parent + "." + connectionSlot
        val after = argument(write.field, "after", variables) as? String
        val before = argument(write.field, "before", variables) as? String
        val paging = after != null || before != null
        val pageKey = (pageSlot.value as? StoredValue.Link)?.key
        val page = pageKey?.let { records[it] }
        if (page == null) {
            if (!paging) set(pageSlot, connectionSlot, write.parent, records[write.parent]?.typename)
            return
        }
        if (records[id]?.isDeleted == true) records.remove(id)
        val existing = records[id]
        if (existing == null) connections.add(id)
        for ((storageKey, value) in page.slots) {
            if (storageKey != EDGES && storageKey != PAGE_INFO) set(value, storageKey, id, page.typename)
        }
        val serverEdges = page.slots[EDGES]
        val serverPageInfo = page.slots[PAGE_INFO]
        val pageInfoKey = "$id.$PAGE_INFO"
        val previous = if (existing != null) slot(id, EDGES) else null
        var pageInfoFields: List<String>? = null
        val merged: Slot? = when {
            existing == null || previous == null || !paging -> serverEdges ?: previous
            after != null -> {
                if (after != text(pageInfoKey, "endCursor")) return
                pageInfoFields = listOf("hasNextPage", "endCursor")
                merged(previous, serverEdges, serverFirst = false)
            }
            else -> {
                if (before != text(pageInfoKey, "startCursor")) return
                pageInfoFields = listOf("hasPreviousPage", "startCursor")
                merged(previous, serverEdges, serverFirst = true)
            }
        }
        if (merged != null) set(merged, EDGES, id, page.typename)
        val serverInfo = (serverPageInfo?.value as? StoredValue.Link)?.let { records[it.key] }
        if (serverInfo != null) {
            if (records[pageInfoKey] == null || existing == null) {
                for (name in listOf("hasNextPage", "hasPreviousPage")) {
                    set(Slot(StoredValue.Bool(false)), name, pageInfoKey, serverInfo.typename)
                }
                for (name in listOf("startCursor", "endCursor")) set(Slot(StoredValue.Null), name, pageInfoKey, serverInfo.typename)
            }
            for ((name, value) in serverInfo.slots) {
                val fields = pageInfoFields
                if (fields != null && name !in fields) continue
                if (fields != null && name.endsWith("Cursor") && value.value is StoredValue.Null) continue
                set(value, name, pageInfoKey, serverInfo.typename)
            }
            set(Slot(StoredValue.Link(pageInfoKey), serverPageInfo.errors), PAGE_INFO, id, page.typename)
        } else if (serverPageInfo != null && (existing == null || !paging)) {
            set(serverPageInfo, PAGE_INFO, id, page.typename)
        }
        set(Slot(StoredValue.Link(id), pageSlot.errors), connectionSlot, write.parent, records[write.parent]?.typename)
    }

    private fun merged(previous: Slot?, page: Slot?, serverFirst: Boolean): Slot? {
        if (page == null) return previous
        val old = (previous?.value as? StoredValue.Items)?.items ?: emptyList()
        val new = (page.value as? StoredValue.Items)?.items ?: emptyList()
        val nodes = HashSet<String>()
        val cursors = HashSet<String>()
        val result = ArrayList<StoredValue>(old.size + new.size)
        for (edge in if (serverFirst) new + old else old + new) {
            if (edge !is StoredValue.Link) continue
            val node = nodeOf(edge)
            if (node != null && !nodes.add(node)) continue
            val cursor = cursorOf(edge)
            if (cursor != null && !cursors.add(cursor)) continue
            result.add(edge)
        }
        return Slot(StoredValue.Items(result), (previous?.errors ?: emptyList()) + page.errors)
    }

    private fun apply(update: RecordUpdate, write: ConnectionWrite, variables: Map<String, Any?>, connections: Set<String>) {
        val value = slot(write.parent, write.storageKey)?.value ?: return
        val targets: List<String> = when (val resolved = resolve(update.connections, variables)) {
            is List<*> -> resolved.filterIsInstance<String>()
            is String -> listOf(resolved)
            else -> emptyList()
        }
        when (update.kind) {
            RecordUpdate.Kind.APPEND_EDGE, RecordUpdate.Kind.PREPEND_EDGE ->
                for (edge in links(value)) for (target in targets) {
                    insertCopy(edge, target, update.kind == RecordUpdate.Kind.APPEND_EDGE)
                }
            RecordUpdate.Kind.APPEND_NODE, RecordUpdate.Kind.PREPEND_NODE ->
                for (node in links(value)) for (target in targets) {
                    insertNode(node, update.edgeTypename, target, update.kind == RecordUpdate.Kind.APPEND_NODE)
                }
            RecordUpdate.Kind.DELETE_EDGE -> {
                val ids = strings(value).toSet()
                for (target in targets) removeEdges(target) { node -> identifier(node) in ids }
            }
            RecordUpdate.Kind.DELETE_RECORD -> {
                val ids = strings(value).toSet()
                if (ids.isEmpty()) return
                val keys = recordKeys(ids, update.typename)
                for (key in keys) delete(key)
                for (target in connections) removeEdges(target) { it in keys }
            }
        }
    }

    private fun links(value: StoredValue): List<String> = when (value) {
        is StoredValue.Link -> listOf(value.key)
        is StoredValue.Items -> value.items.flatMap { links(it) }
        else -> emptyList()
    }

    private fun strings(value: StoredValue): List<String> = when (value) {
        is StoredValue.Text -> listOf(value.text)
        is StoredValue.Number -> listOf(value.literal)
        is StoredValue.Items -> value.items.flatMap { strings(it) }
        else -> emptyList()
    }

    private fun identifier(key: String): String? = text(key, "id") ?: keyIdentifier(key)

    private fun recordKeys(ids: Set<String>, typename: String?): Set<String> =
        if (typename != null) ids.map { "$typename:$it" }.filter { records.containsKey(it) }.toSet()
        else records.keys.filter { key -> keyIdentifier(key)?.let { it in ids } ?: false }.toSet()

    private fun connection(id: String): Record? {
        val record = records[id] ?: return null
        return if (record.isDeleted || !record.slots.containsKey(EDGES)) null else record
    }

    private fun newEdgeKey(id: String): String {
        var index = (slot(id, NEXT_EDGE)?.value as? StoredValue.Number)?.literal?.toIntOrNull() ?: 0
        while (records.containsKey("$id.edges.$index")) index++
        set(Slot(StoredValue.Number((index + 1).toString())), NEXT_EDGE, id, null)
        return "$id.edges.$index"
    }

    private fun insertCopy(edge: String, id: String, atEnd: Boolean) {
        if (connection(id) == null) return
        val source = records[edge] ?: return
        val node = link(edge, NODE)
        if (node != null && (edges(id) ?: emptyList()).any { nodeOf(it) == node }) return
        val key = newEdgeKey(id)
        for ((name, value) in source.slots) set(value, name, key, source.typename)
        insert(StoredValue.Link(key), id, atEnd)
    }

    private fun insertNode(node: String, typename: String?, id: String, atEnd: Boolean) {
        if (connection(id) == null) return
        if ((edges(id) ?: emptyList()).any { nodeOf(it) == node }) return
        val key = newEdgeKey(id)
        set(Slot(StoredValue.Link(node)), NODE, key, typename)
        set(Slot(StoredValue.Null), CURSOR, key, typename)
        insert(StoredValue.Link(key), id, atEnd)
    }

    private fun insert(edge: StoredValue, id: String, atEnd: Boolean) {
        val old = slot(id, EDGES)
        val items = ArrayList(edges(id) ?: emptyList())
        if (atEnd) items.add(edge) else items.add(0, edge)
        set(Slot(StoredValue.Items(items), old?.errors ?: emptyList()), EDGES, id, null)
    }

    private fun removeEdges(id: String, matches: (String) -> Boolean) {
        if (connection(id) == null) return
        val items = edges(id) ?: return
        val kept = items.filter { edge -> nodeOf(edge)?.let { !matches(it) } ?: true }
        if (kept.size == items.size) return
        set(Slot(StoredValue.Items(kept), slot(id, EDGES)?.errors ?: emptyList()), EDGES, id, null)
    }

    /** Empties a record and marks it deleted; every slot it had changed. */
    private fun delete(key: String) {
        val record = records[key] ?: return
        if (record.isDeleted) return
        for (storageKey in record.slots.keys) changed.add(SlotId(key, storageKey))
        records[key] = Record(record.typename, emptyMap(), now, record.invalidated, true)
    }

    companion object {
        const val EDGES = "edges"
        const val NODE = "node"
        const val CURSOR = "cursor"
        const val PAGE_INFO = "pageInfo"
        const val NEXT_EDGE = "__nextEdge"

        /** The ID of a key of the form `Type:ID`. */
        fun keyIdentifier(key: String): String? {
            val colon = key.indexOf(':')
            if (colon < 0 || key.substring(0, colon).contains('.')) return null
            return key.substring(colon + 1)
        }

        private fun argument(field: Field<*>, name: String, variables: Map<String, Any?>): Any? =
            if (!field.arguments.containsKey(name)) null else resolve(field.arguments[name], variables)

        fun resolve(value: Any?, variables: Map<String, Any?>): Any? = when (value) {
            is Variable -> variables[value.name]
            is List<*> -> value.map { resolve(it, variables) }
            else -> value
        }
    }
}
"""#),
("FieldError.kt",
#"""
package baton.runtime

/** One step of a response path: a response key or a list index. */
sealed class PathComponent {
    /** A response key (a field's alias or name). */
    data class Key(val name: String) : PathComponent() {
        override fun toString(): String = name
    }

    /** A position in a list. */
    data class Index(val index: Int) : PathComponent() {
        override fun toString(): String = index.toString()
    }
}

/** A path as dotted text: `character.location.name`. */
fun pathText(path: List<PathComponent>): String = path.joinToString(".")

/**
 * A GraphQL error as the server wrote it: its message, path, locations and extensions.
 *
 * Stored beside the field its path names (a field error), so a read from the store sees the error the
 * network read saw; or carried by a failed request.
 */
data class FieldError(
    val message: String,
    val path: List<PathComponent>? = null,
    val locations: List<Location> = emptyList(),
    val extensions: Map<String, Any?>? = null
) {
    /** A line and column in the operation's document. */
    data class Location(val line: Int, val column: Int)

    /** The message, then the path when there is one: `image service unavailable (at character.image)`. */
    override fun toString(): String = if (path == null) message else "$message (at ${pathText(path)})"

    companion object {
        /** Reads an entry of a response's `errors`; a malformed entry keeps what can be read. */
        fun fromJson(json: Any?): FieldError {
            val entry = json as? Map<*, *> ?: return FieldError("(malformed error)")
            val message = entry["message"] as? String ?: "(error without a message)"
            val path = (entry["path"] as? List<*>)?.mapNotNull { item ->
                when (item) {
                    is String -> PathComponent.Key(item)
                    is JsonNumber -> item.literal.toIntOrNull()?.let { PathComponent.Index(it) }
                    else -> null
                }
            }
            val locations = (entry["locations"] as? List<*>)?.mapNotNull { item ->
                val location = item as? Map<*, *>
                val line = (location?.get("line") as? JsonNumber)?.literal?.toIntOrNull()
                val column = (location?.get("column") as? JsonNumber)?.literal?.toIntOrNull()
                if (line != null && column != null) Location(line, column) else null
            } ?: emptyList()
            @Suppress("UNCHECKED_CAST")
            val extensions = entry["extensions"] as? Map<String, Any?>
            return FieldError(message, path, locations, extensions)
        }
    }

    /** The error as a response's `errors` entry: `message`, then `path`, `locations` and `extensions` when set. */
    fun toJson(): Map<String, Any?> {
        val entry = LinkedHashMap<String, Any?>()
        entry["message"] = message
        if (path != null) {
            entry["path"] = path.map<PathComponent, Any> { component ->
                when (component) {
                    is PathComponent.Key -> component.name
                    is PathComponent.Index -> JsonNumber(component.index.toString())
                }
            }
        }
        if (locations.isNotEmpty()) {
            entry["locations"] = locations.map {
                linkedMapOf<String, Any?>("line" to JsonNumber(it.line.toString()), "column" to JsonNumber(it.column.toString()))
            }
        }
        if (extensions != null) entry["extensions"] = extensions
        return entry
    }
}

/** The field errors a read under `@catch` or `@throwOnFieldError` reports. */
data class FieldErrors(val errors: List<FieldError>) {
    /** The messages joined by "; ". */
    override fun toString(): String = errors.joinToString("; ") { it.message }
}

/**
 * What a field read under `@catch` gives: [Success] with the value (keeping the field's own optionality) or
 * [Failure] with the field errors that occurred there.
 */
sealed class FieldResult<out T> {
    /** The field was read; [value] is `null` only where the schema allows null. */
    data class Success<out T>(val value: T) : FieldResult<T>()

    /** The server could not resolve the field (or a field inside it); [errors] says why. */
    data class Failure(val errors: FieldErrors) : FieldResult<Nothing>()

    /** The value, or `null` on failure. */
    fun getOrNull(): T? = when (this) {
        is Success -> value
        is Failure -> null
    }

    /** The errors, or `null` on success. */
    fun errorsOrNull(): FieldErrors? = when (this) {
        is Success -> null
        is Failure -> errors
    }
}

/**
 * A field under `@required(action: THROW)` read null, or a `@required` null reached an operation's root.
 *
 * [path] names the first required field that was null.
 */
class RequiredFieldException(val path: List<PathComponent>) :
    RuntimeException("required field ${pathText(path)} is null")

/** A read under `@throwOnFieldError` met field errors no `@catch` handled. */
class FieldErrorsException(val errors: FieldErrors) : RuntimeException("field errors: $errors")

/** A response with `errors` and no `data`: the request failed as a whole and nothing was committed. */
class RequestFailedException(val errors: FieldErrors) : RuntimeException("request failed: $errors")
"""#),
("GraphQLHttp.kt",
#"""
package baton.runtime

import java.io.ByteArrayOutputStream
import java.io.IOException
import java.io.InputStream
import java.net.URLEncoder
import java.text.SimpleDateFormat
import java.util.Locale
import java.util.TimeZone
import java.util.concurrent.ScheduledThreadPoolExecutor
import java.util.concurrent.ThreadFactory
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/** How queries travel over HTTP; mutations and subscriptions always POST. */
enum class HttpMethod {
    /** Every request is a POST of JSON. */
    POST,

    /** Queries are GETs with the request in the URL (`?query=&variables=&operationName=`), so a CDN can cache them. */
    GET_FOR_QUERIES
}

/** Whether the document goes with a request. */
enum class PersistedQueries {
    /** Send the document (the default). */
    OFF,

    /** Send only the persisted id (the server knows every operation from `baton gen`'s manifest); never the document. */
    PERSISTED_ONLY,

    /** Send the id; send the document with it only when the server answers `PersistedQueryNotFound`. */
    AUTOMATIC
}

/** One HTTP request as GraphQL over HTTP spells a GraphQL request: what an HTTP client sends. */
class HttpRequest(
    /** `GET` or `POST`. */
    val method: String,
    val url: String,
    /** In the order they are set: `Accept`, `Content-Type` (a POST), the transport's, the authenticator's, the request's own. */
    val headers: Map<String, String>,
    /** The JSON body of a POST; null for a GET. */
    val body: ByteArray?
)

/**
 * What the server answered, as an HTTP client hands it over: the status, the headers (by name; looked up ignoring
 * case), the declared body length (-1 when unknown) and the body as a stream, which [GraphQLHttp] reads up to its
 * limit and closes.
 */
class HttpResponse(val status: Int, headers: Map<String, String>, val contentLength: Long, val body: InputStream?) {
    private val byName: Map<String, String> = headers.entries.associate { asciiLowercase(it.key) to it.value }

    /** A header's value, ignoring the case of its name. */
    fun header(name: String): String? = byName[asciiLowercase(name)]
}

/**
 * One HTTP exchange an HTTP client runs for [GraphQLHttp]: [execute] sends the request and returns the response
 * head with the body's stream; [abort] may be called from another thread at any moment (the deadline, a
 * cancellation), and then [execute], or the body's read, fails; [close] ends the exchange after the body was read
 * or the exchange failed.
 */
interface HttpExchange {
    @Throws(IOException::class)
    fun execute(): HttpResponse

    fun abort()

    fun close()
}

/** A whole answer: the status, the headers and the body, read under the limit. */
class HttpReply(val status: Int, val body: ByteArray, private val response: HttpResponse? = null) {
    /** A header's value, ignoring the case of its name. */
    fun header(name: String): String? = response?.header(name)
}

/**
 * GraphQL over HTTP, whichever client carries the bytes ([HttpTransport]'s `HttpURLConnection`, the OkHttp
 * adapter): the decisions the Swift runtime's `HTTPTransport` and `HTTPSession` make, made once for every Kotlin
 * transport.
 *
 * Queries may go as GET ([HttpMethod.GET_FOR_QUERIES]: the request's members in the URL, or only the persisted id,
 * so a CDN can cache them); mutations and subscriptions always POST. Headers are the transport's, then the
 * [authenticator]'s, then the request's own; after a 401 the authenticator refreshes once and the request is sent
 * again, and a second 401 is the failure. With [PersistedQueries.PERSISTED_ONLY] only the id is sent, and a
 * `PersistedQueryNotFound` answer fails (`the server has no persisted query <id>`); with [PersistedQueries.AUTOMATIC]
 * the id is sent first and the document only after that answer. Each exchange ends within [timeoutMillis], from
 * sending to the last byte (`timed out after 30 s`; an HTTP client's own timeouts are idle timeouts), and when the
 * request's [Cancellation] is cancelled (`cancelled`); the body is read up to [maxResponseBytes], refused as soon as
 * its declared length or its bytes pass it (`response larger than N bytes`). A status outside 200…299 with a GraphQL
 * body is that body (GraphQL over HTTP carries request errors in 4xx); without one it is
 * [TransportException.httpStatus] with the server's `Retry-After`. Retries are the environment's ([RetryPolicy]),
 * which knows whether the operation is a query.
 */
class GraphQLHttp @JvmOverloads constructor(
    val url: String,
    val headers: Map<String, String> = emptyMap(),
    val method: HttpMethod = HttpMethod.POST,
    val persistedQueries: PersistedQueries = PersistedQueries.OFF,
    /** Milliseconds for one whole exchange. */
    val timeoutMillis: Long = 30000,
    /** The largest body read, in bytes. */
    val maxResponseBytes: Long = 32L shl 20,
    /** Adds credentials to every request and refreshes them once after a 401. */
    val authenticator: Authenticator? = null
) {
    /** The HTTP request for [request], sending the document or not (for tests and for apps that sign requests). */
    @JvmOverloads
    fun request(
        request: GraphQLRequest, sendingDocument: Boolean, credentials: Map<String, String> = emptyMap()
    ): HttpRequest {
        val persistedId = if (persistedQueries == PersistedQueries.OFF) null else request.operationId
        val all = LinkedHashMap<String, String>()
        all["Accept"] = "application/graphql-response+json, application/json"
        val asGet = method == HttpMethod.GET_FOR_QUERIES && request.operationType == "query"
        if (!asGet) all["Content-Type"] = "application/json"
        all.putAll(headers)
        all.putAll(credentials)
        all.putAll(request.headers)
        if (!asGet) {
            val body = request.body(sendingDocument, persistedId).toByteArray(Charsets.UTF_8)
            return HttpRequest("POST", url, all, body)
        }
        val query = StringBuilder()
        for ((name, value) in request.fields(sendingDocument, persistedId)) {
            if (query.isNotEmpty()) query.append('&')
            query.append(encode(name)).append('=').append(encode(value as? String ?: Json.write(value)))
        }
        val fragment = url.indexOf('#')
        val base = if (fragment < 0) url else url.substring(0, fragment)
        val separator = if (!base.contains('?')) "?" else if (base.endsWith('?') || base.endsWith('&')) "" else "&"
        return HttpRequest("GET", base + separator + query, all, null)
    }

    /**
     * Sends [request] through [open] (the HTTP client's exchange for one HTTP request) as many times as
     * authentication and the persisted-query protocol need, and returns the body of the answer. Throws
     * [TransportException].
     */
    fun send(request: GraphQLRequest, open: (HttpRequest) -> HttpExchange): ByteArray {
        val id = request.operationId
        if (persistedQueries != PersistedQueries.OFF && id == null) {
            throw TransportException("${request.operationName} has no persisted id (generate it with baton gen)")
        }
        var sendingDocument = persistedQueries == PersistedQueries.OFF
        var refreshed = false
        while (true) {
            val credentials = authenticator?.headers() ?: emptyMap()
            val reply = exchange(open(request(request, sendingDocument, credentials)), request.cancellation)
            if (reply.status == 401 && authenticator != null && !refreshed) {
                refreshed = true
                authenticator.refresh(credentials)
                continue
            }
            if (!sendingDocument && isPersistedQueryNotFound(reply.body)) {
                if (persistedQueries != PersistedQueries.AUTOMATIC) {
                    throw TransportException(
                        "the server has no persisted query $id", null, TransportException.Kind.PERSISTED_QUERY_NOT_FOUND
                    )
                }
                sendingDocument = true
                continue
            }
            if (reply.status in 200..299 || isGraphQLResponse(reply.body)) return reply.body
            throw TransportException.httpStatus(reply.status, retryAfter(reply.header("Retry-After")))
        }
    }

    /** One exchange under the deadline and the cancellation, its body read under the limit. */
    private fun exchange(exchange: HttpExchange, cancellation: Cancellation): HttpReply {
        if (cancellation.isCancelled) throw TransportException.cancelled()
        // The first of the deadline and the cancellation to come aborts the exchange and names its failure.
        val ended = AtomicInteger(RUNNING)
        val cancelled = cancellation.onCancel { if (ended.compareAndSet(RUNNING, CANCELLED)) exchange.abort() }
        val deadline = timer.schedule(
            Runnable { if (ended.compareAndSet(RUNNING, TIMED_OUT)) exchange.abort() }, timeoutMillis, TimeUnit.MILLISECONDS
        )
        try {
            val response = exchange.execute()
            val body = read(response, exchange)
            if (ended.get() == CANCELLED) throw TransportException.cancelled()
            return HttpReply(response.status, body, response)
        } catch (error: TransportException) {
            throw error
        } catch (error: Exception) {
            throw when (ended.get()) {
                TIMED_OUT -> TransportException.timedOut(timeoutMillis / 1000.0)
                CANCELLED -> TransportException.cancelled()
                else -> TransportException.network(error.message ?: error.javaClass.simpleName, error)
            }
        } finally {
            deadline.cancel(false)
            cancelled.cancel()
            exchange.close()
        }
    }

    /**
     * The body, up to [maxResponseBytes]: a longer one aborts the exchange without reading the rest; one shorter than
     * its declared length is a network failure.
     */
    private fun read(response: HttpResponse, exchange: HttpExchange): ByteArray {
        val stream = response.body ?: return ByteArray(0)
        try {
            if (response.contentLength > maxResponseBytes) {
                exchange.abort()
                throw TransportException.tooLarge(maxResponseBytes)
            }
            val expected = response.contentLength
            val out = ByteArrayOutputStream(if (expected in 1..maxResponseBytes) expected.toInt() else 16384)
            val buffer = ByteArray(16384)
            var total = 0L
            while (true) {
                val count = stream.read(buffer)
                if (count < 0) break
                total += count
                if (total > maxResponseBytes) {
                    exchange.abort()
                    throw TransportException.tooLarge(maxResponseBytes)
                }
                out.write(buffer, 0, count)
            }
            // HttpURLConnection ends a body the server cut short without an error: a truncated body is a network failure.
            if (expected >= 0 && total < expected) throw TransportException.network("the body ended after $total of $expected bytes")
            return out.toByteArray()
        } finally {
            try {
                stream.close()
            } catch (ignored: IOException) {
            }
        }
    }

    companion object {
        private const val RUNNING = 0
        private const val TIMED_OUT = 1
        private const val CANCELLED = 2

        /** One daemon thread for every transport's deadlines. */
        private val timer: ScheduledThreadPoolExecutor by lazy {
            ScheduledThreadPoolExecutor(1, ThreadFactory { work -> Thread(work, "baton-deadlines").apply { isDaemon = true } })
                .apply { removeOnCancelPolicy = true }
        }

        /** A URL query component: percent-encoded UTF-8, a space as `%20` (a `+` reads as a space in many servers). */
        @JvmStatic
        fun encode(text: String): String = URLEncoder.encode(text, "UTF-8").replace("+", "%20")

        /** Whether [bytes] are a GraphQL response (a body GraphQL over HTTP may carry with a 4xx status). */
        @JvmStatic
        fun isGraphQLResponse(bytes: ByteArray): Boolean = try {
            GraphQLResponse.parse(String(bytes, Charsets.UTF_8))
            true
        } catch (error: MalformedResponseException) {
            false
        }

        /** Whether [bytes] are the server's `PersistedQueryNotFound` answer (by message or by extensions code). */
        @JvmStatic
        fun isPersistedQueryNotFound(bytes: ByteArray): Boolean {
            if (bytes.size >= 4096) return false
            val response = try {
                GraphQLResponse.parse(String(bytes, Charsets.UTF_8))
            } catch (error: MalformedResponseException) {
                return false
            }
            return response.data == null && response.errors.any {
                it.message == "PersistedQueryNotFound" || it.extensions?.get("code") == "PERSISTED_QUERY_NOT_FOUND"
            }
        }

        /** `Retry-After` in seconds: the delay form, or an HTTP date counted from now; null when absent or unreadable. */
        @JvmStatic
        fun retryAfter(value: String?): Double? {
            val text = value?.trim() ?: return null
            if (text.length == 0) return null
            val seconds = text.toDoubleOrNull()
            if (seconds != null) return if (seconds >= 0) seconds else null
            val format = SimpleDateFormat("EEE, dd MMM yyyy HH:mm:ss zzz", Locale.US)
            format.timeZone = TimeZone.getTimeZone("GMT")
            val date = try {
                format.parse(text)
            } catch (error: java.text.ParseException) {
                return null
            }
            return Math.max((date.time - System.currentTimeMillis()) / 1000.0, 0.0)
        }
    }
}

/** [text] with ASCII capitals lowered (header names; `String.lowercase()` is not in Kotlin 1.3). */
internal fun asciiLowercase(text: String): String {
    if (text.none { it in 'A'..'Z' }) return text
    val out = StringBuilder(text.length)
    for (char in text) out.append(if (char in 'A'..'Z') char + ('a' - 'A') else char)
    return out.toString()
}
"""#),
("GraphQLWebSocketTransport.kt",
#"""
package baton.runtime

import java.util.concurrent.ScheduledFuture
import java.util.concurrent.ScheduledThreadPoolExecutor
import java.util.concurrent.ThreadFactory
import java.util.concurrent.TimeUnit

/**
 * Subscriptions over one WebSocket with the `graphql-transport-ws` protocol (graphql-ws's GraphQL over WebSocket),
 * as the Swift runtime's `GraphQLWebSocketTransport`.
 *
 * The socket opens with the first subscription (on a daemon thread of its own, which reads it) and closes after
 * the last one ends. On it: `connection_init` with [connectionPayload], then `subscribe` for each subscription (ids
 * are the transport's own) after `connection_ack` (within [acknowledgementTimeoutMillis]), `next`, `error` and
 * `complete` routed to their subscription, a server `ping` answered with `pong`, and a `ping` of ours every
 * [pingIntervalMillis] when set. Cancelling a subscription sends `complete`. When the socket breaks (or the server
 * closes it) while subscriptions are live, each hears [SubscriptionEvent.Reconnecting], the transport waits as
 * [reconnect] says (doubling, with jitter) and opens a new socket, then subscribes every live subscription again;
 * after `reconnect.maxRetries` failures in a row they hear [SubscriptionEvent.Failed] and end. A socket that got
 * its `connection_ack` resets the count. Sockets come from [connector]: Baton's own RFC 6455 client by default
 * (`ws://`), or the OkHttp adapter's (`wss://` too).
 */
class GraphQLWebSocketTransport @JvmOverloads constructor(
    val url: String,
    val connectionPayload: Map<String, Any?>? = null,
    val headers: Map<String, String> = emptyMap(),
    val reconnect: RetryPolicy = RetryPolicy(5, 0.5, 30.0),
    val pingIntervalMillis: Long? = null,
    val acknowledgementTimeoutMillis: Long = 10000,
    val connector: WebSocketConnector = SocketWebSocketConnector()
) : SubscriptionTransport {
    private class Active(val request: GraphQLRequest, val onEvent: (SubscriptionEvent) -> Unit)

    private val lock = Any()
    private val active = LinkedHashMap<String, Active>()
    private var nextId = 1
    /** The socket once it got `connection_ack`; null while connecting or between sockets. */
    private var connection: WebSocketConnection? = null
    private var running: Thread? = null
    private var pongs = 0
    private var acknowledged = 0

    /** `pong` messages received (for tests and diagnostics). */
    val pongsReceived: Int get() = synchronized(lock) { pongs }

    /** Sockets that reached `connection_ack`. */
    val connectionsAcknowledged: Int get() = synchronized(lock) { acknowledged }

    /** Live subscriptions. */
    val activeCount: Int get() = synchronized(lock) { active.size }

    override fun subscribe(request: GraphQLRequest, onEvent: (SubscriptionEvent) -> Unit): Observation {
        val (id, open) = synchronized(lock) {
            val id = (nextId++).toString()
            active[id] = Active(request, onEvent)
            if (running == null) {
                running = Thread({ loop() }, "baton-subscriptions").apply { isDaemon = true }
                running?.start()
            }
            Pair(id, connection)
        }
        open?.send(subscribeMessage(id, request))
        return Observation { cancel(id) }
    }

    private fun cancel(id: String) {
        val (removed, open, last) = synchronized(lock) {
            Triple(active.remove(id) != null, connection, active.isEmpty())
        }
        if (!removed || open == null) return
        open.send(message("complete", id))
        if (last) open.close()
    }

    // The connection loop, on the transport's thread.

    private fun loop() {
        var failures = 0
        while (true) {
            var wasAcknowledged = false
            val reason = try {
                runConnection { wasAcknowledged = true }
                "the server closed the connection"
            } catch (error: Exception) {
                error.message ?: error.javaClass.simpleName
            }
            if (endIfIdle()) return
            failures = if (wasAcknowledged) 1 else failures + 1
            val delay = reconnect.delay(failures, TransportException.network(reason))
            if (delay == null) {
                val gone = synchronized(lock) {
                    val list = ArrayList(active.values)
                    active.clear()
                    running = null
                    list
                }
                for (subscription in gone) subscription.onEvent(SubscriptionEvent.Failed(reason))
                return
            }
            for (subscription in synchronized(lock) { ArrayList(active.values) }) {
                subscription.onEvent(SubscriptionEvent.Reconnecting(failures, delay, reason))
            }
            Thread.sleep(Math.round(delay * 1000))
            if (endIfIdle()) return
        }
    }

    /** Forgets the socket; ends the loop (returning true) when no subscription is live. */
    private fun endIfIdle(): Boolean = synchronized(lock) {
        connection = null
        if (active.isEmpty()) running = null
        running == null
    }

    /** One socket's life: connect, init, acknowledge, subscribe everything live, route messages until it ends. */
    private fun runConnection(onAcknowledged: () -> Unit) {
        val socket = connector.connect(url, "graphql-transport-ws", headers)
        var pinger: ScheduledFuture<*>? = null
        val acknowledgement = timer.schedule(Runnable { socket.close() }, acknowledgementTimeoutMillis, TimeUnit.MILLISECONDS)
        try {
            val init = LinkedHashMap<String, Any?>()
            init["type"] = "connection_init"
            if (connectionPayload != null) init["payload"] = connectionPayload
            socket.send(Json.write(init))
            while (true) {
                val text = socket.receive() ?: return
                val parsed = try {
                    Json.parse(text) as? Map<*, *>
                } catch (error: JsonException) {
                    null
                }
                val type = parsed?.get("type") as? String
                    ?: throw WebSocketException("protocol violation: a message that is not a graphql-transport-ws message")
                val id = parsed["id"] as? String
                when (type) {
                    "connection_ack" -> {
                        acknowledgement.cancel(false)
                        onAcknowledged()
                        val live = synchronized(lock) {
                            connection = socket
                            acknowledged++
                            ArrayList(active.entries)
                        }
                        if (live.isEmpty()) return
                        for (entry in live) socket.send(subscribeMessage(entry.key, entry.value.request))
                        val interval = pingIntervalMillis
                        if (interval != null && interval > 0) {
                            pinger = timer.scheduleAtFixedRate(
                                Runnable { socket.send(message("ping", null)) }, interval, interval, TimeUnit.MILLISECONDS
                            )
                        }
                    }
                    "next" -> {
                        val payload = parsed["payload"]
                        if (id != null && payload != null) {
                            synchronized(lock) { active[id] }?.onEvent?.invoke(SubscriptionEvent.Next(Json.write(payload)))
                        }
                    }
                    "error" -> if (id != null) {
                        // The payload is the errors' list (graphql-transport-ws `error`).
                        val errors = (parsed["payload"] as? List<*>)?.map { FieldError.fromJson(it) } ?: emptyList()
                        synchronized(lock) { active.remove(id) }?.onEvent?.invoke(SubscriptionEvent.Error(errors))
                    }
                    "complete" -> if (id != null) {
                        synchronized(lock) { active.remove(id) }?.onEvent?.invoke(SubscriptionEvent.Complete)
                    }
                    "ping" -> socket.send(message("pong", null))
                    "pong" -> synchronized(lock) { pongs++ }
                    else -> throw WebSocketException("protocol violation: unknown message type $type")
                }
                if (synchronized(lock) { active.isEmpty() }) return
            }
        } finally {
            acknowledgement.cancel(false)
            pinger?.cancel(false)
            socket.close()
        }
    }

    // Messages.

    private fun subscribeMessage(id: String, request: GraphQLRequest): String {
        val message = LinkedHashMap<String, Any?>()
        message["id"] = id
        message["type"] = "subscribe"
        message["payload"] = request.fields(true, null)
        return Json.write(message)
    }

    private fun message(type: String, id: String?): String {
        val message = LinkedHashMap<String, Any?>()
        if (id != null) message["id"] = id
        message["type"] = type
        return Json.write(message)
    }

    companion object {
        /** One daemon thread for every transport's acknowledgement timeouts and pings. */
        private val timer: ScheduledThreadPoolExecutor by lazy {
            ScheduledThreadPoolExecutor(1, ThreadFactory { work -> Thread(work, "baton-websocket-timers").apply { isDaemon = true } })
                .apply { removeOnCancelPolicy = true }
        }
    }
}
"""#),
("Handle.kt",
#"""
package baton.runtime

import java.lang.ref.WeakReference

/** Where a handle's data is: loading, ready to read, or failed. */
sealed class Phase<out D : Any> {
    /** No data yet; a fetch is on its way (or the policy is waiting for one). */
    object Loading : Phase<Nothing>() {
        override fun toString(): String = "Loading"
    }

    /** The data, read from one snapshot of the store. */
    data class Ready<out D : Any>(override val data: D) : Phase<D>()

    /** The fetch (or the read after it) failed and there is no data to show. */
    data class Failed(val error: FetchError) : Phase<Nothing>()

    /** The data when ready, else null. */
    open val data: D? get() = null
}

/** Why a fetch, or the read after it, failed. */
sealed class FetchError {
    /** A response with errors and no data: the request failed as a whole. */
    data class Request(val errors: List<FieldError>) : FetchError()

    /** The transport failed (no network, an HTTP status without a GraphQL body). */
    data class Transport(val reason: String) : FetchError()

    /** The body was not a GraphQL response. */
    data class MalformedResponse(val reason: String) : FetchError()

    /**
     * The operation's read failed: a `@required` null reached the root ([RequiredFieldException]) or
     * `@throwOnFieldError` met an error ([FieldErrorsException]).
     */
    data class Read(val exception: RuntimeException) : FetchError()

    /** Nothing to send with: a mutation call made without an environment, a page of a connection the store lacks. */
    data class Unattached(val reason: String) : FetchError()

    /** What went wrong, as the Swift runtime says it: `rate limited`, `transport: offline`. */
    val description: String
        get() = when (this) {
            is Request -> errors.joinToString("; ") { it.message }
            is Transport -> "transport: $reason"
            is MalformedResponse -> "malformed response: $reason"
            is Read -> exception.message ?: exception.toString()
            is Unattached -> reason
        }

    /** The `error` of a `fetchFailed` event: the messages of a request error, else the description. */
    internal val payload: Any?
        get() = if (this is Request) errors.map { it.message } else description

    override fun toString(): String = description
}

/** A failed [BatonEnvironment.fetch]. */
class FetchException(val error: FetchError) : RuntimeException(error.description)

/** Where a handle's data comes from. */
enum class FetchPolicy {
    /** Read the store; fetch when it cannot answer fully or its data is stale. */
    STORE_OR_NETWORK,

    /** Read the store when it can answer, and fetch anyway. */
    STORE_AND_NETWORK,

    /** Always fetch; show nothing from the store before the answer. */
    NETWORK_ONLY,

    /** Never fetch. */
    STORE_ONLY
}

/**
 * Everything a view reads of a handle at one moment, as one value: equal to the previous state when nothing a view
 * shows changed (the data's lenses compare by record and snapshot), so a `StateFlow` or Compose skips it.
 */
data class HandleState<out D : Any>(
    val phase: Phase<D>,
    val isStale: Boolean,
    val lastFetchError: FetchError?,
    val isFetching: Boolean
)

/** An observer's registration; cancel it when the observer goes away. */
class Observation internal constructor(private val onCancel: () -> Unit) {
    /** Stops calling the observer. */
    fun cancel() = onCancel()
}

/**
 * A view's hold on an operation: its phase, whether its data is stale, and a way to retry.
 *
 * A handle walks the whole operation once per change (an [OperationWalk]) to learn which slots it depends on
 * and what is missing; it subscribes to those slots and re-reads when a commit changes any of them. A miss found
 * on such a re-read is missing data: logged, the operation marked stale and refetched once (a heal). A miss
 * right after the handle's own fetch is the server leaving a field out: logged as unexpected, not healed, so
 * nothing loops. The data is read from one snapshot, so it never mixes two batches.
 *
 * Thread-safe. Observers are called on the thread that caused the change (a commit's, or the environment's
 * executor); post to the main thread from there. Call [detach] when the view goes away.
 */
class Handle<D : Any> internal constructor(
    val operation: Operation<D>,
    val policy: FetchPolicy,
    /** Seconds after which the data is stale; null for never by age. */
    val expiration: Double?,
    private val environment: BatonEnvironment
) {
    private val lock = Any()
    private var currentPhase: Phase<D> = Phase.Loading
    private var currentError: FetchError? = null
    private var records: Set<String> = emptySet()
    private var subscription: Subscription? = null
    private var fetching = false
    /** The cancellation of the fetch under way, which [detach] cancels. */
    private var fetchCancellation: Cancellation? = null
    private var committingOwn = false
    private var healAttempted = false
    private var markedStale = false
    private val observers = Observers()
    private var detached = false
    /** The snapshot versions the dependencies and the phase were last taken from: older ones never overwrite them. */
    private var subscribedVersion = -1L
    private var publishedVersion = -1L
    private val identity = OperationIdentity.of(operation)

    /** [Phase.Loading], [Phase.Ready] with the data, or [Phase.Failed] with the error. */
    val phase: Phase<D> get() = synchronized(lock) { currentPhase }

    /** The failure of the latest fetch, when it failed; with data already there the phase stays ready. */
    val lastFetchError: FetchError? get() = synchronized(lock) { currentError }

    /** Whether a fetch is running for this handle. */
    val isFetching: Boolean get() = synchronized(lock) { fetching }

    /**
     * True when the data is older than the expiration, or a record it read, its type, or the operation was
     * invalidated, or a heal marked it. Stale data stays visible.
     */
    val isStale: Boolean
        get() {
            val (records, marked, hasData) = synchronized(lock) { Triple(records, markedStale, currentPhase.data != null) }
            if (!hasData) return false
            if (marked || environment.isInvalidated(identity)) return true
            val (oldest, invalidated) = environment.store.staleness(records)
            if (invalidated) return true
            val expiration = expiration
            return expiration != null && oldest != null && environment.clock() - oldest > expiration
        }

    /** The phase, staleness, last failure and whether a fetch is running, read together. */
    val state: HandleState<D>
        get() {
            val (phase, error, isFetching) = synchronized(lock) { Triple(currentPhase, currentError, fetching) }
            return HandleState(phase, isStale, error, isFetching)
        }

    /** Fetches again (after a failure, or to refresh). */
    fun retry() = refetch("retry")

    /** Calls [observer] after every change of phase or staleness. */
    fun observe(observer: () -> Unit): Observation = observers.add(observer)

    /**
     * Stops notifications and fetches for this handle; a fetch under way is cancelled, its request aborted (it logs
     * `fetchCancelled` and commits nothing).
     */
    fun detach() {
        val (subscription, fetch) = synchronized(lock) {
            detached = true
            Pair(subscription, fetchCancellation)
        }
        subscription?.cancel()
        fetch?.cancel()
        environment.detach(this)
    }

    internal fun start() {
        val weak = WeakReference(this)
        var created: Subscription? = null
        created = environment.store.subscribe(emptySet()) {
            val handle = weak.get()
            if (handle == null) created?.cancel() else handle.storeChanged()
        }
        synchronized(lock) { subscription = created }
        val (snapshot, walk) = walkNow()
        when (policy) {
            FetchPolicy.STORE_ONLY -> publish(snapshot, walk, LoggingReporter(environment.log))
            FetchPolicy.NETWORK_ONLY -> {
                subscribe(walk)
                startFetch()
            }
            FetchPolicy.STORE_OR_NETWORK -> if (walk.isComplete) {
                publish(snapshot, walk, LoggingReporter(environment.log))
                if (isStale) refetch("stale")
            } else {
                subscribe(walk)
                startFetch()
            }
            FetchPolicy.STORE_AND_NETWORK -> {
                if (walk.isComplete) publish(snapshot, walk, LoggingReporter(environment.log)) else subscribe(walk)
                startFetch()
            }
        }
    }

    internal fun refetch(reason: String) {
        if (policy == FetchPolicy.STORE_ONLY) return
        environment.log.record(
            LogEvent("refetch", linkedMapOf<String, Any?>("operation" to operation.operationName, "reason" to reason))
        )
        startFetch()
    }

    internal fun stalenessChanged() = notifyObservers()

    private fun storeChanged() {
        val skip = synchronized(lock) { committingOwn || detached }
        if (!skip) reread()
    }

    /** A re-read after another commit changed a slot this handle depends on. */
    private fun reread() {
        val (snapshot, walk) = walkNow()
        val reporter = LoggingReporter(environment.log)
        val (isFetching, hasData) = synchronized(lock) { Pair(fetching, currentPhase.data != null) }
        if (walk.missing.isEmpty()) {
            synchronized(lock) { healAttempted = false }
        } else if (isFetching) {
            // A fetch of this operation is on its way; it will answer the miss.
            for (missing in walk.missing) reporter.markSeen(missing.record, missing.field)
        } else {
            for (missing in walk.missing) {
                reporter.report(ReadEvent.MissingData(missing.type, missing.field, missing.record, missing.path))
            }
            val heal = synchronized(lock) {
                if (!hasData || healAttempted || policy == FetchPolicy.STORE_ONLY) {
                    false
                } else {
                    healAttempted = true
                    markedStale = true
                    true
                }
            }
            if (heal) {
                publish(snapshot, walk, reporter)
                refetch("missingData")
                return
            }
        }
        publish(snapshot, walk, reporter)
    }

    /** The read after this handle's own fetch committed. */
    private fun readAfterFetch() {
        val (snapshot, walk) = walkNow()
        val reporter = LoggingReporter(environment.log)
        if (walk.missing.isEmpty()) {
            synchronized(lock) { healAttempted = false }
        } else {
            for (missing in walk.missing) {
                reporter.report(ReadEvent.UnexpectedValue(missing.type, missing.field, "missing after a refetch", missing.path))
                reporter.markSeen(missing.record, missing.field)
            }
        }
        publish(snapshot, walk, reporter)
    }

    private fun walkNow(): Pair<StoreSnapshot, OperationWalk> {
        val snapshot = environment.store.snapshot()
        val walk = OperationWalk(snapshot, operation.resolvedVariables(), operation.rootTypename, operation.selections)
        return Pair(snapshot, walk)
    }

    /**
     * Takes [walk]'s records and slots as what the handle depends on, unless a walk of a newer snapshot already
     * did (re-reads caused by commits on several threads may finish in any order). Returns whether it took them.
     */
    private fun subscribe(walk: OperationWalk, version: Long): Boolean = synchronized(lock) {
        if (version < subscribedVersion) return false
        subscribedVersion = version
        records = walk.records
        subscription?.update(walk.dependencies)
        true
    }

    private fun subscribe(walk: OperationWalk) {
        subscribe(walk, walk.version)
    }

    private fun publish(snapshot: StoreSnapshot, walk: OperationWalk, reporter: LoggingReporter) {
        if (!subscribe(walk, snapshot.version)) return
        val phase: Phase<D> = try {
            Phase.Ready(snapshot.read(operation, reporter))
        } catch (error: RequiredFieldException) {
            Phase.Failed(FetchError.Read(error))
        } catch (error: FieldErrorsException) {
            Phase.Failed(FetchError.Read(error))
        }
        synchronized(lock) {
            if (snapshot.version < publishedVersion) return
            publishedVersion = snapshot.version
            currentPhase = phase
        }
        notifyObservers()
    }

    private fun notifyObservers() {
        val toCall = observers.all()
        for (observer in toCall) observer()
    }

    private fun startFetch() {
        val cancellation = synchronized(lock) {
            if (fetching || detached) {
                null
            } else {
                fetching = true
                fetchCancellation = Cancellation()
                fetchCancellation
            }
        }
        if (cancellation != null) environment.track { runFetch(cancellation) }
    }

    private fun runFetch(cancellation: Cancellation) {
        try {
            environment.send(
                operation,
                { synchronized(lock) { committingOwn = true } },
                { synchronized(lock) { committingOwn = false } },
                cancellation = cancellation
            )
        } catch (error: FetchException) {
            synchronized(lock) {
                fetching = false
                fetchCancellation = null
                currentError = error.error
                if (currentPhase.data == null) currentPhase = Phase.Failed(error.error)
            }
            notifyObservers()
            return
        }
        synchronized(lock) {
            fetching = false
            fetchCancellation = null
            markedStale = false
            currentError = null
        }
        readAfterFetch()
    }
}
"""#),
("HttpTransport.kt",
#"""
package baton.runtime

import java.io.IOException
import java.net.HttpURLConnection
import java.net.URL

/**
 * GraphQL over HTTP with `java.net.HttpURLConnection` (on every JVM and on Android): the requests [GraphQLHttp]
 * spells (POST, or GET for queries; the persisted id; the transport's, the authenticator's and the request's
 * headers), sent one exchange at a time under its rules: 401 refreshed once, [timeoutMillis] for the whole exchange,
 * the body up to [maxResponseBytes], the exchange aborted (`disconnect`) when the fetch is cancelled. A status
 * outside 200…299 is a [TransportException] (`HTTP status 503`) unless the body is a GraphQL response.
 *
 * Requests with a body are sent in fixed-length streaming mode, which also keeps the JDK's `HttpURLConnection`
 * from sending a POST a second time by itself when a connection breaks (it may resend a GET: a query).
 */
class HttpTransport @JvmOverloads constructor(
    val url: URL,
    val headers: Map<String, String> = emptyMap(),
    /** Milliseconds for one whole exchange, from sending to the last byte. */
    val timeoutMillis: Long = 30000,
    val method: HttpMethod = HttpMethod.POST,
    val persistedQueries: PersistedQueries = PersistedQueries.OFF,
    /** The largest body read, in bytes. */
    val maxResponseBytes: Long = 32L shl 20,
    /** Adds credentials to every request and refreshes them once after a 401. */
    val authenticator: Authenticator? = null
) : Transport {
    /** How this transport spells and sends requests. */
    val http: GraphQLHttp =
        GraphQLHttp(url.toString(), headers, method, persistedQueries, timeoutMillis, maxResponseBytes, authenticator)

    override fun send(request: GraphQLRequest): ByteArray = http.send(request) { ConnectionExchange(it, timeoutMillis) }

    /** One exchange on its own connection; [abort] disconnects it from any thread. */
    private class ConnectionExchange(private val request: HttpRequest, private val timeoutMillis: Long) : HttpExchange {
        private val lock = Any()
        private var connection: HttpURLConnection? = null
        private var aborted = false

        override fun execute(): HttpResponse {
            val connection = URL(request.url).openConnection() as HttpURLConnection
            synchronized(lock) {
                if (aborted) throw IOException("aborted")
                this.connection = connection
            }
            connection.requestMethod = request.method
            // Idle timeouts only as a backstop: the whole exchange's deadline is GraphQLHttp's.
            val backstop = Math.min(timeoutMillis + 1000, Int.MAX_VALUE.toLong()).toInt()
            connection.connectTimeout = backstop
            connection.readTimeout = backstop
            connection.useCaches = false
            for ((name, value) in request.headers) connection.setRequestProperty(name, value)
            val body = request.body
            if (body != null) {
                connection.doOutput = true
                connection.setFixedLengthStreamingMode(body.size)
                connection.outputStream.use { it.write(body) }
            }
            val status = connection.responseCode
            val headers = LinkedHashMap<String, String>()
            for ((name, values) in connection.headerFields) {
                if (name != null && values.isNotEmpty()) headers[name] = values[0]
            }
            val length = connection.getHeaderField("Content-Length")?.trim()?.toLongOrNull() ?: -1L
            val stream = if (status in 200..299) connection.inputStream else connection.errorStream
            return HttpResponse(status, headers, length, stream)
        }

        override fun abort() {
            val connection = synchronized(lock) {
                aborted = true
                connection
            }
            connection?.disconnect()
        }

        override fun close() {
            synchronized(lock) { connection }?.disconnect()
        }
    }
}
"""#),
("Json.kt",
#"""
package baton.runtime

/**
 * A JSON number exactly as it was written, so nothing is rounded: `12`, `-0.5`, `1e400`.
 */
data class JsonNumber(val literal: String) {
    override fun toString(): String = literal
}

/** A JSON text that does not parse. */
class JsonException(message: String) : RuntimeException(message)

/**
 * A small JSON reader and writer on the Kotlin standard library.
 *
 * Values are `null`, `Boolean`, `String`, [JsonNumber], `List<Any?>` and `Map<String, Any?>` (insertion order
 * kept). The writer also accepts `Int`, `Long`, `Double`, [InputObject], [EnumValue] and [Optional.Present].
 */
object Json {
    /** The deepest nesting [parse] accepts; deeper texts fail instead of overflowing the stack. */
    const val MAX_DEPTH: Int = 512

    /** Parses [text] as one JSON value; throws [JsonException] with the offset of the first problem. */
    fun parse(text: String): Any? {
        val reader = Reader(text)
        reader.skipWhitespace()
        val value = reader.value(0)
        reader.skipWhitespace()
        if (reader.offset != text.length) throw reader.failure("unexpected text after the value")
        return value
    }

    /** [value] as compact JSON text; map keys keep their order unless [sortKeys]. */
    fun write(value: Any?, sortKeys: Boolean = false): String {
        val out = StringBuilder()
        write(value, out, sortKeys, 0)
        return out.toString()
    }

    private fun write(value: Any?, out: StringBuilder, sortKeys: Boolean, depth: Int) {
        if (depth > MAX_DEPTH) throw JsonException("value nested deeper than $MAX_DEPTH levels")
        when (value) {
            null -> out.append("null")
            is Boolean -> out.append(if (value) "true" else "false")
            is String -> quote(value, out)
            is JsonNumber -> out.append(value.literal)
            is RawJson -> out.append(value.text)
            is Int, is Long, is Short, is Byte -> out.append(value.toString())
            is Double -> out.append(if (value.isNaN() || value.isInfinite()) "null" else value.toString())
            is Float -> out.append(if (value.isNaN() || value.isInfinite()) "null" else value.toString())
            is EnumValue -> quote(value.rawValue, out)
            is InputObject -> write(value.toJson(), out, sortKeys, depth + 1)
            is Optional.Present<*> -> write(value.value, out, sortKeys, depth + 1)
            is Optional.Null -> out.append("null")
            is Map<*, *> -> {
                out.append('{')
                val entries = value.entries.filter { it.value !is Optional.Absent }
                val ordered = if (sortKeys) entries.sortedBy { it.key.toString() } else entries
                var first = true
                for (entry in ordered) {
                    if (!first) out.append(',')
                    first = false
                    quote(entry.key.toString(), out)
                    out.append(':')
                    write(entry.value, out, sortKeys, depth + 1)
                }
                out.append('}')
            }
            is Iterable<*> -> {
                out.append('[')
                var first = true
                for (item in value) {
                    if (!first) out.append(',')
                    first = false
                    write(item, out, sortKeys, depth + 1)
                }
                out.append(']')
            }
            else -> quote(value.toString(), out)
        }
    }

    /** Writes [text] as a JSON string literal. */
    fun quote(text: String, out: StringBuilder) {
        out.append('"')
        for (index in text.indices) {
            val char = text[index]
            when {
                char == '"' -> out.append("\\\"")
                char == '\\' -> out.append("\\\\")
                char == '\n' -> out.append("\\n")
                char == '\r' -> out.append("\\r")
                char == '\t' -> out.append("\\t")
                char < ' ' -> {
                    val hex = Integer.toHexString(text.codePointAt(index))
                    out.append("\\u").append("0000".substring(hex.length)).append(hex)
                }
                else -> out.append(char)
            }
        }
        out.append('"')
    }

    private class Reader(source: String) {
        /** The text as characters: indexing an array is what the JVM does fastest. */
        val text: CharArray = source.toCharArray()
        var offset = 0

        fun failure(message: String): JsonException = JsonException("JSON: $message at offset $offset")

        fun skipWhitespace() {
            while (offset < text.size) {
                val char = text[offset]
                if (char == ' ' || char == '\n' || char == '\r' || char == '\t') offset++ else return
            }
        }

        private fun matches(word: String): Boolean {
            if (offset + word.length > text.size) return false
            for (index in word.indices) if (text[offset + index] != word[index]) return false
            return true
        }

        fun value(depth: Int): Any? {
            if (depth > MAX_DEPTH) throw failure("value nested deeper than $MAX_DEPTH levels")
            if (offset >= text.size) throw failure("unexpected end of text")
            val char = text[offset]
            return when {
                char == '{' -> objectValue(depth)
                char == '[' -> arrayValue(depth)
                char == '"' -> string()
                char == '-' || (char in '0'..'9') -> number()
                matches("true") -> { offset += 4; true }
                matches("false") -> { offset += 5; false }
                matches("null") -> { offset += 4; null }
                else -> throw failure("unexpected character '$char'")
            }
        }

        private fun objectValue(depth: Int): Map<String, Any?> {
            offset++
            val result = JsonObject()
            skipWhitespace()
            if (offset < text.size && text[offset] == '}') { offset++; return result }
            while (true) {
                skipWhitespace()
                if (offset >= text.size || text[offset] != '"') throw failure("expected a member name")
                val key = string()
                skipWhitespace()
                if (offset >= text.size || text[offset] != ':') throw failure("expected ':'")
                offset++
                skipWhitespace()
                result.put(key, value(depth + 1))
                skipWhitespace()
                if (offset >= text.size) throw failure("unexpected end of text in an object")
                when (text[offset]) {
                    ',' -> offset++
                    '}' -> { offset++; return result }
                    else -> throw failure("expected ',' or '}'")
                }
            }
        }

        private fun arrayValue(depth: Int): List<Any?> {
            offset++
            val result = ArrayList<Any?>()
            skipWhitespace()
            if (offset < text.size && text[offset] == ']') { offset++; return result }
            while (true) {
                skipWhitespace()
                result.add(value(depth + 1))
                skipWhitespace()
                if (offset >= text.size) throw failure("unexpected end of text in an array")
                when (text[offset]) {
                    ',' -> offset++
                    ']' -> { offset++; return result }
                    else -> throw failure("expected ',' or ']'")
                }
            }
        }

        private fun string(): String {
            offset++
            // Most strings have no escape: take them whole.
            val start = offset
            while (offset < text.size) {
                val char = text[offset]
                if (char == '"') {
                    offset++
                    return String(text, start, offset - 1 - start)
                }
                if (char == '\\' || char < ' ') break
                offset++
            }
            val out = StringBuilder().append(text, start, offset - start)
            while (true) {
                if (offset >= text.size) throw failure("unterminated string")
                val char = text[offset]
                when {
                    char == '"' -> { offset++; return out.toString() }
                    char == '\\' -> {
                        if (offset + 1 >= text.size) throw failure("unterminated escape")
                        val escaped = text[offset + 1]
                        offset += 2
                        when (escaped) {
                            '"' -> out.append('"')
                            '\\' -> out.append('\\')
                            '/' -> out.append('/')
                            'b' -> out.append('\b')
                            'f' -> out.append('\u000C')
                            'n' -> out.append('\n')
                            'r' -> out.append('\r')
                            't' -> out.append('\t')
                            'u' -> {
                                if (offset + 4 > text.size) throw failure("short \\u escape")
                                val code = String(text, offset, 4).toIntOrNull(16)
                                    ?: throw failure("bad \\u escape")
                                out.append(code.toChar())
                                offset += 4
                            }
                            else -> throw failure("bad escape '\\$escaped'")
                        }
                    }
                    char < ' ' -> throw failure("control character in a string")
                    else -> { out.append(char); offset++ }
                }
            }
        }

        private fun number(): JsonNumber {
            val start = offset
            if (text[offset] == '-') offset++
            val digitsStart = offset
            while (offset < text.size && text[offset] in '0'..'9') offset++
            if (offset == digitsStart) throw failure("expected a digit")
            if (offset < text.size && text[offset] == '.') {
                offset++
                val fractionStart = offset
                while (offset < text.size && text[offset] in '0'..'9') offset++
                if (offset == fractionStart) throw failure("expected a digit after '.'")
            }
            if (offset < text.size && (text[offset] == 'e' || text[offset] == 'E')) {
                offset++
                if (offset < text.size && (text[offset] == '+' || text[offset] == '-')) offset++
                val exponentStart = offset
                while (offset < text.size && text[offset] in '0'..'9') offset++
                if (offset == exponentStart) throw failure("expected a digit in the exponent")
            }
            return JsonNumber(String(text, start, offset - start))
        }
    }
}

/**
 * A parsed JSON object: its members in order, a repeated name keeping its last value. Response objects are small,
 * so up to 16 members live in two arrays and are found by a scan; a larger object moves into a `LinkedHashMap`.
 */
internal class JsonObject : AbstractMap<String, Any?>() {
    private var names = arrayOfNulls<String>(8)
    private var contents = arrayOfNulls<Any?>(8)
    private var count = 0
    private var large: LinkedHashMap<String, Any?>? = null

    fun put(name: String, value: Any?) {
        val map = large
        if (map != null) {
            map[name] = value
            return
        }
        for (index in 0 until count) {
            if (names[index] == name) {
                contents[index] = value
                return
            }
        }
        if (count == 16) {
            val moved = LinkedHashMap<String, Any?>(64)
            for (index in 0 until count) moved[names[index] as String] = contents[index]
            moved[name] = value
            large = moved
            return
        }
        if (count == names.size) {
            names = names.copyOf(count * 2)
            contents = contents.copyOf(count * 2)
        }
        names[count] = name
        contents[count] = value
        count++
    }

    override val size: Int get() = large?.size ?: count

    override fun containsKey(key: String): Boolean {
        val map = large
        if (map != null) return map.containsKey(key)
        for (index in 0 until count) if (names[index] == key) return true
        return false
    }

    override fun get(key: String): Any? {
        val map = large
        if (map != null) return map[key]
        for (index in 0 until count) if (names[index] == key) return contents[index]
        return null
    }

    override val entries: Set<Map.Entry<String, Any?>>
        get() {
            val map = large
            if (map != null) return map.entries
            val entries = LinkedHashSet<Map.Entry<String, Any?>>(count * 2)
            for (index in 0 until count) entries.add(Member(names[index] as String, contents[index]))
            return entries
        }

    private class Member(override val key: String, override val value: Any?) : Map.Entry<String, Any?> {
        override fun equals(other: Any?): Boolean = other is Map.Entry<*, *> && other.key == key && other.value == value
        override fun hashCode(): Int = key.hashCode() xor (value?.hashCode() ?: 0)
    }
}
"""#),
("Log.kt",
#"""
package baton.runtime

/**
 * One log event: a name and a JSON payload, printed as `fetchStarted {"operation":"TestConditions"}`, with the
 * Swift runtime's names and payloads (Docs/Runtime.md, "The log").
 */
class LogEvent(val name: String, val payload: Map<String, Any?>) {
    override fun toString(): String = name + " " + Json.write(payload)

    override fun equals(other: Any?): Boolean = other is LogEvent && other.name == name && other.payload == payload

    override fun hashCode(): Int = name.hashCode() * 31 + payload.hashCode()
}

/** Where the environment sends its events. Called from whichever thread the event happens on. */
interface EventLog {
    fun record(event: LogEvent)
}

/** A log that keeps events in memory (tests, a debug screen). Thread-safe. */
class MemoryLog : EventLog {
    private val storage = ArrayList<LogEvent>()

    override fun record(event: LogEvent) {
        synchronized(storage) { storage.add(event) }
    }

    /** Every event so far. */
    val events: List<LogEvent> get() = synchronized(storage) { ArrayList(storage) }

    /** Every event so far, printed one per line. */
    val lines: List<String> get() = events.map { it.toString() }

    /** Forgets the events so far. */
    fun clear() {
        synchronized(storage) { storage.clear() }
    }
}

/** A log that prints each event on standard output. */
class PrintLog : EventLog {
    override fun record(event: LogEvent) {
        println("[baton] $event")
    }
}

/**
 * Sends read events to a log, each once: the handle's walk and the app's reads of the same lenses share one
 * reporter, so a missing field is logged once, not on every frame.
 */
internal class LoggingReporter(private val log: EventLog) : ReadReporter {
    private val seen = HashSet<String>()

    override fun report(event: ReadEvent) {
        val key = when (event) {
            is ReadEvent.MissingData -> "${event.record}.${event.field}"
            is ReadEvent.UnexpectedValue ->
                if (event.reason.startsWith("missing")) "${event.field} ${event.reason}" else "${event.path}.${event.field} ${event.reason}"
            is ReadEvent.RequiredFieldNull -> "required ${event.path}"
        }
        val isNew = synchronized(seen) { seen.add(key) }
        if (isNew) log.record(event.toLogEvent())
    }

    /** Marks a slot's miss as already logged (so a later lens read of it stays quiet). */
    fun markSeen(record: String, field: String) {
        synchronized(seen) { seen.add("$record.$field") }
    }
}
"""#),
("Mutations.kt",
#"""
package baton.runtime

/**
 * A response the app writes before the server answers: what a generated `Optimistic` value (built from the
 * mutation's data types, field by field) gives the store as the response's `data`.
 */
interface OptimisticResponse {
    /** The response object, keyed by response keys, with `__typename` on every object. */
    fun responseObject(): Map<String, Any?>
}

/** Building optimistic responses: what generated `Optimistic` builders call. */
object ResponseObjects {
    /** Adds [other]'s members to [into] (a fragment's part of an optimistic response), merging objects member by member. */
    @Suppress("UNCHECKED_CAST")
    fun merge(into: MutableMap<String, Any?>, other: Map<String, Any?>) {
        for ((key, value) in other) {
            val mine = into[key]
            if (mine is Map<*, *> && value is Map<*, *>) {
                val merged = LinkedHashMap(mine as Map<String, Any?>)
                merge(merged, value as Map<String, Any?>)
                into[key] = merged
            } else {
                into[key] = value
            }
        }
    }
}

/** A mutation's outcome for a callback: its data, or the [FetchError] it failed with. */
sealed class MutationResult<out D : Any> {
    data class Success<out D : Any>(val data: D) : MutationResult<D>()
    data class Failure(val error: FetchError) : MutationResult<Nothing>()
}

/**
 * A mutation bound to an environment, called like a function (the guide's `addComment(input = …, connections =
 * listOf(connectionId))`): generated code adds an `invoke` per mutation taking its variables, typed, and an optional
 * typed optimistic response — one that blocks until the answer (call it off the main thread, as [BatonEnvironment.fetch]),
 * one that calls back. The coroutines adapter (`Kotlin/coroutines`) suspends instead.
 */
class MutationCall<D : Any, O : Operation<D>>(val environment: BatonEnvironment?) {
    /** Sends [mutation] and waits for its data (see [BatonEnvironment.perform]). */
    fun perform(mutation: O, optimisticResponse: OptimisticResponse? = null): D {
        val environment = environment ?: throw FetchException(
            FetchError.Unattached(
                "${mutation.operationName} has no environment: make the call with environment.mutation()"
            )
        )
        return environment.perform(mutation, optimisticResponse)
    }

    /** Sends [mutation] on the environment's executor and calls [callback] with the outcome. */
    fun perform(mutation: O, optimisticResponse: OptimisticResponse?, callback: (MutationResult<D>) -> Unit) {
        val environment = environment
        if (environment == null) {
            callback(MutationResult.Failure(FetchError.Unattached("${mutation.operationName} has no environment")))
            return
        }
        environment.track {
            val result = try {
                MutationResult.Success(environment.perform(mutation, optimisticResponse))
            } catch (error: FetchException) {
                MutationResult.Failure(error.error)
            }
            callback(result)
        }
    }
}

/** The mutation type [O] as a call bound to this environment. */
fun <D : Any, O : Operation<D>> BatonEnvironment.mutation(): MutationCall<D, O> = MutationCall(this)

/**
 * Sends a mutation on the calling thread and returns its data, as the Swift runtime's `perform`: always sent, never
 * sent again; with [optimisticResponse], applied at once as a layer (logged `optimisticApplied`) that the server's
 * answer replaces in its batch or that a failure removes (logged `optimisticRolledBack`); the answer committed as a
 * server batch with its declarative updates. Throws [FetchException].
 */
fun <D : Any> BatonEnvironment.perform(mutation: Operation<D>, optimisticResponse: OptimisticResponse? = null): D {
    var layer: Int? = null
    if (optimisticResponse != null) {
        // Nothing is sent when the optimistic response cannot be a response (nested past the parser's limit).
        val write = try {
            store.normalizeOptimistic(mutation, optimisticResponse.responseObject())
        } catch (error: JsonException) {
            throw FetchException(FetchError.MalformedResponse(error.message ?: "the optimistic response is not JSON"))
        }
        val (id, result, deliver) = store.addOptimisticLayer(write)
        layer = id
        log.record(
            LogEvent(
                "optimisticApplied",
                linkedMapOf<String, Any?>("operation" to mutation.operationName, "changed" to result.changed.size)
            )
        )
        deliver()
    }
    try {
        send(mutation, {}, {}, replacing = layer)
    } catch (error: FetchException) {
        if (layer != null) {
            val (result, deliver) = store.removeOptimisticLayer(layer)
            log.record(
                LogEvent(
                    "optimisticRolledBack",
                    linkedMapOf<String, Any?>("operation" to mutation.operationName, "changed" to result.changed.size)
                )
            )
            deliver()
        }
        throw error
    }
    keepRecent(RetainedRoot.of(mutation))
    try {
        return store.read(mutation, LoggingReporter(log))
    } catch (error: RequiredFieldException) {
        throw FetchException(FetchError.Read(error))
    } catch (error: FieldErrorsException) {
        throw FetchException(FetchError.Read(error))
    }
}
"""#),
("Normalizer.kt",
#"""
package baton.runtime

/** The slots one response writes to one record, before they are merged into the store. */
internal class PendingRecord(val key: String, val typename: String?) {
    val slots = LinkedHashMap<String, Slot>()
}

/** What one response writes: slots per record in the order first reached, and the errors that named no slot. */
internal class NormalizedWrite {
    val pending = ArrayList<PendingRecord>()
    val index = HashMap<String, Int>()
    val unattachedErrors = ArrayList<FieldError>()
    /** The `@connection` pages and declarative updates the response carries, applied after its records. */
    val connectionWrites = ArrayList<ConnectionWrite>()
    var variables: Map<String, Any?> = emptyMap()
}

/**
 * Turns a response's `data` into records and slots by walking the operation's selections, as the Swift
 * runtime's normalizer does, so the same response gives the same records.
 *
 * Aliases map back to storage keys, `@include`/`@skip` are evaluated with the variables, `__typename` picks the
 * record's type and which fragments apply, and each error is attached to the deepest slot its path reaches
 * (an error inside a list item goes to the list's slot). Pure: the store merges the result under its lock.
 */
internal class Normalizer private constructor(private val variables: Map<String, Any?>, hasErrors: Boolean) {
    private val write = NormalizedWrite()

    /** Response path (dotted) → slot, kept only when the response has errors to attach. */
    private val pathIndex: HashMap<String, SlotId>? = if (hasErrors) HashMap() else null

    companion object {
        fun normalize(
            data: Map<*, *>, errors: List<FieldError>, rootKey: String, rootTypename: String,
            selections: List<Selection>, variables: Map<String, Any?>
        ): NormalizedWrite {
            val normalizer = Normalizer(variables, errors.isNotEmpty())
            normalizer.write.index[rootKey] = 0
            normalizer.write.pending.add(PendingRecord(rootKey, rootTypename))
            normalizer.writeObject(data, 0, rootKey, selections, "", 0)
            for (error in errors) normalizer.attach(error)
            if (normalizer.write.connectionWrites.isNotEmpty()) normalizer.write.variables = variables
            return normalizer.write
        }
    }

    private fun writeObject(data: Map<*, *>, record: Int, key: String, selections: List<Selection>, path: String, depth: Int) {
        if (depth > Json.MAX_DEPTH) return
        loop@ for (selection in selections) {
            when (selection) {
                is Field<*> -> {
                    if (selection.conditions.isNotEmpty() && !selection.conditions.all { it.holds(variables) }) continue@loop
                    if (!data.containsKey(selection.responseKey)) continue@loop
                    val storageKey = selection.storageKey(variables)
                    var fieldPath = ""
                    val index = pathIndex
                    if (index != null) {
                        fieldPath = if (path.length == 0) selection.responseKey else path + "." + selection.responseKey
                        index[fieldPath] = SlotId(key, storageKey)
                    }
                    val stored = value(
                        data[selection.responseKey], selection.decoder, selection, key, storageKey, "", -1, fieldPath,
                        depth + 1
                    )
                    write.pending[record].slots[storageKey] = Slot(stored)
                    if (selection.connection != null || selection.update != null) {
                        write.connectionWrites.add(ConnectionWrite(selection, key, storageKey))
                    }
                }
                is InlineFragment<*> -> {
                    if (!selection.conditions.all { it.holds(variables) }) continue@loop
                    if (!typeMatches(data["__typename"] as? String, selection.possibleTypes)) continue@loop
                    writeObject(data, record, key, selection.selections, path, depth + 1)
                }
                is FragmentSpread<*> -> {
                    if (!selection.conditions.all { it.holds(variables) }) continue@loop
                    if (!typeMatches(data["__typename"] as? String, selection.possibleTypes)) continue@loop
                    writeObject(data, record, key, selection.selections, path, depth + 1)
                }
            }
        }
    }

    /**
     * Stores one response value of [field] read by [decoder] (which tells the list levels). An object without an
     * `id` gets the derived key `parent.storageKey` + [suffix] + `.index` (the list indices that led to it;
     * [index] is -1 outside a list).
     */
    private fun value(
        value: Any?, decoder: Decoder<*>, field: Field<*>, parent: String, storageKey: String, suffix: String,
        index: Int, path: String, depth: Int
    ): StoredValue {
        if (depth > Json.MAX_DEPTH) return StoredValue.Null
        return when (value) {
            null -> StoredValue.Null
            is String -> StoredValue.Text(value)
            is JsonNumber -> StoredValue.Number(value.literal)
            is Boolean -> StoredValue.Bool(value)
            is List<*> -> {
                val element = decoder.listElement() ?: return StoredValue.JsonText(Json.write(value))
                val listSuffix = if (index < 0) suffix else "$suffix.$index"
                val pathIndex = pathIndex
                val items = ArrayList<StoredValue>(value.size)
                for ((itemIndex, item) in value.withIndex()) {
                    var itemPath = ""
                    if (pathIndex != null) {
                        itemPath = "$path.$itemIndex"
                        val listSlot = pathIndex[path]
                        if (listSlot != null) pathIndex[itemPath] = listSlot
                    }
                    items.add(this.value(item, element, field, parent, storageKey, listSuffix, itemIndex, itemPath, depth + 1))
                }
                StoredValue.Items(items)
            }
            is Map<*, *> -> {
                if (!field.isComposite) return StoredValue.JsonText(Json.write(value))
                val typename = value["__typename"] as? String ?: field.typeName
                val id = value["id"]
                val key = when (id) {
                    is String -> "$typename:$id"
                    is JsonNumber -> "$typename:${id.literal}"
                    else -> parent + "." + storageKey + (if (index < 0) suffix else "$suffix.$index")
                }
                var record = write.index[key]
                if (record == null) {
                    record = write.pending.size
                    write.pending.add(PendingRecord(key, typename))
                    write.index[key] = record
                }
                writeObject(value, record, key, field.selections, path, depth + 1)
                StoredValue.Link(key)
            }
            else -> StoredValue.Text(value.toString())
        }
    }

    /** Attaches [error] to the deepest slot its path reaches, or keeps it as unattached. */
    private fun attach(error: FieldError) {
        val path = error.path
        val index = pathIndex
        if (path == null || path.isEmpty() || index == null) {
            write.unattachedErrors.add(error)
            return
        }
        val components = path.map { it.toString() }
        var count = components.size
        while (count > 0) {
            val slot = index[components.subList(0, count).joinToString(".")]
            if (slot != null) {
                val record = write.index[slot.record]
                if (record != null) {
                    val pending = write.pending[record]
                    val stored = pending.slots[slot.storageKey]
                    if (stored != null) pending.slots[slot.storageKey] = stored.copy(errors = stored.errors + error)
                }
                return
            }
            count--
        }
        write.unattachedErrors.add(error)
    }
}
"""#),
("Observers.kt",
#"""
package baton.runtime

/**
 * The observers of a handle (a query's or a subscription's): added and removed from any thread, each [Observation]
 * removing its own; [all] is a copy, so they are called outside every lock.
 */
internal class Observers {
    private val lock = Any()
    private val observers = LinkedHashMap<Int, () -> Unit>()
    private var next = 0

    fun add(observer: () -> Unit): Observation {
        val id = synchronized(lock) {
            val id = next++
            observers[id] = observer
            id
        }
        return Observation { synchronized(lock) { observers.remove(id) } }
    }

    fun all(): List<() -> Unit> = synchronized(lock) { ArrayList(observers.values) }
}
"""#),
("OperationWalk.kt",
#"""
package baton.runtime

/** A slot an operation's selections reach that the store does not have. */
data class MissingField(val type: String, val field: String, val record: String, val path: String)

/**
 * One walk of an operation's whole selection tree over a snapshot, fragment spreads included: the slots it
 * depends on, the records it touches, and what is missing. Handles use it to subscribe, to decide whether the
 * store can answer, and to find missing data to heal (as the Swift runtime's `OperationWalk`). The errors
 * `@throwOnFieldError` answers for are [RecordReader.uncaughtErrors]'s.
 */
class OperationWalk(
    private val snapshot: StoreSnapshot,
    private val variables: Map<String, Any?>,
    root: String,
    selections: List<Selection>
) {
    /** The slots the operation reads, including missing ones: a handle's subscription. */
    val dependencies = HashSet<SlotId>()

    /** The records it touches: their ages are the data's age. */
    val records = HashSet<String>()

    /** The slots it reaches that the store does not have, in walk order. */
    val missing = ArrayList<MissingField>()

    init {
        walk(root, selections, "", 0)
    }

    /** The version of the snapshot walked. */
    val version: Long get() = snapshot.version

    /** Whether the store can answer the operation fully. */
    val isComplete: Boolean get() = missing.isEmpty()

    private fun walk(key: String, selections: List<Selection>, path: String, depth: Int) {
        if (depth > Json.MAX_DEPTH) return
        records.add(key)
        val record = snapshot[key]
        // A deleted record is gone, not missing: nothing of it is read, healed or waited for.
        if (record?.isDeleted == true) return
        val typename = record?.typename ?: key.substringBefore(':')
        loop@ for (selection in selections) {
            when (selection) {
                is Field<*> -> {
                    if (selection.conditions.isNotEmpty() && !selection.conditions.all { it.holds(variables) }) continue@loop
                    val storageKey = selection.readKey(variables)
                    dependencies.add(SlotId(key, storageKey))
                    val fieldPath = if (path.length == 0) selection.responseKey else path + "." + selection.responseKey
                    val slot = record?.slots?.get(storageKey)
                    if (slot == null) {
                        missing.add(MissingField(typename, selection.name, key, fieldPath))
                        continue@loop
                    }
                    if (selection.isComposite) visit(slot.value, selection, fieldPath, depth + 1)
                }
                is InlineFragment<*> -> {
                    if (!selection.conditions.all { it.holds(variables) }) continue@loop
                    if (!typeMatches(record?.typename, selection.possibleTypes)) continue@loop
                    walk(key, selection.selections, path, depth + 1)
                }
                is FragmentSpread<*> -> {
                    if (!selection.conditions.all { it.holds(variables) }) continue@loop
                    if (!typeMatches(record?.typename, selection.possibleTypes)) continue@loop
                    walk(key, selection.selections, path, depth + 1)
                }
            }
        }
    }

    private fun visit(value: StoredValue, field: Field<*>, path: String, depth: Int) {
        when (value) {
            is StoredValue.Link -> walk(value.key, field.selections, path, depth)
            is StoredValue.Items -> for ((index, item) in value.items.withIndex()) {
                visit(item, field, "$path.$index", depth + 1)
            }
            else -> Unit
        }
    }
}
"""#),
("Pagination.kt",
#"""
package baton.runtime

/**
 * A fragment with `@refetchable(queryName:)`, as generated code describes it: the query that fetches its record
 * again and, with a `@connection`, the fields down to it and the variables that page it (the Swift runtime's
 * `RefetchableFragment`).
 */
class Refetchable(
    /** Makes the generated query from the variables the pagination sets. */
    val query: (Map<String, Any?>) -> Operation<*>,
    /** The fields from the fragment's record to its connection, the connection field last. */
    val connectionPath: List<Field<*>>,
    val forwardCount: String? = null,
    val forwardCursor: String? = null,
    val backwardCount: String? = null,
    val backwardCursor: String? = null,
    /** True when the query reaches the record through `node(id:)` (its `id` variable is the record's id). */
    val throughNode: Boolean = true
)

/**
 * The pages of a `@refetchable` fragment's connection (Relay's `usePaginationFragment`), as the Swift runtime's
 * `Pagination`: one per record and variables in an environment ([BatonEnvironment.pagination]); a page merges into
 * the connection record in order without edges already shown; concurrent [loadNext] calls share one fetch; a page
 * that fails leaves the loaded pages and is kept in [lastError]. The blocking calls run on the calling thread (call
 * them off the main thread); the callback ones on the environment's executor.
 */
class Pagination internal constructor(
    val environment: BatonEnvironment,
    /** The fragment's record. */
    val key: String,
    variables: Map<String, Any?>,
    private val refetchable: Refetchable
) {
    private val lock = Object()
    private var current = variables
    private var next: Load? = null
    private var previous: Load? = null
    private var error: FetchError? = null

    /** One fetch other callers wait for. */
    private class Load {
        var done = false
        var error: FetchError? = null
    }

    /** The variables the fragment is read and paged with. */
    val variables: Map<String, Any?> get() = synchronized(lock) { current }

    /** A reader of the fragment's record now, with [variables] (a generated fragment lens wraps it). */
    fun reader(): RecordReader =
        RecordReader(ReadContext(environment.store.snapshot(), variables, LoggingReporter(environment.log)), key, null, false)

    val connectionId: ConnectionId? get() = locate(environment.store.snapshot(), variables)?.first?.let { ConnectionId(it) }
    val hasNext: Boolean get() = pageInfo("hasNextPage") == StoredValue.Bool(true)
    val hasPrevious: Boolean get() = pageInfo("hasPreviousPage") == StoredValue.Bool(true)
    val isLoadingNext: Boolean get() = synchronized(lock) { next != null }
    val isLoadingPrevious: Boolean get() = synchronized(lock) { previous != null }
    /** The failure of the latest load; null after one succeeds. */
    val lastError: FetchError? get() = synchronized(lock) { error }

    /** Loads up to [count] edges after the last loaded one; a call while one runs waits for it. Throws [FetchException]. */
    fun loadNext(count: Int) = load(true, count)

    /** Loads up to [count] edges before the first loaded one. Throws [FetchException]. */
    fun loadPrevious(count: Int) = load(false, count)

    /** [loadNext] on the environment's executor, calling back with the failure (null on success). */
    fun loadNext(count: Int, callback: (FetchError?) -> Unit) = environment.track {
        callback(try { loadNext(count); null } catch (failure: FetchException) { failure.error })
    }

    /** Fetches the fragment again from the start of its connection with [overrides] over the variables. */
    fun refetch(overrides: Map<String, Any?> = emptyMap()) {
        val merged = HashMap(variables)
        merged.putAll(overrides)
        refetchable.forwardCursor?.let { merged.remove(it) }
        refetchable.backwardCursor?.let { merged.remove(it) }
        val failure = fetch(merged)
        synchronized(lock) {
            error = failure
            if (failure == null) current = merged
        }
        if (failure != null) throw FetchException(failure)
    }

    private fun load(forward: Boolean, count: Int) {
        val countName = (if (forward) refetchable.forwardCount else refetchable.backwardCount) ?: return
        val cursorName = (if (forward) refetchable.forwardCursor else refetchable.backwardCursor) ?: return
        var mine = false
        val load = synchronized(lock) {
            val running = if (forward) next else previous
            running ?: Load().also {
                mine = true
                if (forward) next = it else previous = it
            }
        }
        if (!mine) {
            synchronized(lock) { while (!load.done) lock.wait() }
            load.error?.let { throw FetchException(it) }
            return
        }
        val failure = fetchPage(forward, count, countName, cursorName)
        synchronized(lock) {
            load.done = true
            load.error = failure
            error = failure
            if (forward) next = null else previous = null
            lock.notifyAll()
        }
        if (failure != null) throw FetchException(failure)
    }

    private fun fetchPage(forward: Boolean, count: Int, countName: String, cursorName: String): FetchError? {
        val variables = variables
        val snapshot = environment.store.snapshot()
        val found = locate(snapshot, variables)
            ?: return FetchError.Unattached("the store has no connection for the fragment yet")
        val info = found.second?.let { snapshot[it] }
        val more = info?.slots?.get(if (forward) "hasNextPage" else "hasPreviousPage")?.value
        val cursor = (info?.slots?.get(if (forward) "endCursor" else "startCursor")?.value as? StoredValue.Text)?.text
        if (more != StoredValue.Bool(true) || cursor == null) return null
        val pageVariables = HashMap(variables)
        pageVariables[countName] = count
        pageVariables[cursorName] = cursor
        return fetch(pageVariables)
    }

    /** Sends the generated query; a field error at the connection fails the page. */
    private fun fetch(variables: Map<String, Any?>): FetchError? {
        val request = HashMap(variables)
        if (refetchable.throughNode) {
            val id = (environment.store.record(key)?.slots?.get("id")?.value as? StoredValue.Text)?.text
                ?: return FetchError.Unattached("the record $key has no id to refetch it by")
            request["id"] = id
        }
        val query = refetchable.query(request)
        try {
            environment.send(query, {}, {})
        } catch (failure: FetchException) {
            return failure.error
        }
        environment.keepRecent(RetainedRoot.of(query))
        val field = refetchable.connectionPath.lastOrNull() ?: return null
        val snapshot = environment.store.snapshot()
        val parent = parentOfConnection(snapshot, variables) ?: return null
        val errors = snapshot[parent]?.slots?.get(field.storageKey(variables))?.errors ?: emptyList()
        return if (errors.isEmpty()) null else FetchError.Read(FieldErrorsException(FieldErrors(errors)))
    }

    private fun parentOfConnection(snapshot: StoreSnapshot, variables: Map<String, Any?>): String? {
        var record = key
        for (field in refetchable.connectionPath.dropLast(1)) {
            record = (snapshot[record]?.slots?.get(field.readKey(variables))?.value as? StoredValue.Link)?.key ?: return null
        }
        return record
    }

    /** The connection record and its page info record. */
    private fun locate(snapshot: StoreSnapshot, variables: Map<String, Any?>): Pair<String, String?>? {
        val field = refetchable.connectionPath.lastOrNull() ?: return null
        val parent = parentOfConnection(snapshot, variables) ?: return null
        val id = (snapshot[parent]?.slots?.get(field.readKey(variables))?.value as? StoredValue.Link)?.key ?: return null
        val info = (snapshot[id]?.slots?.get("pageInfo")?.value as? StoredValue.Link)?.key
        return Pair(id, info)
    }

    private fun pageInfo(name: String): StoredValue? {
        val snapshot = environment.store.snapshot()
        val info = locate(snapshot, variables)?.second ?: return null
        return snapshot[info]?.slots?.get(name)?.value
    }
}

/**
 * The pagination of a `@refetchable` fragment's connection, for the record [reader] reads with its variables,
 * shared by every caller for the same record and variables while someone holds it.
 */
fun BatonEnvironment.pagination(reader: RecordReader, refetchable: Refetchable, fragmentName: String): Pagination {
    val key = reader.key ?: ""
    val variables = reader.context.variables
    val identity = fragmentName + "|" + key + "|" + Json.write(variables, sortKeys = true)
    synchronized(paginations) {
        (paginations[identity]?.get() as? Pagination)?.let { return it }
        val made = Pagination(this, key, variables, refetchable)
        paginations.entries.removeAll { it.value.get() == null }
        paginations[identity] = java.lang.ref.WeakReference<Any>(made)
        return made
    }
}
"""#),
("Read.kt",
#"""
package baton.runtime

/**
 * A response path built one step at a time, sharing its parent (a child lens costs one small object), dotted
 * when printed: `repository.issues.nodes.0.author`.
 */
class ResponsePath(val parent: ResponsePath?, val component: PathComponent) {
    /** The components from the root. */
    val components: List<PathComponent>
        get() {
            val result = ArrayList<PathComponent>()
            var node: ResponsePath? = this
            while (node != null) {
                result.add(node.component)
                node = node.parent
            }
            result.reverse()
            return result
        }

    override fun toString(): String = pathText(components)

    override fun equals(other: Any?): Boolean =
        other is ResponsePath && other.component == component && other.parent == parent

    override fun hashCode(): Int = component.hashCode() * 31 + (parent?.hashCode() ?: 0)

    companion object {
        /** [parent] and then the response key [key]. */
        fun key(parent: ResponsePath?, key: String): ResponsePath = ResponsePath(parent, PathComponent.Key(key))

        /** [parent] and then the list index [index]. */
        fun index(parent: ResponsePath?, index: Int): ResponsePath = ResponsePath(parent, PathComponent.Index(index))

        /** The dotted text of [path], empty at the root. */
        fun text(path: ResponsePath?): String = path?.toString() ?: ""
    }
}

/**
 * What a read noticed that the app should hear about, with the Swift runtime's payloads (Docs/Runtime.md).
 */
sealed class ReadEvent {
    /** The store has no slot for a field: the read gave null (or a zero). The environment heals it. */
    data class MissingData(val type: String, val field: String, val record: String, val path: String) : ReadEvent()

    /** A value the generated type cannot hold: a null in a non-null field, a text that does not convert. */
    data class UnexpectedValue(val type: String, val field: String, val reason: String, val path: String) : ReadEvent()

    /** A field under `@required(action: LOG)` read null; the null bubbled to the lens boundary. */
    data class RequiredFieldNull(val path: String) : ReadEvent()

    /** The event as the log prints it: `missingData {"type":"Location","field":"dimension"}`. */
    fun toLogEvent(): LogEvent = when (this) {
        is MissingData -> LogEvent("missingData", linkedMapOf<String, Any?>("type" to type, "field" to field))
        is UnexpectedValue -> LogEvent(
            "unexpectedValue",
            linkedMapOf<String, Any?>("type" to type, "field" to field, "reason" to reason, "path" to path)
        )
        is RequiredFieldNull -> LogEvent("requiredFieldNull", linkedMapOf<String, Any?>("path" to path))
    }
}

/** Receives what reads notice. Handles give their lenses one that writes to the environment's log. */
interface ReadReporter {
    /** Called once per event, on the reading thread. */
    fun report(event: ReadEvent)

    companion object {
        /** A reporter that drops every event. */
        val SILENT: ReadReporter = object : ReadReporter {
            override fun report(event: ReadEvent) {}
        }
    }
}

/** A reporter that keeps every event in order, for tests and tools. Thread-safe. */
class CollectingReporter : ReadReporter {
    private val storage = ArrayList<ReadEvent>()

    override fun report(event: ReadEvent) {
        synchronized(storage) { storage.add(event) }
    }

    /** The events so far. */
    val events: List<ReadEvent> get() = synchronized(storage) { ArrayList(storage) }

    /** The events so far, removing them. */
    fun take(): List<ReadEvent> = synchronized(storage) {
        val taken = ArrayList(storage)
        storage.clear()
        taken
    }
}

/** What every read of one operation shares: the snapshot, the variables and where to report. */
class ReadContext(
    val snapshot: StoreSnapshot,
    val variables: Map<String, Any?>,
    val reporter: ReadReporter = ReadReporter.SILENT
) {
    /** Where the last `@required` null came from (per thread), so a null that keeps bubbling names its origin. */
    private val bubbled = ThreadLocal<ResponsePath?>()

    internal var bubbledFrom: ResponsePath?
        get() = bubbled.get()
        set(value) = bubbled.set(value)

    /** Whether every condition holds under the variables. */
    fun included(conditions: List<Condition>): Boolean = conditions.isEmpty() || conditions.all { it.holds(variables) }
}

/**
 * Turns a stored, non-null value into the generated type.
 *
 * Returns `null` when the type cannot hold the value; the decoder has then reported why (an unexpected
 * value) or the null is a `@required` null bubbling to the lens boundary.
 */
abstract class Decoder<out T : Any> {
    /** Decodes [value] (never [StoredValue.Null]) read for [field] at [path] through [reader]. */
    abstract fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: ResponsePath): T?

    /**
     * The value when [decode] would give it without reporting anything, or null to take [decode]: the read's fast
     * path, which builds no path. A decoder that implements it gives exactly what its [decode] gives.
     */
    open fun decodeQuietly(value: StoredValue): T? = null

    /**
     * What a non-optional accessor reads when there is no value: the zero value of a built-in scalar, an
     * empty list, an enum's `Undeclared("")`, a lens over no record; null for a mapped custom scalar, which
     * has no honest zero.
     */
    open fun zero(reader: RecordReader): T? = null

    /** For a list level, the decoder of its items; null for anything else. */
    open fun listElement(): Decoder<*>? = null
}

/**
 * A list level whose items the generated type cannot hold null for (`List<T>`): a null item makes the whole
 * list null, which goes to the nearest level that can hold it, as GraphQL's null propagation does.
 *
 * [itemNonNull] says whether the schema promises a value, so a stored null item is reported as unexpected
 * (a `@required` null bubbling into an item is not).
 */
class ListDecoder<out T : Any>(val element: Decoder<T>, val itemNonNull: Boolean = true) : Decoder<List<T>>() {
    override fun zero(reader: RecordReader): List<T>? = emptyList()

    override fun listElement(): Decoder<*>? = element

    override fun decodeQuietly(value: StoredValue): List<T>? {
        val items = (value as? StoredValue.Items)?.items ?: return null
        val result = ArrayList<T>(items.size)
        for (item in items) result.add(element.decodeQuietly(item) ?: return null)
        return result
    }

    override fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: ResponsePath): List<T>? {
        val items = (value as? StoredValue.Items)?.items
            ?: return reader.unexpected(field, path, "expected a list, found ${describe(value)}")
        val result = ArrayList<T>(items.size)
        for ((index, item) in items.withIndex()) {
            if (isDeletedItem(item, reader)) continue
            val decoded = decodeItem(element, itemNonNull, item, reader, field, ResponsePath.index(path, index))
                ?: return null
            result.add(decoded)
        }
        return result
    }
}

/**
 * A list level whose items may be null (`List<T?>`): a null item, or one that does not decode, reads null.
 *
 * [itemNonNull] says whether the schema promises a value, so a stored null item is reported as unexpected.
 */
class OptionalItemsDecoder<out T : Any>(val element: Decoder<T>, val itemNonNull: Boolean = false) :
    Decoder<List<T?>>() {
    override fun zero(reader: RecordReader): List<T?>? = emptyList()

    override fun listElement(): Decoder<*>? = element

    override fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: ResponsePath): List<T?>? {
        val items = (value as? StoredValue.Items)?.items
            ?: return reader.unexpected(field, path, "expected a list, found ${describe(value)}")
        val result = ArrayList<T?>(items.size)
        for ((index, item) in items.withIndex()) {
            if (isDeletedItem(item, reader)) continue
            result.add(decodeItem(element, itemNonNull, item, reader, field, ResponsePath.index(path, index)))
        }
        return result
    }
}

/** An item deleted by `@deleteRecord`: gone from the list, not a null in it. */
private fun isDeletedItem(item: StoredValue, reader: RecordReader): Boolean =
    item is StoredValue.Link && reader.context.snapshot[item.key]?.isDeleted == true

private fun <T : Any> decodeItem(
    element: Decoder<T>, itemNonNull: Boolean, item: StoredValue, reader: RecordReader, field: Field<*>,
    path: ResponsePath
): T? {
    if (item !is StoredValue.Null) return element.decode(item, reader, field, path)
    if (itemNonNull && !reader.slotHasErrors(field)) reader.unexpected<T>(field, path, "null in a non-null list item")
    return null
}

/** A stored value as a report shows it, as the Swift runtime does: `string "old"`, `number 12.5`, `an object`. */
fun describe(value: StoredValue): String = when (value) {
    is StoredValue.Null -> "null"
    is StoredValue.Text -> "string \"" + value.text.take(40) + "\""
    is StoredValue.Number -> "number " + value.literal
    is StoredValue.Bool -> "boolean " + value.value
    is StoredValue.JsonText -> "a JSON value"
    is StoredValue.Link -> "an object"
    is StoredValue.Items -> "a list"
}

/**
 * A scalar decoder: the stored value turned into [T] by [convert], which returns null (or throws) when it
 * cannot; [zeroValue] is the zero value, if the type has one; [reason] says why a value does not fit.
 */
class TextDecoder<out T : Any>(
    private val zeroValue: T?,
    private val reason: (StoredValue) -> String,
    private val convert: (StoredValue) -> T?
) : Decoder<T>() {
    /** A decoder whose failures read `expected <what>, found <the value>`. */
    constructor(what: String, zeroValue: T?, convert: (StoredValue) -> T?) :
        this(zeroValue, { value: StoredValue -> "expected $what, found ${describe(value)}" }, convert)

    override fun zero(reader: RecordReader): T? = zeroValue

    override fun decodeQuietly(value: StoredValue): T? = try {
        convert(value)
    } catch (error: Exception) {
        null
    }

    override fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: ResponsePath): T? =
        decodeQuietly(value) ?: reader.unexpected(field, path, reason(value))
}

/** A lens of a composite type: a link decodes to [factory]'s lens over the linked record. */
class LensDecoder<out T : Any>(private val factory: (RecordReader) -> T) : Decoder<T>() {
    override fun zero(reader: RecordReader): T? = factory(reader.absent())

    override fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: ResponsePath): T? {
        val link = value as? StoredValue.Link
            ?: return reader.unexpected(field, path, "expected an object, found ${describe(value)}")
        // A record deleted by `@deleteRecord`: the link reads as null.
        if (reader.context.snapshot[link.key]?.isDeleted == true) return null
        val child = reader.child(link.key, path)
        val missing = child.missingRequired(field.selections)
        if (missing != null) {
            reader.context.bubbledFrom = missing
            return null
        }
        return factory(child)
    }
}

/** The decoders of the built-in scalars, custom scalars and enums. */
object Scalars {
    /** The text of a scalar as the server wrote it (a number's literal, `true`/`false`, an object's JSON). */
    fun text(value: StoredValue): String? = when (value) {
        is StoredValue.Text -> value.text
        is StoredValue.Number -> value.literal
        is StoredValue.Bool -> if (value.value) "true" else "false"
        is StoredValue.JsonText -> value.json
        else -> null
    }

    /** `String`: a JSON string. */
    val STRING: Decoder<String> = TextDecoder("a String", "") { (it as? StoredValue.Text)?.text }

    /** `ID`: a JSON string, or an integer's literal. */
    val ID: Decoder<String> = TextDecoder("an ID", "") {
        when (it) {
            is StoredValue.Text -> it.text
            is StoredValue.Number -> if (it.literal.all { char -> char in '0'..'9' || char == '-' }) it.literal else null
            else -> null
        }
    }

    /** `Int`: a JSON number that is a 32-bit integer. */
    val INT: Decoder<Int> = TextDecoder("an Int", 0) { (it as? StoredValue.Number)?.literal?.toIntOrNull() }

    /** `Float`: a JSON number. */
    val FLOAT: Decoder<Double> = TextDecoder("a Float", 0.0) { (it as? StoredValue.Number)?.literal?.toDoubleOrNull() }

    /** `Boolean`: a JSON Boolean. */
    val BOOLEAN: Decoder<Boolean> = TextDecoder("a Boolean", false) { (it as? StoredValue.Bool)?.value }

    /** An unmapped custom scalar: its text. */
    val CUSTOM: Decoder<String> = TextDecoder("a scalar", "") { text(it) }

    /**
     * A mapped custom scalar: its text converted by [converter]; a text that does not convert is unexpected
     * (`"year x" does not convert to Years`) and never reads as a zero.
     */
    fun <T : Any> custom(converter: ScalarConverter<T>): Decoder<T> {
        val name = converter.javaClass.simpleName
        return TextDecoder<T>(
            null,
            { value ->
                when (value) {
                    is StoredValue.Text -> "\"${value.text.take(40)}\" does not convert to $name"
                    is StoredValue.Number -> "\"${value.literal.take(40)}\" does not convert to $name"
                    else -> "expected a $name text, found ${describe(value)}"
                }
            },
            { value -> text(value)?.let { converter.decode(it) } }
        )
    }

    /** An enum: the text parsed by [parse] (generated enums keep unknown texts as `Undeclared`). */
    fun <T : Any> enumeration(parse: (String) -> T): Decoder<T> =
        TextDecoder("an enum value", parse("")) { (it as? StoredValue.Text)?.text?.let(parse) }
}

/**
 * A view of one record through one selection, over one snapshot: what generated lenses read through.
 *
 * [key] is the record's key, or null for a lens that stands in where no record could be read (every read
 * then gives null, so non-null accessors give their zero values). [strict] is `@throwOnFieldError`.
 *
 * Two readers are equal when they read the same record of the same snapshot with the same variables and
 * policy, so generated lenses (which compare their readers) work as Compose state and in a `StateFlow`.
 */
class RecordReader(
    val context: ReadContext,
    val key: String?,
    val path: ResponsePath?,
    val strict: Boolean
) {
    /** The record, read once from the immutable snapshot. */
    val record: Record? = if (key == null) null else context.snapshot[key]

    /** True when a mutation's `@deleteRecord` deleted the record: its fields read null and nothing is missing. */
    val isDeleted: Boolean get() = record?.isDeleted == true

    /** True when an optimistic update (a mutation's optimistic response, not yet answered) wrote this record. */
    val isOptimistic: Boolean get() = key != null && key in context.snapshot.optimisticRecords

    /** The record's type name (its `__typename`, or the type it was stored as), when known. */
    val typename: String? get() = record?.typename ?: key?.substringBefore(':')

    /** A reader of the record [childKey] at [childPath], with this reader's policy. */
    fun child(childKey: String, childPath: ResponsePath): RecordReader =
        RecordReader(context, childKey, childPath, strict)

    /** This reader with [strict] as its policy (a fragment's own `@throwOnFieldError`). */
    fun withPolicy(strict: Boolean): RecordReader =
        if (strict == this.strict) this else RecordReader(context, key, path, strict)

    /** A reader of no record, for a non-null lens accessor whose record could not be read. */
    fun absent(): RecordReader = RecordReader(context, null, path, strict)

    override fun equals(other: Any?): Boolean =
        other is RecordReader && other.key == key && other.strict == strict &&
            other.context.snapshot == context.snapshot && other.context.variables == context.variables

    override fun hashCode(): Int = (key?.hashCode() ?: 0) * 31 + context.snapshot.hashCode()

    /** Reports [detail] about [field] at [path] as an unexpected value; returns null for convenience. */
    fun <T> unexpected(field: Field<*>, path: ResponsePath, detail: String): T? {
        context.reporter.report(ReadEvent.UnexpectedValue(typename ?: "?", field.name, detail, path.toString()))
        return null
    }

    /** Whether [field]'s slot carries field errors. */
    fun slotHasErrors(field: Field<*>): Boolean =
        record?.slots?.get(field.readKey(context.variables))?.errors?.isNotEmpty() == true

    private fun slot(field: Field<*>, report: Boolean): Slot? {
        if (key == null) return null
        val storageKey = field.readKey(context.variables)
        val slot = record?.slots?.get(storageKey)
        // A deleted record's fields are gone, not missing: nothing is reported.
        if (slot == null && report && record?.isDeleted != true) {
            context.reporter.report(
                ReadEvent.MissingData(typename ?: "?", field.name, key, ResponsePath.key(path, field.responseKey).toString())
            )
        }
        return slot
    }

    /**
     * Reads [field]: its value, or null when it is excluded, missing (reported), null, has a field error, or
     * does not fit the type (reported). Under [strict] a field error throws [FieldErrorsException].
     */
    fun <T : Any> read(field: Field<T>): T? {
        if (!context.included(field.conditions)) return null
        val slot = slot(field, report = true) ?: return null
        if (slot.errors.isEmpty() && slot.value !is StoredValue.Null) {
            val quiet = field.decoder.decodeQuietly(slot.value)
            if (quiet != null) return quiet
        }
        if (slot.errors.isNotEmpty()) {
            if (strict) throw FieldErrorsException(FieldErrors(slot.errors))
            if (slot.value is StoredValue.Null) return null
        }
        val fieldPath = ResponsePath.key(path, field.responseKey)
        if (slot.value is StoredValue.Null) {
            if (field.nonNull) unexpected<T>(field, fieldPath, "null in a non-null field")
            return null
        }
        return field.decoder.decode(slot.value, this, field, fieldPath)
    }

    /** Reads a `@required(action: THROW)` field: its value, or [RequiredFieldException] when it reads null. */
    fun <T : Any> readOrThrow(field: Field<T>): T {
        context.bubbledFrom = null
        val value = read(field)
        if (value != null) return value
        val bubbled = context.bubbledFrom
        throw RequiredFieldException(
            (if (bubbled != null && !isOwnNull(field)) bubbled else ResponsePath.key(path, field.responseKey)).components
        )
    }

    /**
     * Reads a field whose accessor is not optional: its value, or the decoder's zero value when there is none
     * (the null was reported as unexpected, or is a field error or missing data, also reported). A mapped
     * custom scalar has no zero: then the read throws [RequiredFieldException].
     */
    fun <T : Any> readNonNull(field: Field<T>): T =
        read(field) ?: field.decoder.zero(this)
            ?: throw RequiredFieldException(ResponsePath.key(path, field.responseKey).components)

    /**
     * Reads a `@catch` field: [Failure][FieldResult.Failure] with the errors stored on the field or on any
     * field inside it that no other `@catch` handles, otherwise [Success][FieldResult.Success] with what
     * [read] gives (evaluated without `@throwOnFieldError`, as there is nothing left to throw).
     */
    fun <R> catching(field: Field<*>, read: (RecordReader) -> R): FieldResult<R> {
        val errors = if (context.included(field.conditions)) fieldErrors(field) else emptyList()
        return if (errors.isNotEmpty()) FieldResult.Failure(FieldErrors(errors)) else FieldResult.Success(read(withPolicy(false)))
    }

    /** Reads a `@catch(to: NULL)` field: null when it or a field inside it has errors, else what [read] gives. */
    fun <R> catchingToNull(field: Field<*>, read: (RecordReader) -> R?): R? {
        val errors = if (context.included(field.conditions)) fieldErrors(field) else emptyList()
        return if (errors.isNotEmpty()) null else read(withPolicy(false))
    }

    /** The lens of an inline fragment when the record's type matches, else null. */
    fun <T : Any> inlineFragment(fragment: InlineFragment<T>): T? {
        if (!context.included(fragment.conditions)) return null
        if (!typeMatches(record?.typename, fragment.possibleTypes)) return null
        val missing = missingRequired(fragment.selections)
        if (missing != null) {
            context.bubbledFrom = missing
            return null
        }
        return fragment.factory(this)
    }

    /** The lens of an inline fragment whose accessor is not optional; a lens over no record when it cannot read. */
    fun <T : Any> inlineFragmentNonNull(fragment: InlineFragment<T>): T = inlineFragment(fragment) ?: fragment.factory(absent())

    /**
     * The lens of a fragment spread on this record, under the fragment's own policy; null when the type does
     * not match or a `@required` field inside the fragment read null.
     */
    fun <T : Any> fragment(spread: FragmentSpread<T>): T? {
        if (!context.included(spread.conditions)) return null
        if (!typeMatches(record?.typename, spread.possibleTypes)) return null
        if (key != null && record == null) {
            context.reporter.report(ReadEvent.MissingData("?", "...${spread.fragmentName}", key, ResponsePath.text(path)))
            return null
        }
        val reader = withPolicy(spread.throwOnFieldError)
        if (spread.throwOnFieldError) {
            val errors = reader.uncaughtErrors(spread.selections)
            if (errors.isNotEmpty()) throw FieldErrorsException(FieldErrors(errors))
        }
        val missing = reader.missingRequired(spread.selections)
        if (missing != null) {
            context.bubbledFrom = missing
            return null
        }
        return spread.factory(reader)
    }

    /** The lens of a fragment spread whose accessor is not optional; a lens over no record when it cannot read. */
    fun <T : Any> fragmentNonNull(spread: FragmentSpread<T>): T =
        fragment(spread) ?: spread.factory(absent().withPolicy(spread.throwOnFieldError))

    private fun isOwnNull(field: Field<*>): Boolean {
        val slot = slot(field, report = false) ?: return true
        return slot.value is StoredValue.Null
    }

    /**
     * The path of the first `@required(action: NONE|LOG)` field among [selections] that reads null (logging
     * it under LOG), or null when every one has a value. Inline fragments and fragment spreads are lens
     * boundaries of their own and are not entered.
     */
    fun missingRequired(selections: List<Selection>): ResponsePath? {
        if (key == null) return null
        loop@ for (selection in selections) {
            val field = selection as? Field<*> ?: continue@loop
            val action = field.required ?: continue@loop
            if (action == RequiredAction.THROW || !context.included(field.conditions)) continue@loop
            context.bubbledFrom = null
            if (read(field) != null) continue@loop
            val bubbled = context.bubbledFrom
            if (bubbled != null && !isOwnNull(field)) return bubbled
            val fieldPath = ResponsePath.key(path, field.responseKey)
            if (action == RequiredAction.LOG) context.reporter.report(ReadEvent.RequiredFieldNull(fieldPath.toString()))
            return fieldPath
        }
        return null
    }

    /**
     * The errors a `@catch` on [field] catches: those stored on it and, for a composite field, on the fields inside
     * it (through links, list items and the inline fragments the record matches) that no closer `@catch` catches,
     * outside fragment spreads; and a required-field error for each `@required(action: THROW)` field inside that
     * reads null (`required field character.origin.name is null`, with its path), after that field's own errors,
     * as Relay's `@catch` catches a THROW. The Swift runtime's `CaughtErrors.of` is the same walk, in the same order.
     */
    fun fieldErrors(field: Field<*>): List<FieldError> {
        val slot = slot(field, report = false) ?: return emptyList()
        val errors = ArrayList(slot.errors)
        if (field.isComposite) ErrorWalk(true).collect(slot.value, field.selections, ResponsePath.key(path, field.responseKey), 0, errors)
        return errors
    }

    /**
     * The field errors among [selections] (recursively) that no `@catch` handles, outside fragment spreads (each
     * fragment's own policy answers for those, as in Relay): what `@throwOnFieldError` fails on. A THROW null is
     * not among them; it throws at its own getter. The Swift runtime's `CaughtErrors.uncaught`.
     */
    fun uncaughtErrors(selections: List<Selection>): List<FieldError> {
        val errors = ArrayList<FieldError>()
        if (key != null) ErrorWalk(false).collectInRecord(key, selections, path, 0, errors)
        return errors
    }

    /** One walk of [fieldErrors] or [uncaughtErrors]; [requiredNulls] counts THROW nulls (under `@catch`). */
    private inner class ErrorWalk(private val requiredNulls: Boolean) {
        /** Reads THROW fields as their getters would, reporting nothing (the getter reports when the app reads it). */
        private val silent: ReadContext by lazy { ReadContext(context.snapshot, context.variables) }

        fun collectInRecord(
            recordKey: String, selections: List<Selection>, at: ResponsePath?, depth: Int, into: MutableList<FieldError>
        ) {
            if (depth > Json.MAX_DEPTH) return
            val record = context.snapshot[recordKey] ?: return
            loop@ for (selection in selections) {
                when (selection) {
                    is Field<*> -> {
                        if (selection.catches || !context.included(selection.conditions)) continue@loop
                        val fieldPath = ResponsePath.key(at, selection.responseKey)
                        val slot = record.slots[selection.storageKey(context.variables)]
                        if (slot != null) into.addAll(slot.errors)
                        if (requiredNulls && selection.required == RequiredAction.THROW &&
                            RecordReader(silent, recordKey, fieldPath.parent, false).read(selection) == null
                        ) {
                            into.add(FieldError("required field $fieldPath is null", fieldPath.components))
                        }
                        if (slot != null && selection.isComposite) {
                            collect(slot.value, selection.selections, fieldPath, depth + 1, into)
                        }
                    }
                    is InlineFragment<*> -> if (typeMatches(record.typename, selection.possibleTypes) && context.included(selection.conditions)) {
                        collectInRecord(recordKey, selection.selections, at, depth + 1, into)
                    }
                    is FragmentSpread<*> -> Unit
                }
            }
        }

        fun collect(value: StoredValue, selections: List<Selection>, at: ResponsePath, depth: Int, into: MutableList<FieldError>) {
            if (depth > Json.MAX_DEPTH) return
            when (value) {
                is StoredValue.Link -> collectInRecord(value.key, selections, at, depth + 1, into)
                is StoredValue.Items -> for ((index, item) in value.items.withIndex()) {
                    collect(item, selections, ResponsePath.index(at, index), depth + 1, into)
                }
                else -> Unit
            }
        }
    }
}
"""#),
("Retention.kt",
#"""
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
"""#),
("RetryPolicy.kt",
#"""
package baton.runtime

import kotlin.random.Random

/**
 * When the environment sends a query again after a transport failure, and how long the WebSocket transport waits
 * before it reconnects: the Swift runtime's `RetryPolicy`, with the same numbers.
 *
 * Only queries are retried (a mutation may have happened even when its answer was lost), and only after a failure
 * that can pass ([TransportException.isTransient]: a network failure, a timeout, 429, 502, 503, 504). The wait
 * doubles from [initialDelay] up to [maxDelay] (seconds), each time a random part of it (between half and all, so
 * clients that failed together do not return together), and is at least the server's `Retry-After`; a
 * `Retry-After` longer than [maxRetryAfter] is not waited for: the failure surfaces at once.
 */
data class RetryPolicy(
    /** Retries after the first attempt. */
    val maxRetries: Int,
    val initialDelay: Double = 0.25,
    val maxDelay: Double = 8.0,
    val maxRetryAfter: Double = 30.0
) {
    /** The wait in seconds before retry number [retry] (1-based) after [error], or null when it must not be retried. */
    fun delay(retry: Int, error: TransportException, random: Random = Random.Default): Double? {
        if (retry > maxRetries || !error.isTransient) return null
        val retryAfter = error.retryAfter
        if (retryAfter != null && retryAfter > maxRetryAfter) return null
        val backoff = Math.min(maxDelay, initialDelay * Math.pow(2.0, (retry - 1).toDouble()))
        val jittered = backoff * (0.5 + random.nextDouble() * 0.5)
        return Math.max(jittered, retryAfter ?: 0.0)
    }

    companion object {
        /** Two retries, from a quarter of a second. */
        val STANDARD = RetryPolicy(2)

        /** No retries. */
        val NEVER = RetryPolicy(0)
    }
}
"""#),
("Selections.kt",
#"""
package baton.runtime

/**
 * Whether a record of type [typename] matches [possibleTypes]: null matches every record, and so does an
 * unknown type name (a response without `__typename`), as the Swift runtime tolerates it.
 */
fun typeMatches(typename: String?, possibleTypes: Set<String>?): Boolean =
    possibleTypes == null || typename == null || typename in possibleTypes

/** A variable's value in an argument: resolved from the operation's variables when a storage key is computed. */
data class Variable(val name: String)

/**
 * When a selection applies: `@include(if:)` or `@skip(if:)` on a variable or a literal, or a combination
 * (a selection merged from several places applies when any of them does).
 *
 * A selection applies when every one of its conditions holds.
 */
abstract class Condition {
    /** Whether the condition holds under [variables]; an absent or non-Boolean variable counts as false. */
    abstract fun holds(variables: Map<String, Any?>): Boolean

    private class OnVariable(val variable: String, val skip: Boolean) : Condition() {
        override fun holds(variables: Map<String, Any?>): Boolean = (variables[variable] == true) != skip
    }

    private class Literal(val value: Boolean) : Condition() {
        override fun holds(variables: Map<String, Any?>): Boolean = value
    }

    private class AllOf(val conditions: List<Condition>) : Condition() {
        override fun holds(variables: Map<String, Any?>): Boolean = conditions.all { it.holds(variables) }
    }

    private class AnyOf(val conditions: List<Condition>) : Condition() {
        override fun holds(variables: Map<String, Any?>): Boolean = conditions.any { it.holds(variables) }
    }

    companion object {
        /** `@include(if: $variable)`. */
        fun include(variable: String): Condition = OnVariable(variable, false)

        /** `@skip(if: $variable)`. */
        fun skip(variable: String): Condition = OnVariable(variable, true)

        /** A condition fixed when the document was written (`@include(if: true)`). */
        fun literal(value: Boolean): Condition = Literal(value)

        /** Holds when every one of [conditions] holds. */
        fun allOf(conditions: List<Condition>): Condition = AllOf(conditions)

        /** Holds when any one of [conditions] holds. */
        fun anyOf(conditions: List<Condition>): Condition = AnyOf(conditions)
    }
}

/** What a `@required` field does when it reads null. */
enum class RequiredAction {
    /** The null bubbles to the lens boundary silently. */
    NONE,

    /** The null bubbles to the lens boundary and the log receives the path. */
    LOG,

    /** The accessor throws [RequiredFieldException]. */
    THROW
}

/**
 * One selection of a lens, as the generated code describes it to the runtime: what to normalize from a
 * response and what a read checks (conditions, `@required`, `@catch`).
 */
sealed class Selection

/**
 * A field: its response key, its name and arguments (which make its storage key), the schema type it
 * returns, how its value decodes, and the selections below it for a composite field.
 *
 * [nonNull] says whether a stored null is unexpected (the schema, or `@semanticNonNull` under
 * `@throwOnFieldError`, promises a value).
 */
class Field<out T : Any>(
    val responseKey: String,
    val name: String,
    val typeName: String,
    val decoder: Decoder<T>,
    val nonNull: Boolean,
    val arguments: Map<String, Any?> = emptyMap(),
    val selections: List<Selection> = emptyList(),
    val conditions: List<Condition> = emptyList(),
    val required: RequiredAction? = null,
    val catches: Boolean = false,
    /** `@connection`: the field's pages merge into one connection record, which reads see. */
    val connection: ConnectionSpec? = null,
    /** A declarative update (`@appendEdge`, `@deleteRecord`, …) the response's value at this field makes. */
    val update: RecordUpdate? = null
) : Selection() {
    /** Whether the field has a selection set (its values are records). */
    val isComposite: Boolean get() = selections.isNotEmpty()

    private val constantKey: String? = if (arguments.isEmpty()) name else if (!containsVariable(arguments)) {
        storageKey(name, arguments, emptyMap())
    } else null

    /** The slot's key in a record: the name, plus canonically ordered arguments with variables resolved. */
    fun storageKey(variables: Map<String, Any?>): String = constantKey ?: storageKey(name, arguments, variables)

    private val connectionArguments: Map<String, Any?> =
        connection?.let { spec -> arguments.filterKeys { it in spec.filters } } ?: emptyMap()

    /**
     * The key reads find the field's value under: [storageKey], or for a `@connection` field the slot linking to
     * its connection record (`__connection:KEY(filters)`), where every page it was given is merged.
     */
    fun readKey(variables: Map<String, Any?>): String {
        val spec = connection ?: return storageKey(variables)
        val resolved = storageKey("_", connectionArguments, variables)
        return if (resolved == "_") "__connection:" + spec.key else "__connection:" + spec.key + resolved.substring(1)
    }

    companion object {
        /** `name` without arguments, else `name({"a":1,"b":"x"})` with keys sorted, absent variables left out. */
        fun storageKey(name: String, arguments: Map<String, Any?>, variables: Map<String, Any?>): String {
            val resolved = LinkedHashMap<String, Any?>()
            for ((key, value) in arguments) {
                if (value is Variable && !variables.containsKey(value.name)) continue
                resolved[key] = resolve(value, variables)
            }
            if (resolved.isEmpty()) return name
            return name + "(" + Json.write(resolved, sortKeys = true) + ")"
        }

        private fun resolve(value: Any?, variables: Map<String, Any?>): Any? = when (value) {
            is Variable -> variables[value.name]
            is Map<*, *> -> value.entries
                .filter { !(it.value is Variable && !variables.containsKey((it.value as Variable).name)) }
                .associate { it.key.toString() to resolve(it.value, variables) }
            is List<*> -> value.map { resolve(it, variables) }
            else -> value
        }

        private fun containsVariable(value: Any?): Boolean = when (value) {
            is Variable -> true
            is Map<*, *> -> value.values.any { containsVariable(it) }
            is List<*> -> value.any { containsVariable(it) }
            else -> false
        }
    }
}

/**
 * An inline fragment, read through an `asType` accessor: its selections apply when the record's type is one
 * of [possibleTypes] (null: every record the parent reads matches); [factory] makes its lens.
 */
class InlineFragment<out T : Any>(
    val typeCondition: String?,
    val possibleTypes: Set<String>?,
    val selections: List<Selection>,
    val factory: (RecordReader) -> T,
    val conditions: List<Condition> = emptyList()
) : Selection()

/**
 * A fragment spread: the fragment's selections apply to the parent's record when its type is one of
 * [possibleTypes] (null: every record the parent reads matches); [factory] makes the fragment's lens. The
 * fragment is a lens boundary: a `@required` null inside it makes the spread's accessor read null.
 * [throwOnFieldError] is the fragment's own policy.
 */
class FragmentSpread<out T : Any>(
    val fragmentName: String,
    val typeCondition: String,
    val possibleTypes: Set<String>?,
    val selections: List<Selection>,
    val factory: (RecordReader) -> T,
    val throwOnFieldError: Boolean = false,
    val conditions: List<Condition> = emptyList()
) : Selection()

/**
 * What every generated operation offers the runtime and the app.
 *
 * [D] is the operation's data lens.
 */
interface Operation<out D : Any> {
    /** The operation's name in the document. */
    val operationName: String

    /** `query`, `mutation` or `subscription`. */
    val operationType: String

    /** The document sent to the server: the operation and the fragments it uses, printed canonically. */
    val document: String

    /** The SHA-256 of [document], lower-case hex: the persisted-query id. */
    val operationId: String

    /** The `onError` behaviour baton.json asks the server for (`NULL`, `PROPAGATE`, `HALT`), or null. */
    val onError: String?

    /** The root type's name: the key of the root record (`Query`, `Mutation`, `Subscription`). */
    val rootTypename: String

    /** The selections of the data lens. */
    val selections: List<Selection>

    /** Whether the operation is under `@throwOnFieldError`. */
    val throwOnFieldError: Boolean

    /** The variables as the request's JSON object (absent variables left out). */
    fun variables(): Map<String, Any?>

    /**
     * The variables as the server sees them: [variables] with the document's defaults for those left out.
     * Reads and normalization resolve `@include`/`@skip` and arguments with these.
     */
    fun variablesWithDefaults(): Map<String, Any?> = variables()

    /**
     * The variables only client-only directives use (`connections` of `@appendEdge`): never sent (the document
     * leaves them out), read by the runtime when it applies the response.
     */
    fun clientVariables(): Map<String, Any?> = emptyMap()

    /** [variablesWithDefaults] and [clientVariables]: what storage keys, conditions and updates resolve with. */
    fun resolvedVariables(): Map<String, Any?> {
        val client = clientVariables()
        return if (client.isEmpty()) variablesWithDefaults() else variablesWithDefaults() + client
    }

    /** The data lens over the root record. */
    fun data(reader: RecordReader): D

    /** How long data stays fresh, in seconds; null for never stale by age (a handle's `expiration` overrides it). */
    val expiration: Double? get() = null
}

/** An operation with its variables, as invalidation and the log name it: its name and its variables' canonical JSON. */
data class OperationIdentity(val name: String, val variables: String) {
    override fun toString(): String = name + variables

    companion object {
        /** The identity of [operation]. */
        fun of(operation: Operation<*>): OperationIdentity =
            OperationIdentity(operation.operationName, Json.write(operation.variables(), sortKeys = true))
    }
}

/** The request body for [operation]: `query`, `operationName`, `variables`, and `onError` when set. */
fun requestBody(operation: Operation<*>): String = GraphQLRequest(operation).body
"""#),
("SocketWebSocket.kt",
#"""
package baton.runtime

import java.io.BufferedInputStream
import java.io.BufferedOutputStream
import java.io.ByteArrayOutputStream
import java.io.EOFException
import java.io.IOException
import java.io.InputStream
import java.io.OutputStream
import java.net.InetSocketAddress
import java.net.Socket
import java.net.URI
import java.security.MessageDigest
import java.security.SecureRandom

/**
 * Baton's own RFC 6455 WebSocket client over `java.net.Socket` (on every JVM and on Android), as the Swift runtime's
 * `SocketWebSocketConnector`: the opening handshake with `Sec-WebSocket-Accept` and the subprotocol checked, masked
 * frames out, fragmented messages, ping (answered with pong), pong and close frames in, messages up to
 * [maxMessageBytes]. No TLS: `wss://` is refused ([WebSocketException]); the OkHttp adapter's connector speaks it.
 */
class SocketWebSocketConnector @JvmOverloads constructor(
    val connectTimeoutMillis: Int = 10000,
    val maxMessageBytes: Int = 16 shl 20
) : WebSocketConnector {
    override fun connect(url: String, subprotocol: String, headers: Map<String, String>): WebSocketConnection {
        val uri = try {
            URI(url)
        } catch (error: java.net.URISyntaxException) {
            throw WebSocketException("unsupported WebSocket URL $url")
        }
        val host = uri.host
        if (uri.scheme != "ws" || host == null) {
            throw WebSocketException("unsupported WebSocket URL $url (ws:// only; wss:// needs a TLS connector, such as OkHttp's)")
        }
        val port = if (uri.port < 0) 80 else uri.port
        val socket = Socket()
        try {
            socket.tcpNoDelay = true
            socket.connect(InetSocketAddress(host, port), connectTimeoutMillis)
            socket.soTimeout = connectTimeoutMillis
            val input = BufferedInputStream(socket.getInputStream())
            val output = BufferedOutputStream(socket.getOutputStream())
            val key = Base64Text.encode(ByteArray(16).also { random.nextBytes(it) })
            val path = (if (uri.rawPath.isNullOrEmpty()) "/" else uri.rawPath) + (uri.rawQuery?.let { "?$it" } ?: "")
            val head = StringBuilder()
            head.append("GET ").append(path).append(" HTTP/1.1\r\n")
            head.append("Host: ").append(host).append(if (uri.port < 0) "" else ":$port").append("\r\n")
            head.append("Upgrade: websocket\r\nConnection: Upgrade\r\n")
            head.append("Sec-WebSocket-Key: ").append(key).append("\r\n")
            head.append("Sec-WebSocket-Version: 13\r\n")
            head.append("Sec-WebSocket-Protocol: ").append(subprotocol).append("\r\n")
            for ((name, value) in headers) head.append(name).append(": ").append(value).append("\r\n")
            head.append("\r\n")
            output.write(head.toString().toByteArray(Charsets.UTF_8))
            output.flush()
            checkHandshake(readHead(input), key, subprotocol)
            socket.soTimeout = 0
            return SocketWebSocket(socket, input, output, maxMessageBytes)
        } catch (error: IOException) {
            try {
                socket.close()
            } catch (ignored: IOException) {
            }
            throw error
        }
    }

    /** The response head, up to its blank line (at most 16 KiB). */
    private fun readHead(input: InputStream): String {
        val bytes = ByteArrayOutputStream()
        var matched = 0
        while (matched < 4) {
            val byte = input.read()
            if (byte < 0) throw WebSocketException("handshake failed: the server closed the connection")
            bytes.write(byte)
            if (bytes.size() > 16384) throw WebSocketException("handshake failed: a response head over 16 KiB")
            matched = when {
                (matched == 0 || matched == 2) && byte == CR -> matched + 1
                (matched == 1 || matched == 3) && byte == LF -> matched + 1
                byte == CR -> 1
                else -> 0
            }
        }
        return String(bytes.toByteArray(), Charsets.ISO_8859_1)
    }

    private fun checkHandshake(head: String, key: String, subprotocol: String) {
        val lines = head.split("\r\n").filter { it.isNotEmpty() }
        val status = lines.firstOrNull()?.split(' ')?.getOrNull(1)
        if (status != "101") throw WebSocketException("handshake failed: ${lines.firstOrNull() ?: "no status line"}")
        val fields = HashMap<String, String>()
        for (line in lines.drop(1)) {
            val colon = line.indexOf(':')
            if (colon > 0) fields[asciiLowercase(line.substring(0, colon).trim())] = line.substring(colon + 1).trim()
        }
        val expected = Base64Text.encode(
            MessageDigest.getInstance("SHA-1").digest((key + ACCEPT_GUID).toByteArray(Charsets.ISO_8859_1))
        )
        if (fields["sec-websocket-accept"] != expected) throw WebSocketException("handshake failed: a wrong Sec-WebSocket-Accept")
        if (fields["sec-websocket-protocol"] != subprotocol) {
            throw WebSocketException("handshake failed: the server did not accept the subprotocol $subprotocol")
        }
    }

    companion object {
        private const val ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
        private const val CR = 13
        private const val LF = 10
        internal val random = SecureRandom()
    }
}

/** One client socket's frames (RFC 6455 section 5). */
internal class SocketWebSocket(
    private val socket: Socket,
    private val input: InputStream,
    private val output: OutputStream,
    private val maxMessageBytes: Int
) : WebSocketConnection {
    private val writeLock = Any()
    @Volatile
    private var closing = false
    private var closeSent = false

    override fun receive(): String? {
        try {
            return readMessage()
        } catch (error: IOException) {
            if (closing) return null
            throw error
        }
    }

    private fun readMessage(): String? {
        val message = ByteArrayOutputStream()
        var inMessage = false
        while (true) {
            val first = input.read()
            if (first < 0) {
                if (closing) return null
                throw EOFException("the connection closed without a close frame")
            }
            val second = readByte()
            val fin = first and 0x80 != 0
            val opcode = first and 0x0F
            if (first and 0x70 != 0) throw WebSocketException("protocol violation: reserved bits set")
            if (second and 0x80 != 0) throw WebSocketException("protocol violation: a masked frame from the server")
            var length = (second and 0x7F).toLong()
            if (length == 126L) {
                length = (readByte().toLong() shl 8) or readByte().toLong()
            } else if (length == 127L) {
                length = 0
                for (index in 0 until 8) length = (length shl 8) or readByte().toLong()
            }
            if (opcode >= 8) {
                if (!fin || length > 125) throw WebSocketException("protocol violation: a fragmented or long control frame")
                val payload = readFully(length.toInt())
                when (opcode) {
                    OPCODE_CLOSE -> {
                        closing = true
                        sendFrame(OPCODE_CLOSE, payload.copyOf(Math.min(payload.size, 2)))
                        socket.close()
                        return null
                    }
                    OPCODE_PING -> sendFrame(OPCODE_PONG, payload)
                    OPCODE_PONG -> Unit
                    else -> throw WebSocketException("protocol violation: control opcode $opcode")
                }
                continue
            }
            when (opcode) {
                OPCODE_TEXT -> if (inMessage) throw WebSocketException("protocol violation: a new message inside another")
                OPCODE_CONTINUATION -> if (!inMessage) throw WebSocketException("protocol violation: a continuation without a message")
                else -> throw WebSocketException("protocol violation: opcode $opcode (graphql-transport-ws sends text)")
            }
            if (message.size() + length > maxMessageBytes) {
                throw WebSocketException("protocol violation: a message over $maxMessageBytes bytes")
            }
            inMessage = true
            message.write(readFully(length.toInt()))
            if (fin) return String(message.toByteArray(), Charsets.UTF_8)
        }
    }

    private fun readByte(): Int {
        val byte = input.read()
        if (byte < 0) throw EOFException("the connection closed inside a frame")
        return byte
    }

    private fun readFully(count: Int): ByteArray {
        val bytes = ByteArray(count)
        var offset = 0
        while (offset < count) {
            val read = input.read(bytes, offset, count - offset)
            if (read < 0) throw EOFException("the connection closed inside a frame")
            offset += read
        }
        return bytes
    }

    override fun send(text: String) {
        try {
            sendFrame(OPCODE_TEXT, text.toByteArray(Charsets.UTF_8))
        } catch (error: IOException) {
            // A send that fails breaks the connection: the reader sees it.
            try {
                socket.close()
            } catch (ignored: IOException) {
            }
        }
    }

    /** One masked frame with FIN set. */
    private fun sendFrame(opcode: Int, payload: ByteArray) {
        synchronized(writeLock) {
            if (closeSent) return
            if (opcode == OPCODE_CLOSE) closeSent = true
            val head = ByteArrayOutputStream(14)
            head.write(0x80 or opcode)
            when {
                payload.size < 126 -> head.write(0x80 or payload.size)
                payload.size < 65536 -> {
                    head.write(0x80 or 126)
                    head.write(payload.size shr 8)
                    head.write(payload.size and 0xFF)
                }
                else -> {
                    head.write(0x80 or 127)
                    for (shift in 56 downTo 0 step 8) head.write(((payload.size.toLong() shr shift) and 0xFF).toInt())
                }
            }
            val mask = ByteArray(4).also { SocketWebSocketConnector.random.nextBytes(it) }
            head.write(mask)
            val masked = ByteArray(payload.size)
            for (index in payload.indices) masked[index] = (payload[index].toInt() xor mask[index and 3].toInt()).toByte()
            output.write(head.toByteArray())
            output.write(masked)
            output.flush()
        }
    }

    override fun close() {
        closing = true
        try {
            // Status 1000, normal closure.
            sendFrame(OPCODE_CLOSE, byteArrayOf(0x03, 0xE8.toByte()))
        } catch (ignored: IOException) {
        }
        try {
            socket.close()
        } catch (ignored: IOException) {
        }
    }

    companion object {
        const val OPCODE_CONTINUATION = 0
        const val OPCODE_TEXT = 1
        const val OPCODE_CLOSE = 8
        const val OPCODE_PING = 9
        const val OPCODE_PONG = 10
    }
}

/** Base64 (RFC 4648, with padding) for the handshake's key and accept value (`java.util.Base64` needs Android 8). */
internal object Base64Text {
    private const val ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    fun encode(bytes: ByteArray): String {
        val out = StringBuilder((bytes.size + 2) / 3 * 4)
        var index = 0
        while (index < bytes.size) {
            val a = bytes[index].toInt() and 0xFF
            val b = if (index + 1 < bytes.size) bytes[index + 1].toInt() and 0xFF else 0
            val c = if (index + 2 < bytes.size) bytes[index + 2].toInt() and 0xFF else 0
            out.append(ALPHABET[a shr 2])
            out.append(ALPHABET[((a and 3) shl 4) or (b shr 4)])
            out.append(if (index + 1 < bytes.size) ALPHABET[((b and 15) shl 2) or (c shr 6)] else '=')
            out.append(if (index + 2 < bytes.size) ALPHABET[c and 63] else '=')
            index += 3
        }
        return out.toString()
    }
}
"""#),
("Store.kt",
#"""
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
        val root = RecordReader(context, operation.rootTypename, null, operation.throwOnFieldError)
        val missing = root.missingRequired(operation.selections)
        if (missing != null) throw RequiredFieldException(missing.components)
        if (operation.throwOnFieldError) {
            val errors = root.uncaughtErrors(operation.selections)
            if (errors.isNotEmpty()) throw FieldErrorsException(FieldErrors(errors))
        }
        return operation.data(root)
    }
}

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
                applyWrite(write, writable(), now, changed)
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

    /** The subscribers to call for a batch that changed [changed]. Call under the lock. */
    private fun collectNotifications(changed: Set<SlotId>, into: MutableList<Pair<(Set<SlotId>) -> Unit, Set<SlotId>>>) {
        for (subscriber in subscribers.values) {
            val hit = subscriber.slots.filterTo(HashSet()) { it in changed }
            if (hit.isNotEmpty()) into.add(Pair(subscriber.callback, hit))
        }
    }

    /** Applies one write to a table: its records slot by slot, then its connection pages and updates. */
    private fun applyWrite(write: NormalizedWrite, table: HashMap<String, Record>, now: Double, changed: MutableSet<SlotId>) {
        for (pending in write.pending) {
            table[pending.key] = apply(pending, table[pending.key], now, changed)
        }
        if (write.connectionWrites.isNotEmpty()) {
            val connectionTable = ConnectionTable(table, now)
            connectionTable.apply(write.connectionWrites, write.variables, connections)
            changed.addAll(connectionTable.changed)
        }
    }

    /**
     * Applies a server write (if any) to the server's records, removes and adds layers, and applies the layers
     * again over the result, as the Swift runtime's `rebase`. Returns the slots whose content, as reads see it,
     * changed. Call under the lock.
     */
    private fun rebase(server: NormalizedWrite?, removing: Int?, adding: Pair<Int, NormalizedWrite>?, now: Double): HashSet<SlotId> {
        val serverTable = base ?: HashMap(records)
        val candidates = HashSet(layered)
        if (server != null) applyWrite(server, serverTable, now, candidates)
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

    /** The server's records, without optimistic layers: what an image saves. */
    internal fun serverRecords(): Map<String, Record> = synchronized(lock) { HashMap(base ?: records) }

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

    /** Marks the records [predicate] picks stale; returns how many. */
    internal fun invalidate(predicate: (String, Record) -> Boolean): Int = synchronized(lock) {
        val table = writable()
        var count = 0
        for ((key, record) in ArrayList(table.entries)) {
            if (predicate(key, record)) {
                table[key] = record.copy(invalidated = true)
                base?.get(key)?.let { base?.put(key, it.copy(invalidated = true)) }
                count++
            }
        }
        version++
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
            records = HashMap(replacement)
            current = null
            version++
            base = null
            layers.clear()
            layered = HashSet()
            optimisticRecords = emptySet()
            connections = replacement.keys.filterTo(HashSet()) { it.contains(".__connection:") }
        }
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
"""#),
("StoreImage.kt",
#"""
package baton.runtime

import java.io.File
import java.io.IOException
import java.math.BigDecimal
import java.math.MathContext
import java.math.RoundingMode

/** Why an image was not loaded or saved; [message] is the Swift runtime's text for it. */
class ImageException(val kind: Kind, message: String) : RuntimeException(message) {
    /** The kinds of failure. */
    enum class Kind {
        /** No image file (a first launch): not a failure worth logging. */
        ABSENT,

        /** The file is not a Baton image, or its body does not match its header (corrupt or truncated). */
        CORRUPT,

        /** An image written by a newer Baton. */
        FUTURE_VERSION,

        /** The file could not be read or written. */
        IO
    }

    companion object {
        internal fun corrupt(reason: String) = ImageException(Kind.CORRUPT, "corrupt image: $reason")
    }
}

/**
 * The store's image: every record with its slots, errors and age, in one file, in the Swift runtime's format,
 * so an image either runtime writes, the other reads, and the same records give the same bytes.
 *
 * The file is a header line `BATON-IMAGE <version> <body bytes> <FNV-1a 64 of the body, hex>` and a JSON body
 * `{"records":{"Character:1":{"t":"Character","u":1700000000.5,"i":false,"s":{…}}}}` where a slot is
 * `{"v":value,"e":[errors]}` and a value is `null`, `true`/`false`, `{"s":text}`, `{"n":literal}`, `{"j":json}`,
 * `{"l":key}` or a list. Records and slots are sorted by key; `u` is written as Swift prints a `Double`. The
 * length and checksum catch truncation and corruption; the whole image is decoded before the store sees any of
 * it, so a bad image never half-loads.
 */
object StoreImage {
    /** The format version this build writes and reads. */
    const val VERSION: Int = 1

    private const val MAGIC = "BATON-IMAGE"

    /** [records] as an image file's bytes. */
    fun encode(records: Map<String, Record>): ByteArray {
        val recordsObject = LinkedHashMap<String, Any?>()
        for (key in sortedKeys(records.keys)) {
            val record = records[key] ?: continue
            val slots = LinkedHashMap<String, Any?>()
            for (storageKey in sortedKeys(record.slots.keys)) {
                val slot = record.slots[storageKey] ?: continue
                val encoded = LinkedHashMap<String, Any?>()
                encoded["v"] = encodeValue(slot.value)
                if (slot.errors.isNotEmpty()) encoded["e"] = slot.errors.map { it.toJson() }
                slots[storageKey] = encoded
            }
            val entry = LinkedHashMap<String, Any?>()
            if (record.typename != null) entry["t"] = record.typename
            entry["u"] = JsonNumber(swiftDouble(record.updatedAt))
            entry["i"] = record.invalidated
            entry["s"] = slots
            recordsObject[key] = entry
        }
        val body = Json.write(linkedMapOf<String, Any?>("records" to recordsObject)).toByteArray(Charsets.UTF_8)
        val header = "$MAGIC $VERSION ${body.size} ${java.lang.Long.toUnsignedString(fnv1a(body, 0), 16)}\n"
        return header.toByteArray(Charsets.UTF_8) + body
    }

    private fun encodeValue(value: StoredValue): Any? = when (value) {
        is StoredValue.Null -> null
        is StoredValue.Bool -> value.value
        is StoredValue.Text -> linkedMapOf<String, Any?>("s" to value.text)
        is StoredValue.Number -> linkedMapOf<String, Any?>("n" to JsonNumber(value.literal))
        is StoredValue.JsonText -> linkedMapOf<String, Any?>("j" to RawJson(value.json))
        is StoredValue.Link -> linkedMapOf<String, Any?>("l" to value.key)
        is StoredValue.Items -> value.items.map { encodeValue(it) }
    }

    /** The records of an image file's bytes; throws [ImageException] (corrupt, future version). */
    fun decode(data: ByteArray): Map<String, Record> {
        val newline = data.indexOf(0x0A.toByte())
        if (newline < 0) throw ImageException.corrupt("no header")
        val header = String(data, 0, newline, Charsets.UTF_8).split(" ")
        val version = header.getOrNull(1)?.toIntOrNull()
        if (header.size != 4 || header[0] != MAGIC || version == null) throw ImageException.corrupt("not a Baton image")
        if (version > VERSION) {
            throw ImageException(
                ImageException.Kind.FUTURE_VERSION, "image version $version is newer than this build reads ($VERSION)"
            )
        }
        val length = header[2].toIntOrNull()
        val checksum = try {
            java.lang.Long.parseUnsignedLong(header[3], 16)
        } catch (error: NumberFormatException) {
            null
        }
        if (version != VERSION || length == null || checksum == null) throw ImageException.corrupt("bad header")
        val bodyCount = data.size - newline - 1
        if (bodyCount != length) throw ImageException.corrupt("expected $length bytes, found $bodyCount (truncated?)")
        if (fnv1a(data, newline + 1) != checksum) throw ImageException.corrupt("checksum mismatch")
        val json = try {
            Json.parse(String(data, newline + 1, bodyCount, Charsets.UTF_8))
        } catch (error: JsonException) {
            throw ImageException.corrupt(error.message ?: "bad JSON")
        }
        val recordsObject = (json as? Map<*, *>)?.get("records") as? Map<*, *> ?: throw ImageException.corrupt("no records")
        val records = HashMap<String, Record>(recordsObject.size * 2)
        for ((rawKey, value) in recordsObject) {
            val key = rawKey.toString()
            val entry = value as? Map<*, *>
            val slotsObject = entry?.get("s") as? Map<*, *>
            val updatedAt = (entry?.get("u") as? JsonNumber)?.literal?.toDoubleOrNull()
            val invalidated = entry?.get("i") as? Boolean
            if (slotsObject == null || updatedAt == null || invalidated == null) throw ImageException.corrupt("bad record $key")
            val slots = HashMap<String, Slot>(slotsObject.size * 2)
            for ((rawStorageKey, encoded) in slotsObject) {
                val storageKey = rawStorageKey.toString()
                val slot = encoded as? Map<*, *>
                if (slot == null || !slot.containsKey("v")) throw ImageException.corrupt("bad slot $key.$storageKey")
                val errors = (slot["e"] as? List<*>)?.map { FieldError.fromJson(it) } ?: emptyList()
                slots[storageKey] = Slot(decodeValue(slot["v"], 0), errors)
            }
            records[key] = Record(entry["t"] as? String, slots, updatedAt, invalidated)
        }
        return records
    }

    private fun decodeValue(json: Any?, depth: Int): StoredValue {
        if (depth > Json.MAX_DEPTH) throw ImageException.corrupt("bad value")
        return when (json) {
            null -> StoredValue.Null
            is Boolean -> StoredValue.Bool(json)
            is List<*> -> StoredValue.Items(json.map { decodeValue(it, depth + 1) })
            is Map<*, *> -> {
                if (json.size != 1) throw ImageException.corrupt("bad value")
                val (name, value) = json.entries.first()
                when {
                    name == "s" && value is String -> StoredValue.Text(value)
                    name == "n" && value is JsonNumber -> StoredValue.Number(value.literal)
                    name == "j" -> StoredValue.JsonText(Json.write(value))
                    name == "l" && value is String -> StoredValue.Link(value)
                    else -> throw ImageException.corrupt("bad value")
                }
            }
            else -> throw ImageException.corrupt("bad value")
        }
    }

    /**
     * Writes [store]'s records to [file] atomically (a temporary file beside it, then a rename); returns how many.
     * Only server data is written (never an optimistic layer), only the records in [keeping] when it is given (the
     * environment passes what its roots reach), and no deleted record.
     */
    fun save(store: RecordStore, file: File, keeping: Set<String>? = null): Int {
        val records = store.serverRecords().filter { (key, record) -> !record.isDeleted && (keeping == null || key in keeping) }
        val data = encode(records)
        val folder = file.absoluteFile.parentFile ?: throw ImageException(ImageException.Kind.IO, "image I/O: no folder for ${file.path}")
        val temporary = File(folder, ".${file.name}.${java.util.UUID.randomUUID()}.tmp")
        try {
            temporary.writeBytes(data)
        } catch (error: IOException) {
            throw ImageException(ImageException.Kind.IO, "image I/O: cannot write ${temporary.path}: ${error.message}")
        }
        if (!temporary.renameTo(file)) {
            temporary.delete()
            throw ImageException(ImageException.Kind.IO, "image I/O: cannot rename onto ${file.path}")
        }
        return records.size
    }

    /** Replaces [store]'s records with [file]'s image; on any failure the store is left empty and this throws. */
    fun load(store: RecordStore, file: File): Int {
        if (!file.exists()) {
            store.clear()
            throw ImageException(ImageException.Kind.ABSENT, "no image")
        }
        try {
            val data = try {
                file.readBytes()
            } catch (error: IOException) {
                throw ImageException(ImageException.Kind.IO, "image I/O: ${error.message}")
            }
            val records = decode(data)
            store.replaceRecords(records)
            return records.size
        } catch (error: ImageException) {
            store.clear()
            throw error
        } catch (error: RuntimeException) {
            store.clear()
            throw ImageException(ImageException.Kind.IO, "image I/O: $error")
        }
    }

    /** FNV-1a 64 of [data] from [start]. */
    fun fnv1a(data: ByteArray, start: Int): Long {
        var hash = -0x340d631b7bdddcdbL // 0xcbf29ce484222325
        for (index in start until data.size) {
            hash = hash xor (data[index].toLong() and 0xff)
            hash *= 0x100000001b3L
        }
        return hash
    }

    /** [keys] in the order Swift sorts strings here: by Unicode code point. */
    private fun sortedKeys(keys: Collection<String>): List<String> = keys.sortedWith(CODE_POINT_ORDER)

    private val CODE_POINT_ORDER = Comparator<String> { left, right ->
        var i = 0
        var j = 0
        while (i < left.length && j < right.length) {
            val a = left.codePointAt(i)
            val b = right.codePointAt(j)
            if (a != b) return@Comparator if (a < b) -1 else 1
            i += Character.charCount(a)
            j += Character.charCount(b)
        }
        (left.length - i).compareTo(right.length - j)
    }

    private var lastBits = 0x7ff8000000000001L
    private var lastText = ""

    /**
     * [value] as Swift's `String(Double)` prints it: the shortest digits that read back as the same value, in
     * fixed notation with at least one decimal (`1700000000.5`, `0.0001`, `100.0`) from 1e-4 up to 2^53, otherwise
     * exponential (`1e-05`, `1.2e+16`).
     */
    fun swiftDouble(value: Double): String = synchronized(this) {
        val bits = value.toRawBits()
        if (bits == lastBits) return lastText
        val text = formatSwiftDouble(value)
        lastBits = bits
        lastText = text
        text
    }

    private fun formatSwiftDouble(value: Double): String {
        if (value.isNaN()) return "nan"
        if (value.isInfinite()) return if (value > 0) "inf" else "-inf"
        if (value == 0.0) return if (1.0 / value < 0) "-0.0" else "0.0"
        val sign = if (value < 0) "-" else ""
        val magnitude = Math.abs(value)
        val shortest = shortestDigits(magnitude)
        val digits = shortest.unscaledValue().toString().trimEnd('0').ifEmpty { "0" }
        // magnitude = 0.d1d2… × 10^exponent
        val exponent = shortest.precision() - shortest.scale()
        val fixed = exponent >= -3 && magnitude <= 9007199254740992.0
        if (fixed) {
            return sign + when {
                exponent <= 0 -> "0." + "0".repeat(-exponent) + digits
                exponent >= digits.length -> digits + "0".repeat(exponent - digits.length) + ".0"
                else -> digits.substring(0, exponent) + "." + digits.substring(exponent)
            }
        }
        val mantissa = if (digits.length == 1) digits else digits[0] + "." + digits.substring(1)
        val power = exponent - 1
        val powerText = Math.abs(power).toString().padStart(2, '0')
        return sign + mantissa + "e" + (if (power < 0) "-" else "+") + powerText
    }

    /** The decimal with the fewest significant digits that reads back as [value], the closest such one. */
    private fun shortestDigits(value: Double): BigDecimal {
        val exact = BigDecimal(value)
        for (precision in 1..17) {
            val nearest = exact.round(MathContext(precision, RoundingMode.HALF_EVEN))
            if (nearest.toDouble() == value) return nearest
            val down = exact.round(MathContext(precision, RoundingMode.FLOOR))
            val up = exact.round(MathContext(precision, RoundingMode.CEILING))
            val downFits = down.toDouble() == value
            val upFits = up.toDouble() == value
            if (downFits && upFits) {
                return if (exact.subtract(down).abs() <= up.subtract(exact).abs()) down else up
            }
            if (downFits) return down
            if (upFits) return up
        }
        return exact.round(MathContext(17, RoundingMode.HALF_EVEN))
    }
}

/** JSON text written as it is (a custom scalar's stored JSON inside an image). */
internal class RawJson(val text: String)
"""#),
("SubscriptionHandle.kt",
#"""
package baton.runtime

/**
 * A view's hold on a subscription (the Swift runtime's `SubscriptionHandle`): every `next` the server sends is
 * committed to the store as a server batch (logged `committed {"kind":"subscription","changed":N}`), so handles
 * reading the same records update as after any fetch, and is read as this handle's phase.
 *
 * A `next` with errors and no data, or the server's `error`, is a request error: with no data yet the phase is
 * [Phase.Failed]; with data it stays ready and [lastError] carries it. A socket that drops is reconnected by the
 * transport and the subscription sent again ([reconnects] counts it); [detach] ends the subscription, and the
 * transport sends `complete` (and closes the socket after the last one). Thread-safe; observers are called on the
 * transport's thread.
 */
class SubscriptionHandle<D : Any> internal constructor(
    val operation: Operation<D>,
    private val environment: BatonEnvironment
) {
    private val lock = Any()
    private var currentPhase: Phase<D> = Phase.Loading
    private var currentError: FetchError? = null
    private var events = 0
    private var reconnectCount = 0
    private var finished = false
    private var cancellation: Observation? = null
    private val observers = Observers()

    /** [Phase.Loading] until the first `next`, then [Phase.Ready]; [Phase.Failed] when it failed before any data. */
    val phase: Phase<D> get() = synchronized(lock) { currentPhase }

    /** The latest failure (a request error, or the transport giving up). */
    val lastError: FetchError? get() = synchronized(lock) { currentError }

    /** `next` payloads committed. */
    val eventCount: Int get() = synchronized(lock) { events }

    /** Times the socket dropped and the subscription was sent again. */
    val reconnects: Int get() = synchronized(lock) { reconnectCount }

    /** Whether the subscription is over (completed, failed, or detached). */
    val isFinished: Boolean get() = synchronized(lock) { finished }

    /** Calls [observer] after every change. */
    fun observe(observer: () -> Unit): Observation = observers.add(observer)

    /** Ends the subscription (the transport sends `complete`). */
    fun detach() {
        val toCancel = synchronized(lock) {
            finished = true
            val held = cancellation
            cancellation = null
            held
        }
        toCancel?.cancel()
    }

    internal fun start(transport: SubscriptionTransport) {
        environment.log.record(LogEvent("subscriptionStarted", linkedMapOf<String, Any?>("operation" to operation.operationName)))
        val started = transport.subscribe(GraphQLRequest(operation)) { event -> receive(event) }
        val detachedMeanwhile = synchronized(lock) {
            if (!finished) cancellation = started
            finished
        }
        if (detachedMeanwhile) started.cancel()
    }

    internal fun fail(error: FetchError) {
        synchronized(lock) {
            finished = true
            currentError = error
            if (currentPhase.data == null) currentPhase = Phase.Failed(error)
        }
        notifyObservers()
    }

    private fun receive(event: SubscriptionEvent) {
        if (synchronized(lock) { finished }) return
        val log = environment.log
        val name = operation.operationName
        when (event) {
            is SubscriptionEvent.Next -> try {
                val (result, deliver) = environment.store.commitDeferringNotifications(operation, event.payload)
                log.record(
                    LogEvent("committed", linkedMapOf<String, Any?>("kind" to "subscription", "changed" to result.changed.size))
                )
                deliver()
                val phase: Phase<D> = try {
                    Phase.Ready(environment.store.read(operation, LoggingReporter(log)))
                } catch (error: RequiredFieldException) {
                    Phase.Failed(FetchError.Read(error))
                } catch (error: FieldErrorsException) {
                    Phase.Failed(FetchError.Read(error))
                }
                synchronized(lock) {
                    events++
                    currentPhase = phase
                    currentError = null
                }
            } catch (error: MalformedResponseException) {
                record(FetchError.MalformedResponse(error.reason))
            } catch (error: RequestFailedException) {
                record(FetchError.Request(error.errors.errors))
            }
            is SubscriptionEvent.Error -> {
                record(FetchError.Request(event.errors))
                synchronized(lock) { finished = true }
            }
            is SubscriptionEvent.Complete -> {
                log.record(LogEvent("subscriptionCompleted", linkedMapOf<String, Any?>("operation" to name)))
                synchronized(lock) { finished = true }
            }
            is SubscriptionEvent.Reconnecting -> {
                log.record(
                    LogEvent(
                        "subscriptionReconnecting",
                        linkedMapOf<String, Any?>(
                            "operation" to name, "attempt" to event.attempt,
                            "delay" to JsonNumber(String.format(java.util.Locale.ROOT, "%.3f", event.delay)),
                            "reason" to event.reason
                        )
                    )
                )
                synchronized(lock) { reconnectCount++ }
            }
            is SubscriptionEvent.Failed -> {
                fail(FetchError.Transport(event.reason))
                return
            }
        }
        notifyObservers()
    }

    private fun record(failure: FetchError) {
        environment.log.record(
            LogEvent("subscriptionFailed", linkedMapOf<String, Any?>("operation" to operation.operationName, "error" to failure.payload))
        )
        synchronized(lock) {
            currentError = failure
            if (currentPhase.data == null) currentPhase = Phase.Failed(failure)
        }
    }

    private fun notifyObservers() {
        val toCall = observers.all()
        for (observer in toCall) observer()
    }
}

/**
 * Starts a subscription on the environment's [BatonEnvironment.subscriptionTransport]; without one the handle
 * fails at once (`transport: the environment has no subscription transport`).
 */
fun <D : Any> BatonEnvironment.subscribe(operation: Operation<D>): SubscriptionHandle<D> {
    val handle = SubscriptionHandle(operation, this)
    val transport = subscriptionTransport
    if (transport != null) {
        handle.start(transport)
    } else {
        handle.fail(FetchError.Transport("the environment has no subscription transport"))
    }
    return handle
}
"""#),
("SubscriptionTransport.kt",
#"""
package baton.runtime

/** What a subscription transport reports for one subscription (the Swift runtime's `SubscriptionEvent`). */
sealed class SubscriptionEvent {
    /** A `next` payload's JSON (`{"data":…,"errors":…}`): the environment commits it as a server batch. */
    data class Next(val payload: String) : SubscriptionEvent()

    /** The server's `error` for the subscription: it is over. */
    data class Error(val errors: List<FieldError>) : SubscriptionEvent()

    /** The server completed the subscription. */
    object Complete : SubscriptionEvent() {
        override fun toString(): String = "Complete"
    }

    /** The connection broke; the transport reconnects after [delay] seconds and subscribes again. */
    data class Reconnecting(val attempt: Int, val delay: Double, val reason: String) : SubscriptionEvent()

    /** The transport gave up (reconnects exhausted, or the server refused the connection): it is over. */
    data class Failed(val reason: String) : SubscriptionEvent()
}

/**
 * Sends subscriptions and reports their events, until the returned [Observation] is cancelled (then the transport
 * sends `complete` to the server and forgets the subscription). [onEvent] is called on the transport's thread, in
 * order, never after the cancel returns or after a final event ([SubscriptionEvent.Error], [SubscriptionEvent.Complete],
 * [SubscriptionEvent.Failed]).
 */
interface SubscriptionTransport {
    fun subscribe(request: GraphQLRequest, onEvent: (SubscriptionEvent) -> Unit): Observation
}
"""#),
("Transport.kt",
#"""
package baton.runtime

import java.io.File

/** One GraphQL request: what a transport sends. */
class GraphQLRequest(
    val operationName: String,
    val query: String,
    val variables: Map<String, Any?>,
    /** The `onError` behaviour the operation carries (from baton.json), sent when present. */
    val onError: String? = null,
    /** `query`, `mutation` or `subscription`: only queries may go as GET. */
    val operationType: String = "query",
    /** The persisted-query id (the SHA-256 of [query] that `baton gen` writes), or null when there is none. */
    val operationId: String? = null,
    /** Headers for this request alone, over the transport's own. */
    val headers: Map<String, String> = emptyMap(),
    /**
     * Cancelled when the fetch should stop (its handle detached): a transport aborts the exchange in flight and
     * throws [TransportException.cancelled]. Never cancelled unless the caller cancels it.
     */
    val cancellation: Cancellation = Cancellation()
) {
    /** The request for a generated operation, with [headers] for it alone. */
    constructor(
        operation: Operation<*>, headers: Map<String, String> = emptyMap(), cancellation: Cancellation = Cancellation()
    ) : this(
        operation.operationName, operation.document, operation.variables(), operation.onError,
        operation.operationType, if (operation.operationId.isEmpty()) null else operation.operationId, headers,
        cancellation
    )

    /** The POST body: `{"query":…,"operationName":…,"variables":{…},"onError":…}`, variables sorted by name. */
    val body: String get() = body(sendingDocument = true, persistedId = null)

    /**
     * The body as GraphQL over HTTP sends it: with the document or not, and with `extensions.persistedQuery` when
     * [persistedId] is set (Apollo's persisted-query protocol, version 1).
     */
    fun body(sendingDocument: Boolean, persistedId: String?): String = Json.write(fields(sendingDocument, persistedId))

    /** The members of the request object, in the order the body writes them; the GET form spells the same ones. */
    fun fields(sendingDocument: Boolean, persistedId: String?): Map<String, Any?> {
        val fields = LinkedHashMap<String, Any?>()
        if (sendingDocument) fields["query"] = query
        fields["operationName"] = operationName
        val sorted = LinkedHashMap<String, Any?>()
        for (name in variables.keys.sorted()) sorted[name] = variables[name]
        fields["variables"] = sorted
        if (onError != null) fields["onError"] = onError
        if (persistedId != null) {
            val persisted = LinkedHashMap<String, Any?>()
            persisted["version"] = 1
            persisted["sha256Hash"] = persistedId
            fields["extensions"] = linkedMapOf<String, Any?>("persistedQuery" to persisted)
        }
        return fields
    }
}

/**
 * Sends a request and returns the response body. Called on the environment's executor, never on the thread
 * that attached the handle, so it may block; it should end when [GraphQLRequest.cancellation] is cancelled.
 * Anything it throws is a transport failure; a [TransportException] says whether sending again may help.
 */
interface Transport {
    fun send(request: GraphQLRequest): ByteArray
}

/**
 * A transport failure, with the Swift runtime's `TransportError` texts: an HTTP status without a GraphQL body
 * (`HTTP status 502`, `HTTP status 429 (retry after 2 s)`), a network failure (`network: Connection refused`), no
 * complete answer in time (`timed out after 30 s`), a body over the limit (`response larger than 1048576 bytes`), a
 * cancelled fetch (`cancelled`), a persisted id the server lacks, or a failure a fixture was told to give.
 */
class TransportException @JvmOverloads constructor(
    message: String,
    cause: Throwable? = null,
    val kind: Kind = Kind.FAILED,
    /** The HTTP status, for [Kind.HTTP_STATUS]. */
    val status: Int? = null,
    /** The server's `Retry-After` in seconds, when it sent one. */
    val retryAfter: Double? = null
) : RuntimeException(message, cause) {
    /** What kind of failure it is. */
    enum class Kind { FAILED, HTTP_STATUS, NETWORK, TIMED_OUT, TOO_LARGE, CANCELLED, PERSISTED_QUERY_NOT_FOUND }

    /** Whether sending the same request again may succeed: a network failure, a timeout, 429, 502, 503, 504. */
    val isTransient: Boolean
        get() = when (kind) {
            Kind.NETWORK, Kind.TIMED_OUT -> true
            Kind.HTTP_STATUS -> status == 429 || status == 502 || status == 503 || status == 504
            else -> false
        }

    companion object {
        /** A status outside 200…299 without a GraphQL body. */
        @JvmStatic
        @JvmOverloads
        fun httpStatus(status: Int, retryAfter: Double? = null): TransportException = TransportException(
            if (retryAfter == null) "HTTP status $status" else "HTTP status $status (retry after ${seconds(retryAfter)} s)",
            null, Kind.HTTP_STATUS, status, retryAfter
        )

        /** The connection failed or broke before the whole answer arrived (a truncated body is one). */
        @JvmStatic
        fun network(reason: String, cause: Throwable? = null): TransportException =
            TransportException("network: $reason", cause, Kind.NETWORK)

        /** No complete answer within the exchange's timeout. */
        @JvmStatic
        fun timedOut(seconds: Double): TransportException =
            TransportException("timed out after ${seconds(seconds)} s", null, Kind.TIMED_OUT)

        /** The body is larger than the limit; it was not read past it. */
        @JvmStatic
        fun tooLarge(limit: Long): TransportException =
            TransportException("response larger than $limit bytes", null, Kind.TOO_LARGE)

        /** The fetch was cancelled (its handle detached). */
        @JvmStatic
        fun cancelled(): TransportException = TransportException(CANCELLED, null, Kind.CANCELLED)

        /** What a cancelled fetch's failure says. */
        const val CANCELLED = "cancelled"

        /** Seconds as Swift's messages print them: `2`, `0.25`. */
        internal fun seconds(value: Double): String =
            if (value == Math.rint(value) && Math.abs(value) < 1e15) value.toLong().toString() else value.toString()
    }
}

/**
 * A transport for tests that answers from JSON files or text, per operation name, in order.
 *
 * Each request takes the next answer queued for its operation; the last one keeps answering. Every request is
 * kept, so a test can count fetches. Thread-safe.
 */
class FixtureTransport : Transport {
    /** One answer. */
    sealed class Answer {
        /** The contents of a file. */
        data class FromFile(val file: File) : Answer()

        /** This text. */
        data class Text(val json: String) : Answer()

        /** A transport failure with this reason. */
        data class Failure(val reason: String) : Answer()
    }

    private val lock = Any()
    private val answers = HashMap<String, MutableList<Answer>>()
    private val sent = ArrayList<GraphQLRequest>()

    /** Queues answers for an operation. */
    fun answer(operationName: String, vararg answers: Answer) {
        synchronized(lock) { this.answers.getOrPut(operationName) { ArrayList() }.addAll(answers) }
    }

    /** Every request so far. */
    val requests: List<GraphQLRequest> get() = synchronized(lock) { ArrayList(sent) }

    /** How many requests named the operation. */
    fun requestCount(operationName: String): Int = requests.count { it.operationName == operationName }

    override fun send(request: GraphQLRequest): ByteArray {
        val answer = synchronized(lock) {
            sent.add(request)
            val queue = answers[request.operationName]
            if (queue == null || queue.isEmpty()) null else if (queue.size > 1) queue.removeAt(0) else queue[0]
        }
        return when (answer) {
            null -> throw TransportException("no fixture answers ${request.operationName}")
            is Answer.FromFile -> answer.file.readBytes()
            is Answer.Text -> answer.json.toByteArray(Charsets.UTF_8)
            is Answer.Failure -> throw TransportException(answer.reason)
        }
    }
}
"""#),
("Values.kt",
#"""
package baton.runtime

/**
 * An input value that may be absent, explicitly null, or present.
 *
 * GraphQL tells an absent input field or variable (the server uses its default) from an explicit null.
 * Generated input objects and operation variables default every optional field to [Absent], so a field left
 * unset is absent from the request; pass [Null] to send null, [Present] (or [Optional.of]) to send a value.
 */
sealed class Optional<out T> {
    /** Left out of the request. */
    object Absent : Optional<Nothing>() {
        override fun toString(): String = "Absent"
    }

    /** Sent as `null`. */
    object Null : Optional<Nothing>() {
        override fun toString(): String = "Null"
    }

    /** Sent as [value]. */
    data class Present<out T>(val value: T) : Optional<T>()

    /** The value when present, otherwise `null`. */
    fun getOrNull(): T? = (this as? Present)?.value

    /** [Present] with [transform] applied to the value; [Absent] and [Null] unchanged. */
    fun <R> map(transform: (T) -> R): Optional<R> = when (this) {
        is Present -> Present(transform(value))
        is Absent -> Absent
        is Null -> Null
    }

    companion object {
        /** [Present] for a value, [Absent] for `null`: the usual way to pass a Kotlin nullable through. */
        fun <T> of(value: T?): Optional<T> = if (value == null) Absent else Present(value)

        /** [Present] for a value, [Null] for `null`: for a field whose null must reach the server. */
        fun <T> ofNullable(value: T?): Optional<T> = if (value == null) Null else Present(value)
    }
}

/**
 * Converts a custom scalar between its text (as the server wrote it) and an app type.
 *
 * `customScalarTypes` in baton.json names an `object` implementing this interface for each mapped scalar.
 * [decode] returns `null` or throws when the text does not convert; the read then reports the value as
 * unexpected and reads null, never a made-up value.
 */
interface ScalarConverter<T : Any> {
    /** The value [text] stands for, or `null` when it does not convert. */
    fun decode(text: String): T?

    /** The text the server should receive for [value]. */
    fun encode(value: T): String
}

/** A generated enum value: a known case or an undeclared one, both with the text the server uses. */
interface EnumValue {
    /** The value's text, exactly as the schema (or the server, for an undeclared value) spells it. */
    val rawValue: String
}

/** A generated input object: it writes itself as the JSON object the server receives. */
interface InputObject {
    /** The fields that are not absent, by their schema names, as JSON-ready values. */
    fun toJson(): Map<String, Any?>
}

/** Builds the JSON object of an input object or of variables, leaving absent entries out. */
class JsonObjectBuilder {
    private val entries = LinkedHashMap<String, Any?>()

    /** Adds [name] unless [value] is [Optional.Absent]; unwraps [Optional.Present] and [Optional.Null]. */
    fun put(name: String, value: Any?): JsonObjectBuilder {
        when (value) {
            is Optional.Absent -> Unit
            is Optional.Null -> entries[name] = null
            is Optional.Present<*> -> entries[name] = value.value
            else -> entries[name] = value
        }
        return this
    }

    /** The entries added so far. */
    fun build(): Map<String, Any?> = entries
}

/** Encodes [value] with [converter] for a request (a mapped custom scalar in variables or input objects). */
fun <T : Any> encodeScalar(value: T?, converter: ScalarConverter<T>): String? =
    if (value == null) null else converter.encode(value)

/** Maps each element of a (possibly nested, possibly null) list for a request. */
fun <T, R> encodeList(value: List<T>?, transform: (T) -> R): List<R>? = value?.map(transform)
"""#),
("WebSocketConnection.kt",
#"""
package baton.runtime

import java.io.IOException

/**
 * One open WebSocket carrying text messages (all `graphql-transport-ws` needs). The core's implementation is
 * [SocketWebSocketConnector]'s, Baton's own RFC 6455 client over `java.net.Socket` (`ws://`); the OkHttp adapter
 * (`Kotlin/okhttp`, `OkHttpWebSocketConnector`) brings OkHttp's, with `wss://`.
 */
interface WebSocketConnection {
    /**
     * Blocks until the server's next text message; null once the socket closed normally. Throws [IOException] when
     * it breaks. Called from one thread at a time.
     */
    @Throws(IOException::class)
    fun receive(): String?

    /** Sends one text message, in order with every other, from any thread; a failure breaks the connection. */
    fun send(text: String)

    /** Closes the socket (normal closure); a blocked [receive] returns null or throws. From any thread. */
    fun close()
}

/** Opens WebSockets. */
interface WebSocketConnector {
    /** Opens [url] asking for [subprotocol], with extra handshake [headers]; throws [IOException] when it cannot. */
    @Throws(IOException::class)
    fun connect(url: String, subprotocol: String, headers: Map<String, String>): WebSocketConnection
}

/** A WebSocket failure: a URL the connector cannot open, a refused handshake, a frame that breaks the protocol. */
class WebSocketException(message: String) : IOException(message)
"""#),
    ]

    /// The names of the types the runtime declares at top level (not private), sorted.
    package static let typeNames: Set<String> = [
        "Authenticator",
        "Base64Text",
        "BatonEnvironment",
        "BearerTokenAuthenticator",
        "Cancellation",
        "Clocks",
        "CollectingReporter",
        "CommitResult",
        "Condition",
        "ConnectionId",
        "ConnectionSpec",
        "ConnectionTable",
        "ConnectionWrite",
        "Decoder",
        "EnumValue",
        "EventLog",
        "FetchError",
        "FetchException",
        "FetchPolicy",
        "Field",
        "FieldError",
        "FieldErrors",
        "FieldErrorsException",
        "FieldResult",
        "FixtureTransport",
        "FragmentSpread",
        "GarbageCollection",
        "GraphQLHttp",
        "GraphQLRequest",
        "GraphQLResponse",
        "GraphQLWebSocketTransport",
        "Handle",
        "HandleState",
        "HttpExchange",
        "HttpMethod",
        "HttpReply",
        "HttpRequest",
        "HttpResponse",
        "HttpTransport",
        "ImageException",
        "InlineFragment",
        "InputObject",
        "Json",
        "JsonException",
        "JsonNumber",
        "JsonObject",
        "JsonObjectBuilder",
        "LensDecoder",
        "ListDecoder",
        "LogEvent",
        "LoggingReporter",
        "MalformedResponseException",
        "MemoryLog",
        "MissingField",
        "MutationCall",
        "MutationResult",
        "NormalizedWrite",
        "Normalizer",
        "Observation",
        "Observers",
        "Operation",
        "OperationIdentity",
        "OperationWalk",
        "OptimisticResponse",
        "Optional",
        "OptionalItemsDecoder",
        "Pagination",
        "PathComponent",
        "PendingRecord",
        "PersistedQueries",
        "Phase",
        "PrintLog",
        "RawJson",
        "ReadContext",
        "ReadEvent",
        "ReadReporter",
        "Record",
        "RecordReader",
        "RecordStore",
        "RecordUpdate",
        "Refetchable",
        "RequestFailedException",
        "RequiredAction",
        "RequiredFieldException",
        "ResponseObjects",
        "ResponsePath",
        "RetainedRoot",
        "Retention",
        "RetentionState",
        "RetryPolicy",
        "ScalarConverter",
        "Scalars",
        "Selection",
        "Slot",
        "SlotId",
        "SocketWebSocket",
        "SocketWebSocketConnector",
        "StoreImage",
        "StoreSnapshot",
        "StoredValue",
        "Subscription",
        "SubscriptionEvent",
        "SubscriptionHandle",
        "SubscriptionTransport",
        "TextDecoder",
        "Transport",
        "TransportException",
        "Variable",
        "WebSocketConnection",
        "WebSocketConnector",
        "WebSocketException",
    ]
}
