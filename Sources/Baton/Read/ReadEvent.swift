import Foundation

/// Something a read noticed that the app should hear about.
public enum ReadEvent: Sendable, Hashable {
    /// The store has no slot for a field: the lens read nil. The environment heals it with a refetch.
    case missingData(type: String, field: String, record: RecordKey, path: String)
    /// A value the generated type cannot hold (null in a non-null field, a string where an Int was promised,
    /// a custom scalar that does not convert): the read produced nil or the type's zero.
    case unexpectedValue(type: String, field: String, reason: String, path: String)
    /// A `@required(action: LOG)` field was null; the null bubbled to the lens boundary.
    case requiredFieldNull(path: String)
}

/// Receives what reads notice. The environment's reporter turns events into log entries.
public protocol ReadReporter: Sendable {
    func report(_ event: ReadEvent)
}

/// A reporter that drops everything.
public struct SilentReporter: ReadReporter {
    public init() {}
    public func report(_ event: ReadEvent) {}
}

/// A reporter that keeps every event, for tests and tools.
public final class CollectingReporter: ReadReporter {
    private let storage = Locked<[ReadEvent]>([])

    public init() {}

    public func report(_ event: ReadEvent) { storage.withLock { $0.append(event) } }

    /// The events so far, in order.
    public var events: [ReadEvent] { storage.withLock { $0 } }

    /// The events so far, removing them.
    public func take() -> [ReadEvent] {
        storage.withLock { events in
            defer { events = [] }
            return events
        }
    }
}

/// What a read needs besides the records: the operation's variables and where to report.
public struct ReadContext: Sendable {
    public var variables: [String: JSONValue]
    public var reporter: any ReadReporter

    public init(variables: [String: JSONValue] = [:], reporter: any ReadReporter = SilentReporter()) {
        self.variables = variables
        self.reporter = reporter
    }
}

/// A response path built one step at a time (shared tails, so a child lens costs one small allocation).
public final class ResponsePath: Sendable, CustomStringConvertible {
    let parent: ResponsePath?
    let component: PathComponent

    init(parent: ResponsePath?, component: PathComponent) {
        self.parent = parent
        self.component = component
    }

    /// The components from the root.
    public var components: [PathComponent] {
        var result: [PathComponent] = []
        var node: ResponsePath? = self
        while let current = node {
            result.append(current.component)
            node = current.parent
        }
        return result.reversed()
    }

    /// Dotted text, e.g. `repository.issues.nodes.0.author`.
    public var description: String { components.map(\.description).joined(separator: ".") }

    static func appending(_ component: PathComponent, to parent: ResponsePath?) -> ResponsePath {
        ResponsePath(parent: parent, component: component)
    }
}

/// Why a throwing read failed.
public enum ReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A field error under `@throwOnFieldError`.
    case fieldErrors(FieldErrors)
    /// A `@required` field was null: thrown at the read under `THROW`, or by an operation whose root the null reached.
    case requiredFieldNull(path: String)
    /// A value the type cannot hold, under a strict read.
    case unexpectedValue(path: String, reason: String)
    /// The store has no slot for the field, under a strict read.
    case missingData(path: String)

    public var description: String {
        switch self {
        case .fieldErrors(let errors): "field errors: \(errors.description)"
        case .requiredFieldNull(let path): "required field \(path) is null"
        case .unexpectedValue(let path, let reason): "unexpected value at \(path): \(reason)"
        case .missingData(let path): "missing data at \(path)"
        }
    }
}
