import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSchema

/// The Swift names of everything generated at module level: the plan's names (`DefinitionNaming`
/// decided them once, for every language), as Swift writes them.
///
/// Runtime and standard types are referred to qualified (`Baton.Field`, `Swift.Result`), so an app
/// type or a generated one of the same name cannot capture them.
struct SwiftNames {
    static let rules = IdentifierRules.swift

    /// Names the generated code declares inside every lens type or operation, which a module-level type of the
    /// same name would be shadowed by.
    static let nestedReserved: [String] = ["Data", "Fields"]

    /// Module-level names Swift reserves for generated definitions: those it cannot declare
    /// (`Type`, `Self`), the standard and module names generated code uses unqualified or
    /// qualifies with (`String`, `Swift`, `Baton`), and the nested names of every lens.
    static var reservedTypeNames: Set<String> { (rules.unusable[.type] ?? []).union(nestedReserved) }

    private(set) var operations: [String: String] = [:]
    private(set) var fragments: [String: String] = [:]
    private(set) var enums: [String: String] = [:]
    private(set) var inputObjects: [String: String] = [:]
    /// Every module-level name, for nested scopes to avoid.
    private(set) var moduleTypeNames = FilteredNames([String]())
    /// Mapped custom scalars: the Swift type each reads as.
    private(set) var customScalars: [String: String] = [:]
    /// Some custom scalar reads as a Foundation type (`needsFoundation`): without one, no file imports Foundation,
    /// and no lens needs to be walked to find out (every scalar a lens reads is one of the model's).
    private(set) var mapsScalarsToFoundation = false
    /// The enum the schema's types are declared in (the plan's `schemaNamespace`), as declared; nil for none.
    private(set) var namespace: String?
    /// Each enum's and input object's reference (`schemaTypeReference` of its declared name), by GraphQL name:
    /// spelt once per type, not at each use.
    private var enumReferences: [String: String] = [:]
    private var inputObjectReferences: [String: String] = [:]

    init(model: LensModel, layout: TopLevelLayout) {
        // The layout's names (`TopLevelLayout`, decided once for every language); `declaredName` changes nothing
        // when the plan reserved Swift's names, and keeps a plan built without them (a test's) compiling. One pass
        // over the layout (a large project's has tens of thousands of declarations).
        operations.reserveCapacity(model.operations.count)
        fragments.reserveCapacity(model.fragments.count)
        moduleTypeNames.reserveCapacity(layout.declarations.count)
        for entry in layout.declarations {
            switch entry.kind {
            case .operation, .fragment, .enumeration, .inputObject, .schemaNamespace: break
            case .customScalar, .sharedTypeConditions: continue
            }
            let name = Self.rules.declaredName(entry.name, in: .type)
            moduleTypeNames.insert(name)
            // A block's definition (`LensModel.block`) is never spelt, nor referred to by one spelt: its name is
            // only taken.
            if entry.inBlock { continue }
            switch entry.kind {
            case .operation: operations[entry.graphQLName] = name
            case .fragment: fragments[entry.graphQLName] = name
            case .enumeration: enums[entry.graphQLName] = name
            case .inputObject: inputObjects[entry.graphQLName] = name
            case .schemaNamespace: namespace = name
            case .customScalar, .sharedTypeConditions: break
            }
        }
        for scalar in model.types.customScalars {
            guard let type = scalar.mapping?.swiftType else { continue }
            customScalars[scalar.name] = type
            if needsFoundation(scalar.name) { mapsScalarsToFoundation = true }
        }
        enumReferences = enums.mapValues { self.schemaTypeReference($0) }
        inputObjectReferences = inputObjects.mapValues { self.schemaTypeReference($0) }
    }

    /// A schema type (enum, input object) as code outside its declaration refers to it: inside the
    /// namespace when there is one (`API.IssueState`), quoted where Swift reserves the name.
    func schemaTypeReference(_ declaredName: String) -> String {
        let type = Self.rules.quoted(declaredName)
        return namespace.map { Self.rules.quoted($0) + "." + type } ?? type
    }

    /// The Swift type of a named scalar or enum (output or input position); input objects by their name.
    func namedType(_ name: String) -> String {
        switch name {
        case "String", "ID": return "String"
        case "Int": return "Int"
        case "Float": return "Double"
        case "Boolean": return "Bool"
        default: break
        }
        if let type = enumReferences[name] { return type }
        if let type = inputObjectReferences[name] { return type }
        if let type = customScalars[name] { return type }
        return "String"  // an unmapped custom scalar reads as its text
    }

    /// A fragment's lens type as written in code (quoted where Swift reserves the name).
    func fragmentReference(_ name: String) -> String {
        Self.rules.quoted(fragments[name] ?? name)
    }

    /// The Swift type for a declared type's named type (`nestedName` for a nested lens).
    func baseType(_ named: DeclaredNamedType, nestedName: String?) -> String {
        switch named {
        case .builtInScalar(let name), .customScalar(let name): return namedType(name)
        case .enumeration(let name): return enumReferences[name] ?? "String"
        case .lens: return nestedName ?? "Baton.Lens"
        case .fragment(let name): return fragmentReference(name)
        case .inputObject(let name): return namedType(name)
        case .optimisticBuilder(_, _, let builder): return builder
        }
    }

    /// A member's value type (`DeclaredType.value`: optionals and lists around the named type) with `base` for the
    /// named type: `[T]` per list, `?` where optional. A list of lenses is a `Baton.LensList` at its innermost level,
    /// of `Baton.NullableItem<T>` where the items are optional (`[Issue]` reads as
    /// `Baton.LensList<Baton.NullableItem<Nodes>>?`), so `ForEach` takes it and no null item is dropped.
    static func valueType(_ type: DeclaredType, base: String) -> String {
        switch type {
        case .named: return base
        case .optional(let wrapped): return valueType(wrapped, base: base) + "?"
        case .list(let item):
            if case .lens = item.named, case .named = item.nonOptional {
                return "Baton.LensList<" + (item.isOptional ? "Baton.NullableItem<" + base + ">" : base) + ">"
            }
            return "[" + valueType(item, base: base) + "]"
        case .result(let value), .deferred(let value), .streamed(let value): return valueType(value, base: base)
        }
    }

    /// A Swift type for a GraphQL input type: optional where nullable (`absent` when nil).
    func inputType(_ type: TypeRef) -> String {
        switch type {
        case .named(let name): return namedType(name) + "?"
        case .list(let item): return "[" + inputType(item) + "]?"
        case .nonNull(let inner): return Self.nonOptional(inputType(inner))
        }
    }

    /// Whether the Swift type `type` ends in `?` (`type.hasSuffix("?")`).
    static func isOptional(_ type: String) -> Bool {
        switch optionalMark(type) {
        case .plain: false
        case .last: true
        case .undecided: type.hasSuffix("?")
        }
    }

    /// `type` without its trailing `?` when it ends in one (`isOptional`; `String(type.dropLast())`), else `type`.
    static func nonOptional(_ type: String) -> String {
        switch optionalMark(type) {
        case .plain: type
        case .last: String(Substring(type.utf8.dropLast()))
        case .undecided: type.hasSuffix("?") ? String(type.dropLast()) : type
        }
    }

    private enum OptionalMark { case plain, last, undecided }

    /// Whether `type`'s last character is `?`, read from its last two bytes: not when its last byte is another (its last
    /// character ends in another scalar, and none is `?` under canonical equivalence); yes when that byte is `?` and the
    /// byte before, if any, is ASCII (no grapheme cluster joins an ASCII byte and `?`, so the `?` is a character of
    /// its own, one byte); undecided otherwise, for `hasSuffix` to answer.
    private static func optionalMark(_ type: String) -> OptionalMark {
        let mark: OptionalMark? = type.utf8.withContiguousStorageIfAvailable { bytes in
            guard let last = bytes.last, last == UInt8(ascii: "?") else { return .plain }
            return bytes.count < 2 || bytes[bytes.count - 2] < 0x80 ? .last : .undecided
        }
        return mark ?? .undecided
    }

    /// A schema type in the schema's notation (`[String!]!`), as `Baton.GraphQLType(notation:)` reads it.
    static func notation(_ type: TypeRef) -> String {
        switch type {
        case .named(let name): return name
        case .list(let item): return "[" + notation(item) + "]"
        case .nonNull(let inner): return notation(inner) + "!"
        }
    }

    /// `notation(type.schemaType)`, spelt from the declared type without making its schema type (a box per level).
    static func notation(_ type: DeclaredType) -> String {
        switch type {
        case .named(let named): return schemaName(named) + "!"
        case .optional(.named(let named)): return schemaName(named)
        case .optional(let wrapped):
            // The wrapped type's notation without its non-null mark (only a non-null type's ends in `!`).
            var nullable = notation(wrapped)
            if nullable.utf8.last == UInt8(ascii: "!") { nullable.removeLast() }
            return nullable
        case .list(let item): return "[" + notation(item) + "]!"
        case .result(let value), .deferred(let value), .streamed(let value): return notation(value)
        }
    }

    /// The schema's name a declared named type stands for (`DeclaredType.schemaType`'s).
    private static func schemaName(_ named: DeclaredNamedType) -> String {
        switch named {
        case .builtInScalar(let name), .customScalar(let name), .enumeration(let name), .inputObject(let name),
            .lens(let name), .fragment(let name):
            return name
        case .optimisticBuilder(let lens, let fragment, _): return lens ?? fragment ?? ""
        }
    }

    /// The runtime's `GraphQLType` description of a schema type: `.nonNull(.list(.named("Character")))`.
    static func graphQLType(_ type: TypeRef) -> String {
        switch type {
        case .named(let name): return ".named(" + SwiftLiteral.string(name) + ")"
        case .list(let item): return ".list(" + graphQLType(item) + ")"
        case .nonNull(let inner): return ".nonNull(" + graphQLType(inner) + ")"
        }
    }
}

/// `SwiftNames.valueType`'s spelling of lists of lenses and spreads read back as brackets, for tests that compare generated
/// types with the model: `Baton.LensList<Baton.NullableItem<T>>` is `[T?]`, `Baton.LensList<T>` is `[T]`,
/// `Baton.Fragment<T>` is `T`.
package enum SwiftTypeSpelling {
    package static func bracketed(_ type: String) -> String {
        type.replacing(/Baton\.LensList<Baton\.NullableItem<([^<>]+)>>/) { "[" + $0.1 + "?]" }
            .replacing(/Baton\.LensList<([^<>]+)>/) { "[" + $0.1 + "]" }
            .replacing(/Baton\.Fragment<([^<>]+)>/) { String($0.1) }
    }
}
