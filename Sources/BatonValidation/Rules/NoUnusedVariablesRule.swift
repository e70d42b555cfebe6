import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// All variables used.
///
/// Every variable an operation defines must be used by it or by a fragment it spreads.
/// Spec: 5.8.4 All Variables Used.
package final class NoUnusedVariablesRule: ValidationRuleBase, ValidationRule {
    package static let id = "no-unused-variables"
    package static let hooks: ValidationHooks = [.operation, .document]
    package let context: ValidationContext
    private var operations: [(index: Int, file: SourceFile, node: OperationDefinition)] = []
    package init(context: ValidationContext) { self.context = context }

    override package func leaveOperation(_ node: OperationDefinition) {
        guard !node.variableDefinitions.isEmpty else { return }
        operations.append((context.currentDefinitionIndex, context.currentFile, node))
    }

    override package func leaveDocument() {
        for operation in operations {
            let definitions = operation.node.variableDefinitions
            let names = VariableNames(definitions)
            // By the position of the last definition of each name: a name is used or not.
            var used = Array(repeating: false, count: definitions.count)
            for usage in context.recursiveVariableUsages(ofDefinition: operation.index) {
                if let position = names.last(usage.variable.name.value) { used[position] = true }
            }
            for definition in definitions {
                let name = definition.variable.name.value
                if let position = names.last(name), used[position] { continue }
                report(
                    Self.message(name, operation: operation.node.name?.value),
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
