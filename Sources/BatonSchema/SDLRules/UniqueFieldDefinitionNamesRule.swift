import BatonDiagnostics
import BatonSyntax

/// Unique field definition names: an object, interface or input object (with its extensions)
/// defines each field once. Spec: "Objects", "Interfaces", "Input Objects".
/// graphql-js: `UniqueFieldDefinitionNamesRule`.
struct UniqueFieldDefinitionNamesRule: SDLRule {
    static let id = "unique-field-definition-names"

    static func check(_ context: SDLValidationContext) {
        // Only the definitions the scan found suspect: those with a repeated field name, and
        // every definition of a type written more than once. Keyed by type name whatever the
        // kind, as graphql-js does.
        var known: [String: [String: (Name, SourceFile)]] = [:]
        func check(_ typeName: String, _ names: [Name], _ file: SourceFile) {
            var seen = known[typeName] ?? [:]
            for name in names {
                if let (first, firstFile) = seen[name.value] {
                    context.report(
                        onlyOnce(typeName, name.value), rule: id, file: firstFile, span: first.span,
                        notes: [("Also defined here.", file, name.span)])
                } else {
                    seen[name.value] = (name, file)
                }
            }
            known[typeName] = seen
        }
        for position in context.scan.fieldNameCandidates {
            let located = context.definitions[position]
            switch located.definition {
            case .object(let node): check(node.name.value, node.fields.map(\.name), located.file)
            case .interface(let node): check(node.name.value, node.fields.map(\.name), located.file)
            case .inputObject(let node): check(node.name.value, node.fields.map(\.name), located.file)
            default: break
            }
        }
    }

    static func onlyOnce(_ type: String, _ field: String) -> String {
        "Field \"\(type).\(field)\" can only be defined once."
    }
}
