// Written by KotlinRuntimeEmbedder from Kotlin/runtime/baton/runtime. Do not edit; after changing a
// .kt file there, run `swift run KotlinRuntimeEmbedder` in the repository's root.

extension KotlinRuntimeFiles {
    /// The runtime's source files, by file name, sorted: each file's text without its final newline.
    package static let sources: [(name: String, text: String)] = [
("BatonEnvironment.kt",
#"""
package baton.runtime

import java.io.File
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
 * [clock] measures ages in seconds since 1970 (inject one in tests).
 */
class BatonEnvironment(
    val transport: Transport,
    val log: EventLog = MemoryLog(),
    val clock: () -> Double = Clocks.SYSTEM,
    store: RecordStore? = null,
    executor: Executor? = null
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
    }

    private val attachedHandles: List<Handle<*>>
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
     * data. Logs `fetchStarted`, `committed`, `fetchCompleted` or `fetchFailed`; throws [FetchException].
     * [headers] go with this request alone, over the transport's.
     */
    fun <D : Any> fetch(operation: Operation<D>, headers: Map<String, String> = emptyMap()): D {
        send(operation, {}, {}, headers)
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
        headers: Map<String, String> = emptyMap()
    ) {
        val name = operation.operationName
        log.record(LogEvent("fetchStarted", linkedMapOf<String, Any?>("operation" to name)))
        try {
            val body = try {
                transport.send(GraphQLRequest(operation, headers))
            } catch (error: Exception) {
                throw FetchException(FetchError.Transport(error.message ?: error.javaClass.simpleName))
            }
            val (result, deliver) = try {
                store.commitDeferringNotifications(operation, String(body, Charsets.UTF_8))
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
            log.record(
                LogEvent("fetchFailed", linkedMapOf<String, Any?>("operation" to name, "error" to error.error.payload))
            )
            throw error
        }
        log.record(LogEvent("fetchCompleted", linkedMapOf<String, Any?>("operation" to name)))
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
        val count = StoreImage.save(store, file)
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

    /** What went wrong, as the Swift runtime says it: `rate limited`, `transport: offline`. */
    val description: String
        get() = when (this) {
            is Request -> errors.joinToString("; ") { it.message }
            is Transport -> "transport: $reason"
            is MalformedResponse -> "malformed response: $reason"
            is Read -> exception.message ?: exception.toString()
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
    private var committingOwn = false
    private var healAttempted = false
    private var markedStale = false
    private val observers = LinkedHashMap<Int, () -> Unit>()
    private var nextObserver = 0
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
    fun observe(observer: () -> Unit): Observation {
        val id = synchronized(lock) {
            val id = nextObserver++
            observers[id] = observer
            id
        }
        return Observation { synchronized(lock) { observers.remove(id) } }
    }

    /** Stops notifications and fetches for this handle. */
    fun detach() {
        val subscription = synchronized(lock) {
            detached = true
            subscription
        }
        subscription?.cancel()
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
        val walk = OperationWalk(snapshot, operation.variablesWithDefaults(), operation.rootTypename, operation.selections)
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
        val toCall = synchronized(lock) { ArrayList(observers.values) }
        for (observer in toCall) observer()
    }

    private fun startFetch() {
        val start = synchronized(lock) {
            if (fetching || detached) {
                false
            } else {
                fetching = true
                true
            }
        }
        if (start) environment.track { runFetch() }
    }

    private fun runFetch() {
        try {
            environment.send(
                operation,
                { synchronized(lock) { committingOwn = true } },
                { synchronized(lock) { committingOwn = false } }
            )
        } catch (error: FetchException) {
            synchronized(lock) {
                fetching = false
                currentError = error.error
                if (currentPhase.data == null) currentPhase = Phase.Failed(error.error)
            }
            notifyObservers()
            return
        }
        synchronized(lock) {
            fetching = false
            markedStale = false
            currentError = null
        }
        readAfterFetch()
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
        val typename = record?.typename ?: key.substringBefore(':')
        loop@ for (selection in selections) {
            when (selection) {
                is Field<*> -> {
                    if (selection.conditions.isNotEmpty() && !selection.conditions.all { it.holds(variables) }) continue@loop
                    val storageKey = selection.storageKey(variables)
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
        return items.mapIndexed { index, item ->
            decodeItem(element, itemNonNull, item, reader, field, ResponsePath.index(path, index))
        }
    }
}

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
        record?.slots?.get(field.storageKey(context.variables))?.errors?.isNotEmpty() == true

    private fun slot(field: Field<*>, report: Boolean): Slot? {
        if (key == null) return null
        val storageKey = field.storageKey(context.variables)
        val slot = record?.slots?.get(storageKey)
        if (slot == null && report) {
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
    val catches: Boolean = false
) : Selection() {
    /** Whether the field has a selection set (its values are records). */
    val isComposite: Boolean get() = selections.isNotEmpty()

    private val constantKey: String? = if (arguments.isEmpty()) name else if (!containsVariable(arguments)) {
        storageKey(name, arguments, emptyMap())
    } else null

    /** The slot's key in a record: the name, plus canonically ordered arguments with variables resolved. */
    fun storageKey(variables: Map<String, Any?>): String = constantKey ?: storageKey(name, arguments, variables)

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
 * [invalidated] marks it stale until a response writes it again.
 */
data class Record(
    val typename: String?,
    val slots: Map<String, Slot> = emptyMap(),
    val updatedAt: Double = 0.0,
    val invalidated: Boolean = false
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
    val records: Map<String, Record>
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
        val context = ReadContext(this, operation.variablesWithDefaults(), reporter)
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

    /** A consistent view of every record now. */
    fun snapshot(): StoreSnapshot = synchronized(lock) {
        current ?: StoreSnapshot(this, version, records).also { current = it }
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
    internal fun commitDeferringNotifications(operation: Operation<*>, responseText: String): Pair<CommitResult, () -> Unit> {
        val write = normalize(
            responseText, operation.selections, operation.variablesWithDefaults(), operation.rootTypename,
            operation.rootTypename
        )
        return merge(write)
    }

    private fun normalize(
        responseText: String, selections: List<Selection>, variables: Map<String, Any?>, rootKey: String,
        rootTypename: String
    ): NormalizedWrite {
        val response = GraphQLResponse.parse(responseText)
        val data = response.data ?: throw RequestFailedException(FieldErrors(response.errors))
        return Normalizer.normalize(data, response.errors, rootKey, rootTypename, selections, variables)
    }

    private fun merge(write: NormalizedWrite): Pair<CommitResult, () -> Unit> {
        val now = clock()
        val changed = HashSet<SlotId>()
        val notify = ArrayList<Pair<(Set<SlotId>) -> Unit, Set<SlotId>>>()
        synchronized(lock) {
            val table = writable()
            for (pending in write.pending) {
                table[pending.key] = apply(pending, table[pending.key], now, changed)
            }
            if (changed.isNotEmpty()) {
                version++
                for (subscriber in subscribers.values) {
                    val hit = subscriber.slots.filterTo(HashSet()) { it in changed }
                    if (hit.isNotEmpty()) notify.add(Pair(subscriber.callback, hit))
                }
            } else if (write.pending.isNotEmpty()) {
                version++ // ages changed
            }
        }
        val result = CommitResult(changed.sorted(), write.unattachedErrors)
        return Pair(result, { for ((callback, slots) in notify) callback(slots) })
    }

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
            return Record(typename, pending.slots, now, false)
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

    /** Replaces every record (loading an image). */
    fun replaceRecords(replacement: Map<String, Record>) {
        synchronized(lock) {
            records = HashMap(replacement)
            current = null
            version++
        }
    }

    /** Removes every record. */
    fun clear() = replaceRecords(emptyMap())

    /** Reads [operation]'s data lens from a snapshot taken now (see [StoreSnapshot.read]). */
    fun <D : Any> read(operation: Operation<D>, reporter: ReadReporter = ReadReporter.SILENT): D =
        snapshot().read(operation, reporter)
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

    /** Writes [store]'s records to [file] atomically (a temporary file beside it, then a rename); returns how many. */
    fun save(store: RecordStore, file: File): Int {
        val records = store.snapshot().records
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
("Transport.kt",
#"""
package baton.runtime

import java.io.ByteArrayOutputStream
import java.io.File
import java.io.InputStream
import java.net.HttpURLConnection
import java.net.URL
import java.net.URLEncoder

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
    val headers: Map<String, String> = emptyMap()
) {
    /** The request for a generated operation, with [headers] for it alone. */
    constructor(operation: Operation<*>, headers: Map<String, String> = emptyMap()) : this(
        operation.operationName, operation.document, operation.variables(), operation.onError,
        operation.operationType, if (operation.operationId.isEmpty()) null else operation.operationId, headers
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
 * that attached the handle, so it may block. Anything it throws is a transport failure.
 */
interface Transport {
    fun send(request: GraphQLRequest): ByteArray
}

/** A transport failure: an HTTP status without a GraphQL body, no fixture, or a failure it was told to give. */
class TransportException(message: String, cause: Throwable? = null) : RuntimeException(message, cause)

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
    /** In the order they are set: `Accept`, `Content-Type` (a POST), the transport's, the request's own. */
    val headers: Map<String, String>,
    /** The JSON body of a POST; null for a GET. */
    val body: ByteArray?
)

/** What the server answered: its status and whole body. */
class HttpReply(val status: Int, val body: ByteArray)

/**
 * GraphQL over HTTP, whichever client carries the bytes ([HttpTransport]'s `HttpURLConnection`, the OkHttp
 * adapter): the decisions the Swift runtime's `HTTPTransport` makes, made once for every Kotlin transport.
 *
 * Queries may go as GET ([HttpMethod.GET_FOR_QUERIES]: the request's members in the URL, or only the persisted id,
 * so a CDN can cache them); mutations and subscriptions always POST. Headers are the transport's, then the
 * request's own. With [PersistedQueries.PERSISTED_ONLY] only the id is sent, and a `PersistedQueryNotFound` answer
 * fails (`the server has no persisted query <id>`); with [PersistedQueries.AUTOMATIC] the id is sent first and the
 * document only after that answer. A status outside 200…299 with a GraphQL body is that body (GraphQL over HTTP
 * carries request errors in 4xx); without one it is a [TransportException] (`HTTP status 503`).
 */
class GraphQLHttp(
    val url: String,
    val headers: Map<String, String> = emptyMap(),
    val method: HttpMethod = HttpMethod.POST,
    val persistedQueries: PersistedQueries = PersistedQueries.OFF
) {
    /** The HTTP request for [request], sending the document or not (for tests and for apps that sign requests). */
    fun request(request: GraphQLRequest, sendingDocument: Boolean): HttpRequest {
        val persistedId = if (persistedQueries == PersistedQueries.OFF) null else request.operationId
        val all = LinkedHashMap<String, String>()
        all["Accept"] = "application/graphql-response+json, application/json"
        val asGet = method == HttpMethod.GET_FOR_QUERIES && request.operationType == "query"
        if (!asGet) all["Content-Type"] = "application/json"
        all.putAll(headers)
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
     * Sends [request] through [perform] (the HTTP client's one exchange) as many times as the persisted-query
     * protocol needs, and returns the body of the answer. Throws [TransportException].
     */
    fun send(request: GraphQLRequest, perform: (HttpRequest) -> HttpReply): ByteArray {
        val id = request.operationId
        if (persistedQueries != PersistedQueries.OFF && id == null) {
            throw TransportException("${request.operationName} has no persisted id (generate it with baton gen)")
        }
        var sendingDocument = persistedQueries == PersistedQueries.OFF
        while (true) {
            val reply = perform(request(request, sendingDocument))
            if (!sendingDocument && isPersistedQueryNotFound(reply.body)) {
                if (persistedQueries != PersistedQueries.AUTOMATIC) {
                    throw TransportException("the server has no persisted query $id")
                }
                sendingDocument = true
                continue
            }
            if (reply.status in 200..299 || isGraphQLResponse(reply.body)) return reply.body
            throw TransportException("HTTP status ${reply.status}")
        }
    }

    companion object {
        /** A URL query component: percent-encoded UTF-8, a space as `%20` (a `+` reads as a space in many servers). */
        fun encode(text: String): String = URLEncoder.encode(text, "UTF-8").replace("+", "%20")

        /** Whether [bytes] are a GraphQL response (a body GraphQL over HTTP may carry with a 4xx status). */
        fun isGraphQLResponse(bytes: ByteArray): Boolean = try {
            GraphQLResponse.parse(String(bytes, Charsets.UTF_8))
            true
        } catch (error: MalformedResponseException) {
            false
        }

        /** Whether [bytes] are the server's `PersistedQueryNotFound` answer (by message or by extensions code). */
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
    }
}

/**
 * GraphQL over HTTP with `java.net.HttpURLConnection` (on every JVM and on Android): the requests [GraphQLHttp]
 * spells (POST, or GET for queries; the persisted id; the transport's and the request's headers), sent one
 * exchange at a time. A status outside 200…299 is a [TransportException] (`HTTP status 503`) unless the body is a
 * GraphQL response.
 */
class HttpTransport(
    val url: URL,
    val headers: Map<String, String> = emptyMap(),
    val connectTimeoutMillis: Int = 15000,
    val readTimeoutMillis: Int = 30000,
    val method: HttpMethod = HttpMethod.POST,
    val persistedQueries: PersistedQueries = PersistedQueries.OFF
) : Transport {
    /** How this transport spells requests. */
    val http: GraphQLHttp = GraphQLHttp(url.toString(), headers, method, persistedQueries)

    override fun send(request: GraphQLRequest): ByteArray = http.send(request) { perform(it) }

    private fun perform(request: HttpRequest): HttpReply {
        val connection = URL(request.url).openConnection() as HttpURLConnection
        try {
            connection.requestMethod = request.method
            connection.connectTimeout = connectTimeoutMillis
            connection.readTimeout = readTimeoutMillis
            for ((name, value) in request.headers) connection.setRequestProperty(name, value)
            val body = request.body
            if (body != null) {
                connection.doOutput = true
                connection.setFixedLengthStreamingMode(body.size)
                connection.outputStream.use { it.write(body) }
            }
            val status = connection.responseCode
            val stream = if (status in 200..299) connection.inputStream else connection.errorStream
            return HttpReply(status, stream?.use { readAll(it) } ?: ByteArray(0))
        } finally {
            connection.disconnect()
        }
    }

    private fun readAll(stream: InputStream): ByteArray {
        val out = ByteArrayOutputStream()
        val buffer = ByteArray(16384)
        while (true) {
            val count = stream.read(buffer)
            if (count < 0) break
            out.write(buffer, 0, count)
        }
        return out.toByteArray()
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
    ]

    /// The names of the types the runtime declares at top level (not private), sorted.
    package static let typeNames: Set<String> = [
        "BatonEnvironment",
        "Clocks",
        "CollectingReporter",
        "CommitResult",
        "Condition",
        "ConnectionId",
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
        "GraphQLHttp",
        "GraphQLRequest",
        "GraphQLResponse",
        "Handle",
        "HandleState",
        "HttpMethod",
        "HttpReply",
        "HttpRequest",
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
        "NormalizedWrite",
        "Normalizer",
        "Observation",
        "Operation",
        "OperationIdentity",
        "OperationWalk",
        "Optional",
        "OptionalItemsDecoder",
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
        "RequestFailedException",
        "RequiredAction",
        "RequiredFieldException",
        "ResponsePath",
        "ScalarConverter",
        "Scalars",
        "Selection",
        "Slot",
        "SlotId",
        "StoreImage",
        "StoreSnapshot",
        "StoredValue",
        "Subscription",
        "TextDecoder",
        "Transport",
        "TransportException",
        "Variable",
    ]
}
