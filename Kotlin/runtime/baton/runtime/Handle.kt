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

/**
 * Why a fetch, or the read after it, failed: one type a view switches on (`when`), with the same cases as the Swift
 * runtime's `FetchError`. The transport's failures ([TransportException]) arrive as their own cases, never as text:
 * [Offline], [TimedOut] (with when), [HttpStatus] (with `Retry-After`), [TooLarge], [Cancelled], [ProtocolViolation],
 * [TransportFailed]. The body of a failed answer ([HttpStatus], [MalformedResponse]) is kept for diagnostics, its
 * first [BODY_LIMIT] bytes. [description] says what went wrong as the logs say it (`transport: HTTP status 502`).
 */
sealed class FetchError {
    /** A response with errors and no data: the server's request errors. */
    data class Request(val errors: List<FieldError>) : FetchError()

    /** No connection to the server: it could not be made, or it broke (reset, closed, a truncated body) before the whole answer. */
    data class Offline(val reason: String) : FetchError()

    /** No complete answer within the transport's timeout ([seconds]), and in which part of the exchange. */
    data class TimedOut(val phase: TimeoutPhase, val seconds: Double) : FetchError()

    /** A status outside 200…299 without a GraphQL body, with the server's `Retry-After` (seconds) and the body. */
    class HttpStatus @JvmOverloads constructor(
        val status: Int, val retryAfter: Double? = null, override val body: ByteArray = ByteArray(0)
    ) : FetchError() {
        override fun equals(other: Any?): Boolean = other is HttpStatus && other.status == status &&
            other.retryAfter == retryAfter && other.body.contentEquals(body)

        override fun hashCode(): Int = (status * 31 + (retryAfter?.hashCode() ?: 0)) * 31 + body.contentHashCode()
    }

    /** The body was not a GraphQL response (why, and the body). */
    class MalformedResponse @JvmOverloads constructor(val reason: String, override val body: ByteArray = ByteArray(0)) : FetchError() {
        override fun equals(other: Any?): Boolean =
            other is MalformedResponse && other.reason == reason && other.body.contentEquals(body)

        override fun hashCode(): Int = reason.hashCode() * 31 + body.contentHashCode()
    }

    /** The body was larger than the transport's limit (bytes); it was not read past it. */
    data class TooLarge(val limit: Long) : FetchError()

    /** The fetch was cancelled (its handle detached). */
    object Cancelled : FetchError()

    /** The server broke a protocol Baton speaks (it knows no document for a persisted id, in persisted-only mode). */
    data class ProtocolViolation(val reason: String) : FetchError()

    /** A failure of a transport's own (a custom transport's error, a fixture told to fail, one without an answer). */
    data class TransportFailed(val reason: String) : FetchError()

    /**
     * The operation's read failed: a `@required` null reached the root ([RequiredFieldException]) or
     * `@throwOnFieldError` met an error ([FieldErrorsException]).
     */
    data class Read(val exception: RuntimeException) : FetchError()

    /** Nothing to send with: a mutation call made without an environment, a page of a connection the store lacks. */
    data class Unattached(val reason: String) : FetchError()

    /** When, in an exchange, a timeout struck. */
    enum class TimeoutPhase {
        /** Before the request was sent: connecting (or queued for a connection). */
        CONNECTING,

        /** The request was sent; no byte of the answer came. */
        WAITING,

        /** The answer began and did not end in time. */
        READING
    }

    /** What went wrong, as the Swift runtime says it: `rate limited`, `transport: network: Connection refused`. */
    val description: String
        get() = when (this) {
            is Request -> errors.joinToString("; ") { it.message }
            is Offline -> "transport: network: $reason"
            is TimedOut -> "transport: " + TransportException.timedOut(seconds).message
            is HttpStatus -> "transport: " + TransportException.httpStatus(status, retryAfter).message
            is MalformedResponse -> "malformed response: $reason"
            is TooLarge -> "transport: " + TransportException.tooLarge(limit).message
            is Cancelled -> "transport: " + TransportException.CANCELLED
            is ProtocolViolation -> "transport: $reason"
            is TransportFailed -> "transport: $reason"
            is Read -> exception.message ?: exception.toString()
            is Unattached -> reason
        }

    /** The body of the failed answer (its first [BODY_LIMIT] bytes), when there was one. */
    open val body: ByteArray?
        get() = null

    /** The `error` of a `fetchFailed` event: the messages of a request error, else the description. */
    internal val payload: Any?
        get() = if (this is Request) errors.map { it.message } else description

    override fun toString(): String = description

    companion object {
        /** The most of a failed answer's body kept (bytes). */
        const val BODY_LIMIT: Int = 64 shl 10

        /** The part of a body kept for diagnostics. */
        @JvmStatic
        fun kept(body: ByteArray): ByteArray = if (body.size <= BODY_LIMIT) body else body.copyOf(BODY_LIMIT)

        /**
         * The failure for whatever a transport threw: a [TransportException] by its kind, anything else as
         * [TransportFailed] with its message.
         */
        @JvmStatic
        fun of(error: Throwable): FetchError {
            if (error !is TransportException) return TransportFailed(error.message ?: error.javaClass.simpleName)
            return when (error.kind) {
                TransportException.Kind.HTTP_STATUS -> HttpStatus(error.status ?: 0, error.retryAfter, kept(error.body))
                TransportException.Kind.NETWORK -> Offline(error.message?.removePrefix("network: ") ?: "")
                TransportException.Kind.TIMED_OUT -> TimedOut(error.phase, error.seconds ?: 0.0)
                TransportException.Kind.TOO_LARGE -> TooLarge(error.limit ?: 0)
                TransportException.Kind.CANCELLED -> Cancelled
                TransportException.Kind.PERSISTED_QUERY_NOT_FOUND -> ProtocolViolation(error.message ?: "")
                TransportException.Kind.FAILED -> TransportFailed(error.message ?: "")
            }
        }
    }
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
    private val environment: BatonEnvironment,
    /** Headers every fetch of the handle sends (its first, retries, heals, refetches), over the transport's. */
    val headers: Map<String, String> = emptyMap()
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
                headers, cancellation,
                // Incremental delivery: each payload but the last is shown as it arrives, the fetch still running.
                afterPayload = { reread() }
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
