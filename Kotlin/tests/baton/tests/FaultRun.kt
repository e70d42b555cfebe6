package baton.tests

import baton.runtime.BatonEnvironment
import baton.runtime.FetchError
import baton.runtime.FetchException
import baton.runtime.HttpTransport
import baton.runtime.MemoryLog
import baton.runtime.RetryPolicy
import baton.runtime.perform
import notes.AddNote
import notes.Note
import java.net.URL

/**
 * Issue 33's seeded fault run, the Kotlin half (Tests/BatonNetworkTests/SeededFaultRunTests.swift starts the notes
 * server and the fault proxy, and holds these outcomes to the faults the proxy logged): the same 120 queries and
 * mutations as the Swift run, over `HttpURLConnection` ([HttpTransport]), one line per request:
 *
 *     outcome <label> <kind> <seconds> <request ids, comma-separated> <events without a trace> <events of another operation>
 */
class FaultRun(private val url: URL) {
    fun run() {
        val log = MemoryLog()
        val environment = BatonEnvironment(
            HttpTransport(url, timeoutMillis = 1500), log,
            retryPolicy = RetryPolicy(2, initialDelay = 0.01, maxDelay = 0.05, maxRetryAfter = 0.1)
        )
        for (index in 0 until 120) {
            val isMutation = index % 2 == 1
            val label = (if (isMutation) "m" else "q") + index
            val before = log.events.size
            val start = System.nanoTime()
            val kind = try {
                if (isMutation) environment.perform(AddNote(label), headers = mapOf("Idempotency-Key" to label))
                else environment.fetch(Note(label))
                "data"
            } catch (failure: FetchException) {
                kind(failure.error)
            }
            val seconds = (System.nanoTime() - start) / 1e9
            val mine = log.events.drop(before)
            val operation = if (isMutation) "AddNote" else "Note"
            val ids = mine.mapNotNull { it.trace?.requestId }.toSortedSet().joinToString(",").ifEmpty { "-" }
            val untraced = mine.count { it.trace == null }
            val elsewhere = mine.count { event -> event.trace.let { it != null && it.operation != operation } }
            println("outcome $label $kind ${"%.3f".format(seconds)} $ids $untraced $elsewhere")
        }
    }

    private fun kind(error: FetchError): String = when (error) {
        is FetchError.Offline -> "offline"
        is FetchError.TimedOut -> "timedOut"
        is FetchError.HttpStatus -> "http ${error.status}"
        is FetchError.MalformedResponse -> "malformed"
        else -> "other:" + error.description.replace(' ', '_')
    }
}
