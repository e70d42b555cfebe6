package baton.tests

import baton.runtime.BatonEnvironment
import baton.runtime.FetchError
import baton.runtime.FetchPolicy
import baton.runtime.GraphQLHttp
import baton.runtime.GraphQLRequest
import baton.runtime.FetchException
import baton.runtime.HttpMethod
import baton.runtime.Operation
import baton.runtime.HttpTransport
import baton.runtime.MemoryLog
import baton.runtime.Phase
import baton.runtime.RecordStore
import baton.runtime.RetryPolicy
import baton.runtime.StoreImage
import baton.runtime.subscribe
import baton.runtime.mutation
import baton.runtime.Transport
import baton.runtime.TransportException
import scenarios.CharacterDetail
import scenarios.TestProfileQuery
import java.io.File
import java.net.URL

/**
 * The Kotlin runtime's own checks, printed for the Swift test to compare: lenses as values, `Double`s printed as
 * Swift prints them (the image's ages), and the `HttpURLConnection` transport against a local HTTP server.
 */
class Checks(private val doubles: File) {
    fun run() {
        section("lenses as values") { lensEquality(it) }
        section("response objects") { responseObjects(it) }
        section("doubles") { out -> doubles.readLines().filter { it.isNotBlank() }.forEach { out.add(StoreImage.swiftDouble(java.lang.Double.longBitsToDouble(java.lang.Long.parseUnsignedLong(it.trim(), 16)))) } }
        section("http transport") { httpTransport(it) }
        section("retry-after") { retryAfter(it) }
        section("log traces") { logTraces(it) }
        section("typed errors") { typedErrors(it) }
        section("request headers") { requestHeaders(it) }
        section("reused connections") { out ->
            reusedConnections(out) { url, method -> HttpTransport(URL(url), method = method, timeoutMillis = 10000) }
        }
    }

    /** A mutation call's headers and idempotency key, and a handle's headers on each of its fetches. */
    private fun requestHeaders(out: MutableList<String>) {
        val transport = baton.runtime.FixtureTransport()
        transport.answer("RenameCharacter", baton.runtime.FixtureTransport.Answer.Failure("not answered"))
        transport.answer(
            "TestProfileQuery",
            baton.runtime.FixtureTransport.Answer.Text("{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick\",\"origin\":null}}}")
        )
        val environment = BatonEnvironment(transport, MemoryLog(), TestClock().function, retryPolicy = RetryPolicy.NEVER)
        val call = environment.mutation<network.RenameCharacter.Data, network.RenameCharacter>()
        try {
            call.headers(mapOf("X-App" to "1")).idempotencyKey("key-1").perform(network.RenameCharacter(id = "1", name = "n"))
        } catch (error: FetchException) {
        }
        out.add("mutation: " + transport.requests.last().headers + ", the call's own: " + call.headers)
        val handle = environment.attach(TestProfileQuery(id = "1"), FetchPolicy.NETWORK_ONLY, headers = mapOf("X-Trace" to "t"))
        environment.settle()
        handle.retry()
        environment.settle()
        out.add("handle: " + transport.requests.filter { it.operationName == "TestProfileQuery" }.map { it.headers })
        handle.detach()
    }

    /** Each transport failure is its own [FetchError] case (as Swift's `TypedFetchErrorTests`), the texts Swift's. */
    private fun typedErrors(out: MutableList<String>) {
        val big = ByteArray(100_000) { 0x41 }
        for (error in listOf<Throwable>(
            TransportException.httpStatus(429, 2.0, big), TransportException.network("reset"),
            TransportException.timedOut(3.0, FetchError.TimeoutPhase.READING), TransportException.tooLarge(9),
            TransportException.cancelled(),
            TransportException("the server has no persisted query abc", null, TransportException.Kind.PERSISTED_QUERY_NOT_FOUND),
            TransportException("mine"), IllegalStateException("not a transport's")
        )) {
            val typed = FetchError.of(error)
            val shown = when (typed) {
                is FetchError.HttpStatus -> "HttpStatus ${typed.status} ${typed.retryAfter} body ${typed.body.size}"
                is FetchError.TimedOut -> "TimedOut ${typed.phase} ${typed.seconds}"
                else -> typed.javaClass.simpleName
            }
            out.add("$shown: ${typed.description}")
        }
        out.add("body limit: ${FetchError.BODY_LIMIT}")
    }

    /**
     * Every event of a fetch carries its trace (request id, operation, attempt) and a monotonic time: a fetch that
     * fails twice (a network failure, a timeout) and then succeeds, then an invalidation outside any fetch.
     */
    private fun logTraces(out: MutableList<String>) {
        var calls = 0
        val transport = object : Transport {
            override fun send(request: GraphQLRequest): ByteArray {
                calls++
                if (calls == 1) throw TransportException.network("reset")
                if (calls == 2) throw TransportException.timedOut(1.0)
                return "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick\",\"origin\":{\"id\":\"1\",\"name\":\"Earth\"}}}}".toByteArray(Charsets.UTF_8)
            }
        }
        val log = MemoryLog()
        val environment = BatonEnvironment(transport, log, TestClock().function, retryPolicy = RetryPolicy(2, 0.001))
        environment.fetch(TestProfileQuery(id = "1"))
        environment.invalidateType("Character")
        val events = log.events
        val id = events.first().trace?.requestId
        for (event in events) {
            val trace = event.trace
            out.add(event.name + ": " + if (trace == null) "no trace" else
                "request ${if (trace.requestId == id) "same" else "other"}, ${trace.operation}, attempt ${trace.attempt}")
        }
        val times = events.map { it.monotonicNanoseconds }
        out.add("monotonic: " + (times == times.sorted()))
        // A subscription: one request id for all its events, the attempt one more after each reconnect.
        val replaying = object : baton.runtime.SubscriptionTransport {
            override fun subscribe(
                request: GraphQLRequest, onEvent: (baton.runtime.SubscriptionEvent) -> Unit
            ): baton.runtime.Observation {
                onEvent(baton.runtime.SubscriptionEvent.Next("{\"data\":{\"ticks\":{\"__typename\":\"Tick\",\"n\":1}}}"))
                onEvent(baton.runtime.SubscriptionEvent.Reconnecting(1, 0.0, "dropped"))
                onEvent(baton.runtime.SubscriptionEvent.Next("{\"data\":{\"ticks\":{\"__typename\":\"Tick\",\"n\":2}}}"))
                onEvent(baton.runtime.SubscriptionEvent.Complete)
                return baton.runtime.Observation {}
            }
        }
        val subscriptionLog = MemoryLog()
        val subscribing = BatonEnvironment(transport, subscriptionLog, TestClock().function, subscriptionTransport = replaying)
        subscribing.subscribe(network.Ticks(count = 2))
        val subscriptionEvents = subscriptionLog.events
        out.add(
            "subscription: " + subscriptionEvents.map { "${it.name} ${it.trace?.operation}#${it.trace?.attempt}" } +
                ", one request: " + (subscriptionEvents.map { it.trace?.requestId }.toSet().size == 1)
        )
        out.add("printed: " + events[1].tracedDescription.substringAfter(" ").substringBefore(" {").replace("r$id ", "r<id> "))
    }

    /** `Retry-After` as RFC 9110 has it (the same table as Swift's `RetryPolicyTests`): value → seconds or null. */
    private fun retryAfter(out: MutableList<String>) {
        // 1994-11-06 08:49:37 UTC is 784111777 s after 1970; now is 90 s before it.
        val now = (784_111_777L - 90) * 1000
        for (text in listOf(
            "3", " 0 ", "007", "1e800", "1e3", "+5", "-1", "1.5", "inf", "NaN", "0x10", "5 s", "\u0663", "86401",
            "9".repeat(800), "0000000000000000000000012", "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 9999 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sun,  06 Nov 1994 08:49:37 GMT", "Wed, 21 Oct 2015 07:28:00 GMT"
        )) {
            val shown = if (text.length > 40) text.take(8) + "…(" + text.length + ")" else text
            out.add("[" + shown + "] " + GraphQLHttp.retryAfter(text, now))
        }
        out.add("2024-02-29: " + GraphQLHttp.httpDate("Thu, 29 Feb 2024 00:00:00 GMT") + ", 2023-02-29: " +
            GraphQLHttp.httpDate("Thu, 29 Feb 2023 00:00:00 GMT"))
    }

    /**
     * `ResponseObjects.of`, what each generated optimistic builder's `responseObject()` is: `__typename` first, the
     * members in order, `?k` left out while null, `...` merged in (nothing while null), builders and lists of them
     * as their objects, the rest as it is; and what it refuses.
     */
    private fun responseObjects(out: MutableList<String>) {
        class Builder(private val typename: String, private vararg val members: Any?) : baton.runtime.OptimisticResponse {
            override fun responseObject(): Map<String, Any?> = baton.runtime.ResponseObjects.of(typename, *members)
        }
        val author = Builder("Author", "id", "a1", "name", null)
        val spread = Builder("Comment", "nested", Builder("Nested", "x", 1), "extra", "e")
        val whole = baton.runtime.ResponseObjects.of(
            "Comment",
            "id", "c1", "body", null, "?left", null, "?kept", "k", "?keptNull", listOf<Any?>(null),
            "author", author, "authors", listOf(listOf(author, null), null), "tags", listOf("a", "b"),
            "...", null, "...", spread, "nested", Builder("Nested", "y", 2), "...", spread
        )
        out.add(baton.runtime.Json.write(whole))
        for (members in listOf(arrayOf<Any?>("id"), arrayOf<Any?>(1, "x"), arrayOf<Any?>("...", "not a builder"))) {
            try {
                baton.runtime.ResponseObjects.of("T", *members)
                out.add("accepted")
            } catch (error: IllegalArgumentException) {
                out.add("refused: " + error.message)
            }
        }
    }

    private fun lensEquality(out: MutableList<String>) {
        val store = RecordStore(TestClock().function)
        val profile = TestProfileQuery(id = "1")
        store.commit(profile, "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick\",\"origin\":{\"id\":\"1\",\"name\":\"Earth\"}}}}")
        val snapshot = store.snapshot()
        val first = snapshot.read(profile)
        val again = store.read(profile)
        out.add("the same snapshot, read twice: equal ${first == again}, same hash ${first.hashCode() == again.hashCode()}")
        out.add("nested lenses: equal ${first.character == again.character && first.character?.origin == again.character?.origin}")
        out.add("a lens of another class over the same record: equal " + (first.character as Any? == first.character?.origin as Any?))
        out.add("in a set: ${setOf(first, again, store.read(profile)).size} element")
        store.commit(profile, "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick\",\"origin\":{\"id\":\"1\",\"name\":\"Earth\"}}}}")
        out.add("after a commit that changes nothing: equal ${store.read(profile) == first}")
        store.commit(profile, "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick C-137\",\"origin\":{\"id\":\"1\",\"name\":\"Earth\"}}}}")
        val later = store.read(profile)
        out.add("after a commit that changes a slot: equal ${later == first}, old still reads ${first.character?.name}, new reads ${later.character?.name}")
        out.add("another operation's variables: equal " + (store.read(TestProfileQuery(id = "2")) == store.read(TestProfileQuery(id = "1"))))
    }

    private fun httpTransport(out: MutableList<String>) {
        val server = GraphQLTestServer(transportAnswers(500))
        try {
            transportScenario(HttpTransport(URL(server.url), mapOf("Authorization" to "Bearer x")), server, out, "application/json")
        } finally {
            server.stop()
        }
    }

    companion object {
        /**
         * Queries and mutations, alternating, through [transport] against a [ResettingServer] (which resets every
         * reused connection before answering), as POSTs and with queries as GETs: each ends within a second (a query
         * answered, a mutation answered or offline), never after the 10 s deadline, and no mutation runs twice.
         */
        fun reusedConnections(out: MutableList<String>, transport: (String, HttpMethod) -> Transport) {
            for (method in listOf(HttpMethod.POST, HttpMethod.GET_FOR_QUERIES)) {
                val server = ResettingServer()
                try {
                    val environment = BatonEnvironment(transport(server.url, method), MemoryLog(), TestClock().function)
                    val slow = ArrayList<String>()
                    val outcomes = LinkedHashSet<String>()
                    for (round in 0 until 3) {
                        for (operation in listOf<Operation<*>>(
                            network.CharacterQuery(id = "1"), network.RenameCharacter(id = "1", name = "n$round")
                        )) {
                            val start = System.nanoTime()
                            val outcome = try {
                                environment.fetch(operation)
                                "data"
                            } catch (error: FetchException) {
                                if (error.error is FetchError.Offline) "offline" else error.error.description
                            }
                            val seconds = (System.nanoTime() - start) / 1e9
                            if (seconds >= 1) slow.add("${operation.operationName} ${"%.1f".format(seconds)} s $outcome")
                            outcomes.add("${operation.operationName}: $outcome")
                        }
                    }
                    out.add(
                        "$method: over a second: $slow, outcomes: ${outcomes.sorted()}, " +
                            "mutations executed at most once: ${server.answers("RenameCharacter") <= 3}"
                    )
                } finally {
                    server.stop()
                }
            }
        }

        /** What the transports' tests answer, in order: an HTTP error without a GraphQL body, one with, a success. */
        fun transportAnswers(failure: Int): List<Pair<Int, String>> = listOf(
            failure to "<html>down</html>",
            400 to "{\"errors\":[{\"message\":\"bad request\"}]}",
            200 to "{\"data\":{\"character\":{\"id\":\"1\",\"name\":\"Rick Sanchez\",\"origin\":null}},\"errors\":[{\"message\":\"no origin\",\"path\":[\"character\",\"origin\"]}]}"
        )

        /**
         * Fetches through [transport] against [server]'s three answers, calling the handle's `retry()` after each
         * failure (the environment's automatic retries off: the local server answers each request once).
         */
        fun transportScenario(transport: Transport, server: GraphQLTestServer, out: MutableList<String>, contentType: String) {
            val log = MemoryLog()
            val environment = BatonEnvironment(transport, log, TestClock().function, retryPolicy = RetryPolicy.NEVER)
            val handle = environment.attach(CharacterDetail(id = "1"), FetchPolicy.NETWORK_ONLY)
            environment.settle()
            out.add("an HTTP error without a GraphQL body: " + ScenarioShow.phase(handle.phase))
            val typed = (handle.phase as? Phase.Failed)?.error
            out.add(
                "as a typed error: " + if (typed is FetchError.HttpStatus) {
                    "HttpStatus ${typed.status}, retry after ${typed.retryAfter}, body " + String(typed.body, Charsets.UTF_8)
                } else {
                    typed.toString()
                }
            )
            handle.retry()
            environment.settle()
            out.add("HTTP 400 with a GraphQL body: " + ScenarioShow.phase(handle.phase))
            handle.retry()
            environment.settle()
            out.add("HTTP 200: " + ScenarioShow.phase(handle.phase) + ", name " + ScenarioShow.text(handle.phase.data?.character?.name) +
                ", origin error stored: " + environment.store.record("Character:1")?.slots?.get("origin")?.errors?.map { it.message })
            out.addAll(log.lines)
            val expected = "POST $contentType Bearer x " + GraphQLRequest(CharacterDetail(id = "1")).body
            out.add("requests as sent: ${server.requests.size}, each the request body: " + server.requests.all { it == expected })
        }
    }
}
