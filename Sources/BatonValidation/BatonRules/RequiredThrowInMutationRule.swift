import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// No `@required(action: THROW)` in a mutation's own selections.
///
/// A mutation's side effects have happened by the time its response is read; a throwing read
/// would hide the result of a change that was made. Checked in the mutation's own selections
/// (inline fragments included). A fragment the mutation spreads is not: it is read later, through
/// its own lens wherever the app uses it, not as part of the mutation's result, so its `THROW`
/// means what it means everywhere else (Relay allows it too). Baton.
package final class RequiredThrowInMutationRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "required-throw-in-mutation", title: "No @required(action: THROW) in a mutation's own selections.",
        summary:
            "A mutation has happened when its response is read; a fragment it spreads is read through its own lens.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.operation, .fragment, .enterField, .fieldPerDefinition]
    package let context: ValidationContext
    /// True while walking a mutation's selections.
    private var inMutation = false

    package init(context: ValidationContext) { self.context = context }

    override package func enterOperation(_ node: OperationDefinition) { inMutation = node.operation == .mutation }
    override package func enterFragment(_ node: FragmentDefinition) { inMutation = false }
    package var fieldHooksActive: Bool { inMutation }

    override package func enterField(_ node: Field) {
        guard inMutation, let required = BatonDirectives.required(in: node.directives), required.action == .throwError
        else { return }
        diagnose(Self.message, at: required.actionSpan)
    }
}

extension RequiredThrowInMutationRule {
    static let message =
        "@required(action: THROW) may not be used in a mutation's response: the mutation has already happened when a read throws. Use action: LOG or NONE."
}
