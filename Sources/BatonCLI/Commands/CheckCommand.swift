import BatonCompiler
import BatonDiagnostics

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

        check runs everything gen runs short of writing files (the lens model, the settings of every \
        language with an output), so whatever gen would stop on, check reports.

        With PATHS, only problems in those files (or folders) are reported, but fragments still \
        resolve across the whole project. A PATH that is the project's baton.json or one of its \
        schema files reports every document of the project: a schema change can break any of them. \
        With --schema and no baton.json, PATHS are the documents (files, folders or quoted glob \
        patterns; default: this folder, where finding none checks the schema alone).

        Every diagnostic ends with its rule's id; 'baton help rules' lists them all, and baton.json's \
        "rules" changes a rule's severity.

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
            WatchLoop.option,
        ],
        arguments: [
            ArgumentSpec(
                "paths", help: "Files or folders to report on (default: every document of the project).",
                repeating: true)
        ])

    package static func run(_ arguments: ParsedArguments, context: CommandContext) -> ExitCode {
        let format = arguments.value("format").flatMap(DiagnosticFormat.init(rawValue:)) ?? .text
        let policy = DiagnosticPolicy(
            warningsAsErrors: arguments.flag("warnings-as-errors"), quiet: arguments.flag("quiet"))
        let request = ProjectRequest(
            workingDirectory: context.workingDirectory, configPath: arguments.value("config"),
            schemaPaths: arguments.allValues("schema"), paths: arguments.positionals)
        // Everything short of writing files: the plan, and the settings of every language with an
        // output, so whatever `gen` would stop on, `check` reports first.
        var driver = Driver(request: request, policy: policy, targets: .configured)
        driver.options.checksOnly = true
        if arguments.flag("watch") {
            if let problem = WatchLoop.formatProblem(format) {
                context.standardError.write("Error: \(problem)\n")
                return .usage
            }
            return WatchLoop.run(driver: driver, stage: .plan, format: format, context: context)
        }
        driver.options.streamsDocuments = true
        let result = driver.compile(upTo: .plan)
        context.keepUntilExit(result)

        var output = DiagnosticOutput(format: format, quiet: policy.quiet)
        if result.skippedValidation { output.summarySuffix = " (not validated: the schema could not be built)" }
        output.place = result.place(of:)
        let shown = result.shownDiagnostics
        output.report(shown, documentCount: result.documentCount, context: context)
        return ExitCode(result.status(shown: shown))
    }
}
