import BatonDiagnostics
import BatonSyntax

/// Unique enum value names: an enum (with its extensions) defines each value once.
/// Spec: "Enums". graphql-js: `UniqueEnumValueNamesRule`.
struct UniqueEnumValueNamesRule: SDLRule {
    static let id = "unique-enum-value-names"

    static func check(_ context: SDLValidationContext) {
        // Only the definitions the scan found suspect (see `SDLScan.enumValueCandidates`).
        var known: [String: [String: (Name, SourceFile)]] = [:]
        for position in context.scan.enumValueCandidates {
            let located = context.definitions[position]
            guard case .enumType(let node) = located.definition else { continue }
            let typeName = node.name.value
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
