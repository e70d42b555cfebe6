import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Defer and stream not on root fields of mutations and subscriptions.
///
/// `@defer` and `@stream` must not be used directly in the root selection of a mutation or a
/// subscription. Active only when the schema declares `@defer` or `@stream`.
/// Spec: incremental delivery (draft), after graphql-js 17.
package final class DeferStreamDirectiveOnRootFieldRule: ValidationRuleBase, ValidationRule {
    package static let id = "defer-stream-directive-on-root-field"
    package static let hooks: ValidationHooks = [.directive]
    package let context: ValidationContext
    private let isEnabled: Bool
    package init(context: ValidationContext) {
        self.context = context
        self.isEnabled = context.schema.declaresDeferOrStream
    }

    override package func enterDirective(_ node: Directive, location: DirectiveLocation) {
        guard isEnabled, let parentType = context.parentType else { return }
        let name = node.name.value
        guard name == "defer" || name == "stream" else { return }
        let directive = name == "defer" ? "Defer" : "Stream"
        if parentType.name == context.schema.mutationTypeName {
            report(Self.message(directive, "mutation", parentType.name), at: node.span)
        }
        if parentType.name == context.schema.subscriptionTypeName {
            report(Self.message(directive, "subscription", parentType.name), at: node.span)
        }
    }
}

extension GraphQLSchema {
    /// True when the schema declares `@defer` or `@stream` (the defer/stream rules apply).
    package var declaresDeferOrStream: Bool { directives["defer"] != nil || directives["stream"] != nil }
}

extension DeferStreamDirectiveOnRootFieldRule {
    static func message(_ directive: String, _ operation: String, _ type: String) -> String {
        "\(directive) directive cannot be used on root \(operation) type \"\(type)\"."
    }
}
