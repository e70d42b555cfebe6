import BatonSyntax

/// Lone schema definition: a schema has at most one `schema { … }` definition (extensions
/// aside). Spec: Type System, "Schema". graphql-js: `LoneSchemaDefinitionRule`.
struct LoneSchemaDefinitionRule: SDLRule {
    static let id = "lone-schema-definition"

    static func check(_ context: SDLValidationContext) {
        var count = 0
        for position in context.index.schemaPositions {
            let located = context.definitions[position]
            guard case .schema(let node) = located.definition, !node.isExtension else { continue }
            if count > 0 {
                context.report(onlyOne, rule: id, file: located.file, span: node.span)
            }
            count += 1
        }
    }

    static let onlyOne = "Must provide only one schema definition."
}
