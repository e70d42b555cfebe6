import BatonDiagnostics
import BatonSyntax

/// Unique operation types: each of `query`, `mutation` and `subscription` is given at most
/// once across the schema definition and its extensions. Spec: "Root Operation Types".
/// graphql-js: `UniqueOperationTypesRule`.
struct UniqueOperationTypesRule: SDLRule {
    static let id = "unique-operation-types"

    static func check(_ context: SDLValidationContext) {
        var defined: [OperationType: (OperationTypeDefinition, SourceFile)] = [:]
        for position in context.index.schemaPositions {
            let located = context.definitions[position]
            guard case .schema(let node) = located.definition else { continue }
            for operationType in node.operationTypes {
                if let (first, firstFile) = defined[operationType.operation] {
                    context.report(
                        onlyOne(operationType.operation.rawValue), rule: id, file: firstFile, span: first.span,
                        notes: [("Also defined here.", located.file, operationType.span)])
                } else {
                    defined[operationType.operation] = (operationType, located.file)
                }
            }
        }
    }

    static func onlyOne(_ operation: String) -> String { "There can be only one \(operation) type in schema." }
}
