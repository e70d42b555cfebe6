import BatonCodegen
import BatonDeclarations
import BatonSchema

/// The typed optimistic-response builder of a lens the plan gives one (`Lens.optimisticTypeName`), as the Swift
/// generator's `SwiftOptimisticTemplate` spells it:
///
///     class Optimistic(val id: String, val body: String? = null, val author: Author.Optimistic? = null) :
///         OptimisticResponse {
///         override fun responseObject(): Map<String, Any?> =
///             ResponseObjects.of("Comment", "id", id, "?body", body, "author", author)
///     }
///
/// A property per field accessor, typed as a response holds the field (the schema's nullability: null is null, or
/// absent for a selection under `@include`/`@skip`), one per fragment spread (the fragment's builder) and inline
/// fragment (its builder, optional), and `typename` first where the record type is abstract.
///
/// `responseObject()` is one call of the runtime's `ResponseObjects.of` (issue 34: the per-type body of map writes,
/// `map` lambdas and merges was a third of what kotlinc analysed on a mutation-heavy slice): the record type, then
/// a key and a value per member in the builder's order, the key marked as `ResponseObjects.of` reads it (`?key`
/// absent while null, `...` a spread merged in); nested builders and lists of them are passed as they are.
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
        /// Its key and value in `ResponseObjects.of`'s arguments.
        var argument: String
        /// Its getter on the JVM, as the tree states it (`typename`'s is its natural one, taken first).
        var jvmGetter = "getTypename"
    }

    func render() -> Template {
        // `result` and `LinkedHashMap` are no longer used in the body; still reserved so no parameter's name changes.
        var scope = KotlinScope(["responseObject", "typename", "result", "ResponseObjects", "LinkedHashMap"])
        var properties: [Property] = []
        if builder.takesTypename {
            properties.append(
                Property(name: "typename", type: "String", defaultValue: nil, argument: ""))
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
        let arguments =
            [typename] + properties.filter { $0.name != "typename" || !builder.takesTypename }.map(\.argument)
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
                \(responseObject(arguments))
            }
            """
    }

    /// `responseObject()`: one `ResponseObjects.of` call, on one line for the type and at most one member, else the
    /// type and each member on a line of its own.
    private func responseObject(_ arguments: [String]) -> Template {
        let head = "override fun responseObject(): Map<String, Any?> = ResponseObjects.of("
        guard arguments.count > 2 else { return Template(head + arguments.joined(separator: ", ") + ")") }
        return """
            \(head)
                \(lines: arguments.map { Template($0) }, separator: ",\n")
            )
            """
    }

    private func property(_ part: OptimisticPropertyDeclaration, scope: inout KotlinScope) -> Property? {
        let schemaType = part.type.schemaType
        guard let index = part.member else {
            // A key field no member gives.
            let name = scope.claim(part.name, ignoringCase: false)
            let encoded = encoding(KotlinNames.quoted(name), schemaType, nested: false)
            return Property(
                name: name, type: context.inputType(schemaType), defaultValue: nil,
                argument: KotlinLiteral.string(part.name) + ", " + encoded)
        }
        let member = members[index]
        let name = scope.claim(member.name, ignoringCase: false)
        let value = KotlinNames.quoted(name)
        let defaultValue = part.hasDefault ? "null" : nil
        let builderName = KotlinNames.quoted(part.builder ?? "Optimistic")
        switch part.part {
        case .field(let responseKey, let isNested):
            let builder = (isNested ? member.nestedClass : nil).map { nested in nested + "." + builderName }
            var type = builder.map { responseType(schemaType, base: $0) } ?? context.inputType(schemaType)
            if part.mayBeLeftOut {
                // Absent unless given: a selection under `@include`/`@skip` (its value may be null whatever the
                // schema says, so a mapped scalar is encoded as a nullable one).
                if !type.hasSuffix("?") { type += "?" }
                let encoded = encoding(value, schemaType.nullable, nested: builder != nil)
                return Property(
                    name: name, type: type, defaultValue: defaultValue,
                    argument: KotlinLiteral.string(ResponseObjectKey.absentWhileNull + responseKey) + ", " + encoded)
            }
            let encoded = encoding(value, schemaType, nested: builder != nil)
            return Property(
                name: name, type: type, defaultValue: defaultValue,
                argument: KotlinLiteral.string(responseKey) + ", " + encoded)
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

    /// A spread's property: its builder's object merged into this one (nothing while a left-out one is null).
    private func spread(_ part: OptimisticPropertyDeclaration, name: String, builder: String) -> Property {
        let argument = KotlinLiteral.string(ResponseObjectKey.spread) + ", " + KotlinNames.quoted(name)
        if part.mayBeLeftOut {
            return Property(name: name, type: builder + "?", defaultValue: "null", argument: argument)
        }
        return Property(name: name, type: builder, defaultValue: nil, argument: argument)
    }

    /// The value `ResponseObjects.of` is given for `expression` of schema type `type`: mapped scalars converted;
    /// nested builders, lists of them and the rest as they are (the runtime takes each builder's object).
    private func encoding(_ expression: String, _ type: TypeRef, nested: Bool) -> String {
        guard !nested else { return expression }
        return context.encoding(expression, type) ?? expression
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

/// How `ResponseObjects.of` (Kotlin/runtime/baton/runtime/Mutations.kt) reads a member's key: neither mark can begin
/// a GraphQL name, so no response key is taken for one.
enum ResponseObjectKey {
    /// Before a response key: the member is left out while its value is null (`@include`/`@skip`).
    static let absentWhileNull = "?"
    /// In place of a key: the value is a fragment's or inline fragment's builder, merged in (nothing while null).
    static let spread = "..."
}
