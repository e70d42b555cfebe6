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

    /**
     * Attaches a handle for [operation] under [policy]; [expiration] (seconds) overrides the operation's; [headers] go
     * with every fetch of the handle, over the transport's.
     */
    fun <D : Any> attach(
        operation: Operation<D>, policy: FetchPolicy = FetchPolicy.STORE_OR_NETWORK, expiration: Double? = null,
        headers: Map<String, String> = emptyMap()
    ): Handle<D> {
        val handle = Handle(operation, policy, expiration ?: operation.expiration, this, headers)
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

    /** How many handles are attached and not yet collected: for leak checks. */
    internal val attachedHandleCount: Int get() = attachedHandles.size

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
        replacing: Int? = null, afterPayload: () -> Unit = {}
    ) {
        // Every event it logs (and every event logged by what it delivers to, on this thread) carries a new trace.
        LogEvent.Trace.with(LogEvent.Trace.next(operation.operationName)) {
            traced(operation, beforeDelivery, afterDelivery, headers, cancellation, replacing, afterPayload)
        }
    }

    private fun traced(
        operation: Operation<*>, beforeDelivery: () -> Unit, afterDelivery: () -> Unit,
        headers: Map<String, String>, cancellation: Cancellation, replacing: Int?, afterPayload: () -> Unit
    ) {
        val name = operation.operationName
        log.record(LogEvent("fetchStarted", linkedMapOf<String, Any?>("operation" to name)))
        try {
            val request = GraphQLRequest(operation, headers, cancellation)
            val incremental = transport as? IncrementalTransport
            if (request.incrementalDelivery && incremental != null) {
                receiveIncrementally(operation, request, incremental, beforeDelivery, afterDelivery, replacing, afterPayload)
                synchronized(lock) { invalidatedOperations.remove(OperationIdentity.of(operation)) }
                log.record(LogEvent("fetchCompleted", linkedMapOf<String, Any?>("operation" to name)))
                return
            }
            val body = receive(request)
            if (cancellation.isCancelled) throw FetchException(FetchError.Cancelled)
            val (result, deliver) = try {
                store.commitDeferringNotifications(operation, String(body, Charsets.UTF_8), replacing)
            } catch (error: MalformedResponseException) {
                throw FetchException(FetchError.MalformedResponse(error.reason, FetchError.kept(body)))
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
            val cancelled = error.error == FetchError.Cancelled
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
     * (logging `retry`); a wait ends at once when the request is cancelled. A failure that ends it is the
     * [FetchError] case of its kind ([FetchError.of]).
     */
    private fun receive(request: GraphQLRequest): ByteArray = retrying(request, { true }) { transport.send(request) }

    /**
     * Runs [attempt] again after a transient failure of a query, as [retryPolicy] allows and while [mayRetry] says
     * so; a [FetchException] it throws ends it as it is.
     */
    private fun <R> retrying(request: GraphQLRequest, mayRetry: () -> Boolean, attempt: () -> R): R {
        var retry = 0
        while (true) {
            try {
                return attempt()
            } catch (error: FetchException) {
                throw error
            } catch (error: Exception) {
                val cancelled = request.cancellation.isCancelled
                val failure = error as? TransportException
                retry++
                val delay = if (cancelled || failure == null || request.operationType != "query" || !mayRetry()) null else {
                    retryPolicy.delay(retry, failure)
                }
                if (delay == null) {
                    throw FetchException(if (cancelled) FetchError.Cancelled else FetchError.of(error))
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
                    throw FetchException(FetchError.Cancelled)
                }
                // The retry was logged under the attempt that failed; what follows under the next one.
                LogEvent.Trace.attempt(retry + 1)
            }
        }
    }

    /**
     * Sends an operation with `@defer` or `@stream` and commits its answer payload by payload, as the Swift runtime's
     * `receiveIncrementally`: each payload merged ([IncrementalMerger]) into the response so far, committed as its own
     * batch with the marks of failed fragments and open streams ([IncrementalMarks]), logged (`committed` with its
     * `payload` summary) and delivered; [afterPayload] after each but the last. A payload that cannot be merged fails
     * the fetch and commits nothing of itself; a query is sent again only while nothing was committed.
     */
    private fun receiveIncrementally(
        operation: Operation<*>, request: GraphQLRequest, transport: IncrementalTransport, beforeDelivery: () -> Unit,
        afterDelivery: () -> Unit, replacing: Int?, afterPayload: () -> Unit
    ) {
        var merger = IncrementalMerger()
        var committed = 0
        var streaming: List<List<Any>> = emptyList()
        retrying(request, { committed == 0 }) {
            merger = IncrementalMerger()
            transport.sendIncrementally(request) { bytes ->
                if (request.cancellation.isCancelled) throw FetchException(FetchError.Cancelled)
                val step = try {
                    merger.apply(Json.parse(String(bytes, Charsets.UTF_8)))
                } catch (error: IncrementalException) {
                    throw FetchException(FetchError.MalformedResponse(error.message ?: "", FetchError.kept(bytes)))
                } catch (error: JsonException) {
                    throw FetchException(FetchError.MalformedResponse(error.message ?: "", FetchError.kept(bytes)))
                }
                val body = Json.write(step.response)
                val (result, deliver) = try {
                    store.commitDeferringNotifications(operation, body, if (committed == 0) replacing else null)
                } catch (error: MalformedResponseException) {
                    throw FetchException(FetchError.MalformedResponse(error.reason, FetchError.kept(body.toByteArray())))
                } catch (error: RequestFailedException) {
                    throw FetchException(FetchError.Request(error.errors.errors))
                }
                val marks = incrementalMarks(
                    store.snapshot(), operation, step.failures, step.streaming, streaming.filter { it !in step.streaming }
                )
                streaming = step.streaming
                committed++
                log.record(
                    LogEvent(
                        "committed",
                        linkedMapOf<String, Any?>("kind" to "server", "changed" to result.changed.size, "payload" to step.summary)
                    )
                )
                beforeDelivery()
                try {
                    deliver()
                    store.writeMarks(marks)
                } finally {
                    afterDelivery()
                }
                if (step.hasNext) afterPayload()
            }
        }
        try {
            merger.finish()
        } catch (error: IncrementalException) {
            throw FetchException(FetchError.MalformedResponse(error.message ?: ""))
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
     * How many tracked tasks (fetches, heals, refetches) are running: the test kit's `settle` (`baton.testing`)
     * stops waiting when each of them waits for an answer the test has not given yet.
     */
    val runningTaskCount: Int
        get() {
            tasks.lock()
            try {
                return inFlight
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
