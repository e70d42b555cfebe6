import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Argument uniqueness.
///
/// A field or directive must not be given the same argument twice.
/// Spec: 5.4.2 Argument Uniqueness.
package final class UniqueArgumentNamesRule: ValidationRuleBase, ValidationRule {
    package static let id = "unique-argument-names"
    package static let hooks: ValidationHooks = [.enterField, .directive]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        // Most fields have fewer than two arguments: the list is not handed on (nor retained) for them.
        if node.arguments.count > 1 { check(node.arguments) }
    }
    override package func enterDirective(_ node: Directive, location: DirectiveLocation) { check(node.arguments) }

    private func check(_ arguments: [Argument]) {
        guard arguments.count > 1 else { return }
        for (name, nodes) in groupedByName(arguments.map(\.name)) where nodes.count > 1 {
            report(Self.message(name), nodes.map { context.range($0.span) })
        }
    }
}

extension UniqueArgumentNamesRule {
    static func message(_ name: String) -> String { "There can be only one argument named \"\(name)\"." }
}
