import BatonCompiler
import BatonDiagnostics
import BatonPlate

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
        let request = ProjectRequest(
            workingDirectory: context.workingDirectory, configPath: arguments.value("config"),
            schemaPaths: arguments.allValues("schema"), paths: Array(arguments.positionals.dropFirst()),
            pathsWithConfiguration: .rejected)
        let result = Driver(request: request).compile(upTo: .plan)
        var report = DiagnosticOutput(format: .text, quiet: false)
        report.place = result.place(of:)
        if result.isFatal {
            report.report(result.shownDiagnostics, documentCount: nil, context: context)
            return .usage
        }
        if result.hasErrors {
            report.report(result.shownDiagnostics, documentCount: result.documentCount, context: context)
            return .failure
        }
        let catalogs = result.compilations.compactMap { compilation -> PlateCatalog? in
            guard let model = compilation.model, let schema = compilation.schema else { return nil }
            return PlateCatalog(model: model, schemaTypeNames: schema.typeNames)
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
