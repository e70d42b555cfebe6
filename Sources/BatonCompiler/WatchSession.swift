import BatonConfig
import BatonDiagnostics
import BatonFiles

/// `check --watch` and `gen --watch`: the run's compilations kept between changes, and each batch of
/// changed paths applied to them through the `Compilation` API, so a change re-reads only what it
/// touched.
///
/// - An edited document is read again alone (`documentsChanged`); only the documents it can reach
///   are validated again (`KeptValidation`), the project is planned and (for `gen`) generated again
///   from the kept units, and only files whose content changed are written. `gen` reads and writes the output folders' manifests (`GenerationManifest`) as a
///   one-shot `gen` does, so only the definitions a change reaches are rendered, and the manifest
///   left behind serves the next one-shot `gen`.
/// - An edited schema file builds the schema again (`schemaChanged`) and keeps every parsed document.
/// - A file added, deleted or renamed, or a new folder, resolves the projects again (their patterns
///   decide what is a document) and hands each compilation its new file lists (`filesChanged`):
///   units of files still listed are kept, new ones read.
/// - An edited baton.json (or a workspace's) starts the changed projects afresh: their settings may
///   have changed anything. A baton.json that does not load is reported, and the next good edit
///   recovers.
/// - Anything else (generated files, a README, a file no pattern matches) is ignored: no report.
///
/// The session never reads a file system event itself: a watcher (`BatonWatch`) finds the paths,
/// and a test can hand them in directly.
package final class WatchSession {
    package let driver: Driver
    /// `.plan` for `check`, `.generate` for `gen`.
    package let stage: Compilation.Stage
    /// The last run: its compilations are the ones kept.
    package private(set) var result: DriverResult
    /// The configuration files' bytes, to tell an edit from a touch.
    private var configurationTexts: [String: [UInt8]] = [:]
    /// For `gen`: the stamp of each output folder's manifest as this session last wrote it. A folder
    /// whose manifest still has it is trusted (`Compilation.trustedOutputRoots`): the session takes
    /// the files it wrote there to be as it wrote them, and compares no stamp of a kept file.
    private var ownManifests: [String: FileStamp] = [:]

    package init(driver: Driver, stage: Compilation.Stage) {
        var driver = driver
        // `gen`'s manifests are read and written as a one-shot `gen` does: each run renders only what
        // a change reaches, and a one-shot `gen` after the session has nothing to do.
        driver.recordsManifests = stage == .generate
        self.driver = driver
        self.stage = stage
        // Each compilation kept with a `ProjectCache` of its own (a new one when it starts afresh).
        result = driver.compile(upTo: stage, keeping: true)
        if stage == .generate { write() }
        rememberConfigurations()
    }

    /// What one batch of changes did.
    package struct Outcome {
        /// The changed paths that mattered, as shown (relative to the working directory).
        package var changed: [String]
        /// True when the projects were resolved again (a file added or removed, baton.json edited).
        package var resolvedAgain: Bool
    }

    // MARK: What to watch

    /// Folders to watch with everything under them: each project's folder and the fixed part of its
    /// document and schema patterns (which may lie outside it).
    package var watchedFolders: [String] {
        var folders = Set<String>()
        if let root = result.resolved.configurationPath ?? driver.request.configPath {
            folders.insert(Path.directory(of: Path.absolute(root, relativeTo: driver.request.workingDirectory)))
        }
        for compilation in result.compilations {
            guard let configuration = compilation.project.configuration else { continue }
            folders.insert(configuration.directory)
            for pattern in configuration.documents + configuration.schema {
                let root = pattern.value.root
                folders.insert(FileSystem.kind(of: root) == .directory ? root : Path.directory(of: root))
            }
        }
        // Only the outermost: a folder inside another is watched already.
        let sorted = folders.sorted()
        return sorted.filter { folder in !sorted.contains { $0 != folder && Path.isInside(folder, directory: $0) } }
    }

    /// Folders never watched: the output folders `gen` writes to (its own writes are not changes).
    package var ignoredFolders: [String] {
        result.compilations.flatMap { compilation -> [String] in
            guard let output = compilation.project.configuration?.output else { return [] }
            return [
                output.swiftPath?.value, output.kotlinPath?.value, output.swiftTestBuilders?.value,
                output.kotlinTestBuilders?.value,
            ].compactMap { $0 }
        } + result.compilations.flatMap { $0.outputs.map(\.root) }
    }

    // MARK: Applying changes

    /// Applies changed paths (absolute); nil when none of them matters to any project.
    package func apply(_ paths: Set<String>) -> Outcome? {
        let paths = Set(paths.map(Path.normalize))
        let ignored = ignoredFolders
        let relevant = paths.filter { path in
            !ignored.contains { Path.isInside(path, directory: $0) } && mayMatter(path)
        }
        if relevant.isEmpty { return nil }
        if needsResolving(relevant) { return resolveAgain(relevant) }
        var touched: [String] = []
        for compilation in result.compilations {
            let schema = relevant.intersection(compilation.project.schemaFiles)
            let documents = relevant.intersection(compilation.project.documentFiles)
            if schema.isEmpty && documents.isEmpty { continue }
            let basis = generationBasis(compilation, rereading: documents)
            if !schema.isEmpty { compilation.schemaChanged() }
            if !documents.isEmpty { compilation.documentsChanged(documents) }
            use(basis, for: compilation)
            touched += schema.sorted() + documents.sorted()
        }
        if touched.isEmpty { return nil }
        rerun()
        return Outcome(changed: touched.map(display), resolvedAgain: false)
    }

    /// A path that can be part of a project: a document, a schema or configuration file, a folder
    /// (or what was one: a path gone without an extension).
    private func mayMatter(_ path: String) -> Bool {
        let fileExtension = Path.pathExtension(path)
        if DocumentDiscovery.documentExtensions.contains(fileExtension)
            || DocumentDiscovery.schemaExtensions.contains(fileExtension) || configurationTexts[path] != nil
        {
            return true
        }
        switch FileSystem.kind(of: path) {
        case .directory: return true
        case nil: return fileExtension.isEmpty
        case .file, .other: return result.compilations.contains { $0.project.schemaFiles.contains(path) }
        }
    }

    /// A change the kept file lists cannot absorb: a configuration file, a file that appeared,
    /// disappeared or is no document or schema file yet, a folder.
    private func needsResolving(_ paths: Set<String>) -> Bool {
        if result.compilations.isEmpty { return true }
        let known = Set(result.compilations.flatMap { $0.project.documentFiles + $0.project.schemaFiles })
        return paths.contains { path in
            configurationTexts[path] != nil || Path.lastComponent(path) == ConfigurationLoader.fileName
                || !known.contains(path) || FileSystem.kind(of: path) != .file
        }
    }

    private func resolveAgain(_ paths: Set<String>) -> Outcome? {
        let resolved = ProjectResolver.resolve(driver.request)
        let previous = result
        let sameProjects =
            !resolved.isFatal && !previous.resolved.isFatal
            && resolved.projects.map(\.configuration?.path) == previous.compilations.map(\.project.configuration?.path)
        guard sameProjects else {
            // Projects came or went, or a configuration does not load: start again.
            result = driver.compile(upTo: stage, keeping: true)
            if stage == .generate { write() }
            rememberConfigurations()
            return Outcome(changed: paths.sorted().map(display), resolvedAgain: true)
        }
        // An edited configuration starts its project afresh (a workspace's, every project: its
        // `rules` are theirs); a file touched without a change is no edit.
        let edited = Set(
            paths.filter { path in
                configurationTexts[path].map { FileSystem.readFile(path).success != $0 } ?? false
            })
        let rootEdited = resolved.configurationPath.map(edited.contains) ?? false
        var touched = Set<String>()
        var compilations = previous.compilations
        for (index, project) in resolved.projects.enumerated() {
            let compilation = compilations[index]
            if rootEdited || project.configuration.map({ edited.contains($0.path) }) == true {
                compilations[index] = driver.makeCompilation(project, cache: ProjectCache())
                touched.formUnion(edited)
                continue
            }
            let oldFiles = Set(compilation.project.documentFiles + compilation.project.schemaFiles)
            let newFiles = Set(project.documentFiles + project.schemaFiles)
            let kept = paths.intersection(oldFiles).intersection(newFiles)
            let moved = oldFiles.symmetricDifference(newFiles)
            if kept.isEmpty && moved.isEmpty { continue }
            let basis = generationBasis(compilation, project: project, rereading: kept.union(moved))
            if !moved.isEmpty { compilation.filesChanged(project) }
            let documents = kept.intersection(project.documentFiles)
            if !documents.isEmpty { compilation.documentsChanged(documents) }
            if !kept.intersection(project.schemaFiles).isEmpty, moved.isDisjoint(with: project.schemaFiles) {
                compilation.schemaChanged()
            }
            use(basis, for: compilation)
            touched.formUnion(kept.union(moved))
        }
        rememberConfigurations()
        // A workspace file edited without changing its projects, or a file no project reads.
        if touched.isEmpty { return nil }
        result = DriverResult(resolved: resolved, policy: driver.policy)
        result.compilations = compilations
        KotlinRuntimePlacement.assign(compilations, override: driver.kotlinRuntimeOutput)
        for compilation in compilations {
            // A project started afresh (its baton.json edited): hashed before its first read.
            if stage == .generate, compilation.completed == nil {
                use(driver.generationBasis(of: compilation), for: compilation)
            }
        }
        rerun()
        return Outcome(changed: touched.sorted().map(display), resolvedAgain: true)
    }

    /// Runs every kept compilation to the session's stage (a compilation not touched has nothing to
    /// run) and, for `gen`, writes what changed.
    private func rerun() {
        for compilation in result.compilations { compilation.run(upTo: stage) }
        result.folders = []
        if stage == .generate { write() }
    }

    /// Writes what changed, and notes the stamps of the manifests written.
    private func write() {
        driver.writeOutputs(of: &result, check: false)
        let roots = result.folders.map(\.root) + result.compilations.flatMap { $0.outputs.map(\.root) }
        for root in roots { ownManifests[root] = FileStamp(of: root + "/" + GenerationManifest.fileName) }
    }

    /// For `gen`: the inputs of `compilation` (with `project`'s file lists when given) and its
    /// manifests, hashed before `paths` are read again; the other documents keep the hashes (and
    /// stamps) taken before they were last read, so every hash describes the text the compilation
    /// holds.
    private func generationBasis(
        _ compilation: Compilation, project: ProjectInput? = nil, rereading paths: Set<String>
    ) -> GenerationBasis {
        guard stage == .generate else { return GenerationBasis() }
        var known = compilation.generation.inputs
        for path in paths {
            let display = Path.display(path, from: compilation.workingDirectory)
            known?.documents[display] = nil
            known?.stamps[display] = nil
        }
        return driver.generationBasis(of: compilation, project: project, known: known)
    }

    private func use(_ basis: GenerationBasis, for compilation: Compilation) {
        guard stage == .generate else { return }
        driver.use(basis, for: compilation)
        compilation.generation.trustedOutputRoots = Set(
            basis.manifests.keys.filter { root in
                ownManifests[root].map { FileStamp(of: root + "/" + GenerationManifest.fileName) == $0 } ?? false
            })
    }

    private func rememberConfigurations() {
        configurationTexts = [:]
        var paths = result.compilations.compactMap { $0.project.configuration?.path }
        if let root = result.resolved.configurationPath { paths.append(root) }
        for path in paths { configurationTexts[path] = FileSystem.readFile(path).success ?? [] }
    }

    private func display(_ path: String) -> String { Path.display(path, from: driver.request.workingDirectory) }
}

extension Result {
    /// The value, or nil for a failure.
    fileprivate var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}
