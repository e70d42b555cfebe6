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

    /// The rules to run for a project: those `baton.json` turns off are left out, since the policy would drop
    /// everything they report (`unmapped-custom-scalar` off spent 3% of validating 10,000 GitHub operations
    /// recording scalars it never reported); a rule that also reports under another id always runs.
    package static func rules(for configuration: Configuration?) -> [any ValidationRule.Type] {
        guard let configuration, !configuration.rules.isEmpty else { return rules }
        return rules.filter { $0.affectsOtherRules || configuration.ruleSetting(for: $0.id) != .off }
    }

    /// Validates a project's documents. Without a configuration (`--schema` runs) Baton's
    /// configuration-driven rule (`unmapped-custom-scalar`) has nothing to compare with and
    /// stays silent.
    package static func validate(
        schema: GraphQLSchema, documents: [Document], configuration: Configuration? = nil
    ) -> [Diagnostic] {
        Validator.validate(
            schema: schema, documents: documents, rules: rules(for: configuration), mode: .merged,
            options: configuration.map(options(for:)))
    }

    /// Validates again only what a change can reach: `links` are every document's
    /// (`DocumentLinks.of`, in `documents` order), `changed` the indices of the documents that
    /// changed. Returns the documents reached (every document sharing a group with a changed one,
    /// ascending) and their diagnostics, which are exactly what validating the whole project gives
    /// them (unsettled, in its order; a `validation-depth` report, once per unit, aside). The other
    /// documents' diagnostics do not change.
    ///
    /// For a changed document whose names changed, give as its links the union of its links before
    /// and after (`DocumentLinks.merging`): a document that spread a fragment the change removed is
    /// then reached too. This is the library face of `check`'s batches (`StreamingCheck`), for watch
    /// mode and one-edit `gen`.
    package static func validate(
        schema: GraphQLSchema, documents: [Document], links: [DocumentLinks], changed: Set<Int>,
        configuration: Configuration? = nil
    ) -> (reached: [Int], diagnostics: [Diagnostic]) {
        let reached = DocumentGroups.reaching(changed, links: links).filter(documents.indices.contains)
        return (
            reached, validate(schema: schema, documents: reached.map { documents[$0] }, configuration: configuration)
        )
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
