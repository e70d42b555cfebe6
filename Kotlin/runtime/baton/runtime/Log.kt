package baton.runtime

/**
 * One log event: a name and a JSON payload, printed as `fetchStarted {"operation":"TestConditions"}`, with the
 * Swift runtime's names and payloads (Docs/Runtime.md, "The log"), the fetch it belongs to ([trace]: request id,
 * operation, attempt; null outside any fetch) and a monotonic timestamp ([monotonicNanoseconds], `System.nanoTime`).
 * Two events are equal when their names and payloads are.
 */
class LogEvent @JvmOverloads constructor(
    val name: String,
    val payload: Map<String, Any?>,
    /** The fetch the event belongs to: the one running on this thread when it was made, else null. */
    val trace: Trace? = Trace.current(),
    /** When the event was made: `System.nanoTime()`, for ordering and durations, not calendar time. */
    val monotonicNanoseconds: Long = System.nanoTime()
) {
    /** The fetch an event belongs to. */
    data class Trace(
        /** The fetch's id, unique in the process (1, 2, …, in the order fetches start). */
        val requestId: Long,
        /** The operation's name. */
        val operation: String,
        /** The attempt under way: 1, then 2 after the first retry, … */
        val attempt: Int
    ) {
        /** `r12 CharacterQuery#2`: request 12, operation CharacterQuery, attempt 2. */
        override fun toString(): String = "r$requestId $operation#$attempt"

        companion object {
            private val lastId = java.util.concurrent.atomic.AtomicLong()
            private val running = ThreadLocal<Trace?>()

            /** The trace of the fetch running on this thread, if any. */
            @JvmStatic
            fun current(): Trace? = running.get()

            /** A new fetch's trace, at its first attempt. */
            internal fun next(operation: String): Trace = Trace(lastId.incrementAndGet(), operation, 1)

            /** Runs [work] with [trace] as this thread's current trace, then restores the one before. */
            internal fun <T> with(trace: Trace?, work: () -> T): T {
                val before = running.get()
                running.set(trace)
                try {
                    return work()
                } finally {
                    running.set(before)
                }
            }

            /** Moves this thread's current trace to [attempt]. */
            internal fun attempt(attempt: Int) {
                running.get()?.let { running.set(it.copy(attempt = attempt)) }
            }
        }
    }

    override fun toString(): String = name + " " + Json.write(payload)

    /** The event with its time (seconds) and trace: `1234.567890 r12 CharacterQuery#2 retry {…}`. */
    val tracedDescription: String
        get() = String.format(java.util.Locale.ROOT, "%.6f ", monotonicNanoseconds / 1e9) +
            (if (trace == null) "" else "$trace ") + toString()

    override fun equals(other: Any?): Boolean = other is LogEvent && other.name == name && other.payload == payload

    override fun hashCode(): Int = name.hashCode() * 31 + payload.hashCode()
}

/** Where the environment sends its events. Called from whichever thread the event happens on. */
interface EventLog {
    fun record(event: LogEvent)
}

/** A log that keeps events in memory (tests, a debug screen). Thread-safe. */
class MemoryLog : EventLog {
    private val storage = ArrayList<LogEvent>()

    override fun record(event: LogEvent) {
        synchronized(storage) { storage.add(event) }
    }

    /** Every event so far. */
    val events: List<LogEvent> get() = synchronized(storage) { ArrayList(storage) }

    /** Every event so far, printed one per line. */
    val lines: List<String> get() = events.map { it.toString() }

    /** Forgets the events so far. */
    fun clear() {
        synchronized(storage) { storage.clear() }
    }
}

/** A log that prints each event on standard output. */
class PrintLog : EventLog {
    override fun record(event: LogEvent) {
        println("[baton] ${event.tracedDescription}")
    }
}

/**
 * Sends read events to a log, each once: the handle's walk and the app's reads of the same lenses share one
 * reporter, so a missing field is logged once, not on every frame.
 */
internal class LoggingReporter(private val log: EventLog) : ReadReporter {
    private val seen = HashSet<String>()

    override fun report(event: ReadEvent) {
        val key = when (event) {
            is ReadEvent.MissingData -> "${event.record}.${event.field}"
            is ReadEvent.UnexpectedValue ->
                if (event.reason.startsWith("missing")) "${event.field} ${event.reason}" else "${event.path}.${event.field} ${event.reason}"
            is ReadEvent.RequiredFieldNull -> "required ${event.path}"
        }
        val isNew = synchronized(seen) { seen.add(key) }
        if (isNew) log.record(event.toLogEvent())
    }

    /** Marks a slot's miss as already logged (so a later lens read of it stays quiet). */
    fun markSeen(record: String, field: String) {
        synchronized(seen) { seen.add("$record.$field") }
    }
}
