package baton.tests.adapters

import baton.coroutines.awaitSettled
import baton.coroutines.collectStates
import baton.coroutines.fetchSuspending
import baton.coroutines.states
import baton.okhttp.OkHttpTransport
import baton.okhttp.OkHttpWebSocketConnector
import baton.runtime.BatonEnvironment
import baton.runtime.FetchPolicy
import baton.runtime.FixtureTransport
import baton.runtime.GraphQLRequest
import baton.runtime.HandleState
import baton.runtime.MemoryLog
import baton.runtime.Transport
import baton.runtime.TransportException
import baton.tests.Checks
import baton.tests.GraphQLTestServer
import baton.tests.ScenarioShow
import baton.tests.ServerChecks
import baton.tests.section
import baton.tests.TestClock
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.flow.FlowCollector
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import okhttp3.OkHttpClient
import baton.runtime.PersistedQueries
import scenarios.CharacterDetail
import java.io.File

/**
 * The optional adapters: the OkHttp transport against a local HTTP server, and the coroutine adapters (and the
 * Flow one, over a stand-in of the Flow API) over the core's listener API. Argument: the scenario fixtures folder.
 *
 * With `server <python> <Tests/Server/server.py> <manifest>`, the server checks ([ServerChecks]) over OkHttp instead:
 * its transport, and its WebSockets for the subscriptions.
 */
fun main(args: Array<String>) {
    if (args.firstOrNull() == "server") {
        val client = OkHttpClient()
        try {
            ServerChecks(
                args[1], File(args[2]), File(args[3]),
                { options ->
                    OkHttpTransport(
                        client, options.url.toString(), options.headers, options.method, options.persisted,
                        options.timeoutMillis, options.maxResponseBytes, options.authenticator
                    )
                },
                { OkHttpWebSocketConnector(client) }
            ).run()
        } finally {
            client.dispatcher().executorService().shutdown()
            client.connectionPool().evictAll()
        }
        return
    }
    val fixtures = File(args[0])
    section("okhttp transport") { okHttp(it) }
    section("coroutines") { coroutines(fixtures, it) }
    section("reused connections") { out ->
        val client = OkHttpClient()
        try {
            Checks.reusedConnections(out) { url, method ->
                OkHttpTransport(client, url, emptyMap(), method, PersistedQueries.OFF, 10000, 32L shl 20, null)
            }
        } finally {
            client.dispatcher().executorService().shutdown()
            client.connectionPool().evictAll()
        }
    }
}

private fun okHttp(out: MutableList<String>) {
    val server = GraphQLTestServer(Checks.transportAnswers(503))
    val client = OkHttpClient()
    try {
        Checks.transportScenario(OkHttpTransport(client, server.url, mapOf("Authorization" to "Bearer x")), server, out, "application/json")
        server.stop()
        val offline = BatonEnvironment(OkHttpTransport(client, server.url), MemoryLog(), TestClock().function)
        val failed = offline.attach(CharacterDetail(id = "1"), FetchPolicy.NETWORK_ONLY)
        offline.settle()
        out.add("server gone: " + ScenarioShow.kind(failed.phase))
    } finally {
        server.stop()
        client.dispatcher().executorService().shutdown()
        client.connectionPool().evictAll()
    }
}

private fun coroutines(fixtures: File, out: MutableList<String>) = runBlocking {
    val transport = FixtureTransport()
    transport.answer("CharacterDetail", FixtureTransport.Answer.FromFile(File(fixtures, "detail.json")))
    val environment = BatonEnvironment(transport, MemoryLog(), TestClock().function)
    val handle = environment.attach(CharacterDetail(id = "1"))
    val settled = withTimeout(10000) { handle.awaitSettled() }
    out.add("awaitSettled: " + ScenarioShow.phase(settled) + ", name " + ScenarioShow.text(settled.data?.character?.name))

    val seen = ArrayList<HandleState<CharacterDetail.Data>>()
    val collecting = launch {
        handle.collectStates { state ->
            synchronized(seen) { seen.add(state) }
        }
    }
    withTimeout(10000) { while (synchronized(seen) { seen.isEmpty() }) kotlinx.coroutines.delay(10) }
    environment.store.commit(CharacterDetail(id = "1"), "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick C-137\",\"origin\":{\"id\":\"1\",\"name\":\"Earth (C-137)\",\"dimension\":\"Dimension C-137\"}}}}")
    withTimeout(10000) { while (synchronized(seen) { seen.last().phase.data?.character?.name } != "Rick C-137") kotlinx.coroutines.delay(10) }
    collecting.cancel()
    collecting.join()
    synchronized(seen) {
        out.add("collectStates: first " + ScenarioShow.text(seen.first().phase.data?.character?.name) + ", last " + ScenarioShow.text(seen.last().phase.data?.character?.name))
        out.add("states in a row differ: " + seen.zipWithNext().all { (a, b) -> a != b })
    }
    environment.store.commit(CharacterDetail(id = "1"), "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick\",\"origin\":{\"id\":\"1\",\"name\":\"Earth (C-137)\",\"dimension\":\"Dimension C-137\"}}}}")
    out.add("after cancelling, no more states: " + (synchronized(seen) { seen.last().phase.data?.character?.name } == "Rick C-137"))

    val fetched = withTimeout(10000) { environment.fetchSuspending(CharacterDetail(id = "1")) }
    out.add("fetchSuspending: " + ScenarioShow.text(fetched.character?.name))

    // Cancelling the coroutine cancels the fetch: a transport that answers only when its request is cancelled.
    val waiting = object : Transport {
        override fun send(request: GraphQLRequest): ByteArray {
            if (request.cancellation.await(10000)) throw TransportException.cancelled()
            throw TransportException("never cancelled")
        }
    }
    val slowLog = MemoryLog()
    val slow = BatonEnvironment(waiting, slowLog, TestClock().function)
    val fetching = launch {
        try {
            slow.fetchSuspending(CharacterDetail(id = "1"))
        } catch (error: CancellationException) {
        }
    }
    kotlinx.coroutines.delay(100)
    fetching.cancel()
    fetching.join()
    val cancelled = "fetchCancelled {\"operation\":\"CharacterDetail\",\"error\":\"transport: cancelled\"}"
    withTimeout(5000) { while (cancelled !in slowLog.lines) kotlinx.coroutines.delay(10) }
    out.add("fetchSuspending cancelled with its coroutine: " + (cancelled in slowLog.lines))

    val flowSeen = ArrayList<String>()
    val flowJob = launch {
        handle.states().collect(object : FlowCollector<HandleState<CharacterDetail.Data>> {
            override suspend fun emit(value: HandleState<CharacterDetail.Data>) {
                synchronized(flowSeen) { flowSeen.add(ScenarioShow.text(value.phase.data?.character?.name)) }
            }
        })
    }
    withTimeout(10000) { while (synchronized(flowSeen) { flowSeen.isEmpty() }) kotlinx.coroutines.delay(10) }
    flowJob.cancel()
    flowJob.join()
    out.add("states() flow, first: " + synchronized(flowSeen) { flowSeen.first() })
}
