import BatonCodegen
import BatonConfig
import BatonDiagnostics
import BatonFiles

/// `gen`'s manifests (`GenerationManifest`): read before the compilations run, written after
/// their files.
extension Driver {
    /// The options of a run that change what it writes or whether it may write.
    private var manifestOptions: [String] {
        var options = [
            "warnings-as-errors=\(policy.warningsAsErrors)", "kotlin-runtime-out=\(kotlinRuntimeOutput ?? "-")",
        ]
        // A build's layout decides which files there are and what each holds.
        if let swiftLayout {
            options.append("build-map shared=\(swiftLayout.shared)")
            for document in swiftLayout.documents {
                options.append("build-map \(document)=\(swiftLayout.outputs[document] ?? "-")")
            }
        }
        return options
    }

    /// The hashes of `project`'s inputs (by default `compilation`'s) with this run's options, and
    /// its output folders' manifests as they are on disk now, for `use(_:for:)`: no inputs when the
    /// run records no manifest (a build map, no output folder, an input that cannot be read).
    /// Taken before the documents are read (see `GenerationInputs`); `known` as there.
    package func generationBasis(
        of compilation: Compilation, project: ProjectInput? = nil, known: GenerationInputs? = nil
    ) -> GenerationBasis {
        let roots = compilation.plannedOutputRoots
        guard !roots.isEmpty else { return GenerationBasis() }
        var manifests: [String: GenerationManifest] = [:]
        for (_, root) in roots { manifests[root] = GenerationManifest.load(root: root) }
        guard
            let inputs = GenerationInputs.read(
                project: project ?? compilation.project, workingDirectory: compilation.workingDirectory,
                kotlinRuntime: compilation.kotlinRuntime != nil, options: manifestOptions, known: known,
                recorded: roots.lazy.compactMap { manifests[$0.root] }.first, now: clock(), workers: options.workers)
        else { return GenerationBasis() }
        return GenerationBasis(inputs: inputs, manifests: manifests)
    }

    /// Hands `compilation` its inputs and manifests, so its `.generate` keeps the definitions they
    /// say are unchanged and `writeOutputs` records new manifests; without inputs its next
    /// `.generate` is a full one that records none.
    package func use(_ basis: GenerationBasis, for compilation: Compilation) {
        compilation.generation.inputs = basis.inputs
        compilation.generation.previousManifests = basis.manifests
    }

    /// Hashes every compilation's inputs and reads its folders' manifests. A compilation whose
    /// every folder's manifest matches (same inputs, same documents, every file as recorded) is
    /// marked up to date and is not run at all: no parse, no plan, no read of an output.
    func prepareIncrementalRun(_ compilations: [Compilation]) {
        for compilation in compilations {
            let roots = compilation.plannedOutputRoots
            let basis = generationBasis(of: compilation)
            guard let inputs = basis.inputs else { continue }
            use(basis, for: compilation)
            let manifests = basis.manifests
            let persisted = persistedQueriesPath(of: compilation)
            var reports: [WrittenFolder] = []
            for (index, (language, root)) in roots.enumerated() {
                guard let manifest = manifests[root], manifest.inputs == inputs.inputs(language: language, root: root),
                    manifest.documentChanges(inputs) == ([], []),
                    manifest.extras.map(\.path) == (index == 0 ? persisted.map { [$0] } ?? [] : []),
                    manifest.filesAreIntact(root: root, workers: options.workers)
                else { break }
                reports.append(
                    WrittenFolder(
                        root: root, language: language,
                        report: FileWriteReport(changes: [], unchanged: manifest.files.count)))
                if index == 0, let persisted {
                    reports.append(
                        WrittenFolder(
                            root: Path.directory(of: persisted), language: "persistedQueries",
                            report: FileWriteReport(changes: [], unchanged: 1)))
                }
            }
            guard reports.count == roots.count + (persisted == nil ? 0 : 1) else {
                compilation.generation.incremental = incrementalBasis(
                    manifests: roots.map { manifests[$0.root] }, inputs: inputs, roots: roots,
                    persistedQueries: persisted)
                continue
            }
            compilation.generation.upToDate = reports
            for (_, root) in roots { refreshStamps(manifests[root], with: inputs, root: root) }
        }
    }

    /// What an incremental run of a compilation starts from, when every output folder's manifest
    /// was made from these project-wide inputs and the same plan names, and the first holds the
    /// plan's summary; nil otherwise (the run reads every document). With a persisted-query
    /// manifest (`persistedQueries`, its absolute path), which lists every operation's text, the
    /// texts of operations not planned again are taken from it, when it is as recorded.
    private func incrementalBasis(
        manifests: [GenerationManifest?], inputs: GenerationInputs, roots: [(language: String, root: String)],
        persistedQueries: String?
    ) -> IncrementalBasis? {
        guard let first = manifests.first ?? nil else { return nil }
        for (manifest, (language, root)) in zip(manifests, roots) {
            guard let manifest, manifest.inputs == inputs.inputs(language: language, root: root),
                manifest.names == first.names
            else { return nil }
        }
        guard let plan = first.plan else { return nil }
        let (changed, removed) = first.documentChanges(inputs)
        var basis = IncrementalBasis(
            planBytes: plan, names: first.names, recordedFiles: first.files, changed: changed, removed: removed)
        basis.root = roots[0].root
        if let persistedQueries {
            guard let recorded = first.extras.first(where: { $0.path == persistedQueries }),
                FileStamp(of: persistedQueries) == recorded.stamp,
                case .success(let bytes) = FileSystem.readFile(persistedQueries),
                let texts = PersistedQueryManifest.texts(bytes)
            else { return nil }
            basis.operationTexts = texts
        }
        return basis
    }

    /// Rewrites an up-to-date folder's manifest when this run may trust stamps it lacks (files that
    /// were not settled when last hashed, and were hashed again now), so the next run with
    /// nothing changed reads none of them. Best effort, as `recordManifests`.
    private func refreshStamps(_ manifest: GenerationManifest?, with inputs: GenerationInputs, root: String) {
        guard var manifest,
            manifest.documentStamps != inputs.stamps || manifest.projectFileStamps != inputs.projectFileStamps
                || manifest.projectFiles != inputs.projectFiles
        else { return }
        manifest.documentStamps = inputs.stamps
        manifest.projectFiles = inputs.projectFiles
        manifest.projectFileStamps = inputs.projectFileStamps
        // In place: nothing else in the folder changes, and the folder's modification time must not either.
        guard let bytes = manifest.bytes else { return }
        GenerationManifest.rewriteInPlace(root: root, bytes: bytes)
    }

    /// The persisted-query manifest's absolute path when `gen` writes one for `compilation`.
    private func persistedQueriesPath(of compilation: Compilation) -> String? {
        guard swiftLayout == nil, !compilation.targets.isEmpty, let configuration = compilation.project.configuration,
            let path = configuration.output.persistedQueriesPath
        else { return nil }
        return Path.absolute(path.value, relativeTo: configuration.directory)
    }

    /// Writes each output folder's manifest after a run wrote its files (best effort: a manifest
    /// that cannot be written only makes the next run a full one).
    /// `plans`: each compilation's `planSummaryToRecord()`, made beforehand (by position; nil for one up to date).
    func recordManifests(_ compilations: [Compilation], plans: [[UInt8]?]) {
        for (compilation, plan) in zip(compilations, plans) where compilation.generation.upToDate == nil {
            guard let inputs = compilation.generation.inputs, let names = compilation.generation.namesDigest else {
                continue
            }
            let persisted = persistedQueriesPath(of: compilation)
            // The plan's summary (`plan`), in the first folder's manifest (what an incremental run reads).
            for (index, output) in compilation.outputs.enumerated() {
                // A kept file keeps the stamp it was kept by (checked, or trusted, in `keptDefinitions`):
                // the previous manifest's entry, found at the same place when the files are listed
                // in the same order (names unchanged), else looked up by path.
                let previous = compilation.generation.previousManifests[output.root]?.files ?? []
                var recorded: [String: FileStamp]?
                func recordedStamp(_ index: Int, _ path: String) -> FileStamp? {
                    if index < previous.count, previous.path(at: index, equals: path) {
                        return previous.stamp(at: index)
                    }
                    if recorded == nil {
                        var byPath: [String: FileStamp] = [:]
                        for entry in previous { byPath[entry.path] = entry.stamp }
                        recorded = byPath
                    }
                    return recorded?[path]
                }
                // The stamps of the files written now, taken on the workers, each relative to its open folder
                // (a cold run writes tens of thousands; one after another on this thread they were the run's
                // last serial step).
                let written = Self.writtenStamps(output.files, root: output.root, workers: options.workers)
                // Kept entries are the last manifest's lines, compared and copied in place (`ManifestFiles`).
                var entries = ManifestFiles(sharingSourceOf: previous)
                entries.reserveCapacity(output.files.count)
                for (index, file) in output.files.enumerated() {
                    // A kept file at its recorded place is its recorded entry: the same path and stamp,
                    // and the digest it was kept by (`keptDefinitions`).
                    if file.kept, index < previous.count, let definition = file.definition,
                        previous.definition(at: index, equals: definition), previous.path(at: index, equals: file.path)
                    {
                        entries.append(index, of: previous)
                        continue
                    }
                    guard
                        let stamp = file.kept
                            ? recordedStamp(index, file.path) ?? FileStamp(of: output.root + "/" + file.path)
                            : written[index]
                    else { break }
                    let definition = file.definition ?? "-"
                    entries.append(
                        GenerationManifest.Entry(
                            path: file.path, stamp: stamp, definition: definition,
                            digest: compilation.definitionDigest(definition) ?? "-"))
                }
                guard entries.count == output.files.count else { continue }
                var extras: [(path: String, stamp: FileStamp)] = []
                if index == 0, let persisted {
                    guard let stamp = FileStamp(of: persisted) else { continue }
                    extras.append((persisted, stamp))
                }
                var manifest = GenerationManifest(
                    inputs: inputs.inputs(language: output.target.name, root: output.root), names: names,
                    documents: inputs.documents, documentStamps: inputs.stamps, files: entries, extras: extras,
                    projectFiles: inputs.projectFiles, projectFileStamps: inputs.projectFileStamps)
                manifest.listed = inputs.listed
                if index == 0 { manifest.plan = plan?[...] }
                // A kept file's line is the last manifest's, copied.
                guard let bytes = manifest.bytes(reusing: compilation.generation.previousManifests[output.root])
                else { continue }
                _ = try? FileWriter(root: output.root, managedExtensions: []).writeFile(
                    GenerationManifest.fileName, bytes: bytes)
            }
        }
    }

    /// By index of `files`, the stamp of each file not kept, as `FileStamp(of: root + "/" + path)` gives it (nil for
    /// a kept one, or one not on disk), looked up on up to `workers` threads.
    package static func writtenStamps(_ files: [GeneratedFile], root: String, workers: Int) -> [FileStamp?] {
        let written = files.indices.filter { !files[$0].kept }
        let found = ParallelWork.ranges(count: written.count, workers: workers, minimumItems: 512) { range in
            var folder = FileStamp.Folder(root)
            return range.map { folder.stamp(of: files[written[$0]].path) }
        }
        var stamps = [FileStamp?](repeating: nil, count: files.count)
        for (index, stamp) in zip(written, found) { stamps[index] = stamp }
        return stamps
    }
}

/// What a compilation's `.generate` starts from (`Driver.generationBasis`): the hashes of its
/// inputs, and its output folders' manifests by absolute folder.
package struct GenerationBasis {
    package var inputs: GenerationInputs?
    package var manifests: [String: GenerationManifest] = [:]
}
