import BatonConfig
import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonValidation

/// The validation step of `check`, `plate` and `gen`: every rule (the spec's, then Baton's) over
/// all documents of a project as one unit, so fragments resolve across files. The project's
/// `rules` settings are the driver's `DiagnosticPolicy`'s to apply.
package enum DocumentValidation {
    /// The rules these commands run, in order: graphql-js's `specifiedRules`, then Baton's.
    package static var rules: [any ValidationRule.Type] { allRules }

    /// Validates a project's documents. Without a configuration (`--schema` runs) Baton's
    /// configuration-driven rule (`unmapped-custom-scalar`) has nothing to compare with and
    /// stays silent.
    package static func validate(
        schema: GraphQLSchema, documents: [Document], configuration: Configuration? = nil
    ) -> [Diagnostic] {
        Validator.validate(
            schema: schema, documents: documents, rules: rules, mode: .merged,
            options: configuration.map(options(for:)))
    }

    /// What Baton's rules need from `baton.json`: which scalars are mapped for which language,
    /// and which languages `output` generates.
    package static func options(for configuration: Configuration) -> ValidationOptions {
        var mappings: [String: Set<CodegenLanguage>] = [:]
        for scalar in configuration.customScalarTypes {
            if scalar.swift != nil { mappings[scalar.name, default: []].insert(.swift) }
            if scalar.kotlin != nil { mappings[scalar.name, default: []].insert(.kotlin) }
        }
        var output: Set<CodegenLanguage> = []
        if configuration.output.swiftPath != nil { output.insert(.swift) }
        if configuration.output.kotlinPath != nil { output.insert(.kotlin) }
        return ValidationOptions(scalarMappings: mappings, outputLanguages: output)
    }
}
