import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// How documents are grouped for validation.
package enum ValidationMode: Sendable {
    /// All documents form one unit, as `baton check` treats a project and graphql-js's `--merge`:
    /// fragments defined in one file may be used in another, and names must be unique across files.
    case merged
    /// Each document is validated on its own.
    case perFile
}

/// Validates executable documents against a schema: one walk over each unit with every rule.
package enum Validator {
    /// For measuring only (`BATON_BENCH_ALL_HOOKS=1` in `BatonBenchmark validation`): the walker
    /// calls every rule's every hook, as before rules declared their `hooks`. Same diagnostics.
    nonisolated(unsafe) package static var callsEveryHook = false

    /// Validates `documents` with `rules` (by default the spec's rules in graphql-js's order) and
    /// returns every error, each located in the file its first node is in, ordered by document
    /// and position. `options` carries the project's settings some of Baton's rules read
    /// (`unmapped-custom-scalar`); without them those rules report nothing.
    package static func validate(
        schema: GraphQLSchema, documents: [Document], rules: [any ValidationRule.Type] = specifiedRules,
        mode: ValidationMode = .merged, options: ValidationOptions? = nil
    ) -> [Diagnostic] {
        switch mode {
        case .merged:
            return validateUnit(schema: schema, documents: documents, rules: rules, options: options)
        case .perFile:
            return documents.flatMap {
                validateUnit(schema: schema, documents: [$0], rules: rules, options: options)
            }
        }
    }

    /// Validates one unit: the documents are walked as one document.
    static func validateUnit(
        schema: GraphQLSchema, documents: [Document], rules: [any ValidationRule.Type],
        options: ValidationOptions? = nil
    ) -> [Diagnostic] {
        guard !documents.isEmpty else { return [] }
        let context = ValidationContext(schema: schema, documents: documents, options: options)
        let instances = rules.map { $0.init(context: context) }
        var walker = Walker(context: context, rules: instances)
        walker.walkUnit()
        let order = Dictionary(
            documents.enumerated().map { (ObjectIdentifier($1.source), $0) }, uniquingKeysWith: { a, _ in a })
        // Stable order: by document, then position; equal positions keep the order of discovery.
        return context.reportedDiagnostics.enumerated().sorted { lhs, rhs in
            let lf = lhs.element.range.map { order[ObjectIdentifier($0.file)] ?? Int.max } ?? Int.max
            let rf = rhs.element.range.map { order[ObjectIdentifier($0.file)] ?? Int.max } ?? Int.max
            if lf != rf { return lf < rf }
            let ls = lhs.element.range?.span.start ?? 0
            let rs = rhs.element.range?.span.start ?? 0
            if ls != rs { return ls < rs }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
