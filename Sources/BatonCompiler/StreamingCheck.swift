import BatonConfig
import BatonDiagnostics
import BatonIR
import BatonSchema
import BatonSyntax
import BatonValidation

/// `check`'s validate and plan stages without holding the project's ASTs: each file is read and
/// parsed on `ParallelWork` once to learn the names it shares (`DocumentLinks`) and let go, the
/// files are cut into batches that share no name (`DocumentGroups`, fixed by the input alone), and
/// each batch is read and parsed again, validated and (when nothing before it is an error) planned
/// for its diagnostics, then let go. The merged diagnostics are the whole-project path's, byte for
/// byte, whatever the number of workers (`StreamingCheckTests`).
///
/// Only a one-shot `check` runs it (`Compilation.streamsDocuments`): a compilation that is kept
/// (watch mode, `plate`, `gen`) holds its documents.
struct StreamingCheck {
    /// A file after the first pass: its unit without documents, and what the second pass needs.
    struct ReadFile: Sendable {
        var unit: DocumentUnit
        /// How many documents parsed (a Swift file's literals are one each).
        var documentCount: Int
        /// Its documents' links, merged: a file's documents stay in one batch.
        var links: DocumentLinks
        /// Its documents' bytes.
        var weight: Int
    }

    /// One batch's diagnostics (unsettled), the plan's (settled; nil when not planned), and the
    /// sources they point into, with each one's place in the project.
    struct BatchResult: Sendable {
        var validation: [Diagnostic]
        var plan: [Diagnostic]?
        var sources: [(SourceFile, Int)]
    }

    let project: ProjectInput
    let loader: ProjectLoader
    let policy: DiagnosticPolicy
    let workers: Int
    let batchBytes: Int

    /// The first pass: every document file read and parsed, its links noted, its ASTs let go.
    func read() -> [ReadFile] {
        let skipsSchemaOnly = project.skipsSchemaOnlyFiles
        let (loader, policy, configuration) = (self.loader, self.policy, project.configuration)
        return ParallelWork.map(project.documentFiles, workers: workers) { path -> ReadFile? in
            var unit = loader.loadUnit(path)
            if skipsSchemaOnly, Path.pathExtension(path) != "swift", unit.isSchemaOnly { return nil }
            unit.diagnostics = policy.settle(unit.diagnostics, configuration: configuration)
            let links = unit.documents.map(DocumentLinks.of).reduce(DocumentLinks()) { $0.merging($1) }
            let weight = unit.documents.reduce(0) { $0 + $1.source.bytes.count }
            let count = unit.documents.count
            unit.documents = []
            return ReadFile(unit: unit, documentCount: count, links: links, weight: weight)
        }.compactMap { $0 }
    }

    /// The second pass: validation, and the plan's diagnostics when `plans`, batch by batch.
    /// Returns the validation diagnostics (unsettled, in the whole unit's order) and the plan's
    /// (settled, sorted), nil when some batch did not reach the plan.
    func validate(_ files: [ReadFile], schema: GraphQLSchema, plans: Bool) -> ([Diagnostic], [Diagnostic]?) {
        // Only files with documents take part; each document's place in the project is its
        // file's first place plus its own within the file.
        let parsed = files.indices.filter { files[$0].documentCount > 0 }
        var first: [Int] = []
        var count = 0
        for index in parsed {
            first.append(count)
            count += files[index].documentCount
        }
        let batches = DocumentGroups.batches(
            DocumentGroups.groups(parsed.map { files[$0].links }), weights: parsed.map { files[$0].weight },
            minimumWeight: batchBytes)
        let paths = parsed.map { files[$0].unit.path }
        let starts = first
        let (loader, configuration, policy) = (self.loader, project.configuration, self.policy)
        var options = Compilation.modelOptions(configuration)
        options.checksOnly = true
        let planOptions = options
        let results = ParallelWork.map(batches, workers: workers) { batch -> BatchResult in
            var documents: [Document] = []
            var sources: [(SourceFile, Int)] = []
            for member in batch {
                for (offset, document) in loader.loadUnit(paths[member]).documents.enumerated() {
                    documents.append(document)
                    sources.append((document.source, starts[member] + offset))
                }
            }
            let validation = DocumentValidation.validate(
                schema: schema, documents: documents, configuration: configuration)
            guard plans, !policy.settle(validation, configuration: configuration).contains(where: policy.isError)
            else { return BatchResult(validation: validation, plan: nil, sources: sources) }
            let (_, plan) = LensModelBuilder.build(schema: schema, documents: documents, options: planOptions)
            return BatchResult(
                validation: validation, plan: policy.settle(plan, configuration: configuration), sources: sources)
        }
        var order: [ObjectIdentifier: Int] = [:]
        for result in results {
            for (source, place) in result.sources { order[ObjectIdentifier(source)] = place }
        }
        let validation = Validator.merged(results.map(\.validation), order: order)
        var plan: [Diagnostic] = []
        for result in results {
            guard let part = result.plan else { return (validation, nil) }
            plan += part
        }
        return (validation, plan.sorted(by: Diagnostic.sortKey))
    }
}
