import BatonDiagnostics
import BatonSyntax

// The schema model, after graphql-js's `type/`. Built from SDL (`SchemaBuilder`) or from an
// introspection result (`IntrospectionSchemaBuilder`), then checked by `SchemaValidator`.
// Types refer to each other by name; `Schema` resolves names. Everything is immutable once
// built, so one schema serves every document and every task. The definitions (named types,
// fields, input values, enum values, directives) are final classes with `let` members: the
// validator and the lens builder pass them around constantly, and copying a reference is one
// retain where copying a struct of seven members was seven.

/// A type as a field, argument or variable uses it: a name wrapped in list and non-null.
/// Only the wrapping cases are boxed, so a named type costs no allocation.
package enum TypeRef: Sendable, Hashable, CustomStringConvertible {
    case named(String)
    indirect case list(TypeRef)
    indirect case nonNull(TypeRef)

    // Loops rather than recursion throughout: a type may nest lists as deep as the parser
    // allows, more than a small thread's stack holds.

    /// The innermost type name.
    package var namedType: String {
        var current = self
        while true {
            switch current {
            case .named(let name): return name
            case .list(let inner), .nonNull(let inner): current = inner
            }
        }
    }
    /// How many lists the type nests (`[[Int]!]` is 2).
    package var listNesting: Int {
        var count = 0
        var current = self
        while true {
            switch current {
            case .named: return count
            case .list(let inner):
                count += 1
                current = inner
            case .nonNull(let inner): current = inner
            }
        }
    }
    package var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }
    package var isList: Bool {
        switch self {
        case .list: true
        case .nonNull(let inner): if case .list = inner { true } else { false }
        case .named: false
        }
    }
    /// The type without its outer non-null.
    package var nullable: TypeRef {
        if case .nonNull(let inner) = self { return inner }
        return self
    }
    /// `[User!]!` as the SDL writes it.
    package var description: String {
        var opening = ""
        var closing: [String] = []
        var current = self
        while true {
            switch current {
            case .named(let name): return opening + name + closing.reversed().joined()
            case .list(let inner):
                opening += "["
                closing.append("]")
                current = inner
            case .nonNull(let inner):
                closing.append("!")
                current = inner
            }
        }
    }
    /// Converts an AST type reference.
    package init(_ reference: TypeReference) {
        var wrappers: [Bool] = []  // true for a list, false for non-null, outermost first
        var current = reference
        while true {
            switch current {
            case .named(let named):
                var result = TypeRef.named(named.name.value)
                for isList in wrappers.reversed() { result = isList ? .list(result) : .nonNull(result) }
                self = result
                return
            case .list(let inner, _):
                wrappers.append(true)
                current = inner
            case .nonNull(let inner, _):
                wrappers.append(false)
                current = inner
            }
        }
    }
}

/// Where a definition came from, for diagnostics: a span in a schema source. Introspection
/// input has no spans.
package struct SchemaLocation: Sendable, Hashable {
    package var file: SourceFile
    package var span: Span
    package init(file: SourceFile, span: Span) {
        self.file = file
        self.span = span
    }
    package var range: SourceRange { SourceRange(file: file, span: span) }
}

/// A directive applied in the schema (`@deprecated(reason: "…")`, `@semanticNonNull(levels: [0])`),
/// kept as its AST with the file it is in.
package struct AppliedDirective: Sendable {
    package var node: Directive
    package var location: SchemaLocation?
    package init(node: Directive, location: SchemaLocation?) {
        self.node = node
        self.location = location
    }
    package var name: String { node.name.value }
    /// The literal given for `argument`, if any.
    package func argument(_ name: String) -> Value? {
        node.arguments.first { $0.name.value == name }?.value
    }
}

/// An argument of a field or directive, or a field of an input object.
package final class InputValue: Sendable {
    package let name: String
    package let description: String?
    package let type: TypeRef
    /// The default as a literal (introspection's string form is parsed into one).
    package let defaultValue: Value?
    package let deprecationReason: String?
    package let directives: [AppliedDirective]
    package let location: SchemaLocation?
    package init(
        name: String, description: String?, type: TypeRef, defaultValue: Value?, deprecationReason: String?,
        directives: [AppliedDirective], location: SchemaLocation?
    ) {
        self.name = name
        self.description = description
        self.type = type
        self.defaultValue = defaultValue
        self.deprecationReason = deprecationReason
        self.directives = directives
        self.location = location
    }
}

/// A field of an object or interface type.
package final class FieldDef: Sendable {
    package let name: String
    package let description: String?
    package let arguments: [InputValue]
    package let type: TypeRef
    package let deprecationReason: String?
    package let directives: [AppliedDirective]
    package let location: SchemaLocation?
    package init(
        name: String, description: String?, arguments: [InputValue], type: TypeRef, deprecationReason: String?,
        directives: [AppliedDirective], location: SchemaLocation?
    ) {
        self.name = name
        self.description = description
        self.arguments = arguments
        self.type = type
        self.deprecationReason = deprecationReason
        self.directives = directives
        self.location = location
    }
    package func argument(named name: String) -> InputValue? { arguments.first { $0.name == name } }
}

/// One value of an enum type.
package final class EnumValueDef: Sendable {
    package let name: String
    package let description: String?
    package let deprecationReason: String?
    package let directives: [AppliedDirective]
    package let location: SchemaLocation?
    package init(
        name: String, description: String?, deprecationReason: String?, directives: [AppliedDirective],
        location: SchemaLocation?
    ) {
        self.name = name
        self.description = description
        self.deprecationReason = deprecationReason
        self.directives = directives
        self.location = location
    }
}

/// The kind of a named type.
package enum TypeKind: String, Sendable, Hashable {
    case scalar = "SCALAR"
    case object = "OBJECT"
    case interface = "INTERFACE"
    case union = "UNION"
    case enumType = "ENUM"
    case inputObject = "INPUT_OBJECT"
}

/// A named type of the schema. One class for all kinds keeps lookups and the walker simple;
/// the members that do not apply to a kind are empty.
package final class NamedTypeDef: Sendable {
    package let kind: TypeKind
    package let name: String
    package let description: String?
    /// Object and interface fields, in definition order (extensions appended).
    package let fields: [FieldDef]
    /// Object and interface: the interfaces it declares it implements, in order.
    package let interfaces: [String]
    /// Union members, in order.
    package let unionMembers: [String]
    /// Enum values, in order.
    package let enumValues: [EnumValueDef]
    /// Input object fields, in order.
    package let inputFields: [InputValue]
    /// Directives applied to the type itself (e.g. `@oneOf`, `@specifiedBy`).
    package let directives: [AppliedDirective]
    /// The definition's name token, when built from SDL.
    package let location: SchemaLocation?
    /// The locations of `extend` definitions applied to this type.
    package let extensionLocations: [SchemaLocation]

    /// Name lookups into `fields`, `inputFields` and `enumValues` (no table for short lists).
    private let fieldIndex: NameIndex
    private let inputFieldIndex: NameIndex
    private let enumValueIndex: NameIndex

    /// Fields, input fields and enum values keep the first of each name (duplicates are
    /// reported by the SDL rules; an introspection result's are dropped), so lookups and
    /// iteration agree.
    package init(
        kind: TypeKind, name: String, description: String?, fields: [FieldDef] = [], interfaces: [String] = [],
        unionMembers: [String] = [], enumValues: [EnumValueDef] = [], inputFields: [InputValue] = [],
        directives: [AppliedDirective] = [], location: SchemaLocation? = nil, extensionLocations: [SchemaLocation] = []
    ) {
        self.kind = kind
        self.name = name
        self.description = description
        self.interfaces = interfaces
        self.unionMembers = unionMembers
        self.directives = directives
        self.location = location
        self.extensionLocations = extensionLocations
        (self.fields, self.fieldIndex) = NamedTypeDef.indexed(fields) { $0.name }
        (self.inputFields, self.inputFieldIndex) = NamedTypeDef.indexed(inputFields) { $0.name }
        (self.enumValues, self.enumValueIndex) = NamedTypeDef.indexed(enumValues) { $0.name }
    }

    /// The elements without later duplicates of a name, and their index.
    @inline(__always)
    private static func indexed<Element>(_ elements: [Element], _ name: (Element) -> String) -> ([Element], NameIndex) {
        let index = elements.withUnsafeBufferPointer { buffer in NameIndex(count: buffer.count) { name(buffer[$0]) } }
        guard index.hasDuplicates else { return (elements, index) }
        let unique = firstOfEachName(elements, name: name)
        return (
            unique, unique.withUnsafeBufferPointer { buffer in NameIndex(count: buffer.count) { name(buffer[$0]) } }
        )
    }

    package func field(named name: String) -> FieldDef? {
        fields.withUnsafeBufferPointer { buffer in
            fieldIndex.position(of: name, count: buffer.count) { buffer[$0].name }.map { buffer[$0] }
        }
    }
    package func inputField(named name: String) -> InputValue? {
        inputFields.withUnsafeBufferPointer { buffer in
            inputFieldIndex.position(of: name, count: buffer.count) { buffer[$0].name }.map { buffer[$0] }
        }
    }
    package func enumValue(named name: String) -> EnumValueDef? {
        enumValues.withUnsafeBufferPointer { buffer in
            enumValueIndex.position(of: name, count: buffer.count) { buffer[$0].name }.map { buffer[$0] }
        }
    }

    package var isComposite: Bool { kind == .object || kind == .interface || kind == .union }
    package var isAbstract: Bool { kind == .interface || kind == .union }
    package var isLeaf: Bool { kind == .scalar || kind == .enumType }
    package var isInputType: Bool { kind == .scalar || kind == .enumType || kind == .inputObject }
    package var isOutputType: Bool { kind != .inputObject }
    package var isOneOf: Bool { kind == .inputObject && directives.contains { $0.name == "oneOf" } }
    /// The built-in scalars `Int Float String Boolean ID`.
    package var isBuiltInScalar: Bool { kind == .scalar && NamedTypeDef.builtInScalarNames.contains(name) }
    package static let builtInScalarNames: Set<String> = ["Int", "Float", "String", "Boolean", "ID"]
}

/// A place a directive may be used.
package enum DirectiveLocation: String, Sendable, Hashable, CaseIterable {
    case query = "QUERY"
    case mutation = "MUTATION"
    case subscription = "SUBSCRIPTION"
    case field = "FIELD"
    case fragmentDefinition = "FRAGMENT_DEFINITION"
    case fragmentSpread = "FRAGMENT_SPREAD"
    case inlineFragment = "INLINE_FRAGMENT"
    case variableDefinition = "VARIABLE_DEFINITION"
    case schema = "SCHEMA"
    case scalar = "SCALAR"
    case object = "OBJECT"
    case fieldDefinition = "FIELD_DEFINITION"
    case argumentDefinition = "ARGUMENT_DEFINITION"
    case interface = "INTERFACE"
    case union = "UNION"
    case enumType = "ENUM"
    case enumValue = "ENUM_VALUE"
    case inputObject = "INPUT_OBJECT"
    case inputFieldDefinition = "INPUT_FIELD_DEFINITION"
}

/// A directive the schema declares (built-in, Baton's own, or the schema's).
package final class DirectiveDef: Sendable {
    package let name: String
    package let description: String?
    package let arguments: [InputValue]
    package let isRepeatable: Bool
    package let locations: [DirectiveLocation]
    package let location: SchemaLocation?
    package init(
        name: String, description: String?, arguments: [InputValue], isRepeatable: Bool,
        locations: [DirectiveLocation], location: SchemaLocation?
    ) {
        self.name = name
        self.description = description
        self.arguments = arguments
        self.isRepeatable = isRepeatable
        self.locations = locations
        self.location = location
    }
    package func argument(named name: String) -> InputValue? { arguments.first { $0.name == name } }
}
