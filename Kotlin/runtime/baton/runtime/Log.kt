package baton.runtime

/**
 * One log event: a name and a JSON payload, printed as `fetchStarted {"operation":"TestConditions"}`, with the
 * Swift runtime's names and payloads (Docs/Runtime.md, "The log").
 */
class LogEvent(val name: String, val payload: Map<String, Any?>) {
    override fun toString(): String = name + " " + Json.write(payload)

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
        println("[baton] $event")
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
