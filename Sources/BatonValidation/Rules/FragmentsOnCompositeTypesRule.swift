import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Fragments on composite types.
///
/// A fragment's type condition must name an object, interface or union type.
/// Spec: 5.5.1.3 Fragments On Composite Types.
package final class FragmentsOnCompositeTypesRule: ValidationRuleBase, ValidationRule {
    package static let id = "fragments-on-composite-types"
    package static let hooks: ValidationHooks = [.inlineFragment, .fragment]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    override package func enterInlineFragment(_ node: InlineFragment) {
        guard let condition = node.typeCondition, let type = context.schema.types[condition.name.value],
            !type.isComposite
        else { return }
        report(Self.inlineMessage(condition.name.value), at: condition.span)
    }

    override package func enterFragment(_ node: FragmentDefinition) {
        let condition = node.typeCondition
        guard let type = context.schema.types[condition.name.value], !type.isComposite else { return }
        report(Self.fragmentMessage(node.name.value, condition.name.value), at: condition.span)
    }
}

extension FragmentsOnCompositeTypesRule {
    static func inlineMessage(_ type: String) -> String {
        "Fragment cannot condition on non composite type \"\(type)\"."
    }
    static func fragmentMessage(_ fragment: String, _ type: String) -> String {
        "Fragment \"\(fragment)\" cannot condition on non composite type \"\(type)\"."
    }
}
