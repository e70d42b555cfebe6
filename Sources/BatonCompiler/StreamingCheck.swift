import BatonConfig
import BatonDiagnostics
import BatonFiles
import BatonIR
import BatonSchema
import BatonSyntax
import BatonValidation

/// `check`'s validate and plan stages without holding the project's ASTs: each file is read on
/// `ParallelWork` once to learn the names it shares (`DocumentLinks`), from its tokens alone
/// (`DocumentLinkScanner`; a file the scanner does not follow is parsed), and let go; the files
/// are cut into batches that share no name (`DocumentGroups`, fixed by the input alone), and each
/// batch is read and parsed, validated and (when nothing before it is an error) planned for its
/// diagnostics, then let go. The merged diagnostics are the whole-project path's, byte for byte,
/// whatever the number of workers (`StreamingCheckTests`).
///
/// The second pass checks the first: a file whose parse gives other links, another number of
/// documents or syntax errors the first pass did not see (the scanner missed a syntax error, or
/// the file changed between the passes) sends every file back with what the second pass found
/// (`Outcome.regroup`), to be batched again; a second disagreement validates everything as one
/// batch, which is right whatever the links. So no document is ever validated in a wrong batch.
///
/// Only a one-shot `check` runs it (`CompilationOptions.streamsDocuments`): a compilation that is kept
/// (watch mode, `plate`, `gen`) holds its documents.
package struct StreamingCheck {
    /// A file after the first pass: its unit without documents, and what the second pass needs.
    struct ReadFile: Sendable {
        var unit: DocumentUnit
        /// How many documents parsed (a Swift file's literals are one each).
        var documentCount: Int
        /// Its documents' links, merged: a file's documents stay in one batch.
        var links: DocumentLinks
        /// Its documents' bytes.
        var weight: Int
        /// Its reading and extraction diagnostics (settled), before any syntax diagnostics.
        var readDiagnostics: [Diagnostic] = []
        /// How many syntax diagnostics its parse gave (0 when it was only scanned).
        var parseProblems = 0
    }

    /// What the second pass found of one file: what it compares with the first pass's `ReadFile`.
    struct Observed: Sendable {
        var links: DocumentLinks
        var documentCount: Int
        var weight: Int
        var parseDiagnostics: [Diagnostic]
    }

    /// The second pass's result: the diagnostics, or the files as the second pass found them when
    /// they disagree with the first pass's.
    enum Outcome {
        case done(validation: [Diagnostic], plan: [Diagnostic]?)
        case regroup([ReadFile])
    }

    /// One batch's diagnostics (unsettled), the plan's (settled; nil when not planned), and the
    /// sources its validation diagnostics point into, with each one's place in the project.
    struct BatchResult: Sendable {
        var validation: [Diagnostic]
        var plan: [Diagnostic]?
        /// Only the sources the merge orders by (`placed(_:in:)`): the batch's other texts are let go with it.
        var sources: [(SourceFile, Int)]
        /// The parse of each member that disagrees with the first pass (`disagrees`), by its index in the
        /// batch's list: none, usually, so nothing is held for the others until every batch is done.
        var observed: [(Int, Observed)]
    }

    let project: ProjectInput
    let loader: ProjectLoader
    let policy: DiagnosticPolicy
    let workers: Int
    let batchBytes: Int
    /// Run after the first pass, before each second pass reads a file (tests rewrite files there,
    /// as an editor might while `check` runs).
    var betweenPasses: (@Sendable () -> Void)? = nil

    /// The first pass: every document file read, its links noted (scanned, or parsed when the
    /// scanner cannot tell), its ASTs let go.
    func read() -> [ReadFile] {
        let skipsSchemaOnly = project.skipsSchemaOnlyFiles
        let (loader, policy, configuration) = (self.loader, self.policy, project.configuration)
        return ParallelWork.map(project.documentFiles, workers: workers) { path -> ReadFile? in
            let (sources, diagnostics) = loader.documentSources(path)
            var scanned: [DocumentLinks] = []
            for source in sources {
                guard let links = source.bytes.withUnsafeBufferPointer(DocumentLinkScanner.scan) else { break }
                scanned.append(links)
            }
            if scanned.count == sources.count {
                var unit = DocumentUnit(path: path)
                unit.sourceCount = sources.count
                unit.diagnostics = policy.settle(diagnostics, configuration: configuration)
                return ReadFile(
                    unit: unit, documentCount: sources.count,
                    links: Self.held(scanned.reduce(DocumentLinks()) { $0.merging($1) }),
                    weight: sources.reduce(0) { $0 + $1.bytes.count }, readDiagnostics: unit.diagnostics)
            }
            var unit = DocumentUnit(path: path, parsing: sources, diagnostics: diagnostics)
            if skipsSchemaOnly, Path.pathExtension(path) != "swift", unit.isSchemaOnly { return nil }
            let observed = Self.observe(unit, readCount: diagnostics.count)
            unit.diagnostics = policy.settle(unit.diagnostics, configuration: configuration)
            unit.documents = []
            return ReadFile(
                unit: unit, documentCount: observed.documentCount, links: Self.held(observed.links),
                weight: observed.weight,
                readDiagnostics: policy.settle(diagnostics, configuration: configuration),
                parseProblems: observed.parseDiagnostics.count)
        }.compactMap { $0 }
    }

    /// `links` with its keys in a list of their own size: the first pass's links are held for every file until
    /// the last batch is done, and a list made unique in place (`DocumentLinks.sortedWithoutRepeats`) keeps the
    /// room of the repeats it dropped (saleor's 10,000 files: 62,745 keys gathered, 26,440 kept).
    static func held(_ links: DocumentLinks) -> DocumentLinks {
        guard links.keys.capacity > links.keys.count else { return links }
        var keys: [String] = []
        keys.reserveCapacity(links.keys.count)
        keys.append(contentsOf: links.keys)
        return DocumentLinks(keys: keys, joinsAll: links.joinsAll)
    }

    /// The sources, with their places, that some diagnostic's range points into: all the merge needs to order
    /// a batch's validation diagnostics (`Validator.merged`), and kept alive by those diagnostics anyway. Every
    /// other text of the batch is let go with its ASTs instead of waiting for the merge (on a large project
    /// the texts would otherwise all be held at the end: 7.9 MB for 10,000 operations).
    package static func placed(_ sources: [(SourceFile, Int)], in diagnostics: [Diagnostic]) -> [(SourceFile, Int)] {
        var files = Set<ObjectIdentifier>()
        for diagnostic in diagnostics {
            if let range = diagnostic.range { files.insert(ObjectIdentifier(range.file)) }
        }
        return files.isEmpty ? [] : sources.filter { files.contains(ObjectIdentifier($0.0)) }
    }

    /// True when the second pass found a file other than the first pass noted it: other links, another number
    /// of documents, or other syntax errors.
    static func disagrees(_ seen: Observed, with file: ReadFile) -> Bool {
        seen.links != file.links || seen.documentCount != file.documentCount
            || seen.parseDiagnostics.count != file.parseProblems
    }

    /// `!disagrees(observe(unit, readCount:), with: file)`, told without making the unit's links
    /// (`DocumentLinks.isLinks(of:)`): what the second pass asks of every file it parses.
    static func agrees(_ unit: DocumentUnit, readCount: Int, with file: ReadFile) -> Bool {
        unit.diagnostics.count - readCount == file.parseProblems && unit.documents.count == file.documentCount
            && file.links.isLinks(of: unit.documents)
    }

    /// A file's parsed unit, as the passes compare it: its first `readCount` diagnostics are its
    /// reading's, the rest its parse's.
    static func observe(_ unit: DocumentUnit, readCount: Int) -> Observed {
        Observed(
            links: unit.documents.map(DocumentLinks.of).reduce(DocumentLinks()) { $0.merging($1) },
            documentCount: unit.documents.count, weight: unit.documents.reduce(0) { $0 + $1.source.bytes.count },
            parseDiagnostics: Array(unit.diagnostics.dropFirst(readCount)))
    }

    /// How the second pass cuts the files into batches (`batching(_:oneBatch:)`).
    struct Batching: Sendable {
        /// The files with documents (indices into the files): only they take part.
        var parsed: [Int]
        /// Each parsed file's first document's place in the project: a document's place is its
        /// file's plus its own within the file (in one batch, its place in the batch).
        var starts: [Int]
        /// The batches, each a list of indices into `parsed`.
        var batches: [[Int]]
        /// Every document in one batch, nothing compared (`validate`).
        var oneBatch: Bool
    }

    /// The batches of `files` (`DocumentGroups`: batches that share no name), or with `oneBatch`
    /// every file in one. A function of the first pass's files alone: `check` cuts them beside the
    /// schema's build (`Compilation.checkStreaming`).
    func batching(_ files: [ReadFile], oneBatch: Bool = false) -> Batching {
        let parsed = files.indices.filter { files[$0].documentCount > 0 }
        var starts: [Int] = []
        var count = 0
        for index in parsed {
            starts.append(count)
            count += files[index].documentCount
        }
        let batches =
            oneBatch
            ? [Array(parsed.indices)]
            : DocumentGroups.batches(
                DocumentGroups.groups(parsed.map { files[$0].links }), weights: parsed.map { files[$0].weight },
                minimumWeight: batchBytes)
        return Batching(parsed: parsed, starts: starts, batches: batches, oneBatch: oneBatch)
    }

    /// The second pass: validation, and the plan's diagnostics when `plans`, batch by batch, every
    /// batch's plan with `decisions` (made once for the schema, `Compilation.decisions`).
    /// Returns the validation diagnostics (unsettled, in the whole unit's order) and the plan's
    /// (settled, sorted), nil when some batch did not reach the plan; or, when a file's parse
    /// disagrees with what the first pass noted of it, every file as this pass found it
    /// (`Outcome.regroup`), the files cut as `batching` says (`batching(files)`). With its `oneBatch`,
    /// every document is validated in one batch and nothing is compared: right whatever the links.
    func validate(
        _ files: [ReadFile], _ batching: Batching, schema: GraphQLSchema, decisions: PlanDecisions, plans: Bool
    ) -> Outcome {
        let (parsed, starts, batches, oneBatch) = (
            batching.parsed, batching.starts, batching.batches, batching.oneBatch
        )
        let paths = parsed.map { files[$0].unit.path }
        let (loader, configuration, policy) = (self.loader, project.configuration, self.policy)
        var options = Compilation.modelOptions(configuration)
        options.checksOnly = true
        let planOptions = options
        betweenPasses?()
        let results = ParallelWork.map(batches, workers: workers) { batch -> BatchResult in
            var documents: [Document] = []
            var sources: [(SourceFile, Int)] = []
            var observed: [(Int, Observed)] = []
            var syntaxErrors = false
            // One table of names for the batch's files: most of their names are the same.
            var names = NameTable()
            for member in batch {
                let (texts, diagnostics) = loader.documentSources(paths[member])
                let unit = DocumentUnit(path: paths[member], parsing: texts, diagnostics: diagnostics, names: &names)
                if unit.diagnostics.count > diagnostics.count { syntaxErrors = true }
                // One batch compares nothing; otherwise only a disagreement is kept, for the regrouping.
                if !oneBatch, !Self.agrees(unit, readCount: diagnostics.count, with: files[parsed[member]]) {
                    observed.append((member, Self.observe(unit, readCount: diagnostics.count)))
                }
                for (offset, document) in unit.documents.enumerated() {
                    sources.append((document.source, oneBatch ? documents.count : starts[member] + offset))
                    documents.append(document)
                }
            }
            let validation = DocumentValidation.validate(
                schema: schema, documents: documents, configuration: configuration)
            let placed = Self.placed(sources, in: validation)
            guard plans, !syntaxErrors,
                !policy.settle(validation, configuration: configuration).contains(where: policy.isError)
            else { return BatchResult(validation: validation, plan: nil, sources: placed, observed: observed) }
            let plan = LensModelBuilder.checkDiagnostics(
                schema: schema, documents: documents, options: planOptions, decisions: decisions)
            return BatchResult(
                validation: validation, plan: policy.settle(plan, configuration: configuration), sources: placed,
                observed: observed)
        }
        if !oneBatch {
            var found = files
            var differs = false
            for result in results {
                for (member, seen) in result.observed {
                    let index = parsed[member]
                    let file = files[index]
                    guard Self.disagrees(seen, with: file) else { continue }
                    differs = true
                    found[index].links = seen.links
                    found[index].documentCount = seen.documentCount
                    found[index].weight = seen.weight
                    found[index].parseProblems = seen.parseDiagnostics.count
                    found[index].unit.diagnostics =
                        file.readDiagnostics + policy.settle(seen.parseDiagnostics, configuration: configuration)
                }
            }
            if differs { return .regroup(found) }
        }
        var order: [ObjectIdentifier: Int] = [:]
        for result in results {
            for (source, place) in result.sources { order[ObjectIdentifier(source)] = place }
        }
        let validation = Validator.merged(results.map(\.validation), order: order)
        var plan: [Diagnostic] = []
        for result in results {
            guard let part = result.plan else { return .done(validation: validation, plan: nil) }
            plan += part
        }
        return .done(validation: validation, plan: plan.sorted(by: Diagnostic.sortKey))
    }
}
