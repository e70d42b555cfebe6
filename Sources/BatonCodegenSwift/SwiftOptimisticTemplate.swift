import BatonCodegen
import BatonIR
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
    let lens: Lens
    let members: [SwiftLensTemplate.Member]
    let typeName: String

    private static let rules = IdentifierRules.swift
    private var names: SwiftNames { generator.names }
    private var access: String { generator.access }

    private struct Property {
        var name: String
        var type: String
        /// The init parameter's default (`nil`), when it has one.
        var defaultValue: String?
        /// Statements adding the property to `object`.
        var write: String
    }

    func render() -> Template {
        var scope = NameScope(reserved: ["responseObject", "typename", "lens"], shared: [])
        var properties: [Property] = []
        if lens.recordIsAbstract {
            properties.append(
                Property(
                    name: "typename", type: "String", defaultValue: nil,
                    write: "object[\"__typename\"] = Baton.JSONValue.string(self.typename)"))
        }
        for member in members {
            if let property = property(member, scope: &scope) { properties.append(property) }
        }
        let typename =
            lens.recordIsAbstract
            ? "self.typename" : SwiftLiteral.string(lens.recordType)
        let parameters = properties.map { property in
            Self.rules.quoted(property.name) + ": " + property.type + (property.defaultValue.map { " = " + $0 } ?? "")
        }
        return """
            /// A typed optimistic response for a record of `\(lens.recordType)`: what a mutation's `optimisticResponse:`
            /// is built from (a property per selection, typed as the response holds it).
            \(access)struct \(Self.rules.quoted(typeName)): Baton.OptimisticResponse {
                \(each: properties, { "\(access)var \(Self.rules.quoted($0.name)): \($0.type)" })

                \(access)init(\(joined: parameters, separator: ", ")) {
                    \(each: properties, { "self.\(Self.rules.quoted($0.name)) = \(Self.rules.quoted($0.name))" })
                }

                \(access)var responseObject: Baton.JSONObject {
                    var object = Baton.JSONObject([("__typename", Baton.JSONValue.string(\(typename)))])
                    \(each: properties.filter { $0.name != "typename" || !lens.recordIsAbstract }, { Template($0.write) })
                    return object
                }
            }
            """
    }

    private func property(_ member: SwiftLensTemplate.Member, scope: inout NameScope) -> Property? {
        let accessor = member.accessor
        switch accessor.reads {
        case .field(let read):
            if read.isTypename { return nil }
            let name = scope.claim(member.name)
            let value = "self." + Self.rules.quoted(name)
            let key = SwiftLiteral.string(read.responseKey)
            let conditional = accessor.optimisticPartIsOptional
            let nested: String? = member.nestedTypeName.map { nestedName in
                Self.rules.quoted(nestedName) + "."
                    + Self.rules.quoted(accessor.lens?.optimisticTypeName ?? "Optimistic")
            }
            let named: ((String, String) -> String?)? = nested.map { _ in
                { _, expression in "Baton.JSONValue.object(\(expression).responseObject)" }
            }
            var type = nested.map { responseType(read.schemaType, base: $0) } ?? names.inputType(read.schemaType)
            if conditional {
                if !type.hasSuffix("?") { type += "?" }
                let encoded = SwiftInputEncoding.encode(
                    .nonNull(read.schemaType.nullable), "value", names: names, named: named)
                return Property(
                    name: name, type: type, defaultValue: "nil",
                    write: "if let value = \(value) { object[\(key)] = \(encoded) }")
            }
            let encoded = SwiftInputEncoding.encode(read.schemaType, value, names: names, named: named)
            return Property(
                name: name, type: type, defaultValue: read.schemaType.isNonNull ? nil : "nil",
                write: "object[\(key)] = \(encoded)")
        case .parentRecord:
            let name = scope.claim(member.name)
            let value = "self." + Self.rules.quoted(name)
            let builder: String
            switch accessor.base {
            case .fragment(let fragment):
                let builderName =
                    generator.fragment(named: fragment.name)?.lens.optimisticTypeName ?? "Optimistic"
                builder = names.fragmentReference(fragment.name) + "." + Self.rules.quoted(builderName)
            case .lens(let nested):
                guard let nestedName = member.nestedTypeName else { return nil }
                builder =
                    Self.rules.quoted(nestedName) + "." + Self.rules.quoted(nested.optimisticTypeName ?? "Optimistic")
            default:
                return nil
            }
            if accessor.optimisticPartIsOptional {
                return Property(
                    name: name, type: builder + "?", defaultValue: "nil",
                    write: "if let part = \(value) { object.merge(part.responseObject) }")
            }
            return Property(
                name: name, type: builder, defaultValue: nil, write: "object.merge(\(value).responseObject)")
        }
    }

    /// `base` wrapped as a response holds the schema type: optional where nullable, an array per list.
    private func responseType(_ type: TypeRef, base: String) -> String {
        switch type {
        case .named: return base + "?"
        case .list(let item): return "[" + responseType(item, base: base) + "]?"
        case .nonNull(let inner):
            let nullable = responseType(inner, base: base)
            return nullable.hasSuffix("?") ? String(nullable.dropLast()) : nullable
        }
    }
}
