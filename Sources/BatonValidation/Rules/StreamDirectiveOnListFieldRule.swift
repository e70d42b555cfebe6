import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Stream only on list fields.
///
/// `@stream` may be used only on a field whose type is a list. Active only when the schema
/// declares `@stream`.
/// Spec: incremental delivery (draft), after graphql-js 17.
package final class StreamDirectiveOnListFieldRule: ValidationRuleBase, ValidationRule {
    package static let id = "stream-directive-on-list-field"
    package static let hooks: ValidationHooks = [.directive]
    package let context: ValidationContext
    private let isEnabled: Bool
    package init(context: ValidationContext) {
        self.context = context
        self.isEnabled = context.schema.declaresDeferOrStream
    }

    override package func enterDirective(_ node: Directive, location: DirectiveLocation) {
        guard isEnabled, node.name.value == "stream", let fieldDef = context.fieldDef,
            let parentType = context.parentType, !fieldDef.type.isList
        else { return }
        report(Self.message(fieldDef.name, parentType.name), at: node.span)
    }
}

extension StreamDirectiveOnListFieldRule {
    static func message(_ field: String, _ type: String) -> String {
        "Stream directive cannot be used on non-list field \"\(field)\" on type \"\(type)\"."
    }
}
