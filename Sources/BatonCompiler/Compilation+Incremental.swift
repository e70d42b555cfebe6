import BatonCodegen
import BatonConfig
import BatonDiagnostics
import BatonFiles
import BatonIR
import BatonValidation

/// An incremental `.generate`: which definitions' files stay as they are (`GenerationManifest`).
extension Compilation {
    /// The definitions of the output folder `root` whose files can stay: the folder's manifest
    /// was made from the same project-wide inputs and top-level names, and records the same
    /// digest for the definition and the stamp its file still has (in a folder of
    /// `trustedOutputRoots`, the stamp it was written with). Empty without inputs or a manifest.
    func keptDefinitions(language: String, root: String) -> KeptDefinitions {
        if let known = generation.keptByRoot[root] { return known }
        let kept = findKeptDefinitions(language: language, root: root)
        generation.keptByRoot[root] = kept
        return kept
    }

    private func findKeptDefinitions(language: String, root: String) -> KeptDefinitions {
        guard let generationInputs = generation.inputs, let namesDigest = generation.namesDigest,
            let manifest = generation.previousManifests[root],
            manifest.inputs == generationInputs.inputs(language: language, root: root), manifest.names == namesDigest
        else { return KeptDefinitions() }
        let trusted = generation.trustedOutputRoots.contains(root)
        if model?.block != nil, generation.incremental != nil, options.swiftLayout == nil {
            return findKeptWithBlock(manifest.files, root: root, trusted: trusted)
        }
        // The manifest was made from these names, so each operation's and fragment's key it lists is a
        // definition's planned now or summarized: one not planned is summarized, its digest the recorded one
        // (`definitionDigest`), which in the manifest the basis was read from is the entry's own.
        let summarizes =
            model.map { !$0.summarized.operations.isEmpty || !$0.summarized.fragments.isEmpty || $0.block != nil }
            ?? false
        let basis = generation.incremental
        let readHere = basis?.root == root
        let undigested = generation.undigestedDefinitions
        var kept: Set<String> = []
        kept.reserveCapacity(manifest.files.count)
        var matching: [Int] = []
        var matchingDefinitions: [String] = []
        let files = manifest.files
        // Each entry's key decoded and its digest compared in place (`ManifestFiles`); the stamps of those that
        // match are then taken on the workers.
        for index in files.indices where !files.isNoDefinition(at: index) {
            let definition = files.definition(at: index)
            let matches: Bool
            if let planned = generation.definitionDigests[definition] {
                matches = files.digest(at: index) == planned
            } else if summarizes, basis != nil, DefinitionKey.isDefinition(definition),
                undigested.isEmpty || !undigested.contains(definition)
            {
                // Read here, the recorded digest is the entry's own.
                matches = readHere || generation.incremental?.recordedDigest(definition) == files.digest(at: index)
            } else {
                matches = false
            }
            guard matches else { continue }
            matching.append(index)
            matchingDefinitions.append(definition)
        }
        let onDisk = trusted ? [] : files.areOnDisk(matching, root: root, workers: options.workers)
        for (position, definition) in matchingDefinitions.enumerated() where trusted || onDisk[position] {
            kept.insert(definition)
        }
        guard options.swiftLayout != nil, language == GenerationTargets.swift.name else {
            return KeptDefinitions(keys: kept)
        }
        // A build's files are one per document (`SwiftBuildLayout`): a file is kept whole, and with
        // it every definition it holds.
        var definitions: Set<String> = []
        for (definition, file) in generation.layoutFileOfDefinition where kept.contains(SwiftBuildLayout.fileKey(file))
        {
            definitions.insert(definition)
        }
        generation.keptLayoutFiles = Set(kept.compactMap(SwiftBuildLayout.file(ofKey:)))
        return KeptDefinitions(keys: definitions)
    }

    /// `findKeptDefinitions` for a plan with a block (`SummaryBlock`): the manifest was made from these names, so
    /// each operation's and fragment's key it lists is a planned definition's (few: those of the documents the
    /// edit reaches) or the block's. Only an entry whose key's hash (`ManifestFiles.definitionHash`) is a planned
    /// key's is compared as a key and, when kept, listed by key; the block's kept files are counted by their keys'
    /// hashes (the job lists keep every block definition's file without asking for its key; two keys of the same
    /// hash count once, so the count can only fall short of the block's, which makes a full run). No key of
    /// the block is made a `String` while its digest is the entry's own (read here).
    private func findKeptWithBlock(_ files: ManifestFiles, root: String, trusted: Bool) -> KeptDefinitions {
        let readHere = generation.incremental?.root == root
        var planned: [UInt64: [String]] = [:]
        for key in generation.definitionDigests.keys where DefinitionKey.isDefinition(key) {
            planned[ByteHash.of(key), default: []].append(key)
        }
        for key in generation.undigestedDefinitions { planned[ByteHash.of(key), default: []].append(key) }
        // Each entry's digest compared in place; the stamps of those that match are then taken on the workers,
        // as `findKeptDefinitions` takes them.
        var matching: [Int] = []
        var matchingKeys: [String?] = []  // a planned definition's key; nil: the block's
        for index in files.indices where !files.isNoDefinition(at: index) {
            if let candidates = planned[files.definitionHash(at: index)],
                let key = candidates.first(where: { files.definition(at: index, equals: $0) })
            {
                // A planned definition: kept when its digest is the one recorded (one without a digest never is).
                guard let digest = generation.definitionDigests[key], files.digest(at: index) == digest
                else { continue }
                matching.append(index)
                matchingKeys.append(key)
                continue
            }
            // The block's: its digest is the recorded one, which in the manifest the basis was read from is the
            // entry's own.
            guard files.isDefinitionKey(at: index),
                readHere
                    || generation.incremental?.recordedDigest(files.definition(at: index)) == files.digest(at: index)
            else { continue }
            matching.append(index)
            matchingKeys.append(nil)
        }
        let onDisk = trusted ? [] : files.areOnDisk(matching, root: root, workers: options.workers)
        var kept = KeptDefinitions()
        var block: Set<UInt64> = []
        block.reserveCapacity(matching.count)
        for (position, index) in matching.enumerated() where trusted || onDisk[position] {
            if let key = matchingKeys[position] {
                kept.keys.insert(key)
            } else {
                block.insert(files.definitionHash(at: index))
            }
        }
        kept.block = block.count
        return kept
    }

    /// The digest of the definition keyed `key` (`DefinitionKey`): a planned one's (`definitionDigests`), a
    /// summarized one's the last manifest recorded (`IncrementalBasis.recordedDigest`); nil for any other.
    func definitionDigest(_ key: String) -> String? {
        if let digest = generation.definitionDigests[key] { return digest }
        guard let model else { return nil }
        let summarized: Bool
        if key.hasPrefix("o:") {
            summarized = model.summarized.operations.contains(String(key.dropFirst(2)))
        } else if key.hasPrefix("f:") {
            summarized = model.summarized.fragments.contains(String(key.dropFirst(2)))
        } else {
            return nil
        }
        guard summarized || model.block?.contains(key: key) == true else { return nil }
        return generation.incremental?.recordedDigest(key)
    }

    /// With a build's layout: which of its files (not the shared one) holds each definition, and
    /// each file's digest (its definitions' digests, by key, in order), as `definitionDigests`
    /// entries keyed by `SwiftBuildLayout.fileKey`. A file holding no definition gets a digest too: its text is
    /// the header alone.
    func computeLayoutDigests() {
        generation.layoutFileOfDefinition = [:]
        generation.keptLayoutFiles = []
        guard let swiftLayout = options.swiftLayout, let model else { return }
        var files: [String: String?] = [:]  // by display path: a project's files hold several definitions each
        func file(_ display: String) -> String? {
            if let known = files[display] { return known }
            let found = swiftLayout.outputs[Path.absolute(display, relativeTo: workingDirectory)]
            files[display] = .some(found)
            return found
        }
        var contents: [String: [String]] = [:]
        for name in swiftLayout.outputs.values { contents[name] = [] }
        for operation in model.operations {
            guard let name = file(operation.location.file.path) else { continue }
            generation.layoutFileOfDefinition[operation.definitionKey] = name
            contents[name, default: []].append(operation.definitionKey)
        }
        for fragment in model.fragments {
            guard let name = file(fragment.location.file.path) else { continue }
            generation.layoutFileOfDefinition[fragment.definitionKey] = name
            contents[name, default: []].append(fragment.definitionKey)
        }
        let summarized =
            Set(model.summarized.operations.map(DefinitionKey.operation)).union(
                model.summarized.fragments.map(DefinitionKey.fragment))
        for (name, keys) in contents {
            // The file of a document not planned again holds summaries only: its recorded digest.
            if !keys.isEmpty, keys.allSatisfy(summarized.contains) {
                let recorded = generation.incremental?.recordedDigest(SwiftBuildLayout.fileKey(name))
                generation.definitionDigests[SwiftBuildLayout.fileKey(name)] = recorded
                continue
            }
            var text = name + "\n"
            for key in keys.sorted() {
                guard let digest = definitionDigest(key) else {
                    text = ""
                    break
                }
                text += key + " " + digest + "\n"
            }
            // A file holding a definition without a digest is never kept.
            if !text.isEmpty { generation.definitionDigests[SwiftBuildLayout.fileKey(name)] = SHA256.hexDigest(text) }
        }
    }

    /// True when every kept file has the path the manifest recorded for its definition (it
    /// always should, the names being the same; if not, the folder is generated in full). When each
    /// is found in the manifest's order, the paths of the entries no kept file is are the folder's
    /// `recordedUnkept` (the writer's stale candidates).
    func keptFilesAreWhereRecorded(_ files: [GeneratedFile], root: String) -> Bool {
        generation.recordedUnkept[root] = nil
        guard let manifest = generation.previousManifests[root] else { return false }
        // A build's layout names its files itself: a definition's own file is never written.
        if options.swiftLayout != nil,
            manifest.files.contains(where: { SwiftBuildLayout.file(ofKey: $0.definition) != nil })
        {
            return true
        }
        // Files come in the order the manifest lists them while the names stay (with others
        // between them: schema types' files, the Kotlin runtime's, added after this check): a kept
        // file's entry is looked for from the last one found on, and the entries are looked up by
        // definition only when it is not there.
        // Keys and paths are compared in the manifest's lines (`ManifestFiles`).
        let entries = manifest.files
        var recorded: [String: String]?
        var cursor = 0
        var unkept: [String] = []
        // By index: a file's fields are read in place, not the file copied.
        for index in files.indices where files[index].kept {
            guard let definition = files[index].definition else { return false }
            if recorded == nil {
                var at = cursor
                while at < entries.count, !entries.definition(at: at, equals: definition) { at += 1 }
                if at < entries.count {
                    guard entries.path(at: at, equals: files[index].path) else { return false }
                    for skipped in cursor..<at { unkept.append(entries.path(at: skipped)) }
                    cursor = at + 1
                    continue
                }
                var byDefinition: [String: String] = [:]
                for entry in entries { byDefinition[entry.definition] = entry.path }
                recorded = byDefinition
            }
            guard recorded?[definition] == files[index].path else { return false }
        }
        if recorded == nil, options.swiftLayout == nil {
            for rest in cursor..<entries.count { unkept.append(entries.path(at: rest)) }
            generation.recordedUnkept[root] = unkept
        }
        return true
    }

    /// The absolute output folders `.generate` will write (each language's, and the Kotlin
    /// runtime's when it has a folder of its own), with their language names.
    var plannedOutputRoots: [(language: String, root: String)] {
        guard let configuration = project.configuration else { return [] }
        var roots: [(language: String, root: String)] = targets.compactMap { target in
            target.outputPath(configuration).map {
                (target.name, Path.absolute($0.value, relativeTo: configuration.directory))
            }
        }
        if let kotlinRuntime, let root = KotlinRuntimePlacement.separateRoot(kotlinRuntime, outputs: roots) {
            roots.append((GenerationTargets.kotlin.name, root))
        }
        return roots
    }

    /// The documents `.read` reads for `basis`, and the summaries of the others; nil when the
    /// change reaches every document or the summary lacks one, so every document is read.
    ///
    /// A document is changed when its hash is not the recorded one (or it is new); its links are
    /// those it has now merged with those it had, and the documents gone since join the change
    /// with theirs, so whatever either version reached is reached. The documents read are the
    /// changed ones' groups (`DocumentGroups.reaching`): validated as one unit they have exactly
    /// the whole project's diagnostics, and planned as one they hold every definition whose
    /// output the change can alter (each fragment with every definition spreading it, every
    /// definition with the fragments it spreads). Every other definition is planned as its summary.
    func readReached(_ basis: IncrementalBasis) -> PartialRead? {
        guard let summary = basis.summary else { return nil }
        let paths = project.documentFiles
        var links: [DocumentLinks] = []
        links.reserveCapacity(paths.count + 1)
        var changed: Set<Int> = []
        var read: [Int: DocumentUnit] = [:]
        var displays: [String] = []
        displays.reserveCapacity(paths.count)
        for (index, path) in paths.enumerated() {
            let display = loader.display(path)
            displays.append(display)
            let recorded = summary.documents[display]
            guard basis.changed.contains(display) else {
                guard let recorded else { return nil }
                links.append(recorded.links)
                continue
            }
            changed.insert(index)
            var now = recorded?.links ?? DocumentLinks()
            if let unit = readUnit(path) {
                read[index] = unit
                for document in unit.documents { now = now.merging(DocumentLinks.of(document)) }
            }
            links.append(now)
        }
        let gone = basis.removed.compactMap { summary.documents[$0]?.links }
        if !gone.isEmpty {
            links.append(gone.reduce(DocumentLinks()) { $0.merging($1) })
            changed.insert(paths.count)
        }
        guard !links.contains(where: \.joinsAll) else { return nil }
        let reached = DocumentGroups.reaching(changed, links: links).filter { $0 < paths.count }
        guard reached.count < paths.count else { return nil }
        var units: [DocumentUnit] = []
        units.reserveCapacity(reached.count)
        var plannedPaths: Set<String> = []
        for index in reached {
            plannedPaths.insert(displays[index])
            if let unit = read[index] ?? readUnit(paths[index]) { units.append(unit) }
        }
        // The other documents' definitions, as their lines (`PlanSummary.definitionLines`), not read: every line
        // but those of the documents planned again and gone, in the plan's order (the section's, format 5).
        // One pass over the lines, each path's bytes compared in place (`PathSet`): 0 outside, 1 planned, 2 gone.
        let lines = summary.definitionLines
        let (planned, goneSet) = (PathSet(plannedPaths), PathSet(basis.removed))
        let groups = lines.group(
            byPath: { path in planned.contains(path) ? 1 : basis.removed.isEmpty || !goneSet.contains(path) ? 0 : 2 },
            count: 3)
        let outside = groups[0]
        // A persisted-query manifest lists every operation's text: one the last manifest lacks makes a full run.
        if let texts = basis.operationTexts {
            for line in outside where lines.kind(at: line) != .fragment {
                guard texts[lines.name(at: line)] != nil else { return nil }
            }
        }
        return PartialRead(
            units: units, plannedPaths: plannedPaths, lines: lines, outside: outside, plannedLines: groups[1],
            goneLines: groups[2], operationTexts: basis.operationTexts)
    }

    /// True when the definitions planned again have, document for document, the kinds, names and used
    /// schema types the last plan's summary recorded for the documents read again, and the documents gone
    /// defined nothing: the plan then holds the last plan's definitions (the others are its summaries) and
    /// uses the same schema types, so its top-level names, a function of those, the namespace and the
    /// reserved names (all three part of the project-wide inputs), are the recorded ones (`basis.names`),
    /// and `PlanDigests.names` need not hash every definition's name again. A sufficient test, not a
    /// necessary one (a used type moved from a document read again to another is a change here): when it
    /// fails, the digest is computed.
    package func plannedNamesAreRecorded() -> Bool {
        guard let model, generation.partial != nil, let before = recordedPlanned() else { return false }
        // A plan with a block was built only so (`SummaryBlock`).
        return model.block != nil || SummaryBlock.namesAndTypesAgree(before, model.summaries)
    }

    /// What the last plan's summary recorded of the definitions of the documents read again; nil when a
    /// document gone since defined something (the plan's names cannot be the recorded ones then), or
    /// without an incremental read.
    private func recordedPlanned() -> [DefinitionSummary]? {
        guard let partial = generation.partial, let basis = generation.incremental, let previous = basis.summary
        else { return nil }
        guard partial.goneLines.isEmpty,
            !basis.removed.contains(where: { previous.documents[$0]?.definitions.isEmpty == false })
        else { return nil }
        var before: [DefinitionSummary] = []
        for path in partial.plannedPaths { before += previous.documents[path]?.definitions ?? [] }
        return before + partial.plannedLines.map { partial.lines.summary(at: $0) }
    }

    /// The summaries a plan after an incremental read takes (`LensModelBuilder.build`): as one block
    /// (`SummaryBlock`, `LensModel.block`) where every step after the plan takes one, else as stand-ins
    /// (`outside`). Not as a block for a build's layout (its digests are per document file), for test data
    /// builders (named after every definition's nested lenses), for a kept compilation (its cache keeps
    /// models by definition), nor when a document gone since defined something.
    func summariesToPlan() -> (outside: [DefinitionSummary], block: SummaryBlock?) {
        guard let partial = generation.partial else { return ([], nil) }
        guard !partial.outside.isEmpty, cache == nil, options.swiftLayout == nil,
            !targets.contains(where: \.isTestBuilders), let recorded = recordedPlanned()
        else { return (partial.outsideSummaries, nil) }
        return (
            [],
            SummaryBlock(
                lines: partial.lines, outside: partial.outside, recordedPlanned: recorded,
                operationTexts: partial.operationTexts)
        )
    }

    /// True when every output folder keeps the file of every summarized definition (the same
    /// names, digests and stamps as recorded): only then can the plan stand with summaries.
    func summariesAreKept() -> Bool {
        guard let model else { return false }
        let summarizedCount =
            model.summarized.operations.count + model.summarized.fragments.count + (model.block?.count ?? 0)
        guard summarizedCount > 0 else { return true }
        guard let configuration = project.configuration else { return false }
        // Counted, not compared as sets of keys (a large project summarizes tens of thousands): a kept
        // key is a summarized definition's or a planned one's, and the planned ones are few: those
        // `PlanDigests.definitions` digested, or found without a digest.
        var planned = Array(generation.undigestedDefinitions)
        for key in generation.definitionDigests.keys where DefinitionKey.isDefinition(key) { planned.append(key) }
        for target in targets {
            guard let setting = target.outputPath(configuration) else { continue }
            let root = Path.absolute(setting.value, relativeTo: configuration.directory)
            let kept = keptDefinitions(language: target.name, root: root)
            let keptPlanned = planned.reduce(0) { $0 + (kept.keys.contains($1) ? 1 : 0) }
            guard kept.keys.count - keptPlanned + kept.block == summarizedCount else { return false }
        }
        return true
    }

    /// The plan's summary section to record with the manifests (`PlanSummary.bytes`): the whole
    /// plan's, or, after an incremental read, the last one's lines with those of the documents read
    /// again (and gone) replaced, the others copied as they were. None when it would not describe
    /// exactly the project's documents (a definition placed in a file that is not one of them): the
    /// next run then reads every document.
    func planSummaryToRecord() -> [UInt8]? {
        guard let model, let generationInputs = generation.inputs else { return nil }
        guard let partial = generation.partial, let basis = generation.incremental, let previous = basis.summary else {
            let summary = PlanSummary.of(
                units: units, model: model, documents: generationInputs.documents.keys, display: loader.display)
            guard summary.documents.count == generationInputs.documents.count,
                summary.documents.keys.allSatisfy({ generationInputs.documents[$0] != nil })
            else { return nil }
            return summary.bytes
        }
        let fresh = PlanSummary.of(units: units, model: model, documents: partial.plannedPaths, display: loader.display)
        // The spliced section's documents are the last one's not gone, and those planned again that are not
        // among them: counted and each looked up in the project, with no set made of the last one's (tens of
        // thousands of paths).
        func kept(_ path: String) -> Bool { basis.removed.isEmpty || !basis.removed.contains(path) }
        var count = 0
        for path in previous.documents.keys where kept(path) {
            guard generationInputs.documents[path] != nil else { return nil }
            count += 1
        }
        for path in fresh.documents.keys where previous.documents[path] == nil || !kept(path) {
            guard generationInputs.documents[path] != nil else { return nil }
            count += 1
        }
        guard count == generationInputs.documents.count, let freshBytes = fresh.bytes else { return nil }
        // The kept `def` lines are those the run did not read (`PartialRead.outside`): the same paths taken out.
        return PlanSummary.splice(
            basis.planBytes, lines: partial.lines, kept: partial.outside,
            replacing: partial.plannedPaths.union(basis.removed), with: freshBytes)
    }
}

/// What an incremental run starts from (`GenerationRun.incremental`): the last run's plan summary and
/// digests, and which documents changed since.
package struct IncrementalBasis: Sendable {
    /// The last plan's summary section, as recorded (`GenerationManifest.plan`), and the summary
    /// read from it (by `.read`, while the schema is built; nil before, or when it is malformed).
    package var planBytes: ArraySlice<UInt8>
    package var summary: PlanSummary?
    /// The last run's files (`GenerationManifest.Entry`: a definition's key and digest among them), read from
    /// the manifest of the output folder `root` (the first the run writes).
    package var recordedFiles: ManifestFiles
    /// `recordedFiles`' digests by definition key, made the first time one is looked up by key
    /// (`recordedDigest`): a run after one edit finds its kept files at their recorded places and
    /// needs none (a dictionary of every file's was 63 M instructions on saleor's 10k project, issue 34).
    private var digestsByKey: [String: String]?
    package var root = ""
    /// Display paths of the documents whose hash is not the recorded one, or that are new.
    package var changed: Set<String>
    /// Display paths of the documents recorded that the project no longer has.
    package var removed: Set<String>
    /// The last plan's names digest (`GenerationManifest.names`): a plan with summaries stands only
    /// when its names are these (a summary missing or added would change them).
    package var names: String
    /// Each operation's document text, by name, when the run writes a persisted-query manifest
    /// (read from the last one); nil when it writes none.
    package var operationTexts: [String: String]?

    package init(
        planBytes: ArraySlice<UInt8>, names: String, recordedFiles: ManifestFiles, changed: Set<String>,
        removed: Set<String>
    ) {
        self.planBytes = planBytes
        self.names = names
        self.recordedFiles = recordedFiles
        self.changed = changed
        self.removed = removed
    }

    /// The digest the last run recorded for the definition (or build file) keyed `key`, if any.
    package mutating func recordedDigest(_ key: String) -> String? {
        if digestsByKey == nil {
            var digests: [String: String] = [:]
            digests.reserveCapacity(recordedFiles.count)
            for index in recordedFiles.indices where !recordedFiles.isNoDefinition(at: index) {
                digests[recordedFiles.definition(at: index)] = recordedFiles.digest(at: index)
            }
            digestsByKey = digests
        }
        return digestsByKey?[key]
    }
}

/// The definitions of an output folder whose files can stay (`Compilation.keptDefinitions`).
package struct KeptDefinitions: Sendable {
    /// By key (`DefinitionKey`): with a plan's block, the planned definitions' only.
    package var keys: Set<String> = []
    /// With a plan's block (`SummaryBlock`), how many of its definitions' files can stay (not listed by key: the
    /// job lists keep every block definition's file); 0 without.
    package var block = 0

    /// True when no file can stay.
    package var isEmpty: Bool { keys.isEmpty && block == 0 }
}

/// What an incremental `.read` read (`Compilation.readReached`).
package struct PartialRead: Sendable {
    /// The units read: the documents the change reaches, in the project's order.
    package var units: [DocumentUnit]
    /// Their display paths (with those of files the project leaves out).
    package var plannedPaths: Set<String>
    /// The last plan's definitions (`PlanSummary.definitionLines`).
    package var lines: DefinitionLines
    /// The definitions of the other documents: their lines' indices in `lines`, in the plan's order.
    package var outside: [Int]
    /// The lines of the documents planned again, and of the documents gone (indices in `lines`).
    package var plannedLines: [Int]
    package var goneLines: [Int]
    /// Each operation's document text, by name, when the run writes a persisted-query manifest (every operation
    /// of `outside` has one); nil when it writes none.
    package var operationTexts: [String: String]?

    /// The definitions of the other documents, whole (with their texts, when known), for a plan that takes them
    /// as stand-ins (`LensModelBuilder.build(…, outside:)`).
    package var outsideSummaries: [DefinitionSummary] {
        outside.map { line in
            var summary = lines.summary(at: line)
            if let operationTexts, summary.kind != .fragment {
                summary.documentText = operationTexts[summary.name] ?? ""
            }
            return summary
        }
    }
}
