package baton.tests

import baton.runtime.BatonEnvironment
import baton.runtime.FetchPolicy
import baton.runtime.Field
import baton.runtime.FixtureTransport
import baton.runtime.LensDecoder
import baton.runtime.MemoryLog
import baton.runtime.Operation
import baton.runtime.RecordReader
import baton.runtime.Scalars
import baton.runtime.Selection
import baton.runtime.SlotId
import java.util.Random
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicLong

/**
 * Commits from several threads while readers read: no lost update, no torn read, one notification per batch.
 *
 * Each writer commits [COMMITS] batches; batch `k` of writer `w` sets its own counter `Counter:w` to `k` and
 * both halves of a shared pair (`Half:a`, `Half:b`) to `w-k`. Readers take snapshots and read both halves through
 * lenses: a snapshot that showed two different halves would have seen half a batch. A handle over the pair
 * re-reads on every commit from every thread and checks the same. The thread schedule is shuffled by a random
 * generator with a fixed [seed]; [seconds] bounds the run.
 */
class Stress(private val seed: Long, private val seconds: Double) {
    companion object {
        const val WRITERS = 4
        const val READERS = 3
        const val COMMITS = 1500
    }

    class Half(private val reader: RecordReader) {
        val value: String? get() = reader.read(Plan.value)
    }

    class Counter(private val reader: RecordReader) {
        val value: Int? get() = reader.read(Plan.count)
    }

    class Data(private val reader: RecordReader) {
        val a: Half? get() = reader.read(Plan.a)
        val b: Half? get() = reader.read(Plan.b)
        fun counter(writer: Int): Counter? = reader.read(Plan.counters[writer])
    }

    object Plan {
        val id = Field("id", "id", "ID", Scalars.ID, false)
        val value = Field("value", "value", "String", Scalars.STRING, false)
        val count = Field("count", "count", "Int", Scalars.INT, false)
        val a = Field("a", "half", "Half", LensDecoder { Half(it) }, false, arguments = mapOf("side" to "a"), selections = listOf(id, value))
        val b = Field("b", "half", "Half", LensDecoder { Half(it) }, false, arguments = mapOf("side" to "b"), selections = listOf(id, value))
        val counters = (0 until WRITERS).map { writer ->
            Field("c$writer", "counter", "Counter", LensDecoder { Counter(it) }, false,
                arguments = mapOf("writer" to writer), selections = listOf(id, count))
        }
        val pair: List<Selection> = listOf(a, b)
        val all: List<Selection> = listOf(a, b) + counters
    }

    /** The pair as an operation, for the handle. */
    object PairQuery : Operation<Data> {
        override val operationName: String get() = "PairQuery"
        override val operationType: String get() = "query"
        override val document: String get() = "query PairQuery { a: half(side: \"a\") { id value } b: half(side: \"b\") { id value } }"
        override val operationId: String get() = "0"
        override val onError: String? get() = null
        override val rootTypename: String get() = "Query"
        override val selections: List<Selection> get() = Plan.pair
        override val throwOnFieldError: Boolean get() = false
        override fun variables(): Map<String, Any?> = emptyMap()
        override fun data(reader: RecordReader): Data = Data(reader)
    }

    fun run() {
        val environment = BatonEnvironment(FixtureTransport(), MemoryLog())
        val store = environment.store
        val torn = AtomicInteger()
        val reads = AtomicLong()
        val notifications = AtomicInteger()
        val handleTorn = AtomicInteger()
        val changedCounters = Array(WRITERS) { AtomicInteger() }
        store.subscribe(setOf(SlotId("Half:a", "value"))) { notifications.incrementAndGet() }
        val handle = environment.attach(PairQuery, FetchPolicy.STORE_ONLY)
        handle.observe {
            val data = handle.phase.data
            if (data != null && data.a?.value != data.b?.value) handleTorn.incrementAndGet()
        }
        val deadline = System.nanoTime() + (seconds * 1e9).toLong()
        val done = CountDownLatch(WRITERS)
        val writers = (0 until WRITERS).map { writer ->
            Thread {
                val random = Random(seed + writer)
                for (k in 1..COMMITS) {
                    if (System.nanoTime() > deadline) break
                    val text = "{\"data\":{\"a\":{\"id\":\"a\",\"value\":\"$writer-$k\"},\"b\":{\"id\":\"b\",\"value\":\"$writer-$k\"}," +
                        "\"c$writer\":{\"id\":\"$writer\",\"count\":$k}}}"
                    val result = store.commit(text, listOf(Plan.a, Plan.b, Plan.counters[writer]))
                    if (SlotId("Counter:$writer", "count") in result.changed) changedCounters[writer].incrementAndGet()
                    if (random.nextInt(8) == 0) Thread.yield()
                }
                done.countDown()
            }
        }
        val stop = CountDownLatch(1)
        val readers = (0 until READERS).map { index ->
            Thread {
                val random = Random(seed * 31 + index)
                var lastVersion = -1L
                while (stop.count > 0) {
                    val snapshot = store.snapshot()
                    if (snapshot.version < lastVersion) torn.incrementAndGet()
                    lastVersion = snapshot.version
                    val data = snapshot.read(PairQuery)
                    if (data.a?.value != data.b?.value) torn.incrementAndGet()
                    reads.incrementAndGet()
                    if (random.nextInt(4) == 0) Thread.yield()
                }
            }
        }
        val started = System.nanoTime()
        writers.forEach { it.start() }
        readers.forEach { it.start() }
        val finished = done.await((seconds * 1000).toLong() + 5000, TimeUnit.MILLISECONDS)
        stop.countDown()
        readers.forEach { it.join(5000) }
        val elapsed = (System.nanoTime() - started) / 1e9
        System.err.println("stress: ${reads.get()} snapshot reads during ${WRITERS * COMMITS} commits in ${"%.2f".format(elapsed)} s")

        val final = store.snapshot().read(object : Operation<Data> by PairQuery {
            override val selections: List<Selection> get() = Plan.all
        })
        val counts = (0 until WRITERS).map { final.counter(it)?.value }
        println("writers: $WRITERS, readers: $READERS, commits per writer: $COMMITS")
        println("finished in time: " + (finished && counts.all { it == COMMITS }))
        println("lost updates: " + (0 until WRITERS).count { counts[it] != COMMITS || changedCounters[it].get() != COMMITS })
        println("torn reads: ${torn.get()}")
        println("notifications of Half:a.value: " + (if (notifications.get() == WRITERS * COMMITS) "one per batch" else "${notifications.get()}"))
        println("handle torn reads: ${handleTorn.get()}")
        println("pair agrees at the end: " + (final.a?.value == final.b?.value && handle.phase.data?.a?.value == final.a?.value))
    }
}
