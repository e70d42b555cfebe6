import BatonDiagnostics
import BatonSyntax

/// Unique directives per location: a non-repeatable directive is applied at most once to a
/// node; a type's definition and extensions count as one node, and so do the schema's.
/// Spec: "Directives Are Unique Per Location". graphql-js: `UniqueDirectivesPerLocationRule`.
struct UniqueDirectivesPerLocationRule: SDLRule {
    static let id = "unique-directives-per-location"

    static func check(_ context: SDLValidationContext) {
        let known = context.knownDirectives
        var seen: [DirectiveUse.Scope: [String: (Directive, SourceFile)]] = [:]
        for use in context.directiveUses {
            let name = use.directive.name.value
            guard let directive = known[name], !directive.isRepeatable else { continue }
            if let (first, firstFile) = seen[use.scope]?[name] {
                context.report(
                    onlyOnce(name), rule: id, file: firstFile, span: first.span,
                    notes: [("Also used here.", use.file, use.directive.span)])
            } else {
                seen[use.scope, default: [:]][name] = (use.directive, use.file)
            }
        }
    }

    static func onlyOnce(_ name: String) -> String {
        "The directive \"@\(name)\" can only be used once at this location."
    }
}
