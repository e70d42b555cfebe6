import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Input object field uniqueness.
///
/// An input object literal must not give the same field twice.
/// Spec: 5.6.3 Input Object Field Uniqueness.
package final class UniqueInputFieldNamesRule: ValidationRuleBase, ValidationRule {
    package static let id = "unique-input-field-names"
    package static let hooks: ValidationHooks = [.value]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    override package func enterValue(_ node: Value) {
        guard case .object(let fields, _) = node, fields.count > 1 else { return }
        // Checked per object literal; nested objects are checked when they are entered.
        var known: [String: Name] = [:]
        for field in fields {
            if let first = known[field.name.value] {
                report(Self.message(field.name.value), [context.range(first.span), context.range(field.name.span)])
            } else {
                known[field.name.value] = field.name
            }
        }
    }
}

extension UniqueInputFieldNamesRule {
    static func message(_ name: String) -> String { "There can be only one input field named \"\(name)\"." }
}
