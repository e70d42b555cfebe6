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
        var known: [String: [String: (Name, shape: String, SourceFile)]] = [:]
        func check(_ typeName: String, _ fields: [(name: Name, shape: String)], _ file: SourceFile) {
            var seen = known[typeName] ?? [:]
            for (name, shape) in fields {
                if let (first, firstShape, firstFile) = seen[name.value] {
                    context.reportRepeat(
                        onlyOnce(typeName, name.value), rule: id, first: (first.span, firstFile),
                        again: (name.span, file), identical: shape == firstShape)
                } else {
                    seen[name.value] = (name, shape, file)
                }
            }
            known[typeName] = seen
        }
        for position in context.scan.fieldNameCandidates {
            let located = context.definitions[position]
            switch located.definition {
            case .object(let node): check(node.name.value, node.fields.map { ($0.name, shape($0)) }, located.file)
            case .interface(let node): check(node.name.value, node.fields.map { ($0.name, shape($0)) }, located.file)
            case .inputObject(let node):
                check(node.name.value, node.fields.map { ($0.name, shape($0)) }, located.file)
            default: break
            }
        }
    }

    /// A field definition as printed without its descriptions (or its arguments'): what the
    /// schema Baton builds takes from it.
    static func shape(_ field: FieldDefinition) -> String {
        var field = field
        field.description = nil
        for index in field.arguments.indices { field.arguments[index].description = nil }
        return Printer.print(field)
    }

    /// An input field definition as printed without its description.
    static func shape(_ field: InputValueDefinition) -> String {
        var field = field
        field.description = nil
        return Printer.print(field)
    }

    static func onlyOnce(_ type: String, _ field: String) -> String {
        "Field \"\(type).\(field)\" can only be defined once."
    }
}
