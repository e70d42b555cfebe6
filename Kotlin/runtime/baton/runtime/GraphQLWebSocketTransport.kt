package baton.runtime

import java.util.concurrent.LinkedBlockingQueue
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
 *
 * Queries and mutations go over the same socket too, `@defer` and `@stream` as successive `next` messages (an
 * [IncrementalTransport], as the Swift runtime's): an operation is a `subscribe`, each `next` one payload handed to
 * the environment as it arrives, `complete` ends it, `error` is [FetchError.Request], [operationTimeoutMillis]
 * bounds it, and a socket that breaks fails it (`network: …`) instead of subscribing it again (that would run it
 * twice and merge a second answer into the first).
 */
class GraphQLWebSocketTransport @JvmOverloads constructor(
    val url: String,
    val connectionPayload: Map<String, Any?>? = null,
    val headers: Map<String, String> = emptyMap(),
    val reconnect: RetryPolicy = RetryPolicy(5, 0.5, 30.0),
    val pingIntervalMillis: Long? = null,
    val acknowledgementTimeoutMillis: Long = 10000,
    val connector: WebSocketConnector = SocketWebSocketConnector(),
    /** Milliseconds for the whole answer to a query or mutation sent over the socket. */
    val operationTimeoutMillis: Long = 30000
) : SubscriptionTransport, IncrementalTransport {
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

    /** A whole answer: the one `next` of an operation without `@defer` or `@stream`. */
    override fun send(request: GraphQLRequest): ByteArray {
        val payloads = ArrayList<ByteArray>()
        sendIncrementally(request) { payloads.add(it) }
        if (payloads.size != 1) {
            throw FetchException(
                FetchError.ProtocolViolation(
                    "graphql-transport-ws: ${payloads.size} next messages for an operation without @defer or @stream"
                )
            )
        }
        return payloads[0]
    }

    /**
     * Sends [request] as a `subscribe` and hands each `next` payload to [receive], in order, until `complete`, on the
     * calling thread. Fails with [FetchError.Request] for the server's `error`, a network failure when the socket
     * breaks or cannot be opened, a timeout after [operationTimeoutMillis], `cancelled` when the request's
     * cancellation is; ending early (a failure, a cancel, [receive] throwing) sends `complete`.
     */
    override fun sendIncrementally(request: GraphQLRequest, receive: (ByteArray) -> Unit) {
        if (request.cancellation.isCancelled) throw TransportException.cancelled()
        val events = LinkedBlockingQueue<Any>()
        val subscription = subscribe(request) { events.put(it) }
        val cancelled = request.cancellation.onCancel { events.put(CANCELLED) }
        val deadline = System.nanoTime() + operationTimeoutMillis * 1_000_000
        var received = false
        try {
            while (true) {
                val left = deadline - System.nanoTime()
                val event = (if (left > 0) events.poll(left, TimeUnit.NANOSECONDS) else null)
                    ?: throw TransportException.timedOut(
                        operationTimeoutMillis / 1000.0,
                        if (received) FetchError.TimeoutPhase.READING else FetchError.TimeoutPhase.WAITING
                    )
                when (event) {
                    is SubscriptionEvent.Next -> {
                        received = true
                        receive(event.payload.toByteArray(Charsets.UTF_8))
                    }
                    is SubscriptionEvent.Complete -> return
                    is SubscriptionEvent.Error -> throw FetchException(FetchError.Request(event.errors))
                    is SubscriptionEvent.Reconnecting -> throw TransportException.network(event.reason)
                    is SubscriptionEvent.Failed -> throw TransportException.network(event.reason)
                    else -> throw TransportException.cancelled()
                }
            }
        } finally {
            cancelled.cancel()
            subscription.cancel()
        }
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
        /** What a cancelled operation's queue hears. */
        private val CANCELLED = Any()

        /** One daemon thread for every transport's acknowledgement timeouts and pings. */
        private val timer: ScheduledThreadPoolExecutor by lazy {
            ScheduledThreadPoolExecutor(1, ThreadFactory { work -> Thread(work, "baton-websocket-timers").apply { isDaemon = true } })
                .apply { removeOnCancelPolicy = true }
        }
    }
}
