import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// All variable usages are allowed.
///
/// A variable may be used only where its type fits the expected type; a nullable variable may
/// be used in a non-null position only when the variable or the position has a default.
/// Spec: 5.8.5 All Variable Usages are Allowed.
package final class VariablesInAllowedPositionRule: ValidationRuleBase, ValidationRule {
    package static let id = "variables-in-allowed-position"
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
            let usages = context.recursiveVariableUsages(ofDefinition: operation.index)
            guard !usages.isEmpty else { continue }
            // The last definition of a name wins, as in graphql-js.
            let definitions = operation.node.variableDefinitions
            let names = VariableNames(definitions)
            for usage in usages {
                guard let locationType = usage.type, let position = names.last(usage.variable.name.value) else {
                    continue
                }
                let definition = definitions[position]
                guard let variableType = context.type(of: definition) else { continue }
                if !Self.allowed(
                    variableType.ref, variableDefault: definition.defaultValue, locationType.ref,
                    hasLocationDefault: usage.hasLocationDefault)
                {
                    report(
                        Self.message(
                            usage.variable.name.value, variableType.ref.description, locationType.ref.description),
                        [
                            SourceRange(file: operation.file, span: definition.variable.span),
                            SourceRange(file: usage.file, span: usage.variable.span),
                        ])
                }
            }
        }
    }

    /// graphql-js's `allowedVariableUsage`.
    static func allowed(
        _ variableType: TypeRef, variableDefault: Value?, _ locationType: TypeRef, hasLocationDefault: Bool
    )
        -> Bool
    {
        if case .nonNull(let nullableLocation) = locationType, !variableType.isNonNull {
            var hasNonNullVariableDefault = false
            if let variableDefault {
                if case .null = variableDefault {} else { hasNonNullVariableDefault = true }
            }
            if !hasNonNullVariableDefault && !hasLocationDefault { return false }
            return isSubType(variableType, of: nullableLocation)
        }
        return isSubType(variableType, of: locationType)
    }

    /// graphql-js's `isTypeSubTypeOf` for input types (which are never abstract).
    static func isSubType(_ maybeSubType: TypeRef, of superType: TypeRef) -> Bool {
        switch (maybeSubType, superType) {
        case (.named(let a), .named(let b)): return a == b
        case (.nonNull(let a), .nonNull(let b)): return isSubType(a, of: b)
        case (_, .nonNull): return false
        case (.nonNull(let a), _): return isSubType(a, of: superType)
        case (.list(let a), .list(let b)): return isSubType(a, of: b)
        case (_, .list), (.list, _): return false
        }
    }
}

extension VariablesInAllowedPositionRule {
    static func message(_ variable: String, _ variableType: String, _ expected: String) -> String {
        "Variable \"$\(variable)\" of type \"\(variableType)\" used in position expecting type \"\(expected)\"."
    }
}
