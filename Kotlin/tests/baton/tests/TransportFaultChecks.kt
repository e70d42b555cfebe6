package baton.tests

import baton.runtime.BatonEnvironment
import baton.runtime.BearerTokenAuthenticator
import baton.runtime.FetchException
import baton.runtime.FetchPolicy
import baton.runtime.MemoryLog
import baton.runtime.Operation
import baton.runtime.Optional
import baton.runtime.RetryPolicy
import network.CharacterQuery
import network.CharactersPage
import network.RenameCharacter
import java.net.ServerSocket
import java.net.URL

/**
 * The transport's rules against the test server, as the Swift runtime's network tests check them (HTTPTransportTests,
 * FaultTests), over the transport [transports] makes: a 401 refreshed once and sent again, a second 401 the failure;
 * a timeout for the whole exchange; a detached handle's request cancelled; automatic retries for queries only
 * (502, 429 honouring `Retry-After`, a truncated body, a closed connection; never a 500, a body over the limit, a
 * `Retry-After` past the policy's limit, or a mutation) with backoff; offline keeping the stored data.
 */
class TransportFaultChecks(private val root: String, private val url: URL, private val transports: TransportFactory) {
    private var keys = 0

    fun run() {
        section("auth") { auth(it) }
        section("timeout") { timeout(it) }
        section("cancellation") { cancellation(it) }
        section("retries") { retries(it) }
        section("offline") { offline(it) }
    }

    private fun newKey(): String = "kotlin-faults-" + System.nanoTime() + "-" + (keys++)

    private fun environment(
        key: String, fault: String, log: MemoryLog = MemoryLog(), retryPolicy: RetryPolicy = QUICK,
        timeoutMillis: Long = 10000, maxResponseBytes: Long = 32L shl 20,
        authenticator: BearerTokenAuthenticator? = null
    ): BatonEnvironment {
        val headers = mapOf("X-Baton-Test-Key" to key, "X-Baton-Fault" to fault)
        val options = TransportOptions(
            url, headers, timeoutMillis = timeoutMillis, maxResponseBytes = maxResponseBytes, authenticator = authenticator
        )
        return BatonEnvironment(transports(options), log, TestClock().function, retryPolicy = retryPolicy)
    }

    private fun failure(environment: BatonEnvironment, operation: Operation<*>): String = try {
        environment.fetch(operation)
        "succeeded"
    } catch (error: FetchException) {
        "failed: " + error.error.description
    }

    private fun requests(key: String): Int = requestLog(root, key).size

    private fun retries(log: MemoryLog): Int = log.lines.count { it.startsWith("retry ") }

    private fun auth(out: MutableList<String>) {
        val key = newKey()
        val authenticator = BearerTokenAuthenticator("expired") { "fresh" }
        val environment = environment(key, "auth=fresh", authenticator = authenticator)
        out.add("refreshed: " + environment.fetch(CharacterQuery(id = "2")).character?.characterSummary?.name +
            ", refreshes " + authenticator.refreshCount)
        environment.fetch(CharacterQuery(id = "2"))
        out.add("already fresh: refreshes " + authenticator.refreshCount)
        out.add("sent: " + requestLog(root, key).joinToString(", ") { it.substringAfter("auth=").substringBefore(" onError=") })
        val refused = newKey()
        val wrong = BearerTokenAuthenticator("expired") { "still-wrong" }
        out.add("refused after the refresh: " + failure(environment(refused, "auth=fresh", authenticator = wrong), CharacterQuery(id = "2")) +
            ", requests " + requests(refused))
    }

    private fun timeout(out: MutableList<String>) {
        val environment = environment(newKey(), "delay=3000", retryPolicy = RetryPolicy.NEVER, timeoutMillis = 300)
        val start = System.nanoTime()
        out.add(failure(environment, CharacterQuery(id = "1")))
        out.add("within 2 s: " + (System.nanoTime() - start < 2_000_000_000L))
    }

    private fun cancellation(out: MutableList<String>) {
        val log = MemoryLog()
        val environment = environment(newKey(), "delay=5000", log)
        val handle = environment.attach(CharacterQuery(id = "3"), FetchPolicy.NETWORK_ONLY)
        Thread.sleep(200)
        out.add("fetching: " + handle.isFetching)
        val start = System.nanoTime()
        handle.detach()
        environment.settle(10000)
        out.add("cancelled within 2 s: " + (System.nanoTime() - start < 2_000_000_000L))
        // The detach also schedules a garbage collection, logged by another task: its line is counted, not
        // ordered against the fetch's.
        out.addAll(log.lines.filter { !it.startsWith("collected ") })
        out.add("collections after the detach: " + log.lines.count { it.startsWith("collected ") })
        out.add("committed nothing: " + (environment.store.record("Character:3") == null))
    }

    private fun retries(out: MutableList<String>) {
        var key = newKey()
        var log = MemoryLog()
        out.add("502: " + failure(environment(key, "status=502", log), CharacterQuery(id = "1")) +
            ", requests ${requests(key)}, retries ${retries(log)}")
        out.add(log.lines.first { it.startsWith("retry ") }.replace(Regex("\"delay\":[0-9.]+"), "\"delay\":…"))
        key = newKey()
        out.add("500: " + failure(environment(key, "status=500"), CharacterQuery(id = "1")) + ", requests ${requests(key)}")
        key = newKey()
        val start = System.nanoTime()
        val waited = environment(key, "status=429,retry-after=1,times=1,key=$key").fetch(CharacterQuery(id = "4"))
        out.add("429: " + waited.character?.characterSummary?.name + ", Retry-After waited: " +
            (System.nanoTime() - start >= 1_000_000_000L) + ", requests ${requests(key)}")
        key = newKey()
        out.add("429 past the policy's limit: " + failure(environment(key, "status=429,retry-after=3600"), CharacterQuery(id = "1")) +
            ", requests ${requests(key)}")
        key = newKey()
        out.add("a mutation's 502: " + failure(environment(key, "status=502"), RenameCharacter(id = "5", name = "Never")) +
            ", requests ${requests(key)}")
        key = newKey()
        log = MemoryLog()
        val closed = failure(environment(key, "close=before", log), RenameCharacter(id = "5", name = "Never"))
        out.add("a mutation's closed connection: network ${closed.startsWith("failed: transport: network: ")}, retries ${retries(log)}, " +
            "requests at most 2: ${requests(key) <= 2}")
        key = newKey()
        val page = environment(key, "body=truncate,times=1,key=$key").fetch(CharactersPage(first = Optional.Present(5)))
        out.add("a truncated body, then whole: ${page.characters.edges.size} edges, requests ${requests(key)}")
        key = newKey()
        log = MemoryLog()
        val refused = failure(environment(key, "close=before", log), CharacterQuery(id = "1"))
        out.add("a query's closed connection: network ${refused.startsWith("failed: transport: network: ")}, retries ${retries(log)}, " +
            "requests at least 3: ${requests(key) >= 3}")
        key = newKey()
        val large = System.nanoTime()
        out.add("50 MB: " + failure(environment(key, "size=52428800", maxResponseBytes = 1L shl 20), CharacterQuery(id = "1")) +
            ", requests ${requests(key)}, within 3 s: ${System.nanoTime() - large < 3_000_000_000L}")
    }

    private fun offline(out: MutableList<String>) {
        val online = environment(newKey(), "")
        online.fetch(CharacterQuery(id = "12"))
        val port = ServerSocket(0).use { it.localPort }
        val transport = transports(TransportOptions(URL("http://127.0.0.1:$port/graphql"), emptyMap()))
        val offline = BatonEnvironment(transport, MemoryLog(), TestClock().function, online.store, retryPolicy = QUICK)
        val handle = offline.attach(CharacterQuery(id = "12"), FetchPolicy.STORE_AND_NETWORK)
        offline.settle(10000)
        out.add("phase: " + ScenarioShow.phase(handle.phase) + ", " + handle.phase.data?.character?.characterSummary?.name)
        out.add("last fetch error is a network failure: " + (handle.lastFetchError?.description?.startsWith("transport: network: ") == true))
        handle.detach()
    }

    companion object {
        /** A quick policy, so the checks wait milliseconds (Swift's FaultTests.quickRetries). */
        val QUICK = RetryPolicy(2, 0.01, 0.05, 5.0)
    }
}
