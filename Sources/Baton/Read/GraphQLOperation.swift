import Foundation

/// Which root an operation reads.
public enum OperationType: String, Sendable, Hashable {
    case query, mutation, subscription

    /// The root record's key and type name.
    public var rootTypename: String {
        switch self {
        case .query: "Query"
        case .mutation: "Mutation"
        case .subscription: "Subscription"
        }
    }
}

/// A generated operation: its document, its variables, and the lens type of its data.
public protocol GraphQLOperation: Sendable {
    /// The generated data type; its `selections` are the operation's.
    associatedtype Data: LensType
    static var operationName: String { get }
    /// The document sent to the server.
    static var document: String { get }
    static var operationType: OperationType { get }
    /// The persisted-query id: SHA-256 of `document` in lowercase hex, as `baton gen` writes it and its manifest
    /// lists it; empty for an operation that has none (it cannot be sent persisted).
    static var operationID: String { get }
    /// `@throwOnFieldError` on the operation: any uncaught field error fails the operation's read.
    static var throwOnFieldError: Bool { get }
    /// The `onError` the request carries (from baton.json), or nil.
    static var onError: String? { get }
    /// `@defer` or `@stream` in the document: the request accepts an incremental (multipart) answer, whose payloads
    /// are committed one by one.
    static var incrementalDelivery: Bool { get }
    /// How long data stays fresh, in seconds; nil for never stale by age.
    static var expiration: TimeInterval? { get }
    /// The variables, as the request sends them; an unset optional variable is absent.
    var variables: [String: JSONValue] { get }
    /// The defaults the document declares for its variables (`$first: Int = 10` gives `["first": 10]`). The
    /// request leaves an unset variable absent and the server uses the default, so the store keys slots and
    /// evaluates `@include`/`@skip` under `resolvedVariables`, as the Kotlin runtime's `variablesWithDefaults()`.
    static var variableDefaults: [String: JSONValue] { get }
    /// The variables only client-only directives use (`$connections` of `@appendEdge(connections:)`): never sent
    /// (the document leaves them out), read by the runtime when it applies the response.
    var clientVariables: [String: JSONValue] { get }
}

extension GraphQLOperation {
    public static var operationType: OperationType { .query }
    public static var operationID: String { "" }
    public static var throwOnFieldError: Bool { false }
    public static var onError: String? { nil }
    public static var incrementalDelivery: Bool { false }
    public static var expiration: TimeInterval? { nil }
    public static var rootTypename: String { operationType.rootTypename }
    public static var variableDefaults: [String: JSONValue] { [:] }
    public var clientVariables: [String: JSONValue] { [:] }

    /// The variables the server executes with: `variables` over `variableDefaults` (a set variable wins), and the
    /// client-only ones. Storage keys, `@include`/`@skip` conditions and declarative updates use these; the request
    /// body sends only `variables`.
    public var resolvedVariables: [String: JSONValue] {
        let defaults = Self.variableDefaults
        let client = clientVariables
        if defaults.isEmpty && client.isEmpty { return variables }
        return defaults.merging(variables) { _, set in set }.merging(client) { _, client in client }
    }

    /// The operation's identity: its name and its variables in canonical JSON.
    public var identity: OperationIdentity {
        OperationIdentity(
            name: Self.operationName,
            variables: JSONValue.object(JSONObject(variables.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
                .canonicalText)
    }
}

/// An operation with its variables, as invalidation and the log name it.
public struct OperationIdentity: Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var variables: String

    public var description: String { "\(name)\(variables)" }
}

extension StoreSnapshot {
    /// Reads an operation's data: the root lens after the root's `@required` boundary and, under
    /// `@throwOnFieldError`, the operation's uncaught field errors (not those inside fragment spreads, which
    /// each fragment's own policy answers for, as in Relay: `CaughtErrors.uncaught`).
    public func read<Operation: GraphQLOperation>(
        _ operation: Operation, reporter: any ReadReporter = SilentReporter()
    ) throws(ReadError) -> Operation.Data {
        let lens = Lens(
            snapshot: self, key: Operation.rootTypename,
            context: ReadContext(variables: operation.resolvedVariables, reporter: reporter))
        if let path = Boundary.requiredNull(in: lens, selections: Operation.Data.selections) {
            throw .requiredFieldNull(path: path)
        }
        if Operation.throwOnFieldError {
            let errors = CaughtErrors.uncaught(in: lens, selections: Operation.Data.selections)
            if !errors.isEmpty { throw .fieldErrors(FieldErrors(errors)) }
        }
        return Operation.Data(lens: lens)
    }
}

extension Store {
    /// Reads an operation's data from a snapshot taken now.
    public func read<Operation: GraphQLOperation>(
        _ operation: Operation, reporter: any ReadReporter = SilentReporter()
    ) throws(ReadError) -> Operation.Data {
        try snapshot().read(operation, reporter: reporter)
    }
}

/// A slot an operation's selections reach that the store does not have.
public struct MissingField: Sendable, Hashable {
    public var type: String
    public var field: String
    public var record: RecordKey
    public var path: String
}

/// One walk of an operation's whole selection tree over a snapshot, fragment spreads included: the slots it
/// depends on, the records it touches, and what is missing. Handles use it to subscribe, to decide whether the
/// store can answer, and to find missing data to heal.
struct OperationWalk {
    var dependencies = Set<SlotID>()
    var records = Set<RecordKey>()
    var missing: [MissingField] = []
    let snapshot: StoreSnapshot
    let variables: [String: JSONValue]

    init(snapshot: StoreSnapshot, variables: [String: JSONValue], root: RecordKey, selections: [Selection]) {
        self.snapshot = snapshot
        self.variables = variables
        walk(root, selections: selections, path: "")
    }

    var isComplete: Bool { missing.isEmpty }

    private mutating func walk(_ key: RecordKey, selections: [Selection], path: String) {
        records.insert(key)
        let record = snapshot.records[key]
        // A deleted record is gone, not missing: nothing of it is read, healed or waited for.
        if record?.isDeleted == true { return }
        let typename = record?.typename ?? key.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "?"
        for selection in selections {
            switch selection {
            case .field(let field):
                if !field.conditions.isEmpty, !field.conditions.allSatisfy({ $0.passes(variables) }) { continue }
                let storageKey = field.readKey(variables: variables)
                dependencies.insert(SlotID(key, storageKey))
                let fieldPath = path.isEmpty ? field.responseKey : path + "." + field.responseKey
                guard let slot = record?.slots[storageKey] else {
                    missing.append(MissingField(type: typename, field: field.name, record: key, path: fieldPath))
                    continue
                }
                if !field.selections.isEmpty { visit(slot.value, field: field, path: fieldPath) }
            case .inlineFragment(let condition, let conditions, let inner):
                if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                if let condition, !condition.matches(record?.typename) { continue }
                walk(key, selections: inner, path: path)
            case .fragment(_, let condition, let conditions, let inner):
                if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                if !condition.matches(record?.typename) { continue }
                walk(key, selections: inner, path: path)
            }
        }
    }

    private mutating func visit(_ value: StoredValue, field: Field, path: String) {
        switch value {
        case .link(let key): walk(key, selections: field.selections, path: path)
        case .list(let items):
            for (index, item) in items.enumerated() {
                visit(item, field: field, path: path + "." + String(index))
            }
        default: break
        }
    }
}
