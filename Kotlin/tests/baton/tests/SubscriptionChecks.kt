package baton.tests

import baton.runtime.BatonEnvironment
import baton.runtime.FetchPolicy
import baton.runtime.GraphQLWebSocketTransport
import baton.runtime.MemoryLog
import baton.runtime.Operation
import baton.runtime.Optional
import baton.runtime.RecordReader
import baton.runtime.RetryPolicy
import baton.runtime.Selection
import baton.runtime.WebSocketConnector
import baton.runtime.subscribe
import network.CharacterQuery
import network.CharacterRenamed
import network.RenameCharacter
import network.Ticks
import java.net.URL

/**
 * Subscriptions over graphql-transport-ws against the test server (ariadne's handler), as the Swift runtime's
 * SubscriptionTests check them, through the sockets [connectors] makes (the core's RFC 6455 client, or OkHttp's):
 * each `next` committed and the completion heard; a `next` updating a query handle reading the same record, and a
 * detach completing the subscription on the server; a dropped socket reconnected and subscribed again; a refused
 * connection failing after the retries; an invalid subscription a request error.
 */
class SubscriptionChecks(
    private val root: String,
    private val transports: TransportFactory,
    private val connectors: () -> WebSocketConnector
) {
    private val webSocketURL = root.replace("http://", "ws://") + "/graphql"

    fun run() {
        section("subscription") { ticks(it) }
        section("subscription notifies handles") { notifies(it) }
        section("dropped socket") { dropped(it) }
        section("refused connection") { refused(it) }
        section("invalid subscription") { invalid(it) }
    }

    private fun transport(
        fault: String? = null, payload: Map<String, Any?>? = null, pingIntervalMillis: Long? = null
    ): GraphQLWebSocketTransport = GraphQLWebSocketTransport(
        if (fault == null) webSocketURL else "$webSocketURL?fault=$fault", payload, emptyMap(), QUICK, pingIntervalMillis,
        10000, connectors()
    )

    private fun environment(transport: GraphQLWebSocketTransport, log: MemoryLog = MemoryLog()): BatonEnvironment =
        BatonEnvironment(
            transports(TransportOptions(URL("$root/graphql"), emptyMap())), log, TestClock().function,
            subscriptionTransport = transport
        )

    /** Waits (at most [seconds]) until [condition] holds; whether it does. */
    private fun eventually(seconds: Double = 10.0, condition: () -> Boolean): Boolean {
        val deadline = System.nanoTime() + (seconds * 1e9).toLong()
        while (System.nanoTime() < deadline) {
            if (condition()) return true
            Thread.sleep(10)
        }
        return condition()
    }

    private fun subscribers(): Int = URL("$root/_baton/subscribers").readText().trim().toIntOrNull() ?: -1

    private fun ticks(out: MutableList<String>) {
        val transport = transport(payload = mapOf("token" to "t"), pingIntervalMillis = 20)
        val log = MemoryLog()
        val handle = environment(transport, log).subscribe(Ticks(count = 5, intervalMs = Optional.Present(30)))
        val seen = ArrayList<Int>()
        handle.observe { handle.phase.data?.ticks?.n?.let { n -> synchronized(seen) { seen.add(n) } } }
        out.add("finished: " + eventually { handle.isFinished })
        out.add("events: ${handle.eventCount}, last n: ${handle.phase.data?.ticks?.n}")
        out.add("each next notified, in order, and the completion once more: " + synchronized(seen) { seen.toString() })
        out.add("committed: " + log.lines.count { it.startsWith("committed ") })
        out.add("our pings answered: " + (transport.pongsReceived > 0))
        out.add("closed: " + eventually { transport.activeCount == 0 })
        out.addAll(log.lines.filter { !it.startsWith("committed ") })
    }

    private fun notifies(out: MutableList<String>) {
        val transport = transport()
        val environment = environment(transport)
        val query = environment.attach(CharacterQuery(id = "40"), FetchPolicy.STORE_OR_NETWORK)
        environment.settle(10000)
        out.add("query: " + query.phase.data?.character?.characterSummary?.name)
        val subscription = environment.subscribe(CharacterRenamed(id = Optional.Present("40")))
        out.add("listening on the server: " + eventually { subscribers() == 1 })
        environment.fetch(RenameCharacter(id = "40", name = "Renamed over the socket"))
        out.add("heard: " + eventually { subscription.eventCount == 1 })
        out.add("query after the next: " + query.phase.data?.character?.characterSummary?.name)
        subscription.detach()
        out.add("completed on the server after the detach: " + eventually { subscribers() == 0 })
        query.detach()
    }

    private fun dropped(out: MutableList<String>) {
        val key = "kotlin-drop-" + System.nanoTime()
        val transport = transport(fault = "drop-after=2,times=1,key=$key")
        val log = MemoryLog()
        val handle = environment(transport, log).subscribe(Ticks(count = 4, intervalMs = Optional.Present(20)))
        out.add("finished: " + eventually { handle.isFinished })
        out.add("reconnects: ${handle.reconnects}, sockets acknowledged: ${transport.connectionsAcknowledged}")
        // Two ticks before the drop, then the subscription again from the start: four more.
        out.add("events: ${handle.eventCount}, last n: ${handle.phase.data?.ticks?.n}, last error: ${handle.lastError}")
        out.add("logged reconnecting: " + log.lines.count { it.startsWith("subscriptionReconnecting ") })
    }

    private fun refused(out: MutableList<String>) {
        val handle = environment(transport(payload = mapOf("reject" to true))).subscribe(Ticks(count = 1))
        out.add("finished: " + eventually { handle.isFinished })
        out.add("reconnects: ${handle.reconnects}, phase: " + ScenarioShow.kind(handle.phase))
    }

    private fun invalid(out: MutableList<String>) {
        // count is required and must be an Int: the server answers `error` for the subscription.
        val handle = environment(transport()).subscribe(BrokenTicks())
        out.add("finished: " + eventually { handle.isFinished })
        out.add("phase: " + ScenarioShow.kind(handle.phase) + ", with errors: " + (handle.lastError?.description?.isNotEmpty() == true))
    }

    /** A subscription the server refuses (a variable of the wrong type), hand-written on purpose, as Swift's. */
    class BrokenTicks : Operation<Ticks.Data> {
        override val operationName: String get() = "BrokenTicks"
        override val operationType: String get() = "subscription"
        override val document: String get() = "subscription BrokenTicks(\$count: String!) { ticks(count: \$count) { n __typename } }"
        override val operationId: String get() = ""
        override val onError: String? get() = null
        override val rootTypename: String get() = "Subscription"
        override val selections: List<Selection> get() = Ticks(count = 1).selections
        override val throwOnFieldError: Boolean get() = false
        override fun variables(): Map<String, Any?> = mapOf("count" to "three")
        override fun data(reader: RecordReader): Ticks.Data = Ticks(count = 1).data(reader)
    }

    companion object {
        /** Quick reconnects (Swift's SubscriptionTests.quick). */
        val QUICK = RetryPolicy(3, 0.02, 0.1)
    }
}
