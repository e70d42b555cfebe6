import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Fragment spread target defined.
///
/// Every fragment spread must name a fragment defined in the document (or, when validating a
/// project, in any of its files).
/// Spec: 5.5.2.1 Fragment spread target defined.
package final class KnownFragmentNamesRule: ValidationRule {
    package static let id = "known-fragment-names"
    package static let hooks: ValidationHooks = [.fragmentSpread]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    package func enterFragmentSpread(_ node: FragmentSpread) {
        guard context.fragmentIndexByName[node.name.value] == nil else { return }
        report(Self.message(node.name.value), at: node.name.span)
    }
}

extension KnownFragmentNamesRule {
    static func message(_ name: String) -> String { "Unknown fragment \"\(name)\"." }
}
