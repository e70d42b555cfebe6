import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// All variable uses defined.
///
/// Every variable used in an operation, or in a fragment it spreads, must be defined by that
/// operation.
/// Spec: 5.8.3 All Variable Uses Defined.
package final class NoUndefinedVariablesRule: ValidationRuleBase, ValidationRule {
    package static let id = "no-undefined-variables"
    package static let hooks: ValidationHooks = [.operation, .document]
    package let context: ValidationContext
    private var operations: [(index: Int, file: SourceFile, node: OperationDefinition)] = []
    package init(context: ValidationContext) { self.context = context }

    override package func leaveOperation(_ node: OperationDefinition) {
        operations.append((context.currentDefinitionIndex, context.currentFile, node))
    }

    /// Usages through fragments are known only once every fragment was walked.
    override package func leaveDocument() {
        for operation in operations {
            let usages = context.recursiveVariableUsages(ofDefinition: operation.index)
            guard !usages.isEmpty else { continue }
            let defined = VariableNames(operation.node.variableDefinitions)
            for usage in usages where defined.last(usage.variable.name.value) == nil {
                let operationStart = SourceRange(
                    file: operation.file,
                    span: Span(start: operation.node.span.start, end: operation.node.selectionSet.span.start))
                report(
                    Self.message(usage.variable.name.value, operation: operation.node.name?.value),
                    [SourceRange(file: usage.file, span: usage.variable.span), operationStart])
            }
        }
    }
}

extension NoUndefinedVariablesRule {
    static func message(_ variable: String, operation: String?) -> String {
        if let operation { return "Variable \"$\(variable)\" is not defined by operation \"\(operation)\"." }
        return "Variable \"$\(variable)\" is not defined."
    }
}
