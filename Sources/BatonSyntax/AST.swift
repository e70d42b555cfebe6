import BatonDiagnostics

// The GraphQL abstract syntax tree, after graphql-js's `language/ast`. Every node carries the
// byte span of its source text (`[start, end)` in the document's `SourceFile`), so that every
// later stage can point at the exact place. Nodes are value types: a parsed document is
// immutable and freely shared across tasks.

/// A name token: `id`, `Query`, `include`.
package struct Name: Sendable, Hashable {
    package var value: String
    package var span: Span
    package init(_ value: String, span: Span) {
        self.value = value
        self.span = span
    }
}

/// A parsed document: the definitions of one source, in order.
package struct Document: Sendable {
    package var source: SourceFile
    package var definitions: [Definition]
    package var span: Span
    package init(source: SourceFile, definitions: [Definition], span: Span) {
        self.source = source
        self.definitions = definitions
        self.span = span
    }
}

/// Any top-level definition. Type-system definitions and their `extend` forms share a node
/// type; `isExtension` tells them apart.
package enum Definition: Sendable {
    case operation(OperationDefinition)
    case fragment(FragmentDefinition)
    case schema(SchemaDefinition)
    case scalar(ScalarTypeDefinition)
    case object(ObjectTypeDefinition)
    case interface(InterfaceTypeDefinition)
    case union(UnionTypeDefinition)
    case enumType(EnumTypeDefinition)
    case inputObject(InputObjectTypeDefinition)
    case directive(DirectiveDefinition)

    package var span: Span {
        switch self {
        case .operation(let node): node.span
        case .fragment(let node): node.span
        case .schema(let node): node.span
        case .scalar(let node): node.span
        case .object(let node): node.span
        case .interface(let node): node.span
        case .union(let node): node.span
        case .enumType(let node): node.span
        case .inputObject(let node): node.span
        case .directive(let node): node.span
        }
    }

    /// True for operations and fragments.
    package var isExecutable: Bool {
        switch self {
        case .operation, .fragment: true
        default: false
        }
    }
}

// MARK: - Executable definitions

/// `query`, `mutation` or `subscription`.
package enum OperationType: String, Sendable, Hashable, CaseIterable {
    case query
    case mutation
    case subscription
}

/// An operation. The shorthand `{ … }` is a query with no name; `isShorthand` records it so the
/// printer can print it back as written.
package final class OperationDefinition: Sendable {
    package let operation: OperationType
    package let name: Name?
    package let variableDefinitions: [VariableDefinition]
    package let directives: [Directive]
    package let selectionSet: SelectionSet
    package let isShorthand: Bool
    package let span: Span
    package init(
        operation: OperationType, name: Name?, variableDefinitions: [VariableDefinition],
        directives: [Directive], selectionSet: SelectionSet, isShorthand: Bool, span: Span
    ) {
        self.operation = operation
        self.name = name
        self.variableDefinitions = variableDefinitions
        self.directives = directives
        self.selectionSet = selectionSet
        self.isShorthand = isShorthand
        self.span = span
    }
}

/// `$name: Type = default @directives`.
package final class VariableDefinition: Sendable {
    package let variable: Variable
    package let type: TypeReference
    package let defaultValue: Value?
    package let directives: [Directive]
    package let span: Span
    package init(variable: Variable, type: TypeReference, defaultValue: Value?, directives: [Directive], span: Span) {
        self.variable = variable
        self.type = type
        self.defaultValue = defaultValue
        self.directives = directives
        self.span = span
    }
}

/// `$name`. `span` covers the `$`; `name.span` only the name.
package struct Variable: Sendable, Hashable {
    package var name: Name
    package var span: Span
    package init(name: Name, span: Span) {
        self.name = name
        self.span = span
    }
}

/// `{ selections }`.
package struct SelectionSet: Sendable {
    package var selections: [Selection] {
        didSet {
            (containsSpreads, containsDirectives, bareLevels) = Self.summary(of: selections).result
            keysAreDistinct = false
        }
    }
    package var span: Span
    /// Whether a fragment spread is among the selections, at any depth (not following spreads). A search
    /// for spreads (validation's, the second pass's links) skips a set without one.
    package private(set) var containsSpreads: Bool
    /// Whether a selection with directives is among the selections, at any depth (not following spreads).
    package private(set) var containsDirectives: Bool
    /// When every selection, at any depth, is a field without an alias or arguments (no spread, no inline
    /// fragment; directives allowed): the levels of selection sets this one makes, itself included (1 for a
    /// set of leaf fields), at most `bareLevelsLimit`, which stands for that many or more. 0 otherwise.
    package private(set) var bareLevels: UInt8
    /// True when the selections are fields only (no spread, no inline fragment) and no two have one response
    /// key, as the parser found them (`RecursiveDescentParser.parseSelectionSet`); false when not, or not known
    /// (a set made or changed elsewhere, or of more than `distinctKeysLimit` fields).
    package private(set) var keysAreDistinct: Bool

    /// The most `bareLevels` tells apart.
    package static let bareLevelsLimit: UInt8 = 255
    /// The most fields whose keys the parser tells apart in one set.
    package static let distinctKeysLimit = 32

    package init(selections: [Selection], span: Span) {
        self.init(selections: selections, span: span, summary: Self.summary(of: selections), keysAreDistinct: false)
    }

    /// A set whose `summary` its maker gathered as it made the selections (the parser), and `keysAreDistinct`
    /// as it found it (the parser compares the keys' numbers in its `NameTable`).
    package init(selections: [Selection], span: Span, summary: Summary, keysAreDistinct: Bool) {
        self.selections = selections
        self.span = span
        (containsSpreads, containsDirectives, bareLevels) = summary.result
        self.keysAreDistinct = keysAreDistinct
    }

    /// What a set's selections hold at any depth, gathered a selection at a time: one look at each, since a
    /// nested set (a field's or an inline fragment's, made before this one and never changed) already knows
    /// what is below it. The parser adds each selection as it makes it, from what it has at hand;
    /// `summary(of:)` reads the nodes.
    package struct Summary {
        private var spreads = false
        private var directives = false
        private var bare = true
        /// The most levels below this set, of the fields' sets.
        private var below: UInt8 = 0

        package init() {}

        package mutating func addField(
            hasAlias: Bool, hasArguments: Bool, hasDirectives: Bool, selectionSet: SelectionSet?
        ) {
            if hasDirectives { directives = true }
            if hasAlias || hasArguments { bare = false }
            if let inner = selectionSet {
                spreads = spreads || inner.containsSpreads
                directives = directives || inner.containsDirectives
                if inner.bareLevels == 0 { bare = false }
                below = max(below, inner.bareLevels)
            }
        }

        package mutating func addSpread(hasDirectives: Bool) {
            spreads = true
            bare = false
            if hasDirectives { directives = true }
        }

        package mutating func addInlineFragment(hasDirectives: Bool, selectionSet: SelectionSet) {
            bare = false
            if hasDirectives { directives = true }
            spreads = spreads || selectionSet.containsSpreads
            directives = directives || selectionSet.containsDirectives
        }

        var result: (spreads: Bool, directives: Bool, bareLevels: UInt8) {
            (spreads, directives, bare ? (below == bareLevelsLimit ? below : below + 1) : 0)
        }
    }

    private static func summary(of selections: [Selection]) -> Summary {
        var summary = Summary()
        for selection in selections {
            switch selection {
            case .field(let field):
                summary.addField(
                    hasAlias: field.alias != nil, hasArguments: !field.arguments.isEmpty,
                    hasDirectives: !field.directives.isEmpty, selectionSet: field.selectionSet)
            case .fragmentSpread(let spread): summary.addSpread(hasDirectives: !spread.directives.isEmpty)
            case .inlineFragment(let inline):
                summary.addInlineFragment(hasDirectives: !inline.directives.isEmpty, selectionSet: inline.selectionSet)
            }
        }
        return summary
    }
}

/// A field, a fragment spread or an inline fragment.
package enum Selection: Sendable {
    case field(Field)
    case fragmentSpread(FragmentSpread)
    case inlineFragment(InlineFragment)

    package var span: Span {
        switch self {
        case .field(let node): node.span
        case .fragmentSpread(let node): node.span
        case .inlineFragment(let node): node.span
        }
    }

    package var directives: [Directive] {
        switch self {
        case .field(let node): node.directives
        case .fragmentSpread(let node): node.directives
        case .inlineFragment(let node): node.directives
        }
    }
}

/// `alias: name(arguments) @directives { selections }`.
package final class Field: Sendable {
    package let alias: Name?
    package let name: Name
    package let arguments: [Argument]
    package let directives: [Directive]
    package let selectionSet: SelectionSet?
    package let span: Span
    package init(
        alias: Name?, name: Name, arguments: [Argument], directives: [Directive], selectionSet: SelectionSet?,
        span: Span
    ) {
        self.alias = alias
        self.name = name
        self.arguments = arguments
        self.directives = directives
        self.selectionSet = selectionSet
        self.span = span
    }
    /// The key this field has in the response: its alias, else its name.
    package var responseKey: String { alias?.value ?? name.value }
}

/// `name: value`, in a field's or a directive's argument list.
package final class Argument: Sendable {
    package let name: Name
    package let value: Value
    package let span: Span
    package init(name: Name, value: Value, span: Span) {
        self.name = name
        self.value = value
        self.span = span
    }
}

/// `...Name @directives`.
package final class FragmentSpread: Sendable {
    package let name: Name
    package let directives: [Directive]
    package let span: Span
    package init(name: Name, directives: [Directive], span: Span) {
        self.name = name
        self.directives = directives
        self.span = span
    }
}

/// `... on Type @directives { selections }` (the type condition is optional).
package final class InlineFragment: Sendable {
    package let typeCondition: NamedType?
    package let directives: [Directive]
    package let selectionSet: SelectionSet
    package let span: Span
    package init(typeCondition: NamedType?, directives: [Directive], selectionSet: SelectionSet, span: Span) {
        self.typeCondition = typeCondition
        self.directives = directives
        self.selectionSet = selectionSet
        self.span = span
    }
}

/// `fragment Name on Type @directives { selections }`.
package final class FragmentDefinition: Sendable {
    package let name: Name
    package let typeCondition: NamedType
    package let directives: [Directive]
    package let selectionSet: SelectionSet
    package let span: Span
    package init(name: Name, typeCondition: NamedType, directives: [Directive], selectionSet: SelectionSet, span: Span)
    {
        self.name = name
        self.typeCondition = typeCondition
        self.directives = directives
        self.selectionSet = selectionSet
        self.span = span
    }
}

// MARK: - Values

/// A string literal, after escapes and block-string indentation are processed.
package struct StringValue: Sendable, Hashable {
    package var value: String
    package var isBlock: Bool
    package var span: Span
    package init(value: String, isBlock: Bool, span: Span) {
        self.value = value
        self.isBlock = isBlock
        self.span = span
    }
}

/// `name: value` inside an object value.
package struct ObjectField: Sendable {
    package var name: Name
    package var value: Value
    package var span: Span
    package init(name: Name, value: Value, span: Span) {
        self.name = name
        self.value = value
        self.span = span
    }
}

/// An input value literal. Int and Float keep their source text, so nothing is rounded.
/// (Not `indirect`: lists and objects recurse through arrays, which are already boxed, so no
/// case needs a heap box of its own.)
package enum Value: Sendable {
    case variable(Variable)
    case int(String, Span)
    case float(String, Span)
    case string(StringValue)
    case boolean(Bool, Span)
    case null(Span)
    case enumValue(Name)
    case list([Value], Span)
    case object([ObjectField], Span)

    package var span: Span {
        switch self {
        case .variable(let variable): variable.span
        case .int(_, let span), .float(_, let span), .boolean(_, let span), .null(let span): span
        case .string(let string): string.span
        case .enumValue(let name): name.span
        case .list(_, let span), .object(_, let span): span
        }
    }
}

/// `@name(arguments)`.
package final class Directive: Sendable {
    package let name: Name
    package let arguments: [Argument]
    package let span: Span
    package init(name: Name, arguments: [Argument], span: Span) {
        self.name = name
        self.arguments = arguments
        self.span = span
    }
}

// MARK: - Type references

/// A named type reference, `User`.
package struct NamedType: Sendable, Hashable {
    package var name: Name
    package init(name: Name) { self.name = name }
    package var span: Span { name.span }
}

/// `Name`, `[Type]`, `Type!`. Only the wrapping cases are boxed, so a named type costs no
/// allocation.
package enum TypeReference: Sendable {
    case named(NamedType)
    indirect case list(TypeReference, Span)
    indirect case nonNull(TypeReference, Span)

    package var span: Span {
        switch self {
        case .named(let named): named.span
        case .list(_, let span), .nonNull(_, let span): span
        }
    }

    /// The innermost named type.
    package var namedType: NamedType {
        switch self {
        case .named(let named): named
        case .list(let inner, _), .nonNull(let inner, _): inner.namedType
        }
    }
}

// MARK: - Type-system definitions

/// `schema { query: Query … }` or `extend schema …`.
package struct SchemaDefinition: Sendable {
    package var description: StringValue?
    package var directives: [Directive]
    package var operationTypes: [OperationTypeDefinition]
    package var isExtension: Bool
    package var span: Span
    package init(
        description: StringValue?, directives: [Directive], operationTypes: [OperationTypeDefinition],
        isExtension: Bool, span: Span
    ) {
        self.description = description
        self.directives = directives
        self.operationTypes = operationTypes
        self.isExtension = isExtension
        self.span = span
    }
}

/// `query: Query` inside a schema definition.
package struct OperationTypeDefinition: Sendable {
    package var operation: OperationType
    package var type: NamedType
    package var span: Span
    package init(operation: OperationType, type: NamedType, span: Span) {
        self.operation = operation
        self.type = type
        self.span = span
    }
}

/// `scalar Name @directives`.
package struct ScalarTypeDefinition: Sendable {
    package var description: StringValue?
    package var name: Name
    package var directives: [Directive]
    package var isExtension: Bool
    package var span: Span
    package init(description: StringValue?, name: Name, directives: [Directive], isExtension: Bool, span: Span) {
        self.description = description
        self.name = name
        self.directives = directives
        self.isExtension = isExtension
        self.span = span
    }
}

/// `type Name implements A & B @directives { fields }`.
package struct ObjectTypeDefinition: Sendable {
    package var description: StringValue?
    package var name: Name
    package var interfaces: [NamedType]
    package var directives: [Directive]
    package var fields: [FieldDefinition]
    package var isExtension: Bool
    package var span: Span
    package init(
        description: StringValue?, name: Name, interfaces: [NamedType], directives: [Directive],
        fields: [FieldDefinition], isExtension: Bool, span: Span
    ) {
        self.description = description
        self.name = name
        self.interfaces = interfaces
        self.directives = directives
        self.fields = fields
        self.isExtension = isExtension
        self.span = span
    }
}

/// `interface Name implements A @directives { fields }`.
package struct InterfaceTypeDefinition: Sendable {
    package var description: StringValue?
    package var name: Name
    package var interfaces: [NamedType]
    package var directives: [Directive]
    package var fields: [FieldDefinition]
    package var isExtension: Bool
    package var span: Span
    package init(
        description: StringValue?, name: Name, interfaces: [NamedType], directives: [Directive],
        fields: [FieldDefinition], isExtension: Bool, span: Span
    ) {
        self.description = description
        self.name = name
        self.interfaces = interfaces
        self.directives = directives
        self.fields = fields
        self.isExtension = isExtension
        self.span = span
    }
}

/// `name(arguments): Type @directives` in an object or interface.
package struct FieldDefinition: Sendable {
    package var description: StringValue?
    package var name: Name
    package var arguments: [InputValueDefinition]
    package var type: TypeReference
    package var directives: [Directive]
    package var span: Span
    package init(
        description: StringValue?, name: Name, arguments: [InputValueDefinition], type: TypeReference,
        directives: [Directive], span: Span
    ) {
        self.description = description
        self.name = name
        self.arguments = arguments
        self.type = type
        self.directives = directives
        self.span = span
    }
}

/// An argument definition or an input object field: `name: Type = default @directives`.
package struct InputValueDefinition: Sendable {
    package var description: StringValue?
    package var name: Name
    package var type: TypeReference
    package var defaultValue: Value?
    package var directives: [Directive]
    package var span: Span
    package init(
        description: StringValue?, name: Name, type: TypeReference, defaultValue: Value?, directives: [Directive],
        span: Span
    ) {
        self.description = description
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.directives = directives
        self.span = span
    }
}

/// `union Name @directives = A | B`.
package struct UnionTypeDefinition: Sendable {
    package var description: StringValue?
    package var name: Name
    package var directives: [Directive]
    package var types: [NamedType]
    package var isExtension: Bool
    package var span: Span
    package init(
        description: StringValue?, name: Name, directives: [Directive], types: [NamedType], isExtension: Bool,
        span: Span
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.types = types
        self.isExtension = isExtension
        self.span = span
    }
}

/// `enum Name @directives { VALUES }`.
package struct EnumTypeDefinition: Sendable {
    package var description: StringValue?
    package var name: Name
    package var directives: [Directive]
    package var values: [EnumValueDefinition]
    package var isExtension: Bool
    package var span: Span
    package init(
        description: StringValue?, name: Name, directives: [Directive], values: [EnumValueDefinition],
        isExtension: Bool, span: Span
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.values = values
        self.isExtension = isExtension
        self.span = span
    }
}

/// One value of an enum.
package struct EnumValueDefinition: Sendable {
    package var description: StringValue?
    package var name: Name
    package var directives: [Directive]
    package var span: Span
    package init(description: StringValue?, name: Name, directives: [Directive], span: Span) {
        self.description = description
        self.name = name
        self.directives = directives
        self.span = span
    }
}

/// `input Name @directives { fields }`.
package struct InputObjectTypeDefinition: Sendable {
    package var description: StringValue?
    package var name: Name
    package var directives: [Directive]
    package var fields: [InputValueDefinition]
    package var isExtension: Bool
    package var span: Span
    package init(
        description: StringValue?, name: Name, directives: [Directive], fields: [InputValueDefinition],
        isExtension: Bool, span: Span
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.fields = fields
        self.isExtension = isExtension
        self.span = span
    }
}

/// `directive @name(arguments) repeatable on LOCATION | …`.
package struct DirectiveDefinition: Sendable {
    package var description: StringValue?
    package var name: Name
    package var arguments: [InputValueDefinition]
    package var isRepeatable: Bool
    package var locations: [Name]
    package var span: Span
    package init(
        description: StringValue?, name: Name, arguments: [InputValueDefinition], isRepeatable: Bool,
        locations: [Name], span: Span
    ) {
        self.description = description
        self.name = name
        self.arguments = arguments
        self.isRepeatable = isRepeatable
        self.locations = locations
        self.span = span
    }
}
