import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Fragment name uniqueness.
///
/// Each fragment must have a name no other fragment in the document has.
/// Spec: 5.5.1.1 Fragment Name Uniqueness.
package final class UniqueFragmentNamesRule: ValidationRule {
    package static let id = "unique-fragment-names"
    package static let hooks: ValidationHooks = [.fragment]
    package let context: ValidationContext
    private var known: [String: SourceRange] = [:]
    package init(context: ValidationContext) { self.context = context }

    package func enterFragment(_ node: FragmentDefinition) {
        let name = node.name
        if let first = known[name.value] {
            report(Self.duplicateMessage(name.value), [first, context.range(name.span)])
        } else {
            known[name.value] = context.range(name.span)
        }
    }
}

extension UniqueFragmentNamesRule {
    static func duplicateMessage(_ name: String) -> String { "There can be only one fragment named \"\(name)\"." }
}
