import BatonCodegen
import BatonDeclarations
import BatonSchema

/// The typed optimistic-response builder of a lens the plan gives one (`Lens.optimisticTypeName`), as the Swift
/// generator's `SwiftOptimisticTemplate` spells it:
///
///     class Optimistic(val id: String, val body: String? = null, val author: Author.Optimistic? = null) :
///         OptimisticResponse {
///         override fun responseObject(): Map<String, Any?>   // response keys, `__typename`, spreads merged in
///     }
///
/// A property per field accessor, typed as a response holds the field (the schema's nullability: null is null, or
/// absent for a selection under `@include`/`@skip`), one per fragment spread (the fragment's builder) and inline
/// fragment (its builder, optional), and `typename` first where the record type is abstract.
struct KotlinOptimisticTemplate {
    /// One member of the lens: its Kotlin property name and, for a nested lens, its nested class's name.
    struct Member {
        var name: String
        var nestedClass: String?
    }

    let context: KotlinContext
    /// What the builder holds: the tree's (`OptimisticShape`, lowered); this spells it in Kotlin.
    let builder: OptimisticBuilderDeclaration
    /// The lens's members as the lens writer named them, which the builder's properties stand for.
    let members: [Member]

    private struct Property {
        var name: String
        var type: String
        var defaultValue: String?
        /// The statement adding the property to `result`.
        var write: String
        /// Its getter on the JVM, as the tree states it (`typename`'s is its natural one, taken first).
        var jvmGetter = "getTypename"
    }

    func render() -> Template {
        var scope = KotlinScope(["responseObject", "typename", "result", "ResponseObjects", "LinkedHashMap"])
        var properties: [Property] = []
        if builder.takesTypename {
            properties.append(
                Property(
                    name: "typename", type: "String", defaultValue: nil, write: "result[\"__typename\"] = typename"))
        }
        for part in builder.properties {
            if var property = property(part, scope: &scope) {
                property.jvmGetter = part.jvmGetter
                properties.append(property)
            }
        }
        let typename = builder.takesTypename ? "typename" : KotlinLiteral.string(builder.recordType)
        // Two properties whose getters clash on the JVM (`self` and `Self`) are told apart by the tree.
        let parameters = properties.map { property in
            (KotlinNames.jvmName(property.name, getter: property.jvmGetter).map { $0 + " " } ?? "")
                + "val \(KotlinNames.quoted(property.name)): \(property.type)"
                + (property.defaultValue.map { " = " + $0 } ?? "")
        }
        let writes = properties.filter { $0.name != "typename" || !builder.takesTypename }.map { Template($0.write) }
        let typeName = KotlinNames.quoted(builder.typeName)
        let header: Template =
            parameters.isEmpty
            ? "class \(typeName) : OptimisticResponse {"
            : """
            class \(typeName)(
                \(lines: parameters.map { Template($0) }, separator: ",\n")
            ) : OptimisticResponse {
            """
        return """
            /**
             * A typed optimistic response for a record of `\(builder.recordType)`: what a mutation's `optimisticResponse`
             * is built from (a property per selection, typed as the response holds it).
             */
            \(header)
                override fun responseObject(): Map<String, Any?> {
                    val result = LinkedHashMap<String, Any?>()
                    result["__typename"] = \(typename)
                    \(lines: writes)
                    return result
                }
            }
            """
    }

    private func property(_ part: OptimisticPropertyDeclaration, scope: inout KotlinScope) -> Property? {
        let schemaType = part.type.schemaType
        guard let index = part.member else {
            // A key field no member gives.
            let name = scope.claim(part.name, ignoringCase: false)
            let encoded = encoding(KotlinNames.quoted(name), schemaType, nested: false, depth: 0)
            return Property(
                name: name, type: context.inputType(schemaType), defaultValue: nil,
                write: "result[\(KotlinLiteral.string(part.name))] = \(encoded)")
        }
        let member = members[index]
        let name = scope.claim(member.name, ignoringCase: false)
        let value = KotlinNames.quoted(name)
        let defaultValue = part.hasDefault ? "null" : nil
        let builderName = KotlinNames.quoted(part.builder ?? "Optimistic")
        switch part.part {
        case .field(let responseKey, let isNested):
            let key = KotlinLiteral.string(responseKey)
            let builder = (isNested ? member.nestedClass : nil).map { nested in nested + "." + builderName }
            var type = builder.map { responseType(schemaType, base: $0) } ?? context.inputType(schemaType)
            let encoded = encoding(value, schemaType, nested: builder != nil, depth: 0)
            if part.mayBeLeftOut {
                // Absent unless given: a selection under `@include`/`@skip`.
                if !type.hasSuffix("?") { type += "?" }
                return Property(
                    name: name, type: type, defaultValue: defaultValue,
                    write: "if (\(value) != null) result[\(key)] = \(encoded)")
            }
            return Property(name: name, type: type, defaultValue: defaultValue, write: "result[\(key)] = \(encoded)")
        case .fragmentSpread(let fragmentName):
            let builder = KotlinNames.quoted(context.names.fragments[fragmentName] ?? fragmentName) + "." + builderName
            return spread(part, name: name, builder: builder)
        case .inlineFragment:
            guard let nestedClass = member.nestedClass else { return nil }
            return spread(part, name: name, builder: nestedClass + "." + builderName)
        case .keyField:
            return nil
        }
    }

    /// A spread's property: its builder's object merged into this one.
    private func spread(_ part: OptimisticPropertyDeclaration, name: String, builder: String) -> Property {
        let value = KotlinNames.quoted(name)
        if part.mayBeLeftOut {
            return Property(
                name: name, type: builder + "?", defaultValue: "null",
                write: "\(value)?.let { ResponseObjects.merge(result, it.responseObject()) }")
        }
        return Property(
            name: name, type: builder, defaultValue: nil,
            write: "ResponseObjects.merge(result, \(value).responseObject())")
    }

    /// The JSON-ready form of `expression` of schema type `type`: nested builders' objects, mapped scalars
    /// converted, the rest as it is.
    private func encoding(_ expression: String, _ type: TypeRef, nested: Bool, depth: Int) -> String {
        guard nested else { return context.encoding(expression, type) ?? expression }
        let variable = "v\(depth)"
        switch type {
        case .nonNull(.list(let item)):
            return "\(expression).map { \(variable) -> \(encoding(variable, item, nested: true, depth: depth + 1)) }"
        case .list(let item):
            return "\(expression)?.map { \(variable) -> \(encoding(variable, item, nested: true, depth: depth + 1)) }"
        case .nonNull: return "\(expression).responseObject()"
        case .named: return "\(expression)?.responseObject()"
        }
    }

    /// `base` wrapped as a response holds the schema type: nullable where nullable, a list per list.
    private func responseType(_ type: TypeRef, base: String) -> String {
        switch type {
        case .named: return base + "?"
        case .list(let item): return "List<" + responseType(item, base: base) + ">?"
        case .nonNull(let inner):
            let nullable = responseType(inner, base: base)
            return nullable.hasSuffix("?") ? String(nullable.dropLast()) : nullable
        }
    }
}
