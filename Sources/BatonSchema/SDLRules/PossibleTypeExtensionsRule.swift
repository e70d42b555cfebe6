import BatonDiagnostics
import BatonSyntax

/// Possible type extensions: `extend` applies to a type defined in the schema, of the same
/// kind. Spec: "Type Extensions". graphql-js: `PossibleTypeExtensionsRule`.
struct PossibleTypeExtensionsRule: SDLRule {
    static let id = "possible-type-extensions"

    static func check(_ context: SDLValidationContext) {
        guard context.hasTypeExtensions else { return }
        // The last definition of a name is the one graphql-js compares against.
        var defined: [String: LocatedDefinition] = [:]
        let typeDefinitions = context.index.typePositions.map { context.definitions[$0] }
        for located in typeDefinitions where !SDLConverter.isTypeExtension(located.definition) {
            if let name = SDLConverter.typeName(located.definition) { defined[name.value] = located }
        }
        for located in typeDefinitions where SDLConverter.isTypeExtension(located.definition) {
            guard let name = SDLConverter.typeName(located.definition),
                let kind = SDLConverter.kind(located.definition)
            else { continue }
            if let definition = defined[name.value] {
                if SDLConverter.kind(definition.definition) != kind {
                    context.report(
                        cannotExtendKind(kindName(kind), name.value), rule: id, file: definition.file,
                        span: definition.definition.span,
                        notes: [("Extended here.", located.file, located.definition.span)])
                }
            } else {
                let suggestions = Suggestions.list(name.value, context.definedTypeNames)
                context.report(
                    notDefined(name.value) + Suggestions.didYouMean(suggestions), rule: id, file: located.file,
                    span: name.span)
            }
        }
    }

    static func kindName(_ kind: TypeKind) -> String {
        switch kind {
        case .scalar: "scalar"
        case .object: "object"
        case .interface: "interface"
        case .union: "union"
        case .enumType: "enum"
        case .inputObject: "input object"
        }
    }

    static func cannotExtendKind(_ kind: String, _ name: String) -> String {
        "Cannot extend non-\(kind) type \"\(name)\"."
    }
    static func notDefined(_ name: String) -> String { "Cannot extend type \"\(name)\" because it is not defined." }
}
