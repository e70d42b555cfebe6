import Foundation

/// One log event: a name and a JSON payload, printed as `fetchStarted {"operation":"TestConditions"}`.
///
/// Names: `fetchStarted`, `committed`, `fetchCompleted`, `fetchFailed`, `requiredFieldNull`, `missingData`,
/// `unexpectedValue`, `refetch`, `invalidated`, `imageSaved`, `imageLoaded`, `imageRejected` (Docs/Runtime.md).
public struct LogEvent: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var payload: JSONObject

    public init(_ name: String, _ payload: JSONObject) {
        self.name = name
        self.payload = payload
    }

    public var description: String { name + " " + JSONValue.object(payload).compactText }
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

/// A log that prints each event on standard output.
public struct PrintLog: EventLog {
    public init() {}
    public func record(_ event: LogEvent) { print("[baton] \(event)") }
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
