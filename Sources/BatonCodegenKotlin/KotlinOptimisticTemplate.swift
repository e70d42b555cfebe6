import BatonCodegen
import BatonIR
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
    /// One accessor of the lens: its Kotlin property name and, for a nested lens, its nested class's name.
    struct Member {
        var accessor: Accessor
        var name: String
        var nestedClass: String?
    }

    let context: KotlinContext
    let lens: Lens
    let members: [Member]
    let typeName: String

    private struct Property {
        var name: String
        var type: String
        var defaultValue: String?
        /// The statement adding the property to `result`.
        var write: String
    }

    func render() -> Template {
        var scope = KotlinScope(["responseObject", "typename", "result", "ResponseObjects", "LinkedHashMap"])
        var properties: [Property] = []
        if lens.recordIsAbstract {
            properties.append(
                Property(
                    name: "typename", type: "String", defaultValue: nil, write: "result[\"__typename\"] = typename"))
        }
        for member in members {
            if let property = property(member, scope: &scope) { properties.append(property) }
        }
        let typename = lens.recordIsAbstract ? "typename" : KotlinLiteral.string(lens.recordType)
        // Two properties whose getters clash on the JVM (`self` and `Self`) are told apart as the lens's are.
        var getters = JVMGetterNames()
        let parameters = properties.map { property in
            (getters.annotation(for: property.name).map { $0 + " " } ?? "")
                + "val \(KotlinNames.quoted(property.name)): \(property.type)"
                + (property.defaultValue.map { " = " + $0 } ?? "")
        }
        let writes = properties.filter { $0.name != "typename" || !lens.recordIsAbstract }.map { Template($0.write) }
        let header: Template =
            parameters.isEmpty
            ? "class \(KotlinNames.quoted(typeName)) : OptimisticResponse {"
            : """
            class \(KotlinNames.quoted(typeName))(
                \(lines: parameters.map { Template($0) }, separator: ",\n")
            ) : OptimisticResponse {
            """
        return """
            /**
             * A typed optimistic response for a record of `\(lens.recordType)`: what a mutation's `optimisticResponse`
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

    private func property(_ member: Member, scope: inout KotlinScope) -> Property? {
        let accessor = member.accessor
        let name = scope.claim(member.name, ignoringCase: false)
        let value = KotlinNames.quoted(name)
        switch accessor.reads {
        case .field(let read):
            if read.isTypename { return nil }
            let key = KotlinLiteral.string(read.responseKey)
            let builder = member.nestedClass.map { nested in
                nested + "." + KotlinNames.quoted(accessor.lens?.optimisticTypeName ?? "Optimistic")
            }
            var type = builder.map { responseType(read.schemaType, base: $0) } ?? context.inputType(read.schemaType)
            let encoded = encoding(value, read.schemaType, nested: builder != nil, depth: 0)
            if accessor.optimisticPartIsOptional {
                // Absent unless given: a selection under `@include`/`@skip`.
                if !type.hasSuffix("?") { type += "?" }
                return Property(
                    name: name, type: type, defaultValue: "null",
                    write: "if (\(value) != null) result[\(key)] = \(encoded)")
            }
            return Property(
                name: name, type: type, defaultValue: read.schemaType.isNonNull ? nil : "null",
                write: "result[\(key)] = \(encoded)")
        case .parentRecord:
            let builder: String
            switch accessor.base {
            case .fragment(let fragment):
                let builderName = context.fragment(named: fragment.name)?.lens.optimisticTypeName ?? "Optimistic"
                builder =
                    KotlinNames.quoted(context.names.fragments[fragment.name] ?? fragment.name) + "."
                    + KotlinNames.quoted(builderName)
            case .lens(let nested):
                guard let nestedClass = member.nestedClass else { return nil }
                builder = nestedClass + "." + KotlinNames.quoted(nested.optimisticTypeName ?? "Optimistic")
            default:
                return nil
            }
            if accessor.optimisticPartIsOptional {
                return Property(
                    name: name, type: builder + "?", defaultValue: "null",
                    write: "\(value)?.let { ResponseObjects.merge(result, it.responseObject()) }")
            }
            return Property(
                name: name, type: builder, defaultValue: nil,
                write: "ResponseObjects.merge(result, \(value).responseObject())")
        }
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
