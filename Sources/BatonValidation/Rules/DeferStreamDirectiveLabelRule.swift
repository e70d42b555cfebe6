import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Defer and stream labels are static and unique.
///
/// The `label` of `@defer` and `@stream` must be a string literal, different from every other
/// label in the document. Active only when the schema declares `@defer` or `@stream`.
/// Spec: incremental delivery (draft), after graphql-js 17.
package final class DeferStreamDirectiveLabelRule: ValidationRuleBase, ValidationRule {
    package static let id = "defer-stream-directive-label"
    package static let hooks: ValidationHooks = [.directive]
    package let context: ValidationContext
    private let isEnabled: Bool
    private var knownLabels: [String: SourceRange] = [:]

    package init(context: ValidationContext) {
        self.context = context
        self.isEnabled = context.schema.declaresDeferOrStream
    }

    override package func enterDirective(_ node: Directive, location: DirectiveLocation) {
        let name = node.name.value
        guard isEnabled, name == "defer" || name == "stream",
            let label = node.arguments.first(where: { $0.name.value == "label" })?.value
        else { return }
        guard case .string(let string) = label else {
            report(Self.staticMessage(name), at: node.span)
            return
        }
        if let first = knownLabels[string.value] {
            report(Self.uniqueMessage, [first, context.range(node.span)])
        } else {
            knownLabels[string.value] = context.range(node.span)
        }
    }
}

extension DeferStreamDirectiveLabelRule {
    static func staticMessage(_ directive: String) -> String {
        "Directive \"\(directive)\"'s label argument must be a static string."
    }
    static let uniqueMessage = "Defer/Stream directive label argument must be unique."
}
