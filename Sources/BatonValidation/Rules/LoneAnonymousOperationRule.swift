import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Lone anonymous operation.
///
/// An operation without a name is allowed only when it is the document's only operation.
/// Spec: 5.2.2.1 Lone Anonymous Operation.
package final class LoneAnonymousOperationRule: ValidationRuleBase, ValidationRule {
    package static let id = "lone-anonymous-operation"
    package static let hooks: ValidationHooks = [.document, .operation]
    package let context: ValidationContext
    private var operationCount = 0
    package init(context: ValidationContext) { self.context = context }

    override package func enterDocument() {
        operationCount = context.definitions.reduce(0) { count, entry in
            if case .operation = entry.definition { return count + 1 }
            return count
        }
    }

    override package func enterOperation(_ node: OperationDefinition) {
        if node.name == nil && operationCount > 1 {
            let end = node.selectionSet.span.start + 1
            report(Self.message, at: Span(start: node.span.start, end: max(end, node.span.start)))
        }
    }
}

extension LoneAnonymousOperationRule {
    static let message = "This anonymous operation must be the only defined operation."
}
