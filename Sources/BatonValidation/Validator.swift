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
        return inDocumentOrder(context.reportedDiagnostics, order: order(of: documents.map(\.source)))
    }

    /// Validates `documents` as one unit, as `validate(... mode: .merged)` does, batch by batch on
    /// up to `workers` threads (`ParallelWork`): `batches` (indices into `documents`) must come from
    /// `DocumentGroups`, so that no batch shares a name with another. The result is the one unit's,
    /// diagnostic for diagnostic and in the same order, whatever `workers` is: each batch reports in
    /// its documents' order, the reports are merged back into the unit's document order, and what a
    /// unit reports once (`validation-depth`) is kept once, at its first document.
    package static func validate(
        schema: GraphQLSchema, documents: [Document], rules: [any ValidationRule.Type] = specifiedRules,
        options: ValidationOptions? = nil, batches: [[Int]], workers: Int
    ) -> [Diagnostic] {
        let ruleTypes = RuleTypes(rules)
        let parts = ParallelWork.map(batches, workers: workers) { batch in
            validateUnit(
                schema: schema, documents: batch.map { documents[$0] }, rules: ruleTypes.rules, options: options)
        }
        return merged(parts, sources: documents.map(\.source))
    }

    /// The diagnostics of batches of one unit, as the unit's validation orders them; of the
    /// once-per-unit reports (`validation-depth`, one from the walk and one from field merging)
    /// only the first is kept. `sources` are the unit's documents' sources, in the unit's order.
    package static func merged(_ parts: [[Diagnostic]], sources: [SourceFile]) -> [Diagnostic] {
        merged(parts, order: order(of: sources))
    }

    /// `merged(_:sources:)` with each source's place in the unit given by its identity.
    package static func merged(_ parts: [[Diagnostic]], order: [ObjectIdentifier: Int]) -> [Diagnostic] {
        var ordered = inDocumentOrder(parts.flatMap { $0 }, order: order)
        guard parts.count > 1 else { return ordered }
        var seen: Set<Bool> = []
        ordered.removeAll { diagnostic in
            guard diagnostic.rule == "validation-depth" else { return false }
            // Field merging's report says what was compared; the walk's does not.
            return !seen.insert(diagnostic.message.contains(" compared ")).inserted
        }
        return ordered
    }

    /// Stable order: by document, then position; equal positions keep the order of discovery.
    static func inDocumentOrder(_ diagnostics: [Diagnostic], order: [ObjectIdentifier: Int]) -> [Diagnostic] {
        return diagnostics.enumerated().sorted { lhs, rhs in
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

extension Validator {
    /// Each source's place in `sources` (the first, for one given twice).
    static func order(of sources: [SourceFile]) -> [ObjectIdentifier: Int] {
        Dictionary(sources.enumerated().map { (ObjectIdentifier($1), $0) }, uniquingKeysWith: { a, _ in a })
    }
}

/// Rule types (metatypes of immutable rule classes) handed to the workers.
private struct RuleTypes: @unchecked Sendable {
    let rules: [any ValidationRule.Type]
    init(_ rules: [any ValidationRule.Type]) { self.rules = rules }
}
