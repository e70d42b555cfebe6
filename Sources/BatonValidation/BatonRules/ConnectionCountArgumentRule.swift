import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// A `@connection` field is given `first` or `last`.
///
/// A connection without a count asks the server for every item at once; with one, later pages
/// are fetched as the view needs them. Reported at the field's name. Baton, after Relay.
package final class ConnectionCountArgumentRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "connection-count-argument", title: "A @connection field is given first or last.",
        summary: "A connection field passes a count (first or last), so it never fetches an unbounded list.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.fieldWithDirectives]
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        guard BatonDirectives.connection(in: node.directives) != nil else { return }
        let given = Set(node.arguments.map(\.name.value))
        guard !given.contains(ConnectionInterface.first), !given.contains(ConnectionInterface.last) else { return }
        diagnose(Self.message(node.name.value), at: node.name.span)
    }
}

extension ConnectionCountArgumentRule {
    static func message(_ field: String) -> String {
        "Expected the connection field \"\(field)\" to be given a \"first\" or \"last\" argument, so it never fetches an unbounded list."
    }
}
