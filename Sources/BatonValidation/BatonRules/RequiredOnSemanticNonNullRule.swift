import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// `@required` only where a null can occur.
///
/// Under `@throwOnFieldError` (on the enclosing operation or fragment) or `@catch` (on the field,
/// an enclosing field, or the operation or fragment), a field the schema marks `@semanticNonNull`
/// is null only on a field error, which the policy already handles: `@required` on it does
/// nothing. A warning, as the schema's promise is the server's, not checked. Not reported on a
/// field whose own `@required` children can bubble a null into it: there the directive passes
/// that null on to the parent (see `required-on-non-null`). Baton.
package final class RequiredOnSemanticNonNullRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "required-on-semantic-non-null", title: "@required only where a null can occur.",
        summary: "Under @throwOnFieldError or @catch, a field marked @semanticNonNull must not carry @required.",
        severity: .warning, origin: .baton)
    package static let hooks: ValidationHooks = [.operation, .fragment, .field, .fieldPerDefinition]
    package let context: ValidationContext
    /// The error policy of the definition being walked.
    private var throwsOnFieldError = false
    /// For each open field (and the definition itself, first), whether it has `@catch`.
    private var catching: [Bool] = []
    /// Whether the definition being walked may use `@required` (`currentDefinitionMayUseRequired`): without
    /// it, nothing is kept or looked at.
    private var active = false

    package init(context: ValidationContext) { self.context = context }
    package var fieldHooksActive: Bool { active }

    override package func enterOperation(_ node: OperationDefinition) { begin(node.directives) }
    override package func enterFragment(_ node: FragmentDefinition) { begin(node.directives) }

    private func begin(_ directives: [Directive]) {
        active = context.currentDefinitionMayUseRequired
        // Inactive, no field hook reads the rest (and the walk calls none: `.fieldPerDefinition`).
        guard active else {
            catching = []
            return
        }
        throwsOnFieldError = BatonDirectives.first(BatonDirectives.throwOnFieldError, in: directives) != nil
        catching = [BatonDirectives.catch(in: directives) != nil]
    }

    override package func enterField(_ node: Field) {
        guard active else { return }
        let caught = (catching.last ?? false) || BatonDirectives.catch(in: node.directives) != nil
        catching.append(caught)
        guard caught || throwsOnFieldError, let required = BatonDirectives.required(in: node.directives),
            let fieldDef = context.fieldDef, let parent = context.parentType,
            BatonDirectives.isSemanticNonNull(fieldDef),
            !RequiredOnNonNullRule.decidesWhereChildNullsGo(node, fieldDef, required, context.schema)
        else { return }
        let policy = throwsOnFieldError ? "@throwOnFieldError" : "@catch"
        diagnose(
            Self.message(node.name.value, type: parent.name, policy: policy), at: required.directive.span,
            fixIts: [
                BatonDirectives.removal(
                    of: required.directive.span, in: context.currentFile, message: "remove the directive")
            ])
    }

    override package func leaveField(_ node: Field) { if active { _ = catching.popLast() } }
}

extension RequiredOnSemanticNonNullRule {
    static func message(_ field: String, type: String, policy: String) -> String {
        "Field \"\(field)\" is @semanticNonNull in the schema (\(type).\(field)) and reads as non-null under \(policy), so @required has no effect."
    }
}
