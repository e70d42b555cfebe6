import BatonDiagnostics
import BatonSyntax

/// Unique directive names: a directive is defined once. (Redefining a built-in directive is
/// allowed: the schema's definition replaces it.) Spec: "Directives".
/// graphql-js: `UniqueDirectiveNamesRule`.
struct UniqueDirectiveNamesRule: SDLRule {
    static let id = "unique-directive-names"

    static func check(_ context: SDLValidationContext) {
        guard context.index.hasDuplicateDirectives else { return }
        var known: [String: (Name, SourceFile)] = [:]
        for position in context.index.directivePositions {
            let located = context.definitions[position]
            guard case .directive(let node) = located.definition else { continue }
            if let (first, firstFile) = known[node.name.value] {
                context.report(
                    onlyOne(node.name.value), rule: id, file: firstFile, span: first.span,
                    notes: [("Also defined here.", located.file, node.name.span)])
            } else {
                known[node.name.value] = (node.name, located.file)
            }
        }
    }

    static func onlyOne(_ name: String) -> String { "There can be only one directive named \"@\(name)\"." }
}
