package baton.testing

import baton.runtime.BatonEnvironment
import baton.runtime.GarbageCollection
import baton.runtime.GraphQLRequest
import baton.runtime.Json
import baton.runtime.LogEvent
import baton.runtime.MemoryLog
import baton.runtime.RetryPolicy
import baton.runtime.Transport
import baton.runtime.TransportException
import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.ReentrantLock

/**
 * What a test kit expectation throws when it does not hold: a sentence saying what was expected and what happened.
 * An [AssertionError], so JUnit reports it as a failure; the kit depends on no test framework.
 */
class TestKitFailure(message: String) : AssertionError(message)

/** A GraphQL error a test puts in a response: a message, where it happened (field names and indexes), extensions. */
class MockFieldError @JvmOverloads constructor(
    val message: String,
    val path: List<Any> = emptyList(),
    val extensions: Map<String, Any?> = emptyMap()
) {
    /** The error as a response's `errors` member spells it. */
    internal fun json(): Map<String, Any?> {
        val entry = LinkedHashMap<String, Any?>()
        entry["message"] = message
        if (path.isNotEmpty()) entry["path"] = path
        if (extensions.isNotEmpty()) entry["extensions"] = extensions
        return entry
    }
}

/** What the mock answers a request with: a response body, or a transport failure. */
sealed class MockResponse {
    /** `{"data": <data>, "errors": [...]}`: [data] is JSON text, [errors] its field errors. */
    class Data @JvmOverloads constructor(val data: String, val errors: List<MockFieldError> = emptyList()) :
        MockResponse()

    /** `{"errors": [...]}` without data: the fetch fails with `FetchError.Request`. */
    class RequestErrors(val errors: List<MockFieldError>) : MockResponse()

    /** A whole response body as the server would send it. */
    class Body(val text: String) : MockResponse()

    /** The transport fails with this exception (`TransportException.network(…)` is transient and retried). */
    class Failure(val error: TransportException) : MockResponse()

    /** The body this response sends; throws the failure. */
    internal fun answer(): ByteArray = when (this) {
        is Data -> {
            val errorsText = if (errors.isEmpty()) "" else ",\"errors\":" + Json.write(errors.map { it.json() })
            "{\"data\":$data$errorsText}".toByteArray(Charsets.UTF_8)
        }
        is RequestErrors -> Json.write(mapOf("errors" to errors.map { it.json() })).toByteArray(Charsets.UTF_8)
        is Body -> text.toByteArray(Charsets.UTF_8)
        is Failure -> throw error
    }
}

/**
 * A transport that holds every request until the test answers it. [send] blocks the environment's fetch thread
 * until [respond] answers the most recent pending request (of an operation, or any); [respond] waits up to
 * [timeoutMillis] for it to be sent. A request whose fetch is cancelled (its handle detached) leaves the queue.
 */
class MockTransport @JvmOverloads constructor(val timeoutMillis: Long = 5000) : Transport {
    private class Waiting(val id: Int, val request: GraphQLRequest) {
        var answer: MockResponse? = null
    }

    private val lock = ReentrantLock()
    private val changed = lock.newCondition()
    private var nextId = 0
    private val waiting = ArrayList<Waiting>()
    private val sentRequests = ArrayList<GraphQLRequest>()

    /** Every request sent so far, in order. */
    val sent: List<GraphQLRequest> get() = locked { ArrayList(sentRequests) }

    /** The requests waiting for an answer, oldest first. */
    val pending: List<GraphQLRequest> get() = locked { waiting.filter { it.answer == null }.map { it.request } }

    override fun send(request: GraphQLRequest): ByteArray {
        val entry = locked {
            nextId += 1
            sentRequests.add(request)
            val entry = Waiting(nextId, request)
            waiting.add(entry)
            changed.signalAll()
            entry
        }
        val observation = request.cancellation.onCancel { locked { changed.signalAll() } }
        try {
            val answer = locked {
                while (entry.answer == null && !request.cancellation.isCancelled) changed.await()
                waiting.remove(entry)
                entry.answer
            } ?: throw TransportException.cancelled()
            return answer.answer()
        } finally {
            observation.cancel()
        }
    }

    /** Waits until a request of [operationName] (any when null) is pending; returns the most recent. */
    @JvmOverloads
    fun waitForOperation(operationName: String? = null): GraphQLRequest = waitFor(operationName).request

    /** Answers the most recent pending request of [operationName] (any when null) with [response]. */
    fun respond(operationName: String?, response: MockResponse) {
        locked {
            val entry = waitFor(operationName)
            entry.answer = response
            changed.signalAll()
        }
    }

    private fun waitFor(operationName: String?): Waiting {
        lock.lock()
        try {
            var remaining = TimeUnit.MILLISECONDS.toNanos(timeoutMillis)
            while (true) {
                val found = waiting.lastOrNull {
                    it.answer == null && (operationName == null || it.request.operationName == operationName)
                }
                if (found != null) return found
                if (remaining <= 0) {
                    throw TestKitFailure(
                        "no " + (if (operationName == null) "request" else "request of $operationName") +
                            " was sent within $timeoutMillis ms; pending: " + describe(pending) + "; sent: " +
                            describe(sentRequests)
                    )
                }
                remaining = changed.awaitNanos(remaining)
            }
        } finally {
            lock.unlock()
        }
    }

    private fun describe(requests: List<GraphQLRequest>): String =
        if (requests.isEmpty()) "none" else requests.joinToString(", ") { it.operationName }

    private inline fun <T> locked(work: () -> T): T {
        lock.lock()
        try {
            return work()
        } finally {
            lock.unlock()
        }
    }
}

/** A clock a test moves by hand, in seconds since 1970: what the environment measures staleness with. */
class MockClock @JvmOverloads constructor(start: Double = 1_700_000_000.0) {
    @Volatile
    private var current = start

    /** The time the clock shows. */
    val now: Double get() = current

    /** Moves the clock forward (or back) by [seconds]. */
    @Synchronized
    fun advance(seconds: Double) {
        current += seconds
    }

    /** The clock as `BatonEnvironment(clock =)` takes it. */
    val function: () -> Double = { current }
}

/**
 * A real [BatonEnvironment] (its store, reads, heals and log) over a [MockTransport], a [MockClock] and a
 * [MemoryLog]: a test attaches the app's operations to [environment], answers what they send, and reads what the
 * screen would show. There is no second read path: answers are response bodies the store commits.
 * Queries are not retried by default ([RetryPolicy.NEVER]), so a rejected request fails at once.
 */
class MockEnvironment @JvmOverloads constructor(
    retryPolicy: RetryPolicy = RetryPolicy.NEVER,
    garbageCollection: GarbageCollection = GarbageCollection.STANDARD,
    val clock: MockClock = MockClock(),
    timeoutMillis: Long = 5000
) {
    val transport = MockTransport(timeoutMillis)
    val log = MemoryLog()
    val environment = BatonEnvironment(
        transport, log, clock.function, retryPolicy = retryPolicy, garbageCollection = garbageCollection
    )
    private var taken = 0

    /** Answers the most recent pending request of [operationName] (any when null) with [data] and field [errors]. */
    @JvmOverloads
    fun resolve(operationName: String?, data: String, errors: List<MockFieldError> = emptyList()) =
        transport.respond(operationName, MockResponse.Data(data, errors))

    /** Answers the most recent pending request of [operationName] (any when null) with [response]. */
    fun resolve(operationName: String?, response: MockResponse) = transport.respond(operationName, response)

    /** Fails the most recent pending request of [operationName] with request errors and no data. */
    fun reject(operationName: String?, errors: List<MockFieldError>) =
        transport.respond(operationName, MockResponse.RequestErrors(errors))

    /** Fails the most recent pending request of [operationName] in the transport. */
    fun reject(operationName: String?, error: TransportException) =
        transport.respond(operationName, MockResponse.Failure(error))

    /** Waits until every fetch the environment started has finished or waits for an answer from the test. */
    fun settle() {
        while (true) {
            val running = environment.runningTaskCount
            if (running == 0 || running <= transport.pending.size) return
            Thread.sleep(1)
        }
    }

    /** The names of the operations sent so far, oldest first. */
    val sentOperationNames: List<String> get() = transport.sent.map { it.operationName }

    /** The most recent request of [operationName]; throws when none went out or its [variables] differ. */
    @JvmOverloads
    fun expectSent(operationName: String, variables: Map<String, Any?>? = null): GraphQLRequest {
        val request = transport.sent.lastOrNull { it.operationName == operationName } ?: throw TestKitFailure(
            "expected $operationName to be sent; sent: " +
                (if (sentOperationNames.isEmpty()) "nothing" else sentOperationNames.joinToString(", "))
        )
        if (variables != null && request.variables != variables) {
            throw TestKitFailure(
                "$operationName was sent with variables ${Json.write(request.variables, sortKeys = true)}, " +
                    "expected ${Json.write(variables, sortKeys = true)}"
            )
        }
        return request
    }

    /** Throws unless exactly [count] requests of [operationName] went out. */
    fun expectSentCount(operationName: String, count: Int) {
        val actual = transport.sent.count { it.operationName == operationName }
        if (actual != count) throw TestKitFailure("expected $count requests of $operationName, $actual went out")
    }

    /** The events logged since the last call (or the start), one a line (`fetchStarted {…}`). */
    @Synchronized
    fun takeLogLines(): List<String> {
        val lines = log.lines
        val start = minOf(taken, lines.size)
        taken = lines.size
        return lines.subList(start, lines.size)
    }

    /** Takes the events since the last take; throws a line diff unless they are [expected]. */
    fun expectLog(expected: List<String>) = LogComparison.expectEqual(takeLogLines(), expected)

    /** Takes the events since the last take; throws unless each of [expected] is among them, in order. */
    fun expectLogContaining(expected: List<String>) = LogComparison.expectContains(takeLogLines(), expected)
}

/** Comparing logged events (`MemoryLog.lines`) with the events a test expects. */
object LogComparison {
    /** A line diff of [actual] against [expected] (`-` expected only, `+` logged only), or null when equal. */
    @JvmStatic
    fun difference(actual: List<String>, expected: List<String>): String? {
        if (actual == expected) return null
        // The longest common subsequence, then a walk that prints it with what each side adds.
        val common = Array(expected.size + 1) { IntArray(actual.size + 1) }
        for (old in expected.indices.reversed()) for (new in actual.indices.reversed()) {
            common[old][new] = if (expected[old] == actual[new]) common[old + 1][new + 1] + 1
            else maxOf(common[old + 1][new], common[old][new + 1])
        }
        val lines = ArrayList<String>()
        var old = 0
        var new = 0
        while (old < expected.size || new < actual.size) {
            when {
                old < expected.size && new < actual.size && expected[old] == actual[new] -> {
                    lines.add("  " + actual[new]); old++; new++
                }
                old < expected.size && (new == actual.size || common[old + 1][new] >= common[old][new + 1]) -> {
                    lines.add("- " + expected[old]); old++
                }
                else -> {
                    lines.add("+ " + actual[new]); new++
                }
            }
        }
        return lines.joinToString("\n")
    }

    /** Throws the diff unless [actual] equals [expected]. */
    @JvmStatic
    fun expectEqual(actual: List<String>, expected: List<String>) {
        val difference = difference(actual, expected) ?: return
        throw TestKitFailure("the log differs (- expected, + logged):\n$difference")
    }

    /** Throws unless every line of [expected] is in [actual], in order. */
    @JvmStatic
    fun expectContains(actual: List<String>, expected: List<String>) {
        var from = 0
        for (line in expected) {
            val index = actual.subList(from, actual.size).indexOf(line)
            if (index < 0) {
                throw TestKitFailure("the log lacks $line (in order); logged:\n" + actual.joinToString("\n") { "  $it" })
            }
            from += index + 1
        }
    }

    /** The lines of [events] named [name]. */
    @JvmStatic
    fun lines(events: List<LogEvent>, name: String): List<String> =
        events.filter { it.name == name }.map { it.toString() }
}
