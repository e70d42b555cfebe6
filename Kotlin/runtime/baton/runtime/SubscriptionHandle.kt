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

    /** The subscription's trace: every event it logs carries it (the attempt counts the times it was sent). */
    @Volatile private var trace = LogEvent.Trace.next(operation.operationName)

    internal fun start(transport: SubscriptionTransport) {
        LogEvent.Trace.with(trace) {
            environment.log.record(LogEvent("subscriptionStarted", linkedMapOf<String, Any?>("operation" to operation.operationName)))
        }
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
        LogEvent.Trace.with(trace) { traced(event) }
        // A reconnect sends the subscription again: what follows is its next attempt.
        if (event is SubscriptionEvent.Reconnecting) trace = trace.copy(attempt = event.attempt + 1)
    }

    private fun traced(event: SubscriptionEvent) {
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
                record(FetchError.MalformedResponse(error.reason, FetchError.kept(event.payload.toByteArray(Charsets.UTF_8))))
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
                fail(FetchError.Offline(event.reason))
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
        handle.fail(FetchError.Unattached("the environment has no subscription transport"))
    }
    return handle
}
