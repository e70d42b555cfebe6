import BatonCodegen
import BatonDeclarations
import BatonSchema

/// The typed optimistic-response builder of a lens the plan gives one (`Lens.optimisticTypeName`): a mutation's
/// lenses and those of the fragments mutations spread.
///
///     struct Optimistic: Baton.OptimisticResponse {
///         var id: String
///         var body: String?
///         var author: Author.Optimistic?
///         init(id: String, body: String? = nil, author: Author.Optimistic? = nil)
///         var responseObject: Baton.JSONObject       // response keys, `__typename`, spreads merged in
///     }
///
/// A property per field accessor, typed as a response holds the field (the schema's nullability: nil is null, or
/// absent for a selection under `@include`/`@skip`), one per fragment spread (the fragment's builder) and inline
/// fragment (its builder, optional), and `typename` first where the record type is abstract.
struct SwiftOptimisticTemplate {
    let generator: SwiftGenerator
    /// What the builder holds: the tree's (`OptimisticShape`, lowered); this spells it in Swift.
    let builder: OptimisticBuilderDeclaration
    /// The lens's members as the lens template named them, which the builder's properties stand for.
    let members: [SwiftLensTemplate.Member]

    private static let rules = IdentifierRules.swift
    private var names: SwiftNames { generator.names }
    private var access: String { generator.access }

    private struct Property {
        /// The property's name as written (`rules.quoted`).
        var quotedName: String
        var type: PropertyType
        /// The init parameter defaults to `nil`.
        var hasDefault: Bool
        /// The statement adding the property to `object`.
        var write: Statement
    }

    /// A property's Swift type, written in its declaration and in the init's parameters.
    private enum PropertyType {
        /// As it is (`String`, a spread's builder).
        case spelt(String)
        /// `base` wrapped as a response holds `type` (optional where nullable, an array per list: `SwiftNames.inputType`
        /// with `base` for the named type), and `?` after it when `leftOut` and it is not optional already. Only for
        /// a type whose spelling `wrappedSpelling` can write piece by piece; any other is `spelt`.
        case wrapped(TypeRef, base: String, leftOut: Bool)
    }

    /// A statement adding a property to `object`, kept as its pieces until it is written (`write(_:into:)`).
    private enum Statement {
        /// None: `typename`, which the object's first entry writes.
        case none
        /// `object[key] = encoded`, `encoded` the encoding of `self.name` as `type` (`SwiftInputEncoding`).
        case set(key: String, type: TypeRef, nested: Bool)
        /// `if let value = self.name { object[key] = encoded }`, `encoded` the encoding of `value` as `type`.
        case setIfPresent(key: String, type: TypeRef, nested: Bool)
        /// `object.merge(self.name.responseObject)`.
        case merge
        /// `if let part = self.name { object.merge(part.responseObject) }`.
        case mergeIfPresent
    }

    private func write(_ property: Property, into text: inout TextBuilder) {
        switch property.write {
        case .none: return
        case .set(let key, let type, let nested):
            text.add("object[")
            SwiftLiteral.string(key, into: &text)
            text.add("] = ")
            SwiftInputEncoding.encode(
                type, .property(property.quotedName), names: names, named: nested ? .optimisticObjects : .schema,
                into: &text)
        case .setIfPresent(let key, let type, let nested):
            text.add("if let value = self.")
            text.add(property.quotedName)
            text.add(" { object[")
            SwiftLiteral.string(key, into: &text)
            text.add("] = ")
            SwiftInputEncoding.encode(
                type, .expression("value"), names: names, named: nested ? .optimisticObjects : .schema, into: &text)
            text.add(" }")
        case .merge:
            text.add("object.merge(self.")
            text.add(property.quotedName)
            text.add(".responseObject)")
        case .mergeIfPresent:
            text.add("if let part = self.")
            text.add(property.quotedName)
            text.add(" { object.merge(part.responseObject) }")
        }
    }

    private static func write(_ type: PropertyType, into text: inout TextBuilder) {
        switch type {
        case .spelt(let spelt): text.add(spelt)
        case .wrapped(let type, let base, let leftOut):
            writeWrapped(type, base: base, into: &text)
            if leftOut, case .nonNull = type { text.add(UInt8(ascii: "?")) }
        }
    }

    /// Writes `responseType(type, base:)` of a type `wrappedSpelling` accepted.
    private static func writeWrapped(_ type: TypeRef, base: String, into text: inout TextBuilder) {
        switch type {
        case .named:
            text.add(base)
            text.add(UInt8(ascii: "?"))
        case .list(let item):
            text.add(UInt8(ascii: "["))
            writeWrapped(item, base: base, into: &text)
            text.add("]?")
        case .nonNull(let inner):
            // `SwiftNames.nonOptional` of the inner spelling, which ends in the `?` written last below (`base`
            // ends in an ASCII byte other than `?`, and no level is non-null twice).
            switch inner {
            case .named: text.add(base)
            case .list(let item):
                text.add(UInt8(ascii: "["))
                writeWrapped(item, base: base, into: &text)
                text.add(UInt8(ascii: "]"))
            case .nonNull: writeWrapped(inner, base: base, into: &text)  // not accepted by `wrappedSpelling`
            }
        }
    }

    /// The property type of `base` wrapped as `type` (`?` added when `leftOut`), piece by piece when it can be
    /// written so: `base` ends in an ASCII byte other than `?` (so `SwiftNames.nonOptional` removes exactly the `?`
    /// a nullable level adds, and the type is optional exactly when its outer level is nullable) and no level is
    /// non-null twice. Otherwise spelt as before, as a string.
    private static func wrappedSpelling(_ type: TypeRef, base: String, leftOut: Bool) -> PropertyType {
        let last = base.utf8.withContiguousStorageIfAvailable { $0.last } ?? base.utf8.last
        if let last, last < 0x80, last != UInt8(ascii: "?"), !hasDoubleNonNull(type) {
            return .wrapped(type, base: base, leftOut: leftOut)
        }
        var spelt = responseType(type, base: base)
        if leftOut, !SwiftNames.isOptional(spelt) { spelt += "?" }
        return .spelt(spelt)
    }

    private static func hasDoubleNonNull(_ type: TypeRef) -> Bool {
        switch type {
        case .named: false
        case .list(let item): hasDoubleNonNull(item)
        case .nonNull(let inner):
            if case .nonNull = inner { true } else { hasDoubleNonNull(inner) }
        }
    }

    /// Writes the builder's declaration into `text`, each line that is not empty beginning with `indent`, and a line
    /// break after its last line: what `SwiftLensTemplate.addLines` wrote of the template
    ///
    ///     /// A typed optimistic response for a record of `\(builder.recordType)`: what a mutation's `optimisticResponse:`
    ///     /// is built from (a property per selection, typed as the response holds it).
    ///     \(access)struct \(typeName): Baton.OptimisticResponse {
    ///         \(each: properties, { "\(access)var \(name): \(type)" })
    ///
    ///         \(access)init(\(joined: parameters, separator: ", ")) {
    ///             \(each: properties, { "self.\(name) = \(name)" })
    ///         }
    ///
    ///         \(access)var responseObject: Baton.JSONObject {
    ///             var object = Baton.JSONObject([("__typename", Baton.JSONValue.string(\(typename)))])
    ///             \(each: properties but `typename`, { $0.write })
    ///             return object
    ///         }
    ///     }
    ///
    /// written line by line into the file's buffer, without the template's tree or its text (an empty list's line is
    /// left out, as the template leaves it; no piece holds a line break or ends a line in spaces).
    func write(into text: inout TextBuilder, indent: String) {
        var scope: NameScope? =
            needsScope() ? NameScope(reserved: ["responseObject", "typename", "lens"], shared: []) : nil
        var properties: [Property] = []
        properties.reserveCapacity(builder.properties.count + 1)
        if builder.takesTypename {
            properties.append(
                Property(quotedName: "typename", type: .spelt("String"), hasDefault: false, write: .none))
        }
        for index in builder.properties.indices {
            if let property = property(builder.properties[index], scope: &scope) { properties.append(property) }
        }
        let member = indent + "    "
        let statement = member + "    "
        text.add(indent)
        text.add("/// A typed optimistic response for a record of `")
        text.add(builder.recordType)
        text.add("`: what a mutation's `optimisticResponse:`\n")
        text.add(indent)
        text.add("/// is built from (a property per selection, typed as the response holds it).\n")
        text.add(indent)
        text.add(access)
        text.add("struct ")
        text.add(Self.rules.quoted(builder.typeName))
        text.add(": Baton.OptimisticResponse {\n")
        // By index: a property is read where it lies, not copied out (a retain of each of its strings) per loop.
        for index in properties.indices {
            text.add(member)
            text.add(access)
            text.add("var ")
            text.add(properties[index].quotedName)
            text.add(": ")
            Self.write(properties[index].type, into: &text)
            text.add(UInt8(ascii: "\n"))
        }
        text.add(UInt8(ascii: "\n"))
        text.add(member)
        text.add(access)
        text.add("init(")
        for index in properties.indices {
            if index > 0 { text.add(", ") }
            text.add(properties[index].quotedName)
            text.add(": ")
            Self.write(properties[index].type, into: &text)
            if properties[index].hasDefault { text.add(" = nil") }
        }
        text.add(") {\n")
        for index in properties.indices {
            text.add(statement)
            text.add("self.")
            text.add(properties[index].quotedName)
            text.add(" = ")
            text.add(properties[index].quotedName)
            text.add(UInt8(ascii: "\n"))
        }
        text.add(member)
        text.add("}\n\n")
        text.add(member)
        text.add(access)
        text.add("var responseObject: Baton.JSONObject {\n")
        text.add(statement)
        text.add("var object = Baton.JSONObject([(\"__typename\", Baton.JSONValue.string(")
        text.add(builder.takesTypename ? "self.typename" : SwiftLiteral.string(builder.recordType))
        text.add("))])\n")
        // Every property but `typename`, which the object's first entry writes (the first property when the builder
        // takes one: no other is named so, `typename` being taken in the builder's scope).
        for index in (builder.takesTypename ? 1 : 0)..<properties.count {
            text.add(statement)
            write(properties[index], into: &text)
            text.add(UInt8(ascii: "\n"))
        }
        text.add(statement)
        text.add("return object\n")
        text.add(member)
        text.add("}\n")
        text.add(indent)
        text.add("}\n")
    }

    private func property(_ part: OptimisticPropertyDeclaration, scope: inout NameScope?) -> Property? {
        let schemaType = part.type.schemaType
        guard let index = part.member else {
            // A key field no member gives.
            return Property(
                quotedName: Self.rules.quoted(Self.claim(part.name, in: &scope)),
                type: Self.wrappedSpelling(schemaType, base: names.namedType(Self.innermostName(schemaType)), leftOut: false),
                hasDefault: false, write: .set(key: part.name, type: schemaType, nested: false))
        }
        let member = members[index]
        switch part.part {
        case .field(let responseKey, let isNested):
            let quotedName = claim(member, in: &scope)
            let nestedName = isNested ? member.quotedNestedTypeName : nil
            let base: String
            if let nestedName {
                base = nestedName + "." + builderName(part)
            } else {
                base = names.namedType(Self.innermostName(schemaType))
            }
            let type = Self.wrappedSpelling(schemaType, base: base, leftOut: part.mayBeLeftOut)
            if part.mayBeLeftOut {
                return Property(
                    quotedName: quotedName, type: type, hasDefault: part.hasDefault,
                    write: .setIfPresent(
                        key: responseKey, type: part.type.nonOptional.schemaType, nested: nestedName != nil))
            }
            return Property(
                quotedName: quotedName, type: type, hasDefault: part.hasDefault,
                write: .set(key: responseKey, type: schemaType, nested: nestedName != nil))
        case .fragmentSpread(let fragmentName):
            let quotedName = claim(member, in: &scope)
            return spread(
                part, quotedName: quotedName,
                builder: names.fragmentReference(fragmentName) + "." + builderName(part))
        case .inlineFragment:
            guard let nestedName = member.quotedNestedTypeName else { return nil }
            let quotedName = claim(member, in: &scope)
            return spread(part, quotedName: quotedName, builder: nestedName + "." + builderName(part))
        case .keyField:
            return nil
        }
    }

    /// The builder type's name in its lens (`Optimistic`), as written.
    private func builderName(_ part: OptimisticPropertyDeclaration) -> String {
        part.builder.map { Self.rules.quoted($0) } ?? "Optimistic"
    }

    /// The property's name for `member` as written: the member's own when no scope is needed.
    private func claim(_ member: SwiftLensTemplate.Member, in scope: inout NameScope?) -> String {
        guard scope != nil else { return member.quotedName }
        let name = Self.claim(member.name, in: &scope)
        return name == member.name ? member.quotedName : Self.rules.quoted(name)
    }

    /// `preferred` claimed in `scope`, or `preferred` itself without one (`needsScope` said no name can collide).
    private static func claim(_ preferred: String, in scope: inout NameScope?) -> String {
        scope?.claim(preferred) ?? preferred
    }

    /// Whether a property's name can differ from its member's (so names are claimed in a scope): a key field's
    /// property, a member named as a name the builder declares, or two properties of one member. Otherwise every
    /// property is named as its member, whose names the lens's scope made distinct and none `lens`, and a scope
    /// would hand each its own name back.
    private func needsScope() -> Bool {
        var previous = -1
        for index in builder.properties.indices {
            guard let member = builder.properties[index].member, member > previous else { return true }
            previous = member
            let name = members[member].name
            if name == "responseObject" || name == "typename" { return true }
        }
        return false
    }

    /// A spread's property: its builder's object merged into this one.
    private func spread(
        _ part: OptimisticPropertyDeclaration, quotedName: String, builder: String
    ) -> Property {
        if part.mayBeLeftOut {
            return Property(
                quotedName: quotedName, type: .spelt(builder + "?"), hasDefault: true,
                write: .mergeIfPresent)
        }
        return Property(quotedName: quotedName, type: .spelt(builder), hasDefault: false, write: .merge)
    }

    /// The named type inside `type`'s lists and non-null levels.
    private static func innermostName(_ type: TypeRef) -> String {
        switch type {
        case .named(let name): name
        case .list(let inner), .nonNull(let inner): innermostName(inner)
        }
    }

    /// `base` wrapped as a response holds the schema type: optional where nullable, an array per list.
    private static func responseType(_ type: TypeRef, base: String) -> String {
        switch type {
        case .named: return base + "?"
        case .list(let item): return "[" + responseType(item, base: base) + "]?"
        case .nonNull(let inner): return SwiftNames.nonOptional(responseType(inner, base: base))
        }
    }
}
