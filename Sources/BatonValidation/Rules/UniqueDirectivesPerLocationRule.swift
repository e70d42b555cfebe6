import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Directives are unique per location.
///
/// A directive that is not `repeatable` may appear at most once on a node.
/// Spec: 5.7.3 Directives Are Unique Per Location.
package final class UniqueDirectivesPerLocationRule: ValidationRuleBase, ValidationRule {
    package static let id = "unique-directives-per-location"
    package static let hooks: ValidationHooks = [.directives]
    package let context: ValidationContext
    private var documentRepeatable: [String: Bool] = [:]

    package init(context: ValidationContext) {
        self.context = context
        for entry in context.definitions {
            if case .directive(let node) = entry.definition { documentRepeatable[node.name.value] = node.isRepeatable }
        }
    }

    override package func enterDirectives(_ nodes: [Directive], location: DirectiveLocation) {
        guard nodes.count > 1 else { return }
        var seen: [String: Directive] = [:]
        for directive in nodes {
            let name = directive.name.value
            let isUnique: Bool
            if let repeatable = documentRepeatable[name] {
                isUnique = !repeatable
            } else if let definition = context.schema.directive(named: name) {
                isUnique = !definition.isRepeatable
            } else {
                isUnique = false
            }
            guard isUnique else { continue }
            if let first = seen[name] {
                report(Self.message(name), [context.range(first.span), context.range(directive.span)])
            } else {
                seen[name] = directive
            }
        }
    }
}

extension UniqueDirectivesPerLocationRule {
    static func message(_ name: String) -> String {
        "The directive \"@\(name)\" can only be used once at this location."
    }
}
