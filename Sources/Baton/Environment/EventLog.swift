import Foundation

/// One log event: a name and a JSON payload, printed as `fetchStarted {"operation":"TestConditions"}`, with the
/// request it belongs to and when it happened.
///
/// Names: `fetchStarted`, `committed`, `fetchCompleted`, `fetchFailed`, `requiredFieldNull`, `missingData`,
/// `unexpectedValue`, `refetch`, `invalidated`, `imageSaved`, `imageLoaded`, `imageRejected` (Docs/Runtime.md).
/// Every event recorded while a fetch runs (its task and the tasks it starts) carries that fetch's `trace`: the
/// request id, the operation and the attempt; an event outside any fetch (an invalidation, the image, the cache)
/// has none. Every event carries a monotonic timestamp (`monotonicNanoseconds`). Two events are equal when their
/// names and payloads are: the trace and the time say which request and when, not what happened.
public struct LogEvent: Sendable, Hashable, CustomStringConvertible {
    /// The fetch an event belongs to.
    public struct Trace: Sendable, Hashable, CustomStringConvertible {
        /// The fetch's id, unique in the process (1, 2, …, in the order fetches start).
        public var requestID: UInt64
        /// The operation's name.
        public var operation: String
        /// The attempt under way: 1, then 2 after the first retry, …
        public var attempt: Int

        public init(requestID: UInt64, operation: String, attempt: Int) {
            self.requestID = requestID
            self.operation = operation
            self.attempt = attempt
        }

        /// `r12 CharacterQuery#2`: request 12, operation CharacterQuery, attempt 2.
        public var description: String { "r\(requestID) \(operation)#\(attempt)" }

        /// The trace of the fetch the current task runs for (its attempt moves on with each retry).
        @TaskLocal static var current: Locked<Trace>?

        private static let lastID = Locked<UInt64>(0)

        /// A new fetch's trace, at its first attempt.
        static func next(_ operation: String) -> Trace {
            Trace(
                requestID: lastID.withLock {
                    $0 += 1
                    return $0
                }, operation: operation, attempt: 1)
        }
    }

    public var name: String
    public var payload: JSONObject
    /// The fetch the event belongs to, nil outside any fetch.
    public var trace: Trace?
    /// When the event was recorded: nanoseconds of a monotonic clock (`DispatchTime`, since boot), for ordering and
    /// durations, not for calendar time.
    public var monotonicNanoseconds: UInt64

    /// An event of the current fetch (if any), now.
    public init(_ name: String, _ payload: JSONObject) {
        self.init(name, payload, trace: Trace.current?.withLock { $0 })
    }

    public init(
        _ name: String, _ payload: JSONObject, trace: Trace?,
        monotonicNanoseconds: UInt64 = DispatchTime.now().uptimeNanoseconds
    ) {
        self.name = name
        self.payload = payload
        self.trace = trace
        self.monotonicNanoseconds = monotonicNanoseconds
    }

    public var description: String { name + " " + JSONValue.object(payload).compactText }

    /// The event with its time (seconds) and trace: `1234.567890 r12 CharacterQuery#2 retry {…}`.
    public var tracedDescription: String {
        let seconds = Double(monotonicNanoseconds) / 1e9
        return String(format: "%.6f ", seconds) + (trace.map { "\($0) " } ?? "") + description
    }

    public static func == (left: LogEvent, right: LogEvent) -> Bool {
        left.name == right.name && left.payload == right.payload
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(payload)
    }
}

/// Where the environment sends its events.
public protocol EventLog: Sendable {
    func record(_ event: LogEvent)
}

/// A log that keeps events in memory (tests, a debug screen).
public final class MemoryLog: EventLog {
    private let storage = Locked<[LogEvent]>([])

    public init() {}

    public func record(_ event: LogEvent) { storage.withLock { $0.append(event) } }

    /// Every event so far.
    public var events: [LogEvent] { storage.withLock { $0 } }

    /// Every event so far, printed one per line.
    public var lines: [String] { events.map(\.description) }

    /// Forgets the events so far.
    public func clear() { storage.withLock { $0 = [] } }
}

/// A log that prints each event on standard output, with its time and trace (`LogEvent.tracedDescription`).
public struct PrintLog: EventLog {
    public init() {}
    public func record(_ event: LogEvent) { print("[baton] \(event.tracedDescription)") }
}

extension ReadEvent {
    /// The log event for a read event.
    var logEvent: LogEvent {
        switch self {
        case .missingData(let type, let field, _, _):
            LogEvent("missingData", JSONObject([("type", .string(type)), ("field", .string(field))]))
        case .unexpectedValue(let type, let field, let reason, let path):
            LogEvent(
                "unexpectedValue",
                JSONObject([
                    ("type", .string(type)), ("field", .string(field)), ("reason", .string(reason)),
                    ("path", .string(path)),
                ]))
        case .requiredFieldNull(let path):
            LogEvent("requiredFieldNull", JSONObject([("path", .string(path))]))
        }
    }

    /// What makes two reports the same, so one snapshot's reads log each thing once.
    var deduplicationKey: String {
        switch self {
        case .missingData(_, let field, let record, _): "\(record).\(field)"
        case .unexpectedValue(_, let field, let reason, let path): "\(path).\(field) \(reason)"
        case .requiredFieldNull(let path): "required \(path)"
        }
    }
}

/// Sends read events to a log, each once per snapshot: the handle's walk and the app's reads of the same
/// lenses share one reporter, so a missing field is logged once, not on every frame.
final class LoggingReporter: ReadReporter {
    let log: any EventLog
    private let seen = Locked<Set<String>>([])

    init(log: any EventLog) { self.log = log }

    func report(_ event: ReadEvent) {
        let key: String
        if case .missingData(_, let field, let record, _) = event {
            key = "\(record).\(field)"
        } else if case .unexpectedValue(_, let field, let reason, _) = event, reason.hasPrefix("missing") {
            key = "\(field) \(reason)"
        } else {
            key = event.deduplicationKey
        }
        let isNew = seen.withLock { $0.insert(key).inserted }
        if isNew { log.record(event.logEvent) }
    }

    /// Marks a slot's miss as already logged (so a later lens read of it stays quiet).
    func markSeen(record: RecordKey, field: String) { _ = seen.withLock { $0.insert("\(record).\(field)") } }
}
