import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// `@required`'s action is a literal.
///
/// The action decides the generated type (`THROW` makes the accessor throw), which is fixed at
/// build time, so it cannot come from a variable. Baton.
package final class RequiredActionLiteralRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "required-action-literal", title: "@required's action is a literal.",
        summary: "The action of @required must be written as NONE, LOG or THROW, not given as a variable.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.directive]
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterDirective(_ node: Directive, location: DirectiveLocation) {
        guard node.name.value == BatonDirectives.required,
            let argument = node.arguments.first(where: { $0.name.value == "action" }),
            case .variable(let variable) = argument.value
        else { return }
        diagnose(Self.message(variable.name.value), at: argument.value.span)
    }
}

extension RequiredActionLiteralRule {
    static func message(_ variable: String) -> String {
        "The action of @required must be written as NONE, LOG or THROW, not given as the variable \"$\(variable)\": it decides the generated type."
    }
}
