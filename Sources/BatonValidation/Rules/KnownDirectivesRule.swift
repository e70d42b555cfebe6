import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Directives are defined and in valid locations.
///
/// Every directive used must be defined by the schema, and used only where its definition allows.
/// Spec: 5.7.1 Directives Are Defined; 5.7.2 Directives Are In Valid Locations.
package final class KnownDirectivesRule: ValidationRuleBase, ValidationRule {
    package static let id = "known-directives"
    package static let hooks: ValidationHooks = [.directive]
    package let context: ValidationContext
    /// Locations of directives the document itself defines (SDL in an executable document).
    private var documentDirectives: [String: [String]] = [:]

    package init(context: ValidationContext) {
        self.context = context
        for entry in context.definitions {
            if case .directive(let node) = entry.definition {
                documentDirectives[node.name.value] = node.locations.map(\.value)
            }
        }
    }

    override package func enterDirective(_ node: Directive, location: DirectiveLocation) {
        let name = node.name.value
        if let locations = documentDirectives[name] {
            if !locations.contains(location.rawValue) {
                report(Self.misplacedMessage(name, location.rawValue), at: node.span)
            }
            return
        }
        guard let definition = context.schema.directive(named: name) else {
            report(Self.unknownMessage(name), at: node.span)
            return
        }
        if !definition.locations.contains(location) {
            report(Self.misplacedMessage(name, location.rawValue), at: node.span)
        }
    }
}

extension KnownDirectivesRule {
    static func unknownMessage(_ name: String) -> String { "Unknown directive \"@\(name)\"." }
    static func misplacedMessage(_ name: String, _ location: String) -> String {
        "Directive \"@\(name)\" may not be used on \(location)."
    }
}
