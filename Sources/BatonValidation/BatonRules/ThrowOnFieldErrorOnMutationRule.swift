import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// No `@throwOnFieldError` on a mutation.
///
/// A mutation's side effects have happened by the time its response is read; failing the read
/// on a field error would hide the result of a change that was made. `@catch` on the mutation
/// (or on its fields) shows the errors instead. The directive's locations (QUERY,
/// FRAGMENT_DEFINITION) already make `known-directives` reject it on a mutation; this rule
/// supersedes that error at the same place with the explanation and a fix-it, so the user sees
/// one message. When only the spec's rules run, `known-directives` reports as graphql-js. Baton.
package final class ThrowOnFieldErrorOnMutationRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "throw-on-field-error-on-mutation", title: "No @throwOnFieldError on a mutation.",
        summary: "A mutation has happened when its response is read; use @catch to show its field errors.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.operation]
    /// It supersedes `known-directives`' error, whatever `rules` says of this id.
    package static let affectsOtherRules = true
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterOperation(_ node: OperationDefinition) {
        guard node.operation == .mutation,
            let directive = BatonDirectives.first(BatonDirectives.throwOnFieldError, in: node.directives)
        else { return }
        let range = context.range(directive.span)
        context.supersede(rule: KnownDirectivesRule.id, at: range)
        diagnose(
            Self.message, at: directive.span,
            fixIts: [FixIt(message: "use @catch", range: range, replacement: "@catch")])
    }
}

extension ThrowOnFieldErrorOnMutationRule {
    static let message =
        "Directive \"@throwOnFieldError\" may not be used on a mutation: the mutation has already happened when a read fails. Use @catch to read its field errors."
}
