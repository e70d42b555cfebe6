import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Fragment name uniqueness.
///
/// Each fragment must have a name no other fragment in the document has.
/// Spec: 5.5.1.1 Fragment Name Uniqueness.
package final class UniqueFragmentNamesRule: ValidationRuleBase, ValidationRule {
    package static let id = "unique-fragment-names"
    package static let hooks: ValidationHooks = [.fragment]
    package let context: ValidationContext
    private var known = FirstPlaces()
    package init(context: ValidationContext) { self.context = context }

    override package func enterFragment(_ node: FragmentDefinition) {
        let name = node.name
        let range = context.range(name.span)
        if let first = known.first(name.value, at: range) {
            report(Self.duplicateMessage(name.value), [first, range])
        }
    }
}

extension UniqueFragmentNamesRule {
    static func duplicateMessage(_ name: String) -> String { "There can be only one fragment named \"\(name)\"." }
}
