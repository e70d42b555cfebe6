import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// A connection's key is a string literal ending in `_` and the field's response key.
///
/// The key names the connection record wherever it is used (a mutation's `connections:`, a
/// pagination query), so it is fixed text, and it ends in the field's alias or name
/// (`RepositoryIssues_issues` for `issues`), as Relay requires, so a reader can tell which
/// field a key belongs to. Reported at the key's value. Baton, after Relay.
package final class ConnectionKeyRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "connection-key", title: "A connection key is a string literal ending in _<field>.",
        summary: "@connection(key:) is a string literal of the form <SomeName>_<field alias or name>.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.fieldWithDirectives]
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        guard let connection = BatonDirectives.connection(in: node.directives) else { return }
        // A missing `key:` is `ProvidedRequiredArguments`' to report.
        guard let argument = connection.keyArgument else { return }
        guard let key = connection.key else {
            diagnose(Self.notALiteral, at: argument.value.span)
            return
        }
        let postfix = "_" + node.responseKey
        if !key.hasSuffix(postfix) || key == postfix {
            diagnose(Self.message(key: key, postfix: postfix), at: argument.value.span)
        }
    }
}

extension ConnectionKeyRule {
    static let notALiteral =
        "The key of @connection must be a string literal: it names the connection record wherever it is used."

    static func message(key: String, postfix: String) -> String {
        "Expected the key argument to @connection to be of form \"<SomeName>\(postfix)\", got \"\(key)\"."
    }
}
