import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Defer and stream only on valid operations.
///
/// `@defer` and `@stream` must not be used in subscriptions (or fragments they use) unless their
/// `if` argument can be false. Active only when the schema declares `@defer` or `@stream`.
/// Spec: incremental delivery (draft), after graphql-js 17.
package final class DeferStreamDirectiveOnValidOperationsRule: ValidationRuleBase, ValidationRule {
    package static let id = "defer-stream-directive-on-valid-operations"
    package static let hooks: ValidationHooks = [.operation, .fragment, .directive]
    package let context: ValidationContext
    private let isEnabled: Bool
    private var fragmentsUsedOnSubscriptions: Set<String> = []
    private var inSubscriptionScope = false

    package init(context: ValidationContext) {
        self.context = context
        self.isEnabled = context.schema.declaresDeferOrStream
    }

    override package func enterOperation(_ node: OperationDefinition) {
        inSubscriptionScope = node.operation == .subscription
        guard isEnabled, node.operation == .subscription else { return }
        for index in context.recursivelyReferencedFragments(ofDefinition: context.currentDefinitionIndex) {
            if case .fragment(let fragment) = context.definitions[index].definition {
                fragmentsUsedOnSubscriptions.insert(fragment.name.value)
            }
        }
    }

    override package func enterFragment(_ node: FragmentDefinition) {
        inSubscriptionScope = fragmentsUsedOnSubscriptions.contains(node.name.value)
    }

    override package func enterDirective(_ node: Directive, location: DirectiveLocation) {
        guard isEnabled, inSubscriptionScope else { return }
        let name = node.name.value
        guard name == "defer" || name == "stream", !Self.ifArgumentCanBeFalse(node) else { return }
        report(name == "defer" ? Self.deferMessage : Self.streamMessage, at: node.span)
    }

    private static func ifArgumentCanBeFalse(_ node: Directive) -> Bool {
        guard let argument = node.arguments.first(where: { $0.name.value == "if" }) else { return false }
        switch argument.value {
        case .boolean(let flag, _): return !flag
        case .variable: return true
        default: return false
        }
    }
}

extension DeferStreamDirectiveOnValidOperationsRule {
    static let deferMessage =
        "Defer directive not supported on subscription operations. Disable `@defer` by setting the `if` argument to `false`."
    static let streamMessage =
        "Stream directive not supported on subscription operations. Disable `@stream` by setting the `if` argument to `false`."
}
