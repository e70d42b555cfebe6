import BatonCodegen
import BatonConfig
import BatonDiagnostics
import BatonFiles
import BatonIR
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The compiler driver every command calls: it finds the projects of a request, compiles each
/// up to the stage the command needs through one `Compilation`, and (for `gen`) writes every
/// file of every language or none.
package struct Driver: Sendable {
    package var request: ProjectRequest
    package var policy: DiagnosticPolicy
    package var targets: TargetSelection
    /// `gen --kotlin-runtime-out`: the one folder (absolute) the run writes the Kotlin runtime to,
    /// instead of each project's `output.kotlin.runtime`.
    package var kotlinRuntimeOutput: String?
    /// True for `gen` without `--check` and without a build map: the output folders' manifests
    /// are read, and written after the run (`GenerationManifest`).
    private var useManifests = false
    /// True for a watch session's `gen` (`WatchSession`): inputs are hashed and manifests read and
    /// written as with `useManifests`, but every compilation runs (the session keeps them).
    package var recordsManifests = false
    /// How every compilation of the request runs, copied into each when it is made: `check`'s
    /// `checksOnly`, a one-shot `check`'s `streamsDocuments` (a watch session keeps its compilations
    /// instead), `gen --build-map`'s `swiftLayout` (its documents are the request's).
    package var options = CompilationOptions()
    /// The time in seconds since 1970 by which a file's stamp counts as settled
    /// (`FileStamp.isSettled`); the system's clock, or a test's, which moves it forward instead of
    /// sleeping until files are old enough.
    package var clock: @Sendable () -> Int64 = { Int64(time(nil)) }

    package init(
        request: ProjectRequest, policy: DiagnosticPolicy = DiagnosticPolicy(), targets: TargetSelection = .none,
        kotlinRuntimeOutput: String? = nil, swiftLayout: SwiftBuildLayout? = nil
    ) {
        self.request = request
        self.policy = policy
        self.targets = targets
        self.kotlinRuntimeOutput = kotlinRuntimeOutput
        self.options.swiftLayout = swiftLayout
    }

    /// The Swift files a build system declared (`gen --build-map`), or nil.
    package var swiftLayout: SwiftBuildLayout? { options.swiftLayout }

    /// Resolves the projects and compiles each up to `stage`; with `keeping`, each compilation gets a
    /// `ProjectCache` of its own for the rounds its keeper (a watch session) runs next.
    package func compile(upTo stage: Compilation.Stage, keeping: Bool = false) -> DriverResult {
        let found = ProjectResolver.schemasFound(request)
        // A streamed check builds each project's schema while the documents are looked for and read: the
        // build needs only the schema files, and the discovery (every folder listed, every file matched) and
        // the first pass over the documents (`StreamingCheck.read`) need nothing of it. The compilation takes
        // the schema after its first pass, waiting for it then if need be (`BuiltSchema.take`); the build is
        // waited for here before returning, whatever happened. With one worker the schemas are built first.
        // Each schema goes with its project (`BuiltSchema`, carried into the project's `ProjectInput`), never
        // by position.
        let building = DispatchGroup()
        defer { building.wait() }
        if options.streamsCheck(upTo: stage, kept: keeping), found.buildsSchemas {
            let loader = ProjectLoader(workingDirectory: request.workingDirectory, schemas: options.schemas)
            if options.workers > 1 {
                found.willBuildSchemas()
                DispatchQueue.global().async(group: building) {
                    found.buildSchemas { Compilation.checkedSchema($0, loader: loader) }
                }
            } else {
                found.buildSchemas { Compilation.checkedSchema($0, loader: loader) }
            }
        }
        let resolved = ProjectResolver.documentsFound(found, request)
        var result = DriverResult(resolved: resolved, policy: policy)
        if resolved.isFatal { return result }
        result.compilations = resolved.projects.map { project in
            makeCompilation(project, cache: keeping ? ProjectCache() : nil)
        }
        KotlinRuntimePlacement.assign(result.compilations, override: kotlinRuntimeOutput)
        if stage == .generate, useManifests {
            prepareIncrementalRun(result.compilations)
        } else if stage == .generate, recordsManifests {
            for compilation in result.compilations { use(generationBasis(of: compilation), for: compilation) }
        }
        for compilation in result.compilations where compilation.generation.upToDate == nil {
            compilation.run(upTo: stage)
        }
        if stage == .generate, targets != .none, result.compilations.allSatisfy({ $0.targets.isEmpty }) {
            let names: String
            if case .named(let list, _) = targets {
                names = list.joined(separator: ", ")
            } else {
                names = "any language"
            }
            result.driverDiagnostics.append(
                Diagnostic(
                    .error, "baton.json has no output for \(names): set output.swift.path.", rule: "config",
                    range: nil,
                    path: resolved.configurationPath.map { Path.display($0, from: request.workingDirectory) }))
        }
        return result
    }

    /// A compilation of `project` with this request's working directory, policy, targets and options (a streamed
    /// check's schema, built by `compile`, comes with the project: `ProjectInput.builtSchema`).
    package func makeCompilation(_ project: ProjectInput, cache: ProjectCache?) -> Compilation {
        Compilation(
            project: project, workingDirectory: request.workingDirectory, policy: policy, targets: targets,
            options: options, cache: cache)
    }

    /// `gen`: compiles every project up to `.generate` and, when nothing is an error, writes every
    /// language's files, or with `check` only reports what would change. Every output folder is
    /// checked (paths, conflicts with what is on disk) before the first file is written, so a run
    /// writes all of its files or none.
    package func generate(check: Bool) -> DriverResult {
        var driver = self
        driver.useManifests = !check
        var result = driver.compile(upTo: .generate)
        writeOutputs(of: &result, check: check)
        return result
    }

    /// Writes what `result`'s compilations generated (`gen`'s second half, also run by a watch
    /// session on the compilations it keeps): nothing when there is an error; every folder checked
    /// first, then written, so all of the files or none.
    package func writeOutputs(of result: inout DriverResult, check: Bool) {
        result.folders = []
        result.driverDiagnostics.removeAll { $0.rule == "io" }
        guard !result.hasErrors else { return }
        // Checked first, every folder and the manifest, then written: all of the files or none.
        // (`gen` checks without rendering (`FileWriter.preflight`): each file is rendered once, as it is written.)
        var stale: [String: [String]] = [:]
        let checked = write(result.compilations, check: true, preflight: !check, stale: &stale, into: &result)
        let upToDate = result.compilations.flatMap { $0.generation.upToDate ?? [] }
        if result.hasErrors || check {
            result.folders = result.hasErrors ? [] : checked + upToDate
            result.checkedOnly = check
            return
        }
        for compilation in result.compilations where compilation.generation.upToDate == nil {
            for output in compilation.outputs { GenerationManifest.remove(root: output.root) }
        }
        // The plans' summaries the manifests record are made on another thread while the files are rendered and
        // written (they read the plan, as the rendering does, and change nothing): otherwise one core's alone after.
        let compilations = Unshared(result.compilations)
        let (plans, folders) = ParallelWork.together(workers: options.workers) {
            compilations.value.map { $0.generation.upToDate == nil ? $0.planSummaryToRecord() : nil }
        } foreground: {
            write(result.compilations, check: false, stale: &stale, into: &result)
        }
        result.folders = folders
        if !result.hasErrors { recordManifests(result.compilations, plans: plans) }
        result.folders += upToDate
    }

    /// Writes (or, with `check`, compares) every output folder and manifest; errors become `io`
    /// diagnostics at the setting.
    /// With `preflight`, each folder is only checked for what could refuse it (`FileWriter.preflight`)
    /// and reports nothing; the stale files it finds go into `stale` (by folder and language), and a write of the
    /// same folders afterwards removes those without listing the folders again.
    private func write(
        _ compilations: [Compilation], check: Bool, preflight: Bool = false, stale: inout [String: [String]],
        into result: inout DriverResult
    ) -> [WrittenFolder] {
        var reports: [WrittenFolder] = []
        for compilation in compilations {
            for output in compilation.outputs {
                do {
                    if preflight {
                        // After an edit, the folder as its manifest recorded it, not listed.
                        stale[output.root + "\t" + output.target.name] = try writer(output).preflight(
                            output.files, recorded: compilation.generation.recordedUnkept[output.root])
                        continue
                    }
                    let report = try writer(output).write(
                        output.files, check: check, preflighted: !check,
                        stale: check ? nil : stale[output.root + "\t" + output.target.name])
                    reports.append(WrittenFolder(root: output.root, language: output.target.name, report: report))
                } catch {
                    result.driverDiagnostics.append(writeError(error, output.setting, compilation))
                }
            }
            guard let manifest = compilation.manifest else { continue }
            let folder = Path.directory(of: manifest.setting.value)
            do {
                let report = try FileWriter(root: folder, managedExtensions: []).writeFile(
                    Path.lastComponent(manifest.setting.value), manifest.text, check: check)
                reports.append(WrittenFolder(root: folder, language: "persistedQueries", report: report))
            } catch {
                result.driverDiagnostics.append(writeError(error, manifest.setting, compilation))
            }
        }
        return reports
    }

    private func writer(_ output: Compilation.Output) -> FileWriter {
        FileWriter(root: output.root, managedExtensions: output.target.managedExtensions)
    }

    private func writeError(_ error: FileWriterError, _ setting: Located<String>, _ compilation: Compilation)
        -> Diagnostic
    {
        guard let configuration = compilation.project.configuration else {
            return Diagnostic(.error, "\(error)", rule: "io", range: nil)
        }
        return .error("\(error)", rule: "io", file: configuration.file, span: setting.span)
    }
}

/// Compilations read on another thread while the calling one writes their files (`Driver.writeOutputs`): both only
/// read them. (`unchecked`: a `Compilation` is a class that is not `Sendable`; nothing changes it until both are done.)
private struct Unshared: @unchecked Sendable {
    let value: [Compilation]
    init(_ value: [Compilation]) { self.value = value }
}

/// How a run went: the exit status, 0, 1 and 2, in words.
package enum RunStatus: Sendable, Equatable {
    /// No errors (warnings allowed).
    case clean
    /// Errors in the input, or warnings under `--warnings-as-errors`, or (`gen --check`) stale files.
    case problems
    /// A configuration or I/O error: the run could not do its job.
    case unusable
}

/// One output folder's report: what was (or, for `--check`, would be) written.
package struct WrittenFolder: Sendable {
    /// The absolute output folder.
    package var root: String
    package var language: String
    package var report: FileWriteReport
}

/// What a driver run found and did.
package struct DriverResult {
    package var resolved: ResolvedProjects
    package var policy: DiagnosticPolicy
    package var compilations: [Compilation] = []
    /// Problems of the run as a whole: no output configured, files that could not be written.
    package var driverDiagnostics: [Diagnostic] = []
    /// What `gen` wrote, or would write.
    package var folders: [WrittenFolder] = []

    init(resolved: ResolvedProjects, policy: DiagnosticPolicy) {
        self.resolved = resolved
        self.policy = policy
    }

    /// Every diagnostic, with this run's severities, sorted by file and position.
    package var diagnostics: [Diagnostic] {
        (policy.settle(resolved.diagnostics, configuration: nil) + compilations.flatMap(\.diagnostics)
            + driverDiagnostics).sorted(by: Diagnostic.sortKey)
    }

    /// The diagnostics to show: PATHS and `--quiet` applied.
    package var shownDiagnostics: [Diagnostic] {
        (policy.shown(policy.settle(resolved.diagnostics, configuration: nil))
            + compilations.flatMap(\.shownDiagnostics) + policy.shown(driverDiagnostics)).sorted(by: Diagnostic.sortKey)
    }

    /// GraphQL texts reported on; nil when the run stopped before reading any.
    package var documentCount: Int? {
        compilations.isEmpty ? nil : compilations.reduce(0) { $0 + $1.documentCount }
    }

    /// Where `diagnostic` is (a schema file, baton.json or a document), by the project it belongs to.
    package func place(of diagnostic: Diagnostic) -> DiagnosticPlace {
        compilations.lazy.map { $0.place(of: diagnostic) }.first { $0 != .document } ?? .document
    }

    /// Documents were read but not validated, because the schema could not be built.
    package var skippedValidation: Bool { compilations.contains(where: \.skippedValidation) }

    /// Every diagnostic, with this run's severities, in no particular order (for questions that need none).
    private var unorderedDiagnostics: [Diagnostic] {
        policy.settle(resolved.diagnostics, configuration: nil) + compilations.flatMap(\.diagnostics)
            + driverDiagnostics
    }

    /// Some error (of any kind, or a warning under `--warnings-as-errors`) was found.
    package var hasErrors: Bool { unorderedDiagnostics.contains(where: policy.isError) }

    /// A configuration or I/O error: the command could not do its job (exit status 2).
    package var isFatal: Bool { unorderedDiagnostics.contains(where: Diagnostic.isFatal) }

    /// How the run went, for the exit status: `unusable` for a configuration or I/O error,
    /// `problems` for an error shown (or, for `gen --check`, a file that would change).
    package var status: RunStatus { status(shown: shownDiagnostics) }

    /// `status`, given `shownDiagnostics` as the caller already has them (a large project's are not
    /// gathered and sorted twice).
    package func status(shown: [Diagnostic]) -> RunStatus {
        if isFatal { return .unusable }
        if shown.contains(where: { $0.severity == .error }) { return .problems }
        if folders.contains(where: { $0.report.hasChanges }), checkedOnly { return .problems }
        return .clean
    }

    /// True for `gen --check`: nothing was written, `folders` says what would change.
    package var checkedOnly = false

    /// The plans of every project that got past the gate.
    package var models: [LensModel] { compilations.compactMap(\.model) }
}
