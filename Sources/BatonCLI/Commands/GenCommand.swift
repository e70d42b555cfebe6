import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonConfig
import BatonDiagnostics
import BatonIR
import BatonSchema
import BatonSyntax

/// `baton gen [--lang swift|kotlin] [--check]`: writes the generated code of every project of baton.json.
package enum GenCommand: Command {
    package static let name = "gen"
    package static let abstract = "Generate Swift (or Kotlin) lenses for the project's operations and fragments."
    package static let discussion = """
        Reads baton.json, validates the documents like `baton check` (errors stop generation), builds the \
        lens model and writes one file per operation, per fragment and per schema type the documents use \
        under output.<language>.path. Files are rewritten only when their content changes, each write is \
        atomic, and files Baton generated earlier that are no longer generated are removed (only files \
        carrying Baton's generated-file header, never anything else).

        With --check nothing is written: the files that would change are listed and the exit status is 1 \
        if there are any (for CI and pre-commit hooks).

        Exit status: 0 done (or, with --check, up to date); 1 errors in the documents, or --check found \
        stale files; 2 usage, configuration or I/O error.
        """

    package static var signature: CommandSignature {
        CommandSignature(
            options: [
                .value(
                    "config", valueName: "path",
                    help: "The baton.json to use, or a folder holding one (default: the nearest one up from here)."),
                .value(
                    "lang", valueName: "language", choices: GenLanguages.all.map(\.name), repeatable: true,
                    help: "The language to generate (default: every language baton.json has an output for)."),
                .flag("check", help: "Write nothing; list the files that would change and exit 1 if any would."),
                DiagnosticFormat.option,
            ],
            arguments: [])
    }

    package static func run(_ arguments: ParsedArguments, context: CommandContext) -> ExitCode {
        let format = arguments.value("format").flatMap(DiagnosticFormat.init(rawValue:)) ?? .text
        let run = GenRun(
            workingDirectory: context.workingDirectory, configPath: arguments.value("config"),
            languages: arguments.allValues("lang"), check: arguments.flag("check"))
        let outcome = run.run()
        if !outcome.diagnostics.isEmpty || outcome.exitCode != .success && outcome.reports.isEmpty {
            DiagnosticOutput(format: format, quiet: true).report(
                outcome.diagnostics, documentCount: nil, context: context)
        }
        let display = { (path: String) in Path.display(path, from: context.workingDirectory) }
        for report in outcome.reports {
            for (path, change) in report.report.changes {
                let shown = display(Path.join(report.root, path))
                if run.check {
                    context.standardOutput.write("would \(change.verb): \(shown)\n")
                } else {
                    context.standardOutput.write("\(change.pastTense) \(shown)\n")
                }
            }
        }
        let changed = outcome.reports.reduce(0) { $0 + $1.report.changes.count }
        let unchanged = outcome.reports.reduce(0) { $0 + $1.report.unchanged }
        if outcome.exitCode == .success || (run.check && outcome.exitCode == .failure && changed > 0) {
            let summary =
                run.check
                ? (changed == 0
                    ? "Generated code is up to date (\(unchanged) files)."
                    : "\(changed) generated \(changed == 1 ? "file is" : "files are") out of date; run `baton gen`.")
                : "\(changed) \(changed == 1 ? "file" : "files") changed, \(unchanged) unchanged."
            context.standardError.write(summary + "\n")
        }
        return outcome.exitCode
    }
}

extension FileWriteReport.Change {
    var verb: String {
        switch self {
        case .create: "create"
        case .update: "update"
        case .remove: "remove"
        }
    }

    var pastTense: String {
        switch self {
        case .create: "created"
        case .update: "updated"
        case .remove: "removed"
        }
    }
}

/// A target language of `baton gen`: where its output goes and how to produce it from the lens model.
///
/// The Kotlin generator adds its entry to `GenLanguages.all`.
package struct GenLanguage: Sendable {
    /// `swift`, `kotlin`.
    package var name: String
    /// The output folder setting for this language, if the project has one.
    package var outputPath: @Sendable (Configuration) -> Located<String>?
    /// File extensions the language's files end in (for stale-file removal).
    package var managedExtensions: Set<String>
    /// The files for a model; diagnostics for settings the language needs and lacks.
    package var generate: @Sendable (LensModel, Configuration) -> (files: [GeneratedFile], diagnostics: [Diagnostic])

    package init(
        name: String, outputPath: @escaping @Sendable (Configuration) -> Located<String>?,
        managedExtensions: Set<String>,
        generate: @escaping @Sendable (LensModel, Configuration) -> (files: [GeneratedFile], diagnostics: [Diagnostic])
    ) {
        self.name = name
        self.outputPath = outputPath
        self.managedExtensions = managedExtensions
        self.generate = generate
    }
}

/// The languages `baton gen` knows.
package enum GenLanguages {
    package static var all: [GenLanguage] { [swift, kotlin] }

    package static let swift = GenLanguage(
        name: "swift", outputPath: { $0.output.swiftPath }, managedExtensions: ["swift"],
        generate: { model, configuration in
            // A mapped type is written into generated code verbatim: it must be a (qualified) Swift type name.
            let invalid = configuration.customScalarTypes.compactMap { mapping -> Diagnostic? in
                guard let swift = mapping.swift, !isSwiftTypeName(swift.value) else { return nil }
                return .error(
                    "customScalarTypes.\(mapping.name).swift \"\(swift.value)\" is not a Swift type name (such as Foundation.Date or MyApp.Money).",
                    rule: "config", file: configuration.file, span: swift.span)
            }
            if !invalid.isEmpty { return ([], invalid) }
            return (SwiftGenerator(model: model).generate(), [])
        })

    /// Kotlin needs `output.kotlin.package`; the runtime support is written beside the generated code.
    package static let kotlin = GenLanguage(
        name: "kotlin", outputPath: { $0.output.kotlinPath }, managedExtensions: ["kt"],
        generate: { model, configuration in
            guard let package = configuration.output.kotlinPackage else {
                return (
                    [],
                    [
                        .error(
                            "No output.kotlin.package in baton.json: which Kotlin package should the generated code be in?",
                            rule: "config", file: configuration.file,
                            span: configuration.output.kotlinPath?.span ?? .zero)
                    ]
                )
            }
            if let problem = KotlinGenerator.packageNameProblem(package.value) {
                return ([], [.error(problem, rule: "config", file: configuration.file, span: package.span)])
            }
            return (KotlinGenerator.generate(model, options: KotlinGeneratorOptions(packageName: package.value)), [])
        })

    /// `Name` or `Module.Name` (letters, digits and `_`, not starting with a digit; generic arguments allowed).
    package static func isSwiftTypeName(_ text: String) -> Bool {
        guard !text.isEmpty, text.count <= 200 else { return false }
        var depth = 0
        var previous: Character = "."
        for character in text {
            switch character {
            case "<": depth += 1
            case ">": depth -= 1
            case ".", ",", " ", "_": break
            default:
                guard character.isASCII, character.isLetter || character.isNumber else { return false }
                if character.isNumber, previous == "." || previous == "<" || previous == " " { return false }
            }
            if depth < 0 { return false }
            previous = character
        }
        return depth == 0 && !text.hasSuffix(".") && !text.hasPrefix(".") && !text.contains("..")
    }
}

/// What one `baton gen` did.
package struct GenOutcome {
    /// One output folder's report.
    package struct FolderReport {
        /// The absolute output folder.
        package var root: String
        package var language: String
        package var report: FileWriteReport
    }

    package var diagnostics: [Diagnostic] = []
    package var reports: [FolderReport] = []
    package var exitCode: ExitCode = .success
}

/// One `baton gen`, from options to written files.
package struct GenRun {
    package var workingDirectory: String
    package var configPath: String?
    /// Languages asked for; empty for every language the configuration has an output for.
    package var languages: [String]
    package var check: Bool

    package init(workingDirectory: String, configPath: String?, languages: [String], check: Bool) {
        self.workingDirectory = workingDirectory
        self.configPath = configPath
        self.languages = languages
        self.check = check
    }

    var loader: ProjectLoader { ProjectLoader(workingDirectory: workingDirectory) }

    package func run() -> GenOutcome {
        var outcome = GenOutcome()
        let found = ConfigurationLoader.locate(configPath, workingDirectory: workingDirectory)
        guard let path = found else {
            outcome.diagnostics.append(
                Diagnostic(
                    .error,
                    "No baton.json found in \(loader.display(workingDirectory)) or any folder above it; pass --config PATH.",
                    rule: "config", range: nil))
            outcome.exitCode = .usage
            return outcome
        }
        let loaded = ConfigurationLoader.load(
            path: path, workingDirectory: workingDirectory, knownRules: RuleCatalog.ruleIDs)
        outcome.diagnostics += loaded.diagnostics
        if loaded.hasErrors {
            outcome.exitCode = .usage
            return outcome
        }
        var anyOutput = false
        for configuration in loaded.projects {
            let wanted = GenLanguages.all.filter { language in
                languages.isEmpty ? language.outputPath(configuration) != nil : languages.contains(language.name)
            }
            if wanted.isEmpty { continue }
            anyOutput = true
            generate(configuration, languages: wanted, into: &outcome)
            if outcome.exitCode == .usage { return outcome }
        }
        if !anyOutput {
            let names = languages.isEmpty ? "any language" : languages.joined(separator: ", ")
            outcome.diagnostics.append(
                Diagnostic(
                    .error, "baton.json has no output for \(names): set output.swift.path.", rule: "config", range: nil,
                    path: loader.display(path)))
            outcome.exitCode = .usage
        }
        return outcome
    }

    /// Builds one project's lens model and writes each language's files.
    func generate(_ configuration: Configuration, languages: [GenLanguage], into outcome: inout GenOutcome) {
        let schemaFiles = DocumentDiscovery.schemaFiles(of: configuration)
        let documentFiles = DocumentDiscovery.documentFiles(of: configuration)
        outcome.diagnostics += schemaFiles.diagnostics + documentFiles.diagnostics
        if (schemaFiles.diagnostics + documentFiles.diagnostics).contains(where: { $0.severity == .error }) {
            outcome.exitCode = .usage
            return
        }
        let (schema, _, schemaDiagnostics) = loader.loadSchema(schemaFiles.files, configuration: configuration)
        let documents = loader.loadDocuments(documentFiles.files)
        var diagnostics = schemaDiagnostics + documents.diagnostics
        if let schema, !schemaDiagnostics.contains(where: { $0.severity == .error }) {
            diagnostics += DocumentValidation.validate(
                schema: schema, documents: documents.documents, configuration: configuration)
        }
        outcome.diagnostics += diagnostics
        if diagnostics.contains(where: { $0.rule == "io" && $0.severity == .error }) {
            outcome.exitCode = .usage
            return
        }
        guard let schema, !diagnostics.contains(where: { $0.severity == .error }) else {
            outcome.exitCode = .failure  // the gate: generators never see invalid input
            return
        }
        let (model, modelDiagnostics) = LensModelBuilder.build(
            schema: schema, documents: documents.documents, options: Self.modelOptions(configuration))
        outcome.diagnostics += modelDiagnostics
        if modelDiagnostics.contains(where: { $0.severity == .error }) {
            outcome.exitCode = .failure
            return
        }
        for language in languages {
            guard let output = language.outputPath(configuration) else {
                outcome.diagnostics.append(
                    .error(
                        "No output.\(language.name).path in baton.json: where should the \(language.name) files go?",
                        rule: "config", file: configuration.file, span: .zero))
                outcome.exitCode = .usage
                return
            }
            let (files, languageDiagnostics) = language.generate(model, configuration)
            outcome.diagnostics += languageDiagnostics
            if languageDiagnostics.contains(where: { $0.severity == .error }) {
                outcome.exitCode = .usage
                return
            }
            let root = Path.absolute(output.value, relativeTo: configuration.directory)
            do {
                let report = try FileWriter(root: root, managedExtensions: language.managedExtensions).write(
                    files, check: check)
                outcome.reports.append(GenOutcome.FolderReport(root: root, language: language.name, report: report))
                if check, report.hasChanges, outcome.exitCode == .success { outcome.exitCode = .failure }
            } catch {
                outcome.diagnostics.append(
                    .error("\(error)", rule: "io", file: configuration.file, span: output.span))
                outcome.exitCode = .usage
                return
            }
        }
        if let manifest = configuration.output.persistedQueriesPath {
            writeManifest(PersistedQueryManifest.text(for: model.operations), to: manifest, configuration, &outcome)
        }
    }

    /// Writes the persisted-query manifest (`output.persistedQueries.path`) as the file writer writes a file.
    private func writeManifest(
        _ text: String, to path: Located<String>, _ configuration: Configuration, _ outcome: inout GenOutcome
    ) {
        let folder = Path.directory(of: path.value)
        let name = Path.lastComponent(path.value)
        do {
            let report = try FileWriter(root: folder, managedExtensions: []).writeFile(name, text, check: check)
            outcome.reports.append(GenOutcome.FolderReport(root: folder, language: "persistedQueries", report: report))
            if check, report.hasChanges, outcome.exitCode == .success { outcome.exitCode = .failure }
        } catch {
            outcome.diagnostics.append(.error("\(error)", rule: "io", file: configuration.file, span: path.span))
            outcome.exitCode = .usage
        }
    }

    /// The settings of baton.json the lens model needs.
    package static func modelOptions(_ configuration: Configuration) -> LensModelOptions {
        var scalars: [String: CustomScalarMapping] = [:]
        for scalar in configuration.customScalarTypes {
            scalars[scalar.name] = CustomScalarMapping(
                swiftType: scalar.swift?.value, kotlinType: scalar.kotlin?.type.value,
                kotlinConverter: scalar.kotlin?.converter.value)
        }
        return LensModelOptions(customScalars: scalars, onError: configuration.onError?.value.rawValue)
    }
}
