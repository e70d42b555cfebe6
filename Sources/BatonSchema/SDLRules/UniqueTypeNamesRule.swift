import BatonDiagnostics
import BatonSyntax

/// Unique type names: a type is defined once (extensions aside), across all schema files.
/// Spec: "Types". graphql-js: `UniqueTypeNamesRule`.
struct UniqueTypeNamesRule: SDLRule {
    static let id = "unique-type-names"

    static func check(_ context: SDLValidationContext) {
        guard !context.index.multiplyDefinedTypes.isEmpty else { return }
        var known: [String: (Name, SourceFile)] = [:]
        for located in context.definitions {
            guard !SDLConverter.isTypeExtension(located.definition),
                let name = SDLConverter.typeName(located.definition)
            else { continue }
            if let (first, firstFile) = known[name.value] {
                context.report(
                    onlyOne(name.value), rule: id, file: firstFile, span: first.span,
                    notes: [("Also defined here.", located.file, name.span)])
            } else {
                known[name.value] = (name, located.file)
            }
        }
    }

    static func onlyOne(_ name: String) -> String { "There can be only one type named \"\(name)\"." }
}
