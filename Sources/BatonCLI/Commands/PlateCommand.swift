import BatonConfig
import BatonDiagnostics
import BatonIR
import BatonPlate
import BatonSchema
import BatonSyntax

/// `baton plate NAME`: prints the lens of an operation or fragment, or every lens reading a
/// record of a schema type, as a table of accessors (Docs/Plates.md).
package enum PlateCommand: Command {
    package static let name = "plate"
    package static let abstract = "Print the lens of an operation, a fragment or a type as a table."
    package static let discussion = """
        NAME is an operation or a fragment (its lens), or a schema type (every lens that reads a \
        record of that type: `baton plate Query` prints every query's). The table's columns are \
        accessor (indented two spaces per nesting level), reads (the field, or the parent's record) \
        and as (what the accessor is: a scalar, an enum, a lens, a list, optional, and what its \
        directives do). Docs/Plates.md explains every phrase.

        The project is read as `baton check` reads it (baton.json, or --schema with the documents as \
        PATHS); the documents must be valid, so errors are reported instead of a plate.

        Exit status: 0 printed; 1 the documents have errors; 2 unknown NAME (with suggestions), \
        usage, configuration or I/O error.
        """

    package static let signature = CommandSignature(
        options: [
            .value(
                "config", valueName: "path",
                help: "The baton.json to use, or a folder holding one (default: the nearest one up from here)."),
            .value(
                "schema", valueName: "path", repeatable: true,
                help: "The schema (SDL or introspection JSON); without --config, PATHS are the documents."),
            .value(
                "format", valueName: "format", choices: PlateFormat.allCases.map(\.rawValue), defaultValue: "text",
                help: "text (aligned columns), markdown (a table for docs and pull requests) or json (the lens model)."),
        ],
        arguments: [
            ArgumentSpec("name", help: "An operation, a fragment or a schema type.", optional: false),
            ArgumentSpec(
                "paths", help: "With --schema and no baton.json: the documents (default: this folder).", repeating: true
            ),
        ])

    package static func run(_ arguments: ParsedArguments, context: CommandContext) -> ExitCode {
        guard let name = arguments.positionals.first else {
            context.standardError.write("Error: Missing expected argument '<name>'.\n")
            return .usage
        }
        let format = arguments.value("format").flatMap(PlateFormat.init(rawValue:)) ?? .text
        let run = CheckRun(
            workingDirectory: context.workingDirectory, configPath: arguments.value("config"),
            schemaPaths: arguments.allValues("schema"), paths: Array(arguments.positionals.dropFirst()))
        let report = DiagnosticOutput(format: .text, quiet: false)

        var outcome = CheckOutcome()
        let projects = PlateProjects.resolve(run, into: &outcome)
        if outcome.isFatal || projects == nil {
            report.report(outcome.diagnostics, documentCount: nil, context: context)
            return .usage
        }
        var catalogs: [PlateCatalog] = []
        var documentCount = 0
        for project in projects ?? [] {
            let (catalog, diagnostics, count) = PlateProjects.build(project, loader: run.loader)
            outcome.diagnostics += diagnostics
            documentCount += count
            if let catalog { catalogs.append(catalog) }
        }
        if outcome.diagnostics.contains(where: { $0.severity == .error }) {
            report.report(outcome.diagnostics, documentCount: documentCount, context: context)
            return outcome.isFatal ? .usage : .failure
        }

        var plates: [Plate] = []
        var typeWithoutLenses = false
        var candidates: [String] = []
        for catalog in catalogs {
            switch catalog.lookup(name) {
            case .plates(let found): plates += found
            case .typeWithoutLenses: typeWithoutLenses = true
            case .unknown: break
            }
            candidates += catalog.names
        }
        if !plates.isEmpty {
            context.standardOutput.write(PlateRenderer.render(plates, format: format))
            return .success
        }
        if typeWithoutLenses {
            if format == .json {
                context.standardOutput.write(PlateRenderer.render([], format: .json))
            } else {
                context.standardOutput.write("No lens reads a record of type \(name).\n")
            }
            return .success
        }
        let suggestions = Suggestions.list(name, candidates)
        context.standardError.write(
            "Error: No operation, fragment or type is named \"\(name)\"." + Suggestions.didYouMean(suggestions) + "\n")
        return .usage
    }
}

/// The projects a plate reads, loaded and validated as `baton check` does, then built into
/// lens models.
enum PlateProjects {
    /// The projects of the run: from baton.json, or `--schema` with PATHS as documents. Nil
    /// (with diagnostics) when they cannot be found.
    static func resolve(_ run: CheckRun, into outcome: inout CheckOutcome) -> [CheckRun.ProjectInput]? {
        if !run.schemaPaths.isEmpty && run.configPath == nil {
            let schemaFiles = run.resolveSchemaPaths(into: &outcome)
            let documentFiles = run.expandDocumentArguments(run.paths.isEmpty ? ["."] : run.paths, into: &outcome)
            if outcome.isFatal { return nil }
            return [CheckRun.ProjectInput(configuration: nil, schemaFiles: schemaFiles, documentFiles: documentFiles)]
        }
        if !run.paths.isEmpty {
            outcome.diagnostics.append(
                Diagnostic(
                    .error,
                    "Documents are given as PATHS only with --schema and no baton.json; "
                        + "with a baton.json, its documents are read.", rule: "config", range: nil))
            return nil
        }
        let found = ConfigurationLoader.locate(run.configPath, workingDirectory: run.workingDirectory)
        guard let path = found else {
            outcome.diagnostics.append(
                Diagnostic(
                    .error,
                    "No baton.json found in \(run.loader.display(run.workingDirectory)) or any folder above it; "
                        + "pass --config PATH, or --schema PATH with the documents.",
                    rule: "config", range: nil))
            return nil
        }
        let loaded = ConfigurationLoader.load(
            path: path, workingDirectory: run.workingDirectory, knownRules: RuleCatalog.ruleIDs)
        outcome.diagnostics += loaded.diagnostics
        if loaded.hasErrors { return nil }
        let overrideSchema = run.schemaPaths.isEmpty ? nil : run.resolveSchemaPaths(into: &outcome)
        var projects: [CheckRun.ProjectInput] = []
        for configuration in loaded.projects {
            var schemaFiles = overrideSchema ?? []
            if overrideSchema == nil {
                let schema = DocumentDiscovery.schemaFiles(of: configuration)
                outcome.diagnostics += schema.diagnostics
                schemaFiles = schema.files
            }
            let documents = DocumentDiscovery.documentFiles(of: configuration)
            outcome.diagnostics += documents.diagnostics
            projects.append(
                CheckRun.ProjectInput(
                    configuration: configuration, schemaFiles: schemaFiles, documentFiles: documents.files))
        }
        return outcome.isFatal ? nil : projects
    }

    /// Loads, validates (the gate) and builds one project's lens model.
    static func build(_ project: CheckRun.ProjectInput, loader: ProjectLoader) -> (PlateCatalog?, [Diagnostic], Int) {
        var diagnostics: [Diagnostic] = []
        let (schema, _, schemaDiagnostics) = loader.loadSchema(
            project.schemaFiles, configuration: project.configuration)
        diagnostics += schemaDiagnostics
        let loaded = loader.loadDocuments(project.documentFiles)
        var documentDiagnostics = loaded.diagnostics
        guard let schema, !schemaDiagnostics.contains(where: { $0.severity == .error }) else {
            return (nil, diagnostics + documentDiagnostics, loaded.sourceCount)
        }
        // The gate, as check and gen run it (the project's `rules` settings applied).
        documentDiagnostics += DocumentValidation.validate(
            schema: schema, documents: loaded.documents, configuration: project.configuration)
        diagnostics += documentDiagnostics
        if diagnostics.contains(where: { $0.severity == .error }) { return (nil, diagnostics, loaded.sourceCount) }
        let (model, modelDiagnostics) = LensModelBuilder.build(
            schema: schema, documents: loaded.documents,
            options: project.configuration.map(GenRun.modelOptions) ?? LensModelOptions())
        diagnostics += modelDiagnostics
        return (PlateCatalog(model: model, schemaTypeNames: schema.typeNames), diagnostics, loaded.sourceCount)
    }
}
