import Baton

/// A field's value in a test data builder: a value, null, a field error, or left out of the response.
///
/// A builder's property of this type left `nil` is filled by the default resolver (what the schema says is
/// non-null gets a deterministic value, the rest is null). Literals spell values: `title: "Crash"`, `number: 101`,
/// `labels: [.value(.init(name: "bug")), .null]`.
public enum BuiltField<Value: BuildableValue>: BuildableValue {
    /// The value.
    case value(Value)
    /// `null` in `data`.
    case null
    /// A field error: `null` in `data` and an entry in `errors` with this message, the field's path and
    /// `extensions` (written in key order).
    case error(String, extensions: [String: JSONValue] = [:])
    /// Left out of `data`: the store has no value there (missing data, which the runtime reports and heals).
    case missing

    public func buildNode(_ context: inout BuildContext) -> BuiltNode {
        switch self {
        case .value(let value): value.buildNode(&context)
        case .null: .value(.null)
        case .error(let message, let extensions): .error(message: message, extensions: extensions)
        case .missing: .missing
        }
    }
}

extension BuiltField: ExpressibleByUnicodeScalarLiteral, ExpressibleByExtendedGraphemeClusterLiteral,
    ExpressibleByStringLiteral
where Value == String {
    public init(stringLiteral value: String) { self = .value(value) }
}

extension BuiltField: ExpressibleByIntegerLiteral where Value == Int {
    public init(integerLiteral value: Int) { self = .value(value) }
}

extension BuiltField: ExpressibleByFloatLiteral where Value == Double {
    public init(floatLiteral value: Double) { self = .value(value) }
}

extension BuiltField: ExpressibleByBooleanLiteral where Value == Bool {
    public init(booleanLiteral value: Bool) { self = .value(value) }
}

extension BuiltField: ExpressibleByArrayLiteral where Value: RangeReplaceableCollection {
    public init(arrayLiteral elements: Value.Element...) { self = .value(Value(elements)) }
}

/// A value a builder writes into a response: scalars, lists, `BuiltField`s and builders.
public protocol BuildableValue: Sendable {
    /// The value as a node of the response being built.
    func buildNode(_ context: inout BuildContext) -> BuiltNode
}

extension String: BuildableValue {
    public func buildNode(_ context: inout BuildContext) -> BuiltNode { .value(.string(self)) }
}

extension Int: BuildableValue {
    public func buildNode(_ context: inout BuildContext) -> BuiltNode { .value(.number(String(self))) }
}

extension Double: BuildableValue {
    /// Written as Swift prints it (`1.5`); a value that is not finite is null, as JSON has no such number.
    public func buildNode(_ context: inout BuildContext) -> BuiltNode {
        isFinite ? .value(.number(String(self))) : .value(.null)
    }
}

extension Bool: BuildableValue {
    public func buildNode(_ context: inout BuildContext) -> BuiltNode { .value(.bool(self)) }
}

extension Array: BuildableValue where Element: BuildableValue {
    public func buildNode(_ context: inout BuildContext) -> BuiltNode {
        .list(map { $0.buildNode(&context) })
    }
}

/// A generated builder of one selection's data: an object of the response.
public protocol DataBuilder: BuildableValue {
    /// The builder's object. `typename` is the record's `__typename` when a parent builder decided it (a spread's
    /// or an inline fragment's builder takes its parent's); nil lets the builder decide.
    func buildObject(_ context: inout BuildContext, typename: String?) -> BuiltObject
}

extension DataBuilder {
    public func buildNode(_ context: inout BuildContext) -> BuiltNode {
        .object(buildObject(&context, typename: nil))
    }
}

/// A generated builder of an operation's data: what `MockEnvironment.resolve(_:)` answers the operation with.
public protocol OperationDataBuilder: DataBuilder {
    /// The operation's GraphQL name, which the mock answers.
    static var operationName: String { get }
}

extension OperationDataBuilder {
    /// The response this builder makes: `data` (the root without `__typename`, which operations do not select) and
    /// the field errors built into it, filled by `resolver`.
    public func response(resolver: BuilderResolver = BuilderResolver()) -> BuiltResponse {
        var context = BuildContext(resolver: resolver)
        var root = buildObject(&context, typename: nil)
        root.removeTypename()
        return BuiltResponse(root)
    }
}

/// What fills a field a builder leaves unset, replaceable by a test: deterministic by default.
public struct BuilderResolver: Sendable {
    /// An `ID`: `Type:n`, `n` counted from 1 per `__typename` within one response.
    public var id: @Sendable (_ typename: String, _ number: Int) -> JSONValue
    /// A scalar by its GraphQL name and the field's name: `String` the field's name, `Int` 0, `Float` 0.0,
    /// `Boolean` false, a custom scalar its name as text (give a mapped custom scalar's value, or replace this,
    /// when its converter rejects that text).
    public var scalar: @Sendable (_ scalar: String, _ field: String) -> JSONValue
    /// An enum by its name: its first value in schema order (`first`).
    public var enumValue: @Sendable (_ enumName: String, _ first: String) -> String

    public init(
        id: @escaping @Sendable (_ typename: String, _ number: Int) -> JSONValue = BuilderResolver.standardID,
        scalar: @escaping @Sendable (_ scalar: String, _ field: String) -> JSONValue = BuilderResolver.standardScalar,
        enumValue: @escaping @Sendable (_ enumName: String, _ first: String) -> String = { _, first in first }
    ) {
        self.id = id
        self.scalar = scalar
        self.enumValue = enumValue
    }

    /// `Type:n`.
    public static let standardID: @Sendable (String, Int) -> JSONValue = { typename, number in
        .string(typename + ":" + String(number))
    }

    /// The standard samples.
    public static let standardScalar: @Sendable (String, String) -> JSONValue = { scalar, field in
        switch scalar {
        case "String": .string(field)
        case "Int": .number("0")
        case "Float": .number("0.0")
        case "Boolean": .bool(false)
        default: .string(scalar)
        }
    }
}

/// The state of one build: the resolver and the numbers given out per type.
public struct BuildContext {
    public var resolver: BuilderResolver
    private var numbers: [String: Int] = [:]

    public init(resolver: BuilderResolver = BuilderResolver()) { self.resolver = resolver }

    /// The next `ID` of a record of `typename`.
    public mutating func nextID(_ typename: String) -> JSONValue {
        let number = (numbers[typename] ?? 0) + 1
        numbers[typename] = number
        return resolver.id(typename, number)
    }

    /// A builder's `__typename`: its parent's when the parent decided it, else the one the test gave, else the first
    /// type the first set narrowing part (a spread or inline fragment on some types) applies to, else `standard`.
    public static func typename(
        parent: String?, given: String?, narrowing: [(isSet: Bool, types: [String])], standard: String
    ) -> String {
        if let parent { return parent }
        if let given { return given }
        for part in narrowing where part.isSet {
            if let first = part.types.first { return first }
        }
        return standard
    }
}

/// What a field a builder leaves unset holds (`TestBuilderShape.Fill`, spelled by the generated builder).
public enum BuilderFill {
    case null
    case emptyList
    case id
    case scalar(String, field: String)
    case enumValue(String, first: String)
    case object(any DataBuilder)
}

/// One value of a response being built.
public indirect enum BuiltNode: Sendable {
    /// A scalar, or null.
    case value(JSONValue)
    case object(BuiltObject)
    case list([BuiltNode])
    /// A field error: null in `data`, and an error at the field's path.
    case error(message: String, extensions: [String: JSONValue])
    /// Left out of the response.
    case missing
}

/// An object of a response being built: its members in order, each set by the test or filled by default.
///
/// Builders of one record (a lens, its spreads and inline fragments) are merged member by member: a member the
/// test set wins over a filled one; two objects merge; two lists of one length merge item by item; otherwise the
/// first written stays. A filled member of a nested builder keeps that builder, so a value the test set for the
/// same response key elsewhere gets the members only this builder selects, filled.
public struct BuiltObject: Sendable {
    struct Member: Sendable {
        var key: String
        var node: BuiltNode
        var isSet: Bool
        /// The nested builder of a composite field (its defaults complete a value set by another builder).
        var template: (any DataBuilder)?
    }
    var members: [Member] = []

    /// An object whose `__typename` is `typename` (`isSet` when the test gave it).
    public init(typename: String, isSet: Bool) {
        members = [Member(key: "__typename", node: .value(.string(typename)), isSet: isSet)]
    }

    init() {}

    mutating func removeTypename() { members.removeAll { $0.key == "__typename" } }

    /// Writes the field `key`: `value` when the test set it, otherwise `fill`; `template` is the field's nested
    /// builder, if it has one.
    public mutating func field<Value>(
        _ key: String, _ value: BuiltField<Value>?, _ context: inout BuildContext, fill: BuilderFill,
        template: (any DataBuilder)? = nil
    ) {
        if let value {
            add(Member(key: key, node: value.buildNode(&context), isSet: true, template: template), &context)
            return
        }
        let node: BuiltNode =
            switch fill {
            case .null: .value(.null)
            case .emptyList: .list([])
            case .id: .value(context.nextID(typename ?? ""))
            case .scalar(let scalar, let field): .value(context.resolver.scalar(scalar, field))
            case .enumValue(let name, let first): .value(.string(context.resolver.enumValue(name, first)))
            case .object(let builder): .object(builder.buildObject(&context, typename: nil))
            }
        add(Member(key: key, node: node, isSet: false, template: template), &context)
    }

    /// Merges a spread's or an inline fragment's builder: `value` when the test set it, otherwise `standard` when
    /// the part applies to `typename` (`appliesTo` nil: to every record).
    public mutating func spread(
        _ value: (any DataBuilder)?, standard: any DataBuilder, appliesTo: [String]?, typename: String,
        _ context: inout BuildContext
    ) {
        if let value {
            merge(value.buildObject(&context, typename: typename), &context)
        } else if appliesTo?.contains(typename) ?? true {
            merge(standard.buildObject(&context, typename: typename), &context)
        }
    }

    /// The `__typename` member's text.
    var typename: String? {
        guard let member = members.first(where: { $0.key == "__typename" }),
            case .value(.string(let text)) = member.node
        else { return nil }
        return text
    }

    mutating func merge(_ other: BuiltObject, _ context: inout BuildContext) {
        for member in other.members { add(member, &context) }
    }

    mutating func add(_ member: Member, _ context: inout BuildContext) {
        guard let index = members.firstIndex(where: { $0.key == member.key }) else {
            members.append(member)
            return
        }
        members[index] = Self.merged(members[index], member, &context)
    }

    static func merged(_ first: Member, _ second: Member, _ context: inout BuildContext) -> Member {
        var result = first
        result.template = first.template ?? second.template
        if first.isSet == second.isSet {
            result.node = mergedNodes(first.node, second.node, &context)
        } else {
            let (set, filled) = first.isSet ? (first, second) : (second, first)
            result.isSet = true
            result.node = completed(set.node, filled: filled.node, template: filled.template, &context)
        }
        return result
    }

    /// Two nodes of the same standing: objects merge, lists of one length merge item by item, else the first stays.
    static func mergedNodes(_ first: BuiltNode, _ second: BuiltNode, _ context: inout BuildContext) -> BuiltNode {
        switch (first, second) {
        case (.object(var object), .object(let other)):
            object.merge(other, &context)
            return .object(object)
        case (.list(let items), .list(let others)) where items.count == others.count:
            var merged: [BuiltNode] = []
            for (item, other) in zip(items, others) { merged.append(mergedNodes(item, other, &context)) }
            return .list(merged)
        default:
            return first
        }
    }

    /// A set value completed by a filled one: a filled object's members join a set object (the set ones win); a
    /// nested builder's defaults join every object of a set value, through its lists.
    static func completed(
        _ set: BuiltNode, filled: BuiltNode, template: (any DataBuilder)?, _ context: inout BuildContext
    ) -> BuiltNode {
        switch set {
        case .object(var object):
            if case .object(let other) = filled {
                object.merge(other, &context)
            } else if let template {
                object.merge(template.buildObject(&context, typename: object.typename), &context)
            }
            return .object(object)
        case .list(let items):
            guard template != nil else { return set }
            var completedItems: [BuiltNode] = []
            for item in items {
                completedItems.append(completed(item, filled: .missing, template: template, &context))
            }
            return .list(completedItems)
        default:
            return set
        }
    }
}

/// A built response: `data` as JSON text and the field errors built into it, at their paths.
public struct BuiltResponse: Sendable, Hashable {
    /// `data`'s JSON text, members in selection order.
    public var data: String
    /// The field errors, in the order their fields appear in `data`.
    public var errors: [MockFieldError]

    init(_ root: BuiltObject) {
        var errors: [MockFieldError] = []
        data = Self.json(.object(root), path: [], errors: &errors).compactText
        self.errors = errors
    }

    /// The response body: `{"data": …, "errors": […]}` (no `errors` when there are none).
    public var body: String {
        var text = #"{"data":"# + data
        if !errors.isEmpty { text += #","errors":"# + JSONValue.array(errors.map(\.json)).compactText }
        return text + "}"
    }

    static func json(_ node: BuiltNode, path: [MockFieldError.PathComponent], errors: inout [MockFieldError])
        -> JSONValue
    {
        switch node {
        case .value(let value): return value
        case .missing: return .null
        case .error(let message, let extensions):
            errors.append(MockFieldError(message, path: path, extensions: extensions))
            return .null
        case .list(let items):
            var values: [JSONValue] = []
            for (index, item) in items.enumerated() {
                values.append(json(item, path: path + [.index(index)], errors: &errors))
            }
            return .array(values)
        case .object(let object):
            var members: [(String, JSONValue)] = []
            for member in object.members {
                if case .missing = member.node { continue }
                members.append((member.key, json(member.node, path: path + [.field(member.key)], errors: &errors)))
            }
            return .object(JSONObject(members))
        }
    }
}

extension MockEnvironment {
    /// Answers the most recent pending request of the builder's operation with the response it builds (unset
    /// fields filled by `resolver`).
    public func resolve<Builder: OperationDataBuilder>(
        _ builder: Builder, resolver: BuilderResolver = BuilderResolver()
    ) async throws {
        let response = builder.response(resolver: resolver)
        try await transport.respond(Builder.operationName, with: .data(response.data, errors: response.errors))
    }
}
