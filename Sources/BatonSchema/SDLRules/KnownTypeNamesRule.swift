import BatonDiagnostics
import BatonSyntax

/// Known type names: every type the SDL refers to is defined in it or is a built-in scalar or
/// introspection type. Spec: "Types". graphql-js: `KnownTypeNamesRule`.
struct KnownTypeNamesRule: SDLRule {
    static let id = "known-type-names"

    static func check(_ context: SDLValidationContext) {
        let unknown = context.scan.unknownTypeReferences
        if unknown.isEmpty { return }
        let suggestionPool = BuiltIns.standardTypeNames + context.definedTypeNames
        for (named, file) in unknown {
            let name = named.name.value
            let suggestions = Suggestions.list(name, suggestionPool)
            context.report(
                unknownType(name) + Suggestions.didYouMean(suggestions), rule: id, file: file, span: named.span)
        }
    }

    static func unknownType(_ name: String) -> String { "Unknown type \"\(name)\"." }
}
