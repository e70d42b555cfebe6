import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Operation name uniqueness.
///
/// Each named operation must have a name no other operation in the document has.
/// Spec: 5.2.1.1 Operation Name Uniqueness.
package final class UniqueOperationNamesRule: ValidationRuleBase, ValidationRule {
    package static let id = "unique-operation-names"
    package static let hooks: ValidationHooks = [.operation]
    package let context: ValidationContext
    private var known = FirstPlaces()
    package init(context: ValidationContext) { self.context = context }

    override package func enterOperation(_ node: OperationDefinition) {
        guard let name = node.name else { return }
        let range = context.range(name.span)
        if let first = known.first(name.value, at: range) {
            report(Self.duplicateMessage(name.value), [first, range])
        }
    }
}

extension UniqueOperationNamesRule {
    static func duplicateMessage(_ name: String) -> String { "There can be only one operation named \"\(name)\"." }
}
