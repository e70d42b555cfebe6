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
        var name: String
        var type: String
        /// The init parameter's default (`nil`), when it has one.
        var defaultValue: String?
        /// The statement adding the property to `object`.
        var write: Statement
    }

    /// A statement adding a property to `object`, kept as its pieces until it is written (`write(_:into:)`).
    private enum Statement {
        /// None: `typename`, which the object's first entry writes.
        case none
        /// `object[key] = encoded`.
        case set(key: String, encoded: String)
        /// `if let value = self.name { object[key] = encoded }`, `encoded` spelling `value`'s.
        case setIfPresent(quotedName: String, key: String, encoded: String)
        /// `object.merge(self.name.responseObject)`.
        case merge(quotedName: String)
        /// `if let part = self.name { object.merge(part.responseObject) }`.
        case mergeIfPresent(quotedName: String)
    }

    private static func write(_ statement: Statement, into text: inout TextBuilder) {
        switch statement {
        case .none: return
        case .set(let key, let encoded):
            text.add("object[")
            text.add(key)
            text.add("] = ")
            text.add(encoded)
        case .setIfPresent(let quotedName, let key, let encoded):
            text.add("if let value = self.")
            text.add(quotedName)
            text.add(" { object[")
            text.add(key)
            text.add("] = ")
            text.add(encoded)
            text.add(" }")
        case .merge(let quotedName):
            text.add("object.merge(self.")
            text.add(quotedName)
            text.add(".responseObject)")
        case .mergeIfPresent(let quotedName):
            text.add("if let part = self.")
            text.add(quotedName)
            text.add(" { object.merge(part.responseObject) }")
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
        var scope = NameScope(reserved: ["responseObject", "typename", "lens"], shared: [])
        var properties: [Property] = []
        if builder.takesTypename {
            properties.append(
                Property(name: "typename", type: "String", defaultValue: nil, write: .none))
        }
        for part in builder.properties {
            if let property = property(part, scope: &scope) { properties.append(property) }
        }
        let quoted = properties.map { Self.rules.quoted($0.name) }
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
        for (index, property) in properties.enumerated() {
            text.add(member)
            text.add(access)
            text.add("var ")
            text.add(quoted[index])
            text.add(": ")
            text.add(property.type)
            text.add(UInt8(ascii: "\n"))
        }
        text.add(UInt8(ascii: "\n"))
        text.add(member)
        text.add(access)
        text.add("init(")
        for (index, property) in properties.enumerated() {
            if index > 0 { text.add(", ") }
            text.add(quoted[index])
            text.add(": ")
            text.add(property.type)
            if let defaultValue = property.defaultValue {
                text.add(" = ")
                text.add(defaultValue)
            }
        }
        text.add(") {\n")
        for name in quoted {
            text.add(statement)
            text.add("self.")
            text.add(name)
            text.add(" = ")
            text.add(name)
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
        for property in properties where property.name != "typename" || !builder.takesTypename {
            text.add(statement)
            Self.write(property.write, into: &text)
            text.add(UInt8(ascii: "\n"))
        }
        text.add(statement)
        text.add("return object\n")
        text.add(member)
        text.add("}\n")
        text.add(indent)
        text.add("}\n")
    }

    private func property(_ part: OptimisticPropertyDeclaration, scope: inout NameScope) -> Property? {
        let schemaType = part.type.schemaType
        guard let index = part.member else {
            // A key field no member gives.
            let name = scope.claim(part.name)
            let encoded = SwiftInputEncoding.encode(
                schemaType, "self." + Self.rules.quoted(name), names: names, named: nil)
            return Property(
                name: name, type: names.inputType(schemaType), defaultValue: nil,
                write: .set(key: SwiftLiteral.string(part.name), encoded: encoded))
        }
        let member = members[index]
        let defaultValue = part.hasDefault ? "nil" : nil
        let builderName = Self.rules.quoted(part.builder ?? "Optimistic")
        switch part.part {
        case .field(let responseKey, let isNested):
            let name = scope.claim(member.name)
            let quotedName = Self.rules.quoted(name)
            let key = SwiftLiteral.string(responseKey)
            let nested: String? = (isNested ? member.nestedTypeName : nil).map { nestedName in
                Self.rules.quoted(nestedName) + "." + builderName
            }
            let named: ((String, String) -> String?)? = nested.map { _ in
                { _, expression in "Baton.JSONValue.object(\(expression).responseObject)" }
            }
            var type = nested.map { responseType(schemaType, base: $0) } ?? names.inputType(schemaType)
            if part.mayBeLeftOut {
                if !SwiftNames.isOptional(type) { type += "?" }
                let encoded = SwiftInputEncoding.encode(
                    part.type.nonOptional.schemaType, "value", names: names, named: named)
                return Property(
                    name: name, type: type, defaultValue: defaultValue,
                    write: .setIfPresent(quotedName: quotedName, key: key, encoded: encoded))
            }
            let encoded = SwiftInputEncoding.encode(schemaType, "self." + quotedName, names: names, named: named)
            return Property(
                name: name, type: type, defaultValue: defaultValue, write: .set(key: key, encoded: encoded))
        case .fragmentSpread(let fragmentName):
            return spread(
                part, name: scope.claim(member.name), builder: names.fragmentReference(fragmentName) + "." + builderName
            )
        case .inlineFragment:
            guard let nestedName = member.nestedTypeName else { return nil }
            return spread(
                part, name: scope.claim(member.name), builder: Self.rules.quoted(nestedName) + "." + builderName)
        case .keyField:
            return nil
        }
    }

    /// A spread's property: its builder's object merged into this one.
    private func spread(_ part: OptimisticPropertyDeclaration, name: String, builder: String) -> Property {
        let quotedName = Self.rules.quoted(name)
        if part.mayBeLeftOut {
            return Property(
                name: name, type: builder + "?", defaultValue: "nil", write: .mergeIfPresent(quotedName: quotedName))
        }
        return Property(name: name, type: builder, defaultValue: nil, write: .merge(quotedName: quotedName))
    }

    /// `base` wrapped as a response holds the schema type: optional where nullable, an array per list.
    private func responseType(_ type: TypeRef, base: String) -> String {
        switch type {
        case .named: return base + "?"
        case .list(let item): return "[" + responseType(item, base: base) + "]?"
        case .nonNull(let inner): return SwiftNames.nonOptional(responseType(inner, base: base))
        }
    }
}
