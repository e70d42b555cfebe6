import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// Not `@catch` and `@required` on one field.
///
/// `@catch` reads a field's error as a value beside its (nullable) data; `@required` turns the
/// field's null into its parent's. On one field the two contradict each other: choose one.
/// Reported at `@catch`, with a note at `@required`. Baton.
package final class CatchWithRequiredRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "catch-with-required", title: "Not @catch and @required on one field.",
        summary: "A field must not have both.", severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.fieldWithDirectives]
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        guard let caught = BatonDirectives.catch(in: node.directives),
            let required = BatonDirectives.required(in: node.directives)
        else { return }
        diagnose(
            Self.message(node.name.value), at: caught.directive.span,
            notes: [note(Self.noteMessage, at: required.directive.span)])
    }
}

extension CatchWithRequiredRule {
    static func message(_ field: String) -> String {
        "Field \"\(field)\" may not be both @catch and @required: @catch reads its error as a value, @required turns its null into its parent's. Use one of them."
    }
    static let noteMessage = "@required here"
}
