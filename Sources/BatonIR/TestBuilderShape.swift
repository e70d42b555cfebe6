import BatonSchema

/// The shape of a lens's test data builder, decided once for every language: the properties a test sets (a
/// response key's value, a fragment spread's or inline fragment's builder), what each holds when the test leaves it
/// unset (the default resolver's fill), which record types a spread applies to, and what `__typename` is. The Swift
/// and Kotlin templates only spell it, and the test kits (`BatonTesting`, `baton.testing`) turn a builder into a
/// GraphQL response that the real runtime commits and reads.
///
/// It is the optimistic builder's shape (`OptimisticShape`: the same properties in the same order, under the same
/// response keys) with what a test needs besides: every property may be left unset, since the builder fills what
/// the schema says is non-null (an `ID` with `Type:n`, numbered per type; the enum's first value; a scalar's sample;
/// an empty list; a nested builder with its own defaults) and writes null where the schema allows it. A field may
/// also be built as null, as a field error (a null in `data` and an entry in `errors` at its path) or left out of
/// the response, so tests reach `@catch`, `@required` and healing on purpose.
package struct TestBuilderShape: Sendable {
    /// What a field holds when the test leaves it unset.
    package enum Fill: Sendable, Equatable {
        /// The schema's type is nullable: null.
        case null
        /// A non-null list: an empty list.
        case emptyList
        /// A non-null `ID`: the record's `__typename`, a colon and a number counted per type (`User:1`).
        case id
        /// A non-null scalar: the resolver's sample for the scalar by name (`String`: the field's name, `Int` 0,
        /// `Float` 0.0, `Boolean` false, a custom scalar: its name as text).
        case scalar(String)
        /// A non-null enum: its first value in schema order.
        case enumValue(type: String, first: String)
        /// A non-null composite: the nested builder with nothing set.
        case object
    }

    /// What a test gives a field's (innermost) value as, decided here for every language: the built-in scalars as
    /// the language's numbers and booleans, every other scalar and enum as its text (what the response holds), a
    /// composite as its nested builder.
    package enum Value: Sendable, Equatable {
        case text
        case int
        case float
        case boolean
        case builder
    }

    /// What one property holds.
    package enum Part: Sendable {
        /// A field, written under `responseKey`; `value` says what the test gives (in lists as the schema's type
        /// has them).
        case field(responseKey: String, fieldName: String, schemaType: TypeRef, value: Value, fill: Fill)
        /// A named fragment's spread: the fragment's builder, merged in.
        case fragment(name: String)
        /// An inline fragment read through a nested lens: that lens's builder, merged in.
        case inlineFragment
    }

    /// One property of the builder.
    package struct Property: Sendable {
        /// The index of the accessor it stands for in the lens's `accessors`.
        package var accessor: Int
        package var part: Part
        /// For a spread or an inline fragment: the object types it applies to, sorted; nil for every record the
        /// lens reads. One left unset is merged (with its defaults) only when the record's `__typename` is one of
        /// them; one that is set is always merged, and names the `__typename` when the test gives none.
        package var appliesTo: [String]?
    }

    /// The record type the lens reads.
    package var recordType: String
    /// The test may set `__typename` (the record type is an interface or a union).
    package var takesTypename: Bool
    /// `__typename` when the test sets none and no set spread narrows it: the record type, or for an abstract
    /// type its first possible object type (sorted), or the abstract type itself when it has none.
    package var defaultTypename: String
    /// The properties, in accessor order (`OptimisticShape`'s).
    package var properties: [Property]

    /// A key field of the record type (`RecordKeyPolicy`) that no property gives: the optimistic builder's
    /// `keyFields`, written under the field's name after the properties, so the built record is keyed as the
    /// server's answer (which carries the key fields Baton adds to the text sent) is.
    package struct KeyField: Sendable {
        package var name: String
        package var schemaType: TypeRef
        package var value: Value
        package var fill: Fill
    }

    /// The key fields no property gives, in the key's order.
    package var keyFields: [KeyField]

    /// The shape of `lens`'s builder; `firstEnumValue` gives an enum's first value by the enum's name.
    package init(_ lens: Lens, firstEnumValue: (String) -> String?) {
        let optimistic = OptimisticShape(lens)
        recordType = optimistic.recordType
        takesTypename = optimistic.takesTypename
        defaultTypename = lens.recordIsAbstract ? (lens.possibleTypes.first ?? lens.recordType) : lens.recordType
        properties = optimistic.properties.map { property in
            let accessor = lens.accessors[property.accessor]
            switch property.part {
            case .field(let responseKey, let schemaType, let nested):
                let fieldName: String =
                    if case .field(let read) = accessor.reads { read.fieldName } else { responseKey }
                let fill = Self.fill(schemaType, base: accessor.base, firstEnumValue: firstEnumValue)
                return Property(
                    accessor: property.accessor,
                    part: .field(
                        responseKey: responseKey, fieldName: fieldName, schemaType: schemaType,
                        value: nested ? .builder : Self.value(accessor.base), fill: fill),
                    appliesTo: nil)
            case .fragment(let name):
                return Property(
                    accessor: property.accessor, part: .fragment(name: name), appliesTo: Self.narrowing(accessor))
            case .inlineFragment:
                return Property(accessor: property.accessor, part: .inlineFragment, appliesTo: Self.narrowing(accessor))
            }
        }
        keyFields = optimistic.keyFields.map { field in
            let named = field.schemaType.namedType
            let builtIn = ["ID", "String", "Int", "Float", "Boolean"].contains(named)
            let base: AccessorBase =
                !builtIn && firstEnumValue(named) != nil
                ? .enumeration(named) : .scalar(ScalarBase(name: named, isBuiltIn: builtIn, mapping: nil))
            return KeyField(
                name: field.name, schemaType: field.schemaType, value: Self.value(base),
                fill: Self.fill(field.schemaType, base: base, firstEnumValue: firstEnumValue))
        }
    }

    /// The object types a spread or inline fragment applies to, when it narrows the lens's record type.
    private static func narrowing(_ accessor: Accessor) -> [String]? {
        guard case .parentRecord(let read) = accessor.reads else { return nil }
        return read.matchingTypes
    }

    /// What a test gives a scalar or enum as.
    static func value(_ base: AccessorBase) -> Value {
        guard case .scalar(let scalar) = base else { return .text }
        switch scalar.name {
        case "Int": return .int
        case "Float": return .float
        case "Boolean": return .boolean
        default: return .text
        }
    }

    /// What a field of `type` holds when left unset.
    static func fill(_ type: TypeRef, base: AccessorBase, firstEnumValue: (String) -> String?) -> Fill {
        guard case .nonNull(let inner) = type else { return .null }
        if case .list = inner { return .emptyList }
        switch base {
        case .lens, .fragment: return .object
        case .enumeration(let name):
            guard let first = firstEnumValue(name) else { return .scalar(name) }
            return .enumValue(type: name, first: first)
        case .scalar(let scalar):
            return scalar.name == "ID" ? .id : .scalar(scalar.name)
        }
    }
}

/// One top-level test data builder: a definition's, with what its file needs. `TestBuilderDefinition.all`
/// (`BatonDeclarations`) lists them with their names and files (`TopLevelLayout`).
package struct TestBuilderDefinition: Sendable {
    /// The builder's type name (`TopLevelLayout`'s `TestBuilderNaming`).
    package var typeName: String
    package var lens: Lens
    /// The operation's GraphQL name, for an operation's builder.
    package var operationName: String?
    /// The fragment's name, for a fragment's builder.
    package var fragmentName: String?
    /// `DefinitionKey` of the definition (an incremental run keeps the file when it is unchanged).
    package var definitionKey: String
    /// The document the definition comes from.
    package var origin: String

    package init(
        typeName: String, lens: Lens, operationName: String?, fragmentName: String?, definitionKey: String,
        origin: String
    ) {
        self.typeName = typeName
        self.lens = lens
        self.operationName = operationName
        self.fragmentName = fragmentName
        self.definitionKey = definitionKey
        self.origin = origin
    }

    /// Each enum's first value in schema order, by the enum's name: what an unset non-null enum field holds.
    package static func firstEnumValues(_ model: LensModel) -> [String: String] {
        var values: [String: String] = [:]
        for item in model.types.enums { values[item.name] = item.values.first?.name }
        return values
    }
}
