import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// No use of deprecated schema elements.
///
/// A field, argument, input field or enum value the schema marks `@deprecated` may go away;
/// each use is a warning with the schema's reason. The messages are graphql-js's
/// `NoDeprecatedCustomRule`'s. Baton (graphql-js: an optional rule).
package final class DeprecatedUsageRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "deprecated-usage", title: "No use of deprecated schema elements.",
        summary: "A field, argument, input field or enum value marked @deprecated should not be used.",
        severity: .warning, origin: .baton)
    package static let hooks: ValidationHooks = [.enterField, .argument, .objectField, .value]
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        guard context.readFieldDef({ $0.deprecationReason != nil }) == true, let fieldDef = context.fieldDef,
            let reason = fieldDef.deprecationReason, let parent = context.parentType
        else { return }
        diagnose("The field \(parent.name).\(fieldDef.name) is deprecated. \(reason)", at: node.name.span)
    }

    override package func enterArgument(_ node: Argument) {
        guard let argument = context.argument, let reason = argument.deprecationReason else { return }
        if let directive = context.directive {
            diagnose(
                "Directive \"@\(directive.name)\" argument \"\(argument.name)\" is deprecated. \(reason)",
                at: node.name.span)
        } else if let parent = context.parentType, let fieldDef = context.fieldDef {
            diagnose(
                "Field \"\(parent.name).\(fieldDef.name)\" argument \"\(argument.name)\" is deprecated. \(reason)",
                at: node.name.span)
        }
    }

    override package func enterObjectField(_ node: ObjectField) {
        guard let inputObject = context.parentInputType?.named, inputObject.kind == .inputObject,
            let field = inputObject.inputField(named: node.name.value), let reason = field.deprecationReason
        else { return }
        diagnose("The input field \(inputObject.name).\(field.name) is deprecated. \(reason)", at: node.name.span)
    }

    override package func enterValue(_ node: Value) {
        guard case .enumValue(let name) = node, let value = context.enumValue, let reason = value.deprecationReason,
            let type = context.inputType?.named
        else { return }
        diagnose("The enum value \"\(type.name).\(value.name)\" is deprecated. \(reason)", at: name.span)
    }
}
