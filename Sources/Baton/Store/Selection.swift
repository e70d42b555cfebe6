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

    /// Whether a variable occurs anywhere inside.
    var mentionsVariable: Bool {
        switch self {
        case .literal: false
        case .variable: true
        case .list(let items): items.contains { $0.mentionsVariable }
        case .object(let members): members.contains { $0.1.mentionsVariable }
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

/// An `@include(if:)` or `@skip(if:)` on a selection.
public struct Condition: Sendable, Hashable {
    /// The variable named by `if:`, or a literal.
    public var value: InputValue
    /// True for `@include`, false for `@skip`.
    public var include: Bool

    public static func include(_ variable: String) -> Condition { Condition(value: .variable(variable), include: true) }
    public static func skip(_ variable: String) -> Condition { Condition(value: .variable(variable), include: false) }

    func passes(_ variables: [String: JSONValue]) -> Bool {
        let flag: Bool
        if case .bool(let value)? = self.value.resolved(variables) { flag = value } else { flag = false }
        return flag == include
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
public struct Field: Sendable, Hashable {
    public let name: String
    public let alias: String?
    public let arguments: [(String, InputValue)]
    public let type: GraphQLType
    public let selections: [Selection]
    public let conditions: [Condition]
    public let required: RequiredAction?
    /// The field's `@catch`, so an operation under `@throwOnFieldError` knows which errors are handled.
    public let catchTo: CatchTarget?
    /// A mapped scalar type, so a `@required` boundary can check that the text converts.
    public let scalar: (any SlotDecodable.Type)?
    /// The key this field has in a response object (`alias ?? name`).
    public let responseKey: String
    let constantStorageKey: String?

    public init(
        _ name: String, alias: String? = nil, arguments: [(String, InputValue)] = [], type: GraphQLType,
        selections: [Selection] = [], conditions: [Condition] = [], required: RequiredAction? = nil,
        catchTo: CatchTarget? = nil, scalar: (any SlotDecodable.Type)? = nil
    ) {
        self.name = name
        self.alias = alias
        self.arguments = arguments
        self.type = type
        self.selections = selections
        self.conditions = conditions
        self.required = required
        self.catchTo = catchTo
        self.scalar = scalar
        self.responseKey = alias ?? name
        if arguments.contains(where: { $0.1.mentionsVariable }) {
            constantStorageKey = nil
        } else {
            constantStorageKey = Field.storageKey(name: name, arguments: arguments, variables: [:])
        }
    }

    /// The storage key: the field name, then the arguments sorted by name with variables resolved, as canonical
    /// JSON (`repository({"name":"x","owner":"y"})`); a field without arguments is just its name. An argument whose
    /// variable is unset is left out, as the request leaves it out.
    public func storageKey(variables: [String: JSONValue]) -> String {
        constantStorageKey ?? Field.storageKey(name: name, arguments: arguments, variables: variables)
    }

    static func storageKey(name: String, arguments: [(String, InputValue)], variables: [String: JSONValue]) -> String {
        let resolved = arguments.compactMap { key, value in value.resolved(variables).map { (key, $0) } }
        if resolved.isEmpty { return name }
        return name + "(" + JSONValue.object(JSONObject(resolved)).canonicalText + ")"
    }

    public static func == (lhs: Field, rhs: Field) -> Bool {
        lhs.name == rhs.name && lhs.alias == rhs.alias && lhs.arguments.map(\.0) == rhs.arguments.map(\.0)
            && lhs.arguments.map(\.1) == rhs.arguments.map(\.1) && lhs.type == rhs.type && lhs.selections == rhs.selections
            && lhs.conditions == rhs.conditions && lhs.required == rhs.required && lhs.catchTo == rhs.catchTo
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(alias)
        hasher.combine(type)
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
        catchTo: CatchTarget? = nil, scalar: (any SlotDecodable.Type)? = nil
    ) -> Selection {
        .field(
            Field(
                name, alias: alias, arguments: arguments, type: type, selections: selections, conditions: conditions,
                required: required, catchTo: catchTo, scalar: scalar))
    }

    /// An inline fragment with a type condition.
    public static func inlineFragment(on typeCondition: TypeCondition, selections: [Selection]) -> Selection {
        .inlineFragment(typeCondition: typeCondition, conditions: [], selections: selections)
    }

    /// A named fragment spread.
    public static func fragment<L: LensType>(_ type: L.Type, conditions: [Condition] = []) -> Selection {
        .fragment(name: L.fragmentName ?? "\(L.self)", typeCondition: L.typeCondition ?? TypeCondition("?"), conditions: conditions, selections: L.selections)
    }
}
