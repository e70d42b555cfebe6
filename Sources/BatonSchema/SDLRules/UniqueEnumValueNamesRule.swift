import BatonDiagnostics
import BatonSyntax

/// Unique enum value names: an enum (with its extensions) defines each value once.
/// Spec: "Enums". graphql-js: `UniqueEnumValueNamesRule`.
struct UniqueEnumValueNamesRule: SDLRule {
    static let id = "unique-enum-value-names"

    static func check(_ context: SDLValidationContext) {
        var known: [String: [String: (Name, SourceFile)]] = [:]
        let occurrences = context.typeNameOccurrences
        for located in context.definitions {
            guard case .enumType(let node) = located.definition else { continue }
            let typeName = node.name.value
            if occurrences[typeName] == 1 && !hasDuplicateNames(node.values.lazy.map(\.name.value)) { continue }
            var names = known[typeName] ?? [:]
            for value in node.values {
                if let (first, firstFile) = names[value.name.value] {
                    context.report(
                        onlyOnce(typeName, value.name.value), rule: id, file: firstFile, span: first.span,
                        notes: [("Also defined here.", located.file, value.name.span)])
                } else {
                    names[value.name.value] = (value.name, located.file)
                }
            }
            known[typeName] = names
        }
    }

    static func onlyOnce(_ type: String, _ value: String) -> String {
        "Enum value \"\(type).\(value)\" can only be defined once."
    }
}
