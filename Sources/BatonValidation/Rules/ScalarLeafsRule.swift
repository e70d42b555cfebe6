import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Leaf field selections.
///
/// Fields of scalar or enum type must not have a selection set; fields of object, interface or
/// union type must have one.
/// Spec: 5.3.3 Leaf Field Selections.
package final class ScalarLeafsRule: ValidationRuleBase, ValidationRule {
    package static let id = "scalar-leafs"
    package static let hooks: ValidationHooks = [.enterField]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        guard let type = context.type else { return }
        if type.isLeaf {
            if let selectionSet = node.selectionSet {
                report(Self.noSubselectionMessage(node.name.value, type.ref.description), at: selectionSet.span)
            }
        } else if node.selectionSet == nil {
            report(
                Self.requiredSubselectionMessage(node.name.value, type.ref.description),
                at: Span(start: node.span.start, end: node.name.span.end))
        }
    }
}

extension ScalarLeafsRule {
    static func noSubselectionMessage(_ field: String, _ type: String) -> String {
        "Field \"\(field)\" must not have a selection since type \"\(type)\" has no subfields."
    }
    static func requiredSubselectionMessage(_ field: String, _ type: String) -> String {
        "Field \"\(field)\" of type \"\(type)\" must have a selection of subfields. Did you mean \"\(field) { ... }\"?"
    }
}
