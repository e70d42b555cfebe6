import BatonDiagnostics
import BatonSyntax

/// Unique enum value names: an enum (with its extensions) defines each value once.
/// Spec: "Enums". graphql-js: `UniqueEnumValueNamesRule`.
struct UniqueEnumValueNamesRule: SDLRule {
    static let id = "unique-enum-value-names"

    static func check(_ context: SDLValidationContext) {
        // Only the definitions the scan found suspect (see `SDLScan.enumValueCandidates`).
        var known: [String: [String: (Name, shape: String, SourceFile)]] = [:]
        for position in context.scan.enumValueCandidates {
            let located = context.definitions[position]
            guard case .enumType(let node) = located.definition else { continue }
            let typeName = node.name.value
            var names = known[typeName] ?? [:]
            for value in node.values {
                // The value as printed without its description: its directives (@deprecated) count.
                var bare = value
                bare.description = nil
                let shape = Printer.print(bare)
                if let (first, firstShape, firstFile) = names[value.name.value] {
                    context.reportRepeat(
                        onlyOnce(typeName, value.name.value), rule: id, first: (first.span, firstFile),
                        again: (value.name.span, located.file), identical: shape == firstShape)
                } else {
                    names[value.name.value] = (value.name, shape, located.file)
                }
            }
            known[typeName] = names
        }
    }

    static func onlyOnce(_ type: String, _ value: String) -> String {
        "Enum value \"\(type).\(value)\" can only be defined once."
    }
}
