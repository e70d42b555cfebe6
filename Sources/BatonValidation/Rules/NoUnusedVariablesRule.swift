import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// All variables used.
///
/// Every variable an operation defines must be used by it or by a fragment it spreads.
/// Spec: 5.8.4 All Variables Used.
package final class NoUnusedVariablesRule: ValidationRule {
    package static let id = "no-unused-variables"
    package static let hooks: ValidationHooks = [.operation, .document]
    package let context: ValidationContext
    private var operations: [(index: Int, file: SourceFile, node: OperationDefinition)] = []
    package init(context: ValidationContext) { self.context = context }

    package func leaveOperation(_ node: OperationDefinition) {
        guard !node.variableDefinitions.isEmpty else { return }
        operations.append((context.currentDefinitionIndex, context.currentFile, node))
    }

    package func leaveDocument() {
        for operation in operations {
            let used = Set(context.recursiveVariableUsages(ofDefinition: operation.index).map(\.variable.name.value))
            for definition in operation.node.variableDefinitions where !used.contains(definition.variable.name.value) {
                report(
                    Self.message(definition.variable.name.value, operation: operation.node.name?.value),
                    [SourceRange(file: operation.file, span: definition.variable.span)])
            }
        }
    }
}

extension NoUnusedVariablesRule {
    static func message(_ variable: String, operation: String?) -> String {
        if let operation { return "Variable \"$\(variable)\" is never used in operation \"\(operation)\"." }
        return "Variable \"$\(variable)\" is never used."
    }
}
