import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// Each connection key is used once in a definition.
///
/// Two `@connection` fields of one operation or fragment with the same key would share one
/// connection record on a parent, each overwriting the other's pages. Reported at the second
/// key, with the first as a note. Baton, after Relay.
package final class UniqueConnectionKeysRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "unique-connection-keys", title: "Connection keys are unique in a definition.",
        summary: "No two @connection fields of one operation or fragment share a key.", severity: .error,
        origin: .baton)
    package static let hooks: ValidationHooks = [.operation, .fragment, .fieldWithDirectives]
    package let context: ValidationContext
    /// The keys seen in the definition being walked, with where.
    private var seen: [String: Span] = [:]

    package init(context: ValidationContext) { self.context = context }

    override package func enterOperation(_ node: OperationDefinition) { seen = [:] }
    override package func enterFragment(_ node: FragmentDefinition) { seen = [:] }

    override package func enterField(_ node: Field) {
        guard let connection = BatonDirectives.connection(in: node.directives), let key = connection.key,
            let span = connection.keyArgument?.value.span
        else { return }
        if let first = seen[key] {
            diagnose(Self.message(key), at: span, notes: [note("The key is first used here.", at: first)])
        } else {
            seen[key] = span
        }
    }
}

extension UniqueConnectionKeysRule {
    static func message(_ key: String) -> String {
        "The connection key \"\(key)\" is already used in this definition: each @connection needs a key of its own."
    }
}
