import Foundation

/// A GraphQL type reference as the schema writes it: `[Character]!` is `.nonNull(.list(.named("Character")))`.
public indirect enum GraphQLType: Sendable, Hashable {
    case named(String)
    case list(GraphQLType)
    case nonNull(GraphQLType)

    /// The named type at the bottom.
    public var namedType: String {
        switch self {
        case .named(let name): name
        case .list(let inner), .nonNull(let inner): inner.namedType
        }
    }

    /// The type without a non-null wrapper.
    public var nullable: GraphQLType {
        if case .nonNull(let inner) = self { return inner }
        return self
    }

    /// The item type when this (ignoring non-null) is a list.
    public var listItem: GraphQLType? {
        if case .list(let item) = nullable { return item }
        return nil
    }
}

/// An argument value in a selection: a literal, a variable, or a list or object that may hold variables.
public indirect enum InputValue: Sendable, Hashable {
    case literal(JSONValue)
    case variable(String)
    case list([InputValue])
    case object([(String, InputValue)])

    /// The value with variables resolved; nil when it is a variable the request leaves unset.
    public func resolved(_ variables: [String: JSONValue]) -> JSONValue? {
        switch self {
        case .literal(let value): return value
        case .variable(let name): return variables[name]
        case .list(let items): return .array(items.map { $0.resolved(variables) ?? .null })
        case .object(let members):
            return .object(JSONObject(members.compactMap { key, value in value.resolved(variables).map { (key, $0) } }))
        }
    }

    /// Appends the names of the variables inside (each once).
    func collectVariables(into names: inout [String]) {
        switch self {
        case .literal: break
        case .variable(let name): if !names.contains(name) { names.append(name) }
        case .list(let items): for item in items { item.collectVariables(into: &names) }
        case .object(let members): for (_, value) in members { value.collectVariables(into: &names) }
        }
    }

    public static func == (lhs: InputValue, rhs: InputValue) -> Bool {
        switch (lhs, rhs) {
        case (.literal(let a), .literal(let b)): a == b
        case (.variable(let a), .variable(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .literal(let value): hasher.combine(value)
        case .variable(let name): hasher.combine(name)
        case .list(let items): hasher.combine(items)
        case .object(let members):
            for (key, value) in members {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }
}

/// When a selection applies: `@include(if:)` or `@skip(if:)` on a variable, a literal, or a combination (a
/// selection merged from several places applies when any of them does). The Kotlin runtime's `Condition` has the
/// same five cases, and both generators print the plan's `Presence` the same way: one place's conditions as a list
/// (all must hold), several places as `[.anyOf([.allOf([…]), .allOf([…])])]`, never present as `[.literal(false)]`.
///
/// An absent or non-Boolean variable counts as false.
public indirect enum Condition: Sendable, Hashable {
    /// `@include(if: $variable)`.
    case include(String)
    /// `@skip(if: $variable)`.
    case skip(String)
    /// A condition fixed when the document was written.
    case literal(Bool)
    /// Holds when every one of the conditions holds.
    case allOf([Condition])
    /// Holds when any one of the conditions holds.
    case anyOf([Condition])

    /// Never present.
    public static let never = Condition.literal(false)

    func passes(_ variables: [String: JSONValue]) -> Bool {
        switch self {
        case .include(let variable): Self.flag(variable, variables) == true
        case .skip(let variable): Self.flag(variable, variables) != true
        case .literal(let value): value
        case .allOf(let conditions): conditions.allSatisfy { $0.passes(variables) }
        case .anyOf(let conditions): conditions.contains { $0.passes(variables) }
        }
    }

    private static func flag(_ variable: String, _ variables: [String: JSONValue]) -> Bool? {
        if case .bool(let value)? = variables[variable] { value } else { nil }
    }
}

/// What `@required(action:)` does with a null.
public enum RequiredAction: String, Sendable, Hashable {
    /// The null bubbles to the lens boundary.
    case none = "NONE"
    /// The null bubbles and its path is logged (`requiredFieldNull`).
    case log = "LOG"
    /// The field's accessor throws a `RequiredFieldError`.
    case `throw` = "THROW"
}

/// What `@catch` turns a field error into.
public enum CatchTarget: String, Sendable, Hashable {
    /// `@catch` / `@catch(to: RESULT)`: a `Result`.
    case result = "RESULT"
    /// `@catch(to: NULL)`: nil.
    case null = "NULL"
}

/// A type condition of a fragment: the type it names and, when abstract, the object types it covers.
public struct TypeCondition: Sendable, Hashable {
    public var name: String
    public var possibleTypes: Set<String>

    public init(_ name: String, possibleTypes: Set<String> = []) {
        self.name = name
        self.possibleTypes = possibleTypes
    }

    /// Whether an object of `typename` satisfies this condition; an unknown type name (a response without
    /// `__typename` on an abstract field) is tolerated as a match.
    public func matches(_ typename: String?) -> Bool {
        guard let typename else { return true }
        return typename == name || possibleTypes.contains(typename)
    }
}

/// A field selection: what generated code declares once, as static data, for each field it reads.
///
/// A `Field` is one reference to shared immutable storage, so passing it to a read costs one retain; its storage
/// key is computed once when the arguments mention no variable, and otherwise cached for the last variables seen.
public struct Field: Sendable, Hashable {
    @usableFromInline let storage: FieldStorage

    public var name: String { storage.name }
    public var alias: String? { storage.alias }
    public var arguments: [(String, InputValue)] { storage.arguments }
    public var type: GraphQLType { storage.type }
    public var selections: [Selection] { storage.selections }
    public var conditions: [Condition] { storage.conditions }
    public var required: RequiredAction? { storage.required }
    /// The field's `@catch`, so an operation under `@throwOnFieldError` knows which errors are handled.
    public var catchTo: CatchTarget? { storage.catchTo }
    /// A mapped scalar type, so a `@required` boundary can check that the text converts.
    public var scalar: (any SlotDecodable.Type)? { storage.scalar }
    /// The field's `@connection`: its pages merge into one connection record, which reads see.
    public var connection: ConnectionSpec? { storage.connection }
    /// A declarative update (`@appendEdge`, `@deleteRecord`, …) the response's value at this field makes.
    public var update: RecordUpdate? { storage.update }
    /// Per object type the field can return whose records are keyed by declared fields other than `id`
    /// (`keyFields`, `@typePolicy`): the key fields. Such a record is keyed `Type:` + the fields' values as
    /// canonical JSON (`MediaList:{"id":1,"mediaId":7}`).
    public var keyFields: [String: [String]] { storage.keyFields }
    /// The key this field has in a response object (`alias ?? name`).
    @inlinable public var responseKey: String { storage.responseKey }

    public init(
        _ name: String, alias: String? = nil, arguments: [(String, InputValue)] = [], type: GraphQLType,
        selections: [Selection] = [], conditions: [Condition] = [], required: RequiredAction? = nil,
        catchTo: CatchTarget? = nil, scalar: (any SlotDecodable.Type)? = nil, connection: ConnectionSpec? = nil,
        update: RecordUpdate? = nil, keyFields: [String: [String]] = [:]
    ) {
        storage = FieldStorage(
            name: name, alias: alias, arguments: arguments, type: type, selections: selections, conditions: conditions,
            required: required, catchTo: catchTo, scalar: scalar, connection: connection, update: update,
            keyFields: keyFields)
    }

    /// The storage key: the field name, then the arguments sorted by name with variables resolved, as canonical
    /// JSON (`repository({"name":"x","owner":"y"})`); a field without arguments is just its name. An argument whose
    /// variable is unset is left out, as the request leaves it out.
    @inlinable
    public func storageKey(variables: [String: JSONValue]) -> String {
        if let key = storage.constantStorageKey { return key }
        return storage.variableStorageKey(variables)
    }

    /// The key reads find the field's value under: the storage key, or for a `@connection` field the slot
    /// linking to its connection record (`__connection:KEY(filters)`), where every page it was given is merged.
    @inlinable
    public func readKey(variables: [String: JSONValue]) -> String {
        if let key = storage.constantReadKey { return key }
        return storage.variableReadKey(variables)
    }

    static func storageKey(name: String, arguments: [(String, InputValue)], variables: [String: JSONValue]) -> String {
        let resolved = arguments.compactMap { key, value in value.resolved(variables).map { (key, $0) } }
        if resolved.isEmpty { return name }
        return name + "(" + JSONValue.object(JSONObject(resolved)).canonicalText + ")"
    }

    public static func == (lhs: Field, rhs: Field) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.name == rhs.name && lhs.alias == rhs.alias && lhs.arguments.map(\.0) == rhs.arguments.map(\.0)
            && lhs.arguments.map(\.1) == rhs.arguments.map(\.1) && lhs.type == rhs.type
            && lhs.selections == rhs.selections
            && lhs.conditions == rhs.conditions && lhs.required == rhs.required && lhs.catchTo == rhs.catchTo
            && lhs.connection == rhs.connection && lhs.update == rhs.update && lhs.keyFields == rhs.keyFields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(alias)
        hasher.combine(type)
    }
}

/// A field's immutable description, shared by every copy of the `Field`.
@usableFromInline
final class FieldStorage: Sendable {
    let name: String
    let alias: String?
    let arguments: [(String, InputValue)]
    let type: GraphQLType
    let selections: [Selection]
    let conditions: [Condition]
    let required: RequiredAction?
    let catchTo: CatchTarget?
    let scalar: (any SlotDecodable.Type)?
    let connection: ConnectionSpec?
    let update: RecordUpdate?
    /// The declared record keys of the object types the field returns (`Field.keyFields`).
    let keyFields: [String: [String]]
    /// Whether writing the field is a `@connection` page or a declarative update (the normalizers note those).
    let writesConnection: Bool
    @usableFromInline let responseKey: String
    /// The response key's UTF-8 bytes, and whether they are all ASCII (the byte-level normalizer compares them).
    /// Owned by this storage (freed in `deinit`), so reading it costs no reference counting.
    nonisolated(unsafe) let responseKeyStorage: UnsafeMutableBufferPointer<UInt8>
    nonisolated(unsafe) let responseKeyBytes: UnsafeBufferPointer<UInt8>
    let responseKeyIsASCII: Bool
    /// For the normalizer: whether the field has `@include`/`@skip`, the named type (and its UTF-8 bytes, when all
    /// ASCII), how many list levels wrap it, and its selections compiled (nil without selections).
    let hasConditions: Bool
    let namedType: String
    nonisolated(unsafe) let namedTypeStorage: UnsafeMutableBufferPointer<UInt8>
    nonisolated(unsafe) let namedTypeBytes: UnsafeBufferPointer<UInt8>?
    let listDepth: Int
    let plan: NormalizationPlan?
    /// Whether the constant storage key is all ASCII (a derived record key built from it can be found by bytes).
    let constantStorageKeyIsASCII: Bool
    /// The storage key when no argument mentions a variable.
    @usableFromInline let constantStorageKey: String?
    /// Whether an argument mentions a variable (`constantStorageKey` is nil).
    let hasVariableStorageKey: Bool
    /// The read key when it does not depend on variables: the storage key, or a connection's slot when no filter
    /// mentions a variable.
    @usableFromInline let constantReadKey: String?
    /// A connection's filter arguments, and the variables they mention.
    private let connectionArguments: [(String, InputValue)]
    private let connectionVariableNames: [String]
    private let lastReadKey = Locked<(values: [JSONValue?], key: String)?>(nil)
    /// The variables the arguments mention, and the key last computed with their values.
    private let variableNames: [String]
    private let lastKey = Locked<(values: [JSONValue?], key: String)?>(nil)

    init(
        name: String, alias: String?, arguments: [(String, InputValue)], type: GraphQLType, selections: [Selection],
        conditions: [Condition], required: RequiredAction?, catchTo: CatchTarget?, scalar: (any SlotDecodable.Type)?,
        connection: ConnectionSpec?, update: RecordUpdate?, keyFields: [String: [String]] = [:]
    ) {
        self.keyFields = keyFields
        self.name = name
        self.alias = alias
        self.arguments = arguments
        self.type = type
        self.selections = selections
        self.conditions = conditions
        self.required = required
        self.catchTo = catchTo
        self.scalar = scalar
        self.connection = connection
        self.update = update
        writesConnection = connection != nil || update != nil
        self.responseKey = alias ?? name
        let keyBytes = Array(responseKey.utf8)
        responseKeyStorage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(keyBytes.count, 1))
        _ = responseKeyStorage.initialize(from: keyBytes)
        responseKeyBytes = UnsafeBufferPointer(start: responseKeyStorage.baseAddress, count: keyBytes.count)
        responseKeyIsASCII = keyBytes.allSatisfy { $0 < 0x80 }
        hasConditions = !conditions.isEmpty
        namedType = type.namedType
        let typeBytes = Array(namedType.utf8)
        namedTypeStorage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(typeBytes.count, 1))
        _ = namedTypeStorage.initialize(from: typeBytes)
        namedTypeBytes =
            typeBytes.allSatisfy { $0 < 0x80 }
            ? UnsafeBufferPointer(start: namedTypeStorage.baseAddress, count: typeBytes.count) : nil
        plan = selections.isEmpty ? nil : NormalizationPlan(selections)
        var depth = 0
        var level = type
        while let item = level.listItem {
            depth += 1
            level = item
        }
        listDepth = depth
        var names: [String] = []
        for (_, value) in arguments { value.collectVariables(into: &names) }
        variableNames = names
        constantStorageKey = names.isEmpty ? Field.storageKey(name: name, arguments: arguments, variables: [:]) : nil
        constantStorageKeyIsASCII = constantStorageKey?.utf8.allSatisfy { $0 < 0x80 } ?? false
        hasVariableStorageKey = constantStorageKey == nil
        if let connection {
            let filters = Set(connection.filters)
            connectionArguments = arguments.filter { filters.contains($0.0) }
            var mentioned: [String] = []
            for (_, value) in connectionArguments { value.collectVariables(into: &mentioned) }
            connectionVariableNames = mentioned
            constantReadKey =
                mentioned.isEmpty
                ? FieldStorage.connectionKey(connection, connectionArguments, variables: [:]) : nil
        } else {
            connectionArguments = []
            connectionVariableNames = []
            constantReadKey = constantStorageKey
        }
    }

    /// The connection slot's key under `variables`: the filter arguments with variables resolved (one whose
    /// variable is unset left out, as storage keys leave it).
    static func connectionKey(
        _ connection: ConnectionSpec, _ arguments: [(String, InputValue)], variables: [String: JSONValue]
    ) -> String {
        var filters: [String: JSONValue] = [:]
        for (name, value) in arguments { if let resolved = value.resolved(variables) { filters[name] = resolved } }
        return ConnectionSpec.storageKey(key: connection.key, filters: filters)
    }

    /// The read key under `variables` when it depends on them.
    @usableFromInline
    func variableReadKey(_ variables: [String: JSONValue]) -> String {
        guard let connection else { return variableStorageKey(variables) }
        let names = connectionVariableNames
        let cached: String? = lastReadKey.withLock { last in
            guard let last, last.values.count == names.count else { return nil }
            for index in names.indices where variables[names[index]] != last.values[index] { return nil }
            return last.key
        }
        if let cached { return cached }
        let key = FieldStorage.connectionKey(connection, connectionArguments, variables: variables)
        let values = names.map { variables[$0] }
        lastReadKey.withLock { $0 = (values, key) }
        return key
    }

    deinit {
        responseKeyStorage.deallocate()
        namedTypeStorage.deallocate()
    }

    /// The storage key under `variables` when an argument mentions a variable: reused while the variables it
    /// mentions keep their values (a lens reads many records with the same variables).
    @usableFromInline
    func variableStorageKey(_ variables: [String: JSONValue]) -> String {
        let names = variableNames
        let cached: String? = lastKey.withLock { last in
            guard let last, last.values.count == names.count else { return nil }
            for index in names.indices where variables[names[index]] != last.values[index] { return nil }
            return last.key
        }
        if let cached { return cached }
        let key = Field.storageKey(name: name, arguments: arguments, variables: variables)
        let values = names.map { variables[$0] }
        lastKey.withLock { $0 = (values, key) }
        return key
    }
}

/// A selection in an operation or fragment, as generated code describes it to the runtime.
public indirect enum Selection: Sendable, Hashable {
    case field(Field)
    /// `... on Type { }` (or `... @include(if:) { }` without a type condition).
    case inlineFragment(typeCondition: TypeCondition?, conditions: [Condition], selections: [Selection])
    /// `...Name`: a named fragment's selections, read through its own lens.
    case fragment(name: String, typeCondition: TypeCondition, conditions: [Condition], selections: [Selection])

    /// A field selection; shorthand for `.field(Field(...))`.
    public static func field(
        _ name: String, alias: String? = nil, arguments: [(String, InputValue)] = [], type: GraphQLType,
        selections: [Selection] = [], conditions: [Condition] = [], required: RequiredAction? = nil,
        catchTo: CatchTarget? = nil, scalar: (any SlotDecodable.Type)? = nil, connection: ConnectionSpec? = nil,
        update: RecordUpdate? = nil, keyFields: [String: [String]] = [:]
    ) -> Selection {
        .field(
            Field(
                name, alias: alias, arguments: arguments, type: type, selections: selections, conditions: conditions,
                required: required, catchTo: catchTo, scalar: scalar, connection: connection, update: update,
                keyFields: keyFields))
    }

    /// An inline fragment with a type condition.
    public static func inlineFragment(on typeCondition: TypeCondition, selections: [Selection]) -> Selection {
        .inlineFragment(typeCondition: typeCondition, conditions: [], selections: selections)
    }

    /// A named fragment spread.
    public static func fragment<L: LensType>(_ type: L.Type, conditions: [Condition] = []) -> Selection {
        .fragment(
            name: L.nameOfFragment ?? "\(L.self)", typeCondition: L.conditionOfType ?? TypeCondition("?"),
            conditions: conditions, selections: L.selections)
    }
}
