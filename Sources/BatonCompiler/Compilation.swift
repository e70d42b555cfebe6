import BatonCodegen
import BatonCodegenKotlin
import BatonConfig
import BatonDiagnostics
import BatonFiles
import BatonIR
import BatonSchema
import BatonSyntax
import BatonValidation

/// One project compiled up to a requested stage: its schema, its documents (one unit per file),
/// their validation, the plan (the lens model both generators spell) and the generated files,
/// with every diagnostic along the way.
///
/// Every command runs this one pipeline: `check` up to `.plan` (and the settings of every
/// language with an output), `plate` up to `.plan`, `gen` up to `.generate`. One gate stands
/// before the plan: any error so far (after the `rules` settings and `--warnings-as-errors`)
/// stops the compilation there, so the generators never see invalid input and `check` fails on
/// everything `gen` would stop on.
///
/// A compilation can be kept and updated: `documentsChanged(_:)` reads the given files again and
/// `schemaChanged()` the schema, dropping what depended on them, so a watcher or an editor re-runs
/// only what a change affects.
package final class Compilation {
    /// The stages, in order.
    package enum Stage: Int, Sendable, Comparable {
        /// The schema built and checked, the documents read and parsed, the languages' settings checked.
        case read
        /// Every validation rule over all documents as one unit.
        case validate
        /// The plan: the lens model of the valid documents (after the gate).
        case plan
        /// Every target language's files (deferred: each rendered when the writer writes it).
        case generate

        package static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One language's output: its files, not yet rendered or written (`GeneratedFile`'s deferred text).
    package struct Output: Sendable {
        package var target: GenerationTarget
        /// The absolute output folder.
        package var root: String
        /// The output path setting, where write errors are reported.
        package var setting: Located<String>
        package var files: [GeneratedFile]
    }

    /// The persisted-query manifest's one file: where it goes and its text.
    package struct Manifest: Sendable {
        /// The setting, where write errors are reported.
        package var setting: Located<String>
        package var text: String
    }

    package private(set) var project: ProjectInput
    package let workingDirectory: String
    package let policy: DiagnosticPolicy
    /// The languages this compilation generates (or, short of `.generate`, checks the settings of).
    package let targets: [GenerationTarget]
    /// Problems choosing the targets (`--lang` naming a language without an output folder).
    private let targetDiagnostics: [Diagnostic]
    private(set) var loader: ProjectLoader

    package private(set) var schema: GraphQLSchema?
    /// The document files read, in `project.documentFiles` order (schema-only files left out
    /// when the project says so).
    package private(set) var units: [DocumentUnit] = []
    package private(set) var model: LensModel?
    package private(set) var outputs: [Output] = []
    /// The persisted-query manifest (`output.persistedQueries.path`), in memory, when `gen` writes one.
    package private(set) var manifest: Manifest?
    /// The last stage run to its end (nil before `.read`).
    package private(set) var completed: Stage?
    /// True when the gate stopped the compilation before the plan.
    package private(set) var stoppedAtGate = false
    /// Where `.generate` writes the Kotlin runtime (a folder receiving `baton/runtime/*.kt`), or nil
    /// for nowhere: `output.kotlin.runtime`, by default the Kotlin output folder. The driver's placement
    /// changes it, across the request's compilations, so a run writes each folder once (`KotlinRuntimePlacement`).
    package internal(set) var kotlinRuntime: KotlinRuntimeDestination?
    /// How this compilation runs (`check`'s plan for diagnostics only, streaming, a build's layout, workers).
    package let options: CompilationOptions
    /// What a kept compilation reuses between rounds, owned by whoever keeps it (`WatchSession`); nil for a
    /// compilation run once, which plans and validates everything.
    package let cache: ProjectCache?
    private var modelIsFull = false
    /// With a `cache`: how many documents the last validation validated (all, or what a change reached).
    package var validatedDocuments: Int { cache?.validatedDocuments ?? 0 }

    /// This `gen` run's inputs, the manifests found, and what was derived from them (`GenerationRun`).
    package internal(set) var generation = GenerationRun()

    private var schemaDiagnostics: [Diagnostic] = []
    private var settingsDiagnostics: [Diagnostic] = []
    private var validationDiagnostics: [Diagnostic] = []
    private var planDiagnostics: [Diagnostic] = []
    /// The plan's schema-wide decisions for the schema and baton.json (`decisions(_:)`): let go when
    /// either may have changed (a schema built, the project resolved again), not at an edit.
    private var decided: PlanDecisions?

    package init(
        project: ProjectInput, workingDirectory: String, policy: DiagnosticPolicy = DiagnosticPolicy(),
        targets selection: TargetSelection = .none, options: CompilationOptions = CompilationOptions(),
        cache: ProjectCache? = nil
    ) {
        self.project = project
        self.options = options
        self.cache = cache
        self.workingDirectory = workingDirectory
        self.policy = policy
        self.loader = ProjectLoader(
            workingDirectory: workingDirectory, overlays: project.overlays, schemas: options.schemas)
        if let configuration = project.configuration {
            (targets, targetDiagnostics) = selection.targets(of: configuration)
            if targets.contains(where: { $0.name == GenerationTargets.kotlin.name }) {
                kotlinRuntime = KotlinRuntimePlacement.configured(configuration)
            }
        } else {
            (targets, targetDiagnostics) = ([], [])
        }
    }

    // MARK: Running

    /// Runs every stage up to and including `stage` that has not run yet, stopping at the gate.
    package func run(upTo stage: Stage) {
        if options.streamsCheck(upTo: stage, kept: cache != nil), completed == nil {
            checkStreaming()
            return
        }
        if completed == nil {
            read()
            completed = .read
        }
        if stage >= .validate, let done = completed, done < .validate {
            validate()
            completed = .validate
        }
        if stage >= .plan, let done = completed, done < .plan {
            guard passesGate else {
                stoppedAtGate = true
                return
            }
            plan(full: !options.checksOnly)
            completed = .plan
        }
        if stage >= .generate, completed == .plan, model != nil, !modelIsFull {
            plan(full: true)
        }
        if stage >= .generate, let done = completed, done < .generate {
            guard passesGate else {
                stoppedAtGate = true
                return
            }
            computeDigests()
            if generation.partial != nil, generation.namesDigest != generation.incremental?.names || !summariesAreKept()
            {
                // A top-level name changed (a definition added, removed or renamed, a schema type
                // newly used), or a summarized definition's file must be generated again (edited
                // by hand): every document is read, validated and planned after all.
                readEveryDocument()
                validate()
                guard passesGate else {
                    stoppedAtGate = true
                    return
                }
                plan(full: true)
                computeDigests()
            }
            generate()
            completed = .generate
        }
    }

    /// The gate: nothing so far counts as an error.
    package var passesGate: Bool { !diagnostics.contains(where: policy.isError) }

    private func read() {
        if var basis = generation.incremental, basis.summary == nil {
            // The last plan's summary is read while the schema is built (the two are independent,
            // and together most of an incremental run's reading).
            let bytes = basis.planBytes
            let (summary, loaded) = ParallelWork.together(workers: options.workers) {
                PlanSummary(bytes: bytes[...])
            } foreground: {
                loader.loadSchema(project.schemaFiles)
            }
            useSchema(loaded.schema, loaded.diagnostics)
            basis.summary = summary
            generation.incremental = basis
        } else if generation.incremental == nil {
            // Every document is read: parsed on the workers while the schema is built on another thread (the two
            // are independent; the build was otherwise one core's alone before the parse began).
            let (loader, schemaFiles, documentFiles) = (loader, project.schemaFiles, project.documentFiles)
            let (loaded, read) = ParallelWork.together(workers: options.workers) {
                loader.loadSchema(schemaFiles)
            } foreground: {
                readUnits(documentFiles)
            }
            useSchema(loaded.schema, loaded.diagnostics)
            units = read
            readSettings()
            return
        } else {
            readSchema()
        }
        if let incremental = generation.incremental, let found = readReached(incremental) {
            generation.partial = found
            units = found.units
        } else {
            units = readUnits(project.documentFiles)
        }
        readSettings()
    }

    /// Every document read (after an incremental read whose summaries cannot all be kept).
    private func readEveryDocument() {
        var known: [String: DocumentUnit] = [:]
        for unit in units { known[unit.path] = unit }
        var read: [String: DocumentUnit] = [:]
        for unit in readUnits(project.documentFiles.filter { known[$0] == nil }) { read[unit.path] = unit }
        units = project.documentFiles.compactMap { path in known[path] ?? read[path] }
        generation.partial = nil
    }

    private func readSettings() {
        settingsDiagnostics = targetDiagnostics
        if let configuration = project.configuration {
            for target in targets { settingsDiagnostics += target.settingsProblems(configuration) }
            // The runtime's files are read from where `baton` finds them (`KotlinRuntimeFiles`); not
            // found, `gen` stops before writing, at the setting that asked for them.
            if let kotlinRuntime, case .failure(let problem) = KotlinRuntime.found {
                settingsDiagnostics.append(
                    .error(
                        "\(problem)", rule: "config", file: configuration.file, span: kotlinRuntime.setting.span))
            }
        }
    }

    /// Builds the schema; without `descriptions`, its descriptions are left empty (a one-shot `check`).
    private func readSchema(descriptions: Bool = true) {
        let (schema, _, diagnostics) = loader.loadSchema(project.schemaFiles, descriptions: descriptions)
        useSchema(schema, diagnostics)
    }

    /// The schema built (`loader.loadSchema`), kept with its diagnostics settled.
    private func useSchema(_ schema: GraphQLSchema?, _ diagnostics: [Diagnostic]) {
        self.schema = schema
        schemaDiagnostics = settle(diagnostics)
        decided = nil
        // The plan's definitions, and the documents' validation, were made against the schema before.
        cache?.schemaChanged()
    }

    /// A document file read and parsed; nil for a schema-only file the project leaves out.
    func readUnit(_ path: String) -> DocumentUnit? {
        kept(loader.loadUnit(path))
    }

    /// The units of `paths`, each file read and parsed on `workers` threads (a function of the file
    /// alone), in order; schema-only files the project leaves out left out.
    private func readUnits(_ paths: [String]) -> [DocumentUnit] {
        let loader = loader
        let loaded = ParallelWork.map(paths, workers: options.workers, minimumItems: 64) { loader.loadUnit($0) }
        return loaded.compactMap(kept)
    }

    /// `unit` with its diagnostics settled; nil for a schema-only file the project leaves out.
    private func kept(_ unit: DocumentUnit) -> DocumentUnit? {
        if project.skipsSchemaOnlyFiles, Path.pathExtension(unit.path) != "swift", unit.isSchemaOnly { return nil }
        var unit = unit
        unit.diagnostics = settle(unit.diagnostics)
        return unit
    }

    private func validate() {
        validationDiagnostics = []
        // A schema with errors that still built (GitHub's published schema repeats two field
        // definitions) is used as built, first definition winning: its errors are reported and
        // the documents are still checked against it. Only a schema that could not be built at
        // all leaves the documents unvalidated.
        guard let schema else { return }
        // A kept compilation validates again only what changed reaches (`KeptValidation`).
        if let cache {
            validationDiagnostics = cache.validation.validate(
                schema: schema, documents: documents, configuration: project.configuration)
        } else {
            validationDiagnostics = DocumentValidation.validate(
                schema: schema, documents: documents, configuration: project.configuration,
                workers: options.workers, batchBytes: options.batchBytes)
        }
        if let configuration = project.configuration {
            validationDiagnostics += UnknownScalarMappingRule.check(configuration, schema: schema)
        }
        validationDiagnostics += KeyFieldsRule.check(decisions(schema))
        validationDiagnostics = settle(validationDiagnostics)
    }

    /// The plan's schema-wide decisions (`PlanDecisions`: the record keys, with the `key-fields`
    /// rule's diagnostics, and the screen's), made once for `schema` and baton.json and used by the
    /// rule and every build of the plan; made again after either changes.
    private func decisions(_ schema: GraphQLSchema) -> PlanDecisions {
        if let decided { return decided }
        let made = PlanDecisions(schema: schema, options: Self.modelOptions(project.configuration))
        decided = made
        return made
    }

    /// `check`'s stages up to the plan, streamed (`StreamingCheck`): what `read`, `validate` and
    /// `plan(full: false)` leave, but the documents and the model.
    private func checkStreaming() {
        var check = StreamingCheck(
            project: project, loader: loader, policy: policy, workers: options.workers,
            batchBytes: options.batchBytes)
        check.betweenPasses = options.betweenStreamingPasses
        // The schema is built on another thread while the first pass reads the files and the languages'
        // settings are checked: neither needs anything of it, and the build was otherwise most of what runs
        // on one core before any batch starts. With one worker the schema is built first, as before.
        // The files are cut into batches there too (a function of the first pass alone), in the time the
        // schema's build takes longer than the first pass on a small project. The driver's check started the
        // build while it looked for the documents (`ProjectInput.builtSchema`): the first pass runs beside what
        // is left of it, and the schema is taken (waited for) after.
        // The languages' settings are checked while the files are cut into batches (the two are independent).
        let (loader, schemaFiles, cutter, workers) = (self.loader, project.schemaFiles, check, options.workers)
        let firstPass = {
            let files = cutter.read()
            let (batching, _) = ParallelWork.together(workers: workers) { cutter.batching(files) } foreground: {
                self.readSettings()
            }
            return (files, batching)
        }
        let loaded: ProjectLoader.LoadedSchema
        let read: [StreamingCheck.ReadFile]
        let batching: StreamingCheck.Batching
        if let built = project.builtSchema, built.isExpected {
            (read, batching) = firstPass()
            loaded = built.take() ?? Self.checkedSchema(schemaFiles, loader: loader)
        } else {
            (loaded, (read, batching)) = ParallelWork.together(workers: options.workers) {
                Self.checkedSchema(schemaFiles, loader: loader)
            } foreground: {
                firstPass()
            }
        }
        useSchema(loaded.schema, loaded.diagnostics)
        var files = read
        units = files.map(\.unit)
        completed = .read
        guard let schema else {
            // As `validate` leaves it: nothing validated (`skippedValidation`), then the gate.
            completed = .validate
            if passesGate { completed = .plan } else { stoppedAtGate = true }
            return
        }
        // When nothing before validation is an error, each batch free of errors is planned as it
        // is validated; the plan's diagnostics count if the gate then passes. Files the second
        // pass finds other than the first did are batched again, then (a second time) all in one.
        let decisions = decisions(schema)
        var outcome = check.validate(files, batching, schema: schema, decisions: decisions, plans: passesGate)
        for attempt in 1...2 {
            guard case .regroup(let found) = outcome else { break }
            files = found
            units = files.map(\.unit)
            outcome = check.validate(
                files, check.batching(files, oneBatch: attempt == 2), schema: schema, decisions: decisions,
                plans: passesGate)
        }
        guard case .done(let validation, let plan) = outcome else { return }
        var diagnostics = validation
        if let configuration = project.configuration {
            diagnostics += UnknownScalarMappingRule.check(configuration, schema: schema)
        }
        diagnostics += KeyFieldsRule.check(decisions)
        validationDiagnostics = settle(diagnostics)
        completed = .validate
        guard passesGate, let plan else {
            stoppedAtGate = true
            return
        }
        planDiagnostics = plan
        completed = .plan
    }

    /// The schema a streamed check builds (`checkStreaming`, or the driver beforehand): without its
    /// descriptions' texts (nothing a check reports reads one), its files' text let go once built.
    package static func checkedSchema(_ files: [String], loader: ProjectLoader) -> ProjectLoader.LoadedSchema {
        loader.loadSchema(files, descriptions: false, releasingText: true)
    }

    /// The processors online, or `BATON_JOBS` when it is set to a positive number.
    package static var defaultWorkers: Int {
        if let text = FileSystem.environment("BATON_JOBS"), let jobs = Int(text), jobs > 0 { return jobs }
        return ParallelWork.processorCount
    }

    private func plan(full: Bool) {
        guard let schema else { return }
        var planOptions = Self.modelOptions(project.configuration)
        planOptions.checksOnly = !full
        let (outside, block) = summariesToPlan()
        let (model, diagnostics) = LensModelBuilder.build(
            schema: schema, documents: documents, options: planOptions, cache: cache?.plan, workers: options.workers,
            outside: outside, block: block, decisions: decisions(schema))
        self.model = model
        modelIsFull = full
        planDiagnostics = settle(diagnostics)
    }

    private func generate() {
        guard let model, let configuration = project.configuration else { return }
        if !targets.isEmpty, options.swiftLayout == nil, let path = configuration.output.persistedQueriesPath {
            manifest = Manifest(
                setting: path, text: PersistedQueryManifest.text(for: model.operations, block: model.block))
        }
        generation.recordedUnkept = [:]
        outputs = targets.compactMap { target in
            guard let setting = target.outputPath(configuration) else { return nil }
            let root = Path.absolute(setting.value, relativeTo: configuration.directory)
            let kept = keptDefinitions(language: target.name, root: root)
            var files = target.generate(model, configuration, kept.keys)
            if !kept.isEmpty, !keptFilesAreWhereRecorded(files, root: root) {
                files = target.generate(model, configuration, [])
            }
            return Output(target: target, root: root, setting: setting, files: files)
        }
        if let kotlinRuntime { KotlinRuntimePlacement.add(kotlinRuntime, to: &outputs) }
        if let swiftLayout = options.swiftLayout,
            let index = outputs.firstIndex(where: { $0.target.name == GenerationTargets.swift.name })
        {
            // The layout merges the files' texts: rendered first, on every core (a kept file, with
            // the whole layout file it is in, is not).
            let files = ParallelWork.map(outputs[index].files, minimumItems: 16) { $0.kept ? $0 : $0.rendered }
            outputs[index].files = swiftLayout.apply(
                to: files, workingDirectory: workingDirectory, keeping: generation.keptLayoutFiles)
        }
    }

    /// The plan's digests, for the manifests (`PlanDigests`), when the driver took the inputs.
    private func computeDigests() {
        generation.keptByRoot = [:]
        guard let generationInputs = generation.inputs, let model else { return }
        // After an incremental read whose planned definitions are named and typed as recorded, the
        // names are the last run's: taken, not hashed again (`plannedNamesAreRecorded`). Otherwise they are
        // hashed on another thread while the definitions are digested on the workers (neither needs the other).
        var recorded: String?
        if let names = generation.incremental?.names, plannedNamesAreRecorded() { recorded = names }
        let known = recorded
        let (names, definitions) = ParallelWork.together(workers: options.workers) {
            known ?? PlanDigests.names(model)
        } foreground: {
            PlanDigests.definitions(model, documents: generationInputs.documents, workers: options.workers)
        }
        (generation.definitionDigests, generation.undigestedDefinitions) = definitions
        generation.namesDigest = names
        computeLayoutDigests()
    }

    private func settle(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        policy.settle(diagnostics, configuration: project.configuration)
    }

    // MARK: Updating

    /// Reads the project's document files at `paths` (absolute) again, with `texts` in place of
    /// the files where given (an editor's unsaved buffers; a path without one is read from disk
    /// again), dropping those that are gone; validation and everything after it run again on the
    /// next `run(upTo:)`. (A file new to the project needs the project resolved again: its
    /// patterns decide what is a document.)
    package func documentsChanged(_ paths: Set<String>, texts: [String: [UInt8]] = [:]) {
        guard completed != nil else { return }
        for path in paths { project.overlays[path] = texts[path] }
        loader.overlays = project.overlays
        if !replaceUnitsInPlace(paths) {
            var byPath: [String: DocumentUnit] = [:]
            for unit in units where !paths.contains(unit.path) { byPath[unit.path] = unit }
            for path in paths
            where project.documentFiles.contains(path) && (FileSystem.exists(path) || project.overlays[path] != nil) {
                if let unit = readUnit(path) { byPath[path] = unit }
            }
            units = project.documentFiles.compactMap { byPath[$0] }
        }
        resetAfterRead()
    }

    /// `documentsChanged`'s common case, an editor's keystroke: every path is a unit already and reads
    /// again, so each is replaced where it stands (the units keep `project.documentFiles`' order)
    /// without a dictionary of every unit. False, with nothing changed, when one is not (new, gone or
    /// unreadable): the caller takes the units again from the file list.
    private func replaceUnitsInPlace(_ paths: Set<String>) -> Bool {
        var places: [(index: Int, path: String)] = []
        for path in paths {
            guard let index = units.firstIndex(where: { $0.path == path }),
                FileSystem.exists(path) || project.overlays[path] != nil
            else { return false }
            places.append((index, path))
        }
        var read: [(index: Int, unit: DocumentUnit)] = []
        for place in places {
            guard let unit = readUnit(place.path) else { return false }
            read.append((place.index, unit))
        }
        for (index, unit) in read { units[index] = unit }
        return true
    }

    /// Takes the project's file lists again, after resolving the project again found files added or
    /// removed (a new document, a deleted one, a schema pattern matching more): units of files
    /// still listed are kept, files new to the list are read, the schema is built again when its
    /// files changed; validation and everything after it run again on the next `run(upTo:)`.
    package func filesChanged(_ resolved: ProjectInput) {
        decided = nil
        guard completed != nil else {
            project = resolved
            return
        }
        let schemaMoved = resolved.schemaFiles != project.schemaFiles
        var updated = resolved
        updated.overlays = project.overlays
        updated.reportedPaths = project.reportedPaths
        project = updated
        var byPath: [String: DocumentUnit] = [:]
        for unit in units { byPath[unit.path] = unit }
        units = project.documentFiles.compactMap { path in byPath[path] ?? readUnit(path) }
        if schemaMoved { readSchema() }
        resetAfterRead()
    }

    /// Builds the schema again, with `texts` in place of the schema files where given (an editor's
    /// unsaved buffers; a schema file without one is read from disk again); validation and everything
    /// after it run again on the next `run(upTo:)`.
    package func schemaChanged(texts: [String: [UInt8]] = [:]) {
        guard completed != nil else { return }
        for path in project.schemaFiles { project.overlays[path] = texts[path] }
        loader.overlays = project.overlays
        readSchema()
        resetAfterRead()
    }

    private func resetAfterRead() {
        validationDiagnostics = []
        planDiagnostics = []
        model = nil
        outputs = []
        manifest = nil
        // Hashes taken before the change no longer describe the inputs: no definition is kept.
        generation = GenerationRun()
        stoppedAtGate = false
        completed = .read
    }

    // MARK: Results

    /// Every parsed document, in file order.
    package var documents: [Document] { units.flatMap(\.documents) }

    /// Every diagnostic so far, with this run's severities, unfiltered.
    package var diagnostics: [Diagnostic] {
        schemaDiagnostics + settingsDiagnostics + units.flatMap(\.diagnostics) + validationDiagnostics
            + planDiagnostics
    }

    /// The diagnostics shown: those in documents outside PATHS left out (schema and baton.json
    /// diagnostics are always shown), then the policy's `--quiet`.
    package var shownDiagnostics: [Diagnostic] {
        // Asked first whether the project reports every document: then no path is made absolute.
        let (project, workingDirectory) = (self.project, self.workingDirectory)
        let shown = diagnostics.filter { diagnostic in
            project.reports(diagnostic.displayPath, workingDirectory: workingDirectory)
                || place(of: diagnostic) != .document
        }
        return policy.shown(shown)
    }

    /// Where `diagnostic` is: in a schema file, in baton.json, or in a document (or in no file).
    package func place(of diagnostic: Diagnostic) -> DiagnosticPlace {
        guard let path = diagnostic.displayPath else { return .document }
        let absolute = Path.absolute(path, relativeTo: workingDirectory)
        if project.schemaFiles.contains(absolute) { return .schema }
        if absolute == project.configuration?.path { return .configuration }
        return .document
    }

    /// How many GraphQL texts (files and Swift literals) are reported on.
    package var documentCount: Int {
        let (project, loader, workingDirectory) = (self.project, self.loader, self.workingDirectory)
        return units.filter { project.reports(loader.display($0.path), workingDirectory: workingDirectory) }
            .reduce(0) { $0 + $1.sourceCount }
    }

    /// True when documents were read but could not be validated: the schema did not build.
    package var skippedValidation: Bool { schema == nil && !units.isEmpty && completed.map { $0 >= .validate } == true }

    /// The settings of baton.json the plan needs, and the names every target reserves.
    package static func modelOptions(_ configuration: Configuration?) -> LensModelOptions {
        guard let configuration else { return GenerationTargets.planOptions() }
        var scalars: [String: CustomScalarMapping] = [:]
        for scalar in configuration.customScalarTypes {
            scalars[scalar.name] = CustomScalarMapping(
                swiftType: scalar.swift?.value, kotlinType: scalar.kotlin?.type.value,
                kotlinConverter: scalar.kotlin?.converter.value)
        }
        let naming = NamingOptions(
            operationSuffix: configuration.output.operationSuffix?.value ?? false,
            schemaNamespace: configuration.output.swiftNamespace?.value)
        var options = LensModelOptions(
            customScalars: scalars, onError: configuration.onError?.value.rawValue, naming: naming)
        options.keyFields = KeyFieldsRule.declarations(configuration)
        return GenerationTargets.planOptions(options)
    }
}

/// Where a diagnostic is, for the summary line: documents are counted, the schema and baton.json
/// are named.
package enum DiagnosticPlace: Sendable, Hashable {
    case schema
    case configuration
    case document
}
