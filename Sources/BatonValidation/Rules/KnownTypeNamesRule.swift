import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Known type names.
///
/// Every type named in a variable definition or a type condition must be defined by the schema.
/// Spec: 5.5.1.2 Fragment Spread Type Existence; 5.8.2 Variables Are Input Types.
package final class KnownTypeNamesRule: ValidationRuleBase, ValidationRule {
    package static let id = "known-type-names"
    package static let hooks: ValidationHooks = [.namedType]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    override package func enterNamedType(_ node: NamedType) {
        let name = node.name.value
        guard context.schema.types[name] == nil, !definedInDocument(name) else { return }
        // Types defined by SDL in the document count as known, as in graphql-js.
        let suggestions = Suggestions.list(name, allTypeNames())
        report(Self.unknownTypeMessage(name) + Suggestions.didYouMean(suggestions), at: node.span)
    }

    private var documentTypeNames: Set<String>?
    private func definedInDocument(_ name: String) -> Bool {
        if documentTypeNames == nil {
            var names: Set<String> = []
            for entry in context.definitions {
                switch entry.definition {
                case .scalar(let node) where !node.isExtension: names.insert(node.name.value)
                case .object(let node) where !node.isExtension: names.insert(node.name.value)
                case .interface(let node) where !node.isExtension: names.insert(node.name.value)
                case .union(let node) where !node.isExtension: names.insert(node.name.value)
                case .enumType(let node) where !node.isExtension: names.insert(node.name.value)
                case .inputObject(let node) where !node.isExtension: names.insert(node.name.value)
                default: break
                }
            }
            documentTypeNames = names
        }
        return documentTypeNames?.contains(name) ?? false
    }

    private func allTypeNames() -> [String] {
        context.schema.typeNames + (documentTypeNames.map { Array($0) } ?? [])
    }
}

extension KnownTypeNamesRule {
    static func unknownTypeMessage(_ name: String) -> String { "Unknown type \"\(name)\"." }
}
