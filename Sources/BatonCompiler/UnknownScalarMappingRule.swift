import BatonConfig
import BatonDiagnostics
import BatonSchema

/// `unknown-scalar-mapping`: every `customScalarTypes` key must name a custom scalar of the
/// schema.
///
/// Baton: a mapping of a scalar the schema lacks is a typo or a leftover from a schema change,
/// and a built-in scalar (`ID`, `String`, `Int`, `Float`, `Boolean`) always reads as its
/// language's own type; either way the mapping would silently do nothing. Reported in
/// `baton.json`, at the key.
package enum UnknownScalarMappingRule {
    package static let descriptor = RuleDescriptor(
        id: "unknown-scalar-mapping", title: "Scalar mappings name custom scalars.",
        summary: "Every customScalarTypes key must name a custom scalar of the schema.", origin: .baton)
    package static var id: String { descriptor.id }

    package static func check(_ configuration: Configuration, schema: GraphQLSchema) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let customScalars = schema.typeNames.filter { name in
            schema.types[name]?.kind == .scalar && !BuiltIns.scalarNames.contains(name)
        }
        for mapping in configuration.customScalarTypes {
            let message: String
            if BuiltIns.scalarNames.contains(mapping.name) {
                message = builtInMessage(mapping.name)
            } else if let type = schema.types[mapping.name] {
                guard type.kind != .scalar else { continue }
                message = notScalarMessage(mapping.name, kind: type.kind)
            } else {
                message = unknownMessage(mapping.name) + Suggestion.didYouMean(mapping.name, in: customScalars)
            }
            diagnostics.append(.error(message, rule: id, file: configuration.file, span: mapping.nameSpan))
        }
        return diagnostics
    }

    static func builtInMessage(_ name: String) -> String {
        "\"\(name)\" is a built-in scalar and cannot be mapped: it always reads as the language's own type."
    }

    static func notScalarMessage(_ name: String, kind: TypeKind) -> String {
        let word: String
        switch kind {
        case .object: word = "an object type"
        case .interface: word = "an interface"
        case .union: word = "a union"
        case .enumType: word = "an enum"
        case .inputObject: word = "an input object type"
        case .scalar: word = "a scalar"
        }
        return "\"\(name)\" is \(word), not a scalar; only custom scalars can be mapped."
    }

    static func unknownMessage(_ name: String) -> String {
        "Unknown scalar \"\(name)\": the schema has no scalar of that name."
    }
}
