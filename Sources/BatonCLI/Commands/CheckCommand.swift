import BatonConfig
import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// `baton check [PATHS…]`: validates every document of the project against its schema and
/// reports every problem.
package enum CheckCommand: Command {
    package static let name = "check"
    package static let abstract = "Validate GraphQL documents against the schema."
    package static let discussion = """
        Reads baton.json (found by walking up from the working directory, or given with --config), \
        builds the schema, finds the documents (.graphql and .gql files, and the GraphQL in the \
        @Query, @Fragment, @Mutation and @Subscription literals of Swift sources) and checks them all \
        together, so a fragment may be defined in one file and used in another.

        With PATHS, only problems in those files (or folders) are reported, but fragments still \
        resolve across the whole project: what a pre-commit hook wants. With --schema and no \
        baton.json, PATHS are the documents (files, folders or quoted glob patterns).

        Exit status: 0 no errors (warnings allowed); 1 errors found (or warnings, with \
        --warnings-as-errors); 2 usage, configuration or I/O error.
        """

    package static let signature = CommandSignature(
        options: [
            .value(
                "config", valueName: "path",
                help: "The baton.json to use, or a folder holding one (default: the nearest one up from here)."),
            .value(
                "schema", valueName: "path", repeatable: true,
                help:
                    "The schema (SDL or introspection JSON); without --config, check PATHS against it without a baton.json."
            ),
            DiagnosticFormat.option,
            .flag("warnings-as-errors", help: "Treat warnings as errors (exit status 1)."),
            .flag("quiet", short: "q", help: "Report errors only: no warnings, no summary line."),
        ],
        arguments: [
            ArgumentSpec(
                "paths", help: "Files or folders to report on (default: every document of the project).",
                repeating: true)
        ])

    package static func run(_ arguments: ParsedArguments, context: CommandContext) -> ExitCode {
        let format = arguments.value("format").flatMap(DiagnosticFormat.init(rawValue:)) ?? .text
        let quiet = arguments.flag("quiet")
        let check = CheckRun(
            workingDirectory: context.workingDirectory, configPath: arguments.value("config"),
            schemaPaths: arguments.allValues("schema"), paths: arguments.positionals)
        let outcome = check.run()

        var diagnostics = outcome.diagnostics
        if arguments.flag("warnings-as-errors") {
            for index in diagnostics.indices where diagnostics[index].severity == .warning {
                diagnostics[index].severity = .error
            }
        }
        if quiet { diagnostics.removeAll { $0.severity != .error } }
        var output = DiagnosticOutput(format: format, quiet: quiet)
        if outcome.skippedValidation { output.summarySuffix = " (not validated: the schema could not be built)" }
        output.report(diagnostics, documentCount: outcome.documentCount, context: context)

        if outcome.isFatal { return .usage }
        return diagnostics.contains { $0.severity == .error } ? .failure : .success
    }
}

/// What a check found.
package struct CheckOutcome {
    package var diagnostics: [Diagnostic] = []
    /// GraphQL documents reported on (nil when the check stopped before reading them).
    package var documentCount: Int?
    /// Documents were parsed but not validated because the schema could not be built.
    package var skippedValidation = false
    /// A configuration or I/O error stopped (part of) the check: exit status 2.
    package var isFatal: Bool {
        diagnostics.contains { $0.severity == .error && ($0.rule == ConfigurationLoader.rule || $0.rule == "io") }
    }
}

/// One `baton check`, from options to diagnostics.
package struct CheckRun {
    package var workingDirectory: String
    package var configPath: String?
    package var schemaPaths: [String]
    package var paths: [String]

    package init(workingDirectory: String, configPath: String?, schemaPaths: [String], paths: [String]) {
        self.workingDirectory = workingDirectory
        self.configPath = configPath
        self.schemaPaths = schemaPaths
        self.paths = paths
    }

    var loader: ProjectLoader { ProjectLoader(workingDirectory: workingDirectory) }

    /// One project to check: schema files, document files, and its configuration if any.
    struct ProjectInput {
        var configuration: Configuration?
        var schemaFiles: [String]
        var documentFiles: [String]
    }

    package func run() -> CheckOutcome {
        var outcome = CheckOutcome()
        let projects: [ProjectInput]
        var reportedPaths: [String]?

        if !schemaPaths.isEmpty && configPath == nil {
            // No baton.json: the schema from --schema, the documents from PATHS.
            let schemaFiles = resolveSchemaPaths(into: &outcome)
            let documentFiles = expandDocumentArguments(paths.isEmpty ? ["."] : paths, into: &outcome)
            if outcome.isFatal { return outcome }
            projects = [ProjectInput(configuration: nil, schemaFiles: schemaFiles, documentFiles: documentFiles)]
        } else {
            let found = ConfigurationLoader.locate(configPath, workingDirectory: workingDirectory)
            guard let path = found else {
                outcome.diagnostics.append(
                    Diagnostic(
                        .error,
                        "No baton.json found in \(loader.display(workingDirectory)) or any folder above it; "
                            + "pass --config PATH, or --schema PATH with the documents to check.",
                        rule: "config", range: nil))
                return outcome
            }
            let loaded = ConfigurationLoader.load(
                path: path, workingDirectory: workingDirectory, knownRules: RuleCatalog.ruleIDs)
            outcome.diagnostics += loaded.diagnostics
            if loaded.hasErrors { return outcome }
            let overrideSchema = schemaPaths.isEmpty ? nil : resolveSchemaPaths(into: &outcome)
            var inputs: [ProjectInput] = []
            for configuration in loaded.projects {
                var schemaFiles = overrideSchema ?? []
                if overrideSchema == nil {
                    let schema = DocumentDiscovery.schemaFiles(of: configuration)
                    outcome.diagnostics += schema.diagnostics
                    schemaFiles = schema.files
                }
                let documents = DocumentDiscovery.documentFiles(of: configuration)
                outcome.diagnostics += documents.diagnostics
                inputs.append(
                    ProjectInput(configuration: configuration, schemaFiles: schemaFiles, documentFiles: documents.files)
                )
            }
            if !paths.isEmpty { reportedPaths = resolveReportedPaths(into: &outcome) }
            if outcome.isFatal { return outcome }
            projects = inputs
        }

        var documentCount = 0
        for project in projects {
            let (diagnostics, count, validated) = check(project, reportedPaths: reportedPaths)
            outcome.diagnostics += diagnostics
            documentCount += count
            if !validated && count > 0 { outcome.skippedValidation = true }
        }
        outcome.documentCount = documentCount
        return outcome
    }

    /// Checks one project; with `reportedPaths`, keeps only document diagnostics in them.
    /// Returns the diagnostics, the number of documents reported on, and whether they were
    /// validated (not when the schema could not be built at all).
    func check(_ project: ProjectInput, reportedPaths: [String]?) -> ([Diagnostic], Int, Bool) {
        var diagnostics: [Diagnostic] = []
        let (schema, _, schemaDiagnostics) = loader.loadSchema(
            project.schemaFiles, configuration: project.configuration)
        diagnostics += schemaDiagnostics
        let loaded = loader.loadDocuments(project.documentFiles)
        var documentDiagnostics = loaded.diagnostics
        var validated = false

        if let schema {
            // A schema with errors that still built (GitHub's published schema repeats two field
            // definitions) is used as built, first definition winning: its errors are reported
            // and the documents are still checked against it. Only a schema that could not be
            // built at all leaves the documents unvalidated.
            validated = true
            documentDiagnostics += DocumentValidation.validate(
                schema: schema, documents: loaded.documents, configuration: project.configuration)
            if let configuration = project.configuration {
                diagnostics += configuration.applyingRuleSettings(
                    to: UnknownScalarMappingRule.check(configuration, schema: schema))
            }
        }
        if let configuration = project.configuration {
            // Parse and extraction diagnostics; validation applied the settings already.
            documentDiagnostics = configuration.applyingRuleSettings(to: documentDiagnostics)
        }
        var count = loaded.sourceCount
        if let reportedPaths {
            documentDiagnostics = documentDiagnostics.filter { diagnostic in
                guard let path = diagnostic.displayPath else { return true }
                return isReported(path, reportedPaths)
            }
            count = project.documentFiles.filter { isReported(loader.display($0), reportedPaths) }.count
        }
        return (diagnostics + documentDiagnostics, count, validated)
    }

    func isReported(_ displayPath: String, _ reportedPaths: [String]) -> Bool {
        let absolute = Path.absolute(displayPath, relativeTo: workingDirectory)
        return reportedPaths.contains { Path.isInside(absolute, directory: $0) }
    }

    /// `--schema` paths, absolute; a missing one is an I/O error.
    func resolveSchemaPaths(into outcome: inout CheckOutcome) -> [String] {
        var files: [String] = []
        for path in schemaPaths {
            let pattern = GlobPattern(path, base: workingDirectory)
            if pattern.hasWildcards {
                let matches = DocumentDiscovery.expand(
                    pattern, exclude: [], extensions: DocumentDiscovery.schemaExtensions)
                if matches.files.isEmpty { outcome.diagnostics.append(noMatch(path)) }
                files += matches.files
                continue
            }
            let absolute = Path.absolute(path, relativeTo: workingDirectory)
            switch FileSystem.kind(of: absolute) {
            case .file: files.append(absolute)
            case .directory:
                outcome.diagnostics.append(loader.unreadable(absolute, "Is a directory; name the schema file"))
            case .other, nil: outcome.diagnostics.append(loader.unreadable(absolute, "No such file or directory"))
            }
        }
        return files
    }

    /// Document arguments without a configuration: files as given, folders searched for
    /// documents, glob patterns expanded.
    func expandDocumentArguments(_ arguments: [String], into outcome: inout CheckOutcome) -> [String] {
        var files = Set<String>()
        for argument in arguments {
            let pattern = GlobPattern(argument, base: workingDirectory)
            if !pattern.hasWildcards {
                switch FileSystem.kind(of: pattern.root) {
                case .file:
                    files.insert(pattern.root)
                    continue
                case .other, nil:
                    outcome.diagnostics.append(loader.unreadable(pattern.root, "No such file or directory"))
                    continue
                case .directory:
                    break
                }
            }
            let matches = DocumentDiscovery.expand(
                pattern, exclude: [], extensions: DocumentDiscovery.documentExtensions)
            for failure in matches.failures {
                outcome.diagnostics.append(loader.unreadable(failure.path, failure.reason))
            }
            if matches.files.isEmpty {
                outcome.diagnostics.append(noMatch(argument))
            }
            files.formUnion(matches.files)
        }
        return files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// PATHS with a configuration: the files and folders to report on; each must exist.
    func resolveReportedPaths(into outcome: inout CheckOutcome) -> [String] {
        var resolved: [String] = []
        for path in paths {
            let pattern = GlobPattern(path, base: workingDirectory)
            if pattern.hasWildcards {
                let matches = DocumentDiscovery.expand(
                    pattern, exclude: [], extensions: DocumentDiscovery.documentExtensions)
                if matches.files.isEmpty { outcome.diagnostics.append(noMatch(path)) }
                resolved += matches.files
            } else if FileSystem.exists(pattern.root) {
                resolved.append(pattern.root)
            } else {
                outcome.diagnostics.append(loader.unreadable(pattern.root, "No such file or directory"))
            }
        }
        return resolved
    }

    func noMatch(_ pattern: String) -> Diagnostic {
        Diagnostic(.error, "No document matches \"\(pattern)\".", rule: "io", range: nil, path: nil)
    }
}
