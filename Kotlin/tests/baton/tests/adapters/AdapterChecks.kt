package baton.tests.adapters

import baton.coroutines.awaitSettled
import baton.coroutines.collectStates
import baton.coroutines.fetchSuspending
import baton.coroutines.states
import baton.okhttp.OkHttpTransport
import baton.runtime.BatonEnvironment
import baton.runtime.FetchPolicy
import baton.runtime.FixtureTransport
import baton.runtime.GraphQLRequest
import baton.runtime.HandleState
import baton.runtime.MemoryLog
import baton.tests.Scenarios
import baton.tests.TestClock
import com.sun.net.httpserver.HttpServer
import kotlinx.coroutines.flow.FlowCollector
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import okhttp3.OkHttpClient
import scenarios.CharacterDetail
import java.io.File
import java.net.InetSocketAddress

/**
 * The optional adapters: the OkHttp transport against a local HTTP server, and the coroutine adapters (and the
 * Flow one, over a stand-in of the Flow API) over the core's listener API. Argument: the scenario fixtures folder.
 */
fun main(args: Array<String>) {
    val fixtures = File(args[0])
    section("okhttp transport") { okHttp(it) }
    section("coroutines") { coroutines(fixtures, it) }
}

private fun section(name: String, body: (MutableList<String>) -> Unit) {
    val lines = ArrayList<String>()
    try {
        body(lines)
    } catch (error: Throwable) {
        lines.add("unexpected ${error.javaClass.simpleName}: ${error.message}")
    }
    println("== $name")
    for (line in lines) println(line)
}

private fun okHttp(out: MutableList<String>) {
    val server = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)
    val answers = ArrayList<Pair<Int, String>>()
    val received = ArrayList<String>()
    server.createContext("/graphql") { exchange ->
        val body = exchange.requestBody.readBytes().toString(Charsets.UTF_8)
        val (status, text) = synchronized(answers) {
            received.add("${exchange.requestMethod} ${exchange.requestHeaders.getFirst("Content-Type")} ${exchange.requestHeaders.getFirst("Authorization")} $body")
            answers.removeAt(0)
        }
        val bytes = text.toByteArray(Charsets.UTF_8)
        exchange.sendResponseHeaders(status, bytes.size.toLong())
        exchange.responseBody.use { it.write(bytes) }
    }
    server.start()
    val client = OkHttpClient()
    try {
        synchronized(answers) {
            answers.add(503 to "<html>busy</html>")
            answers.add(400 to "{\"errors\":[{\"message\":\"bad request\"}]}")
            answers.add(200 to "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick Sanchez\",\"origin\":null}},\"errors\":[{\"message\":\"no origin\",\"path\":[\"character\",\"origin\"]}]}")
        }
        val url = "http://127.0.0.1:${server.address.port}/graphql"
        val log = MemoryLog()
        val transport = OkHttpTransport(client, url, mapOf("Authorization" to "Bearer x"))
        val environment = BatonEnvironment(transport, log, TestClock().function)
        val handle = environment.attach(CharacterDetail(id = "1"), FetchPolicy.NETWORK_ONLY)
        environment.settle()
        out.add("HTTP 503 without a GraphQL body: " + Scenarios.phase(handle.phase))
        handle.retry()
        environment.settle()
        out.add("HTTP 400 with a GraphQL body: " + Scenarios.phase(handle.phase))
        handle.retry()
        environment.settle()
        out.add("HTTP 200: " + Scenarios.phase(handle.phase) + ", name " + Scenarios.text(handle.phase.data?.character?.name) +
            ", origin error stored: " + environment.store.record("Character:1")?.slots?.get("origin")?.errors?.map { it.message })
        out.addAll(log.lines)
        val expected = "POST application/json Bearer x " + GraphQLRequest(CharacterDetail(id = "1")).body
        synchronized(answers) { out.add("requests as sent: ${received.size}, each the request body: " + received.all { it == expected }) }
        server.stop(0)
        val offline = BatonEnvironment(OkHttpTransport(client, url), MemoryLog(), TestClock().function)
        val failed = offline.attach(CharacterDetail(id = "1"), FetchPolicy.NETWORK_ONLY)
        offline.settle()
        out.add("server gone: " + Scenarios.kind(failed.phase))
    } finally {
        server.stop(0)
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
    out.add("awaitSettled: " + Scenarios.phase(settled) + ", name " + Scenarios.text(settled.data?.character?.name))

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
        out.add("collectStates: first " + Scenarios.text(seen.first().phase.data?.character?.name) + ", last " + Scenarios.text(seen.last().phase.data?.character?.name))
        out.add("states in a row differ: " + seen.zipWithNext().all { (a, b) -> a != b })
    }
    environment.store.commit(CharacterDetail(id = "1"), "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick\",\"origin\":{\"id\":\"1\",\"name\":\"Earth (C-137)\",\"dimension\":\"Dimension C-137\"}}}}")
    out.add("after cancelling, no more states: " + (synchronized(seen) { seen.last().phase.data?.character?.name } == "Rick C-137"))

    val fetched = withTimeout(10000) { environment.fetchSuspending(CharacterDetail(id = "1")) }
    out.add("fetchSuspending: " + Scenarios.text(fetched.character?.name))

    val flowSeen = ArrayList<String>()
    val flowJob = launch {
        handle.states().collect(object : FlowCollector<HandleState<CharacterDetail.Data>> {
            override suspend fun emit(value: HandleState<CharacterDetail.Data>) {
                synchronized(flowSeen) { flowSeen.add(Scenarios.text(value.phase.data?.character?.name)) }
            }
        })
    }
    withTimeout(10000) { while (synchronized(flowSeen) { flowSeen.isEmpty() }) kotlinx.coroutines.delay(10) }
    flowJob.cancel()
    flowJob.join()
    out.add("states() flow, first: " + synchronized(flowSeen) { flowSeen.first() })
}
