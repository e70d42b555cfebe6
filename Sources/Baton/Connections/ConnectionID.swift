import Foundation

/// A connection record's identity: what `@connection(key:filters:)` keeps one record for, per parent record, key
/// and filter values, whatever the paging arguments (`first`, `last`, `after`, `before`).
///
/// A view reads it from the connection's lens (`repo.issues.connectionID`) and passes it to a mutation whose
/// `@appendEdge(connections: $connections)` should add to that list (the guide's `connections: [connectionID]`).
/// It is the connection record's key: `Repository:1.__connection:RepositoryIssues_issues({"states":["OPEN"]})`.
public struct ConnectionID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The connection record's key in the store.
    public let recordKey: RecordKey

    /// The connection record under `recordKey` (what a connection lens's `lens.key` is).
    public init(_ recordKey: RecordKey) { self.recordKey = recordKey }

    /// The connection of `key` on the record `parent`, for these filter values (every filter the `@connection`
    /// names, as the field was given them; a filter left out was not given): the ID a view would read.
    public init(parent: RecordKey, key: String, filters: [String: JSONValue] = [:]) {
        recordKey = parent + "." + ConnectionSpec.storageKey(key: key, filters: filters)
    }

    public var description: String { recordKey }

    /// As a variable's value (`$connections: [ID!]!`).
    public var jsonValue: JSONValue { .string(recordKey) }

    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.recordKey < rhs.recordKey }
}

extension Array where Element == ConnectionID {
    /// The IDs as a variable's value (`$connections: [ID!]!`).
    public var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}

/// A field's `@connection`: its key and the arguments that are its filters, as generated code declares it.
public struct ConnectionSpec: Sendable, Hashable {
    /// `@connection(key:)`.
    public var key: String
    /// The names of the field's arguments that identify the connection (the `filters:` written, or every
    /// non-paging argument the field is given), sorted.
    public var filters: [String]

    public init(key: String, filters: [String] = []) {
        self.key = key
        self.filters = filters.sorted()
    }

    /// The slot (on the parent record) that links to the connection record: `__connection:KEY`, then the filter
    /// values as canonical JSON in parentheses when there are any.
    static func storageKey(key: String, filters: [String: JSONValue]) -> String {
        let name = "__connection:" + key
        if filters.isEmpty { return name }
        let members = filters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return name + "(" + JSONValue.object(JSONObject(members)).canonicalText + ")"
    }
}

/// The paging arguments a connection field was given, resolved: what decides how a page merges.
struct PagingArguments: Sendable, Hashable {
    var first: JSONValue?
    var last: JSONValue?
    var after: String?
    var before: String?

    init(_ arguments: [(String, InputValue)], variables: [String: JSONValue]) {
        for (name, value) in arguments {
            let resolved = value.resolved(variables)
            switch name {
            case "first": first = resolved.flatMap { $0 == .null ? nil : $0 }
            case "last": last = resolved.flatMap { $0 == .null ? nil : $0 }
            case "after": after = resolved?.stringValue
            case "before": before = resolved?.stringValue
            default: continue
            }
        }
    }
}

/// A declarative update a mutation's (or subscription's) response field carries (`@appendEdge`, `@deleteRecord`,
/// …), as generated code declares it: applied to the store inside the response's batch.
public struct RecordUpdate: Sendable, Hashable {
    /// What the update does.
    public enum Kind: String, Sendable, Hashable {
        case appendEdge, prependEdge, appendNode, prependNode, deleteRecord, deleteEdge
    }

    public var kind: Kind
    /// `connections:` (usually `.variable("connections")`); nil for `@deleteRecord`.
    public var connections: InputValue?
    /// `@appendNode`/`@prependNode`'s `edgeTypeName`.
    public var edgeTypename: String?
    /// `@deleteRecord(typeName:)`: the deleted record's type; nil for a record of any type with the ID.
    public var typename: String?

    public init(_ kind: Kind, connections: InputValue? = nil, edgeTypename: String? = nil, typename: String? = nil) {
        self.kind = kind
        self.connections = connections
        self.edgeTypename = edgeTypename
        self.typename = typename
    }
}
