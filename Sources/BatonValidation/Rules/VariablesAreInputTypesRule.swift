import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Variables are input types.
///
/// A variable's type must be a scalar, enum or input object type (possibly wrapped in lists and
/// non-null).
/// Spec: 5.8.2 Variables Are Input Types.
package final class VariablesAreInputTypesRule: ValidationRuleBase, ValidationRule {
    package static let id = "variables-are-input-types"
    package static let hooks: ValidationHooks = [.variableDefinition]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    override package func enterVariableDefinition(_ node: VariableDefinition) {
        guard let type = context.schema.types[node.type.namedType.name.value], !type.isInputType else { return }
        report(Self.message(node.variable.name.value, ValuePrinter.print(node.type)), at: node.type.span)
    }
}

extension VariablesAreInputTypesRule {
    static func message(_ variable: String, _ type: String) -> String {
        "Variable \"$\(variable)\" cannot be non-input type \"\(type)\"."
    }
}
