import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonFiles

/// `baton init`: writes a commented baton.json for the folder it runs in, then checks the project
/// it describes.
package enum InitCommand: Command {
    package static let name = "init"
    package static let abstract = "Write a commented baton.json for this folder."
    package static let discussion = """
        Looks through this folder for the schema (*.graphqls files, a schema.graphql or a schema.json; \
        build and VCS folders skipped) and the documents (Swift sources, under Sources/ in a SwiftPM \
        package, and .graphql files), and writes a baton.json naming them, with a comment beside each \
        setting (JSON has no comments: keys beginning with // are Baton's comments). The options set \
        what it would otherwise find or choose. Generated type names get their operation's kind \
        (operationSuffix: query Feed generates FeedQuery).

        An existing baton.json is never overwritten. After writing, init checks the project as \
        `baton check` would and says what to run next.

        Exit status: 0 written and the check found no errors; 1 written, but the check found errors \
        (each rule's setting that would turn it off is printed); 2 a baton.json exists already, no schema was found (or several), \
        a bad option, or the file could not be written.
        """

    package static let signature = CommandSignature(
        options: [
            .value("schema", valueName: "path", help: "The schema file (default: the one found here)."),
            .value(
                "swift-out", valueName: "path",
                help:
                    "Where baton gen writes Swift (default: Sources/<Target>/Generated in a one-target package, else Generated)."
            ),
            .value("kotlin-out", valueName: "path", help: "Where baton gen writes Kotlin (default: no Kotlin)."),
            .value(
                "kotlin-package", valueName: "name",
                help: "The Kotlin package of the generated code (with --kotlin-out), such as com.example.app.graphql."),
        ],
        arguments: [])

    package static func run(_ arguments: ParsedArguments, context: CommandContext) -> ExitCode {
        let directory = context.workingDirectory
        let path = Path.join(directory, ConfigurationLoader.fileName)
        if FileSystem.exists(path) {
            context.standardError.write(
                "Error: baton.json already exists here; edit it (Docs/Configuration.md), or remove it to start again.\n"
            )
            return .usage
        }
        let choices = InitialConfiguration.Choices(
            schema: arguments.value("schema"), swiftOutput: arguments.value("swift-out"),
            kotlinOutput: arguments.value("kotlin-out"), kotlinPackage: arguments.value("kotlin-package"))
        let configuration: InitialConfiguration
        switch InitialConfiguration.discover(in: directory, choices: choices) {
        case .success(let found): configuration = found
        case .failure(let problem):
            context.standardError.write("Error: \(problem.message)\n")
            return .usage
        }
        if case .failure(let failure) = FileSystem.createNew(path, Array(configuration.text.utf8)) {
            context.standardError.write("Error: Cannot write baton.json: \(failure.reason).\n")
            return .usage
        }
        context.standardOutput.write("created baton.json\n")
        context.standardOutput.write("  schema     \(configuration.schema)\n")
        context.standardOutput.write("  documents  \(configuration.documents.joined(separator: ", "))\n")
        if let swift = configuration.swiftOutput { context.standardOutput.write("  swift      \(swift)\n") }
        if let kotlin = configuration.kotlinOutput, let package = configuration.kotlinPackage {
            context.standardOutput.write("  kotlin     \(kotlin) (package \(package))\n")
        }
        if configuration.foundNoDocuments {
            context.standardOutput.write(
                "\nNo documents yet: add .graphql files, or @Query literals to Swift sources; then run baton check.\n")
            return .success
        }
        // What `baton check` would say now, so a new project starts from a known state.
        let result = Driver(request: ProjectRequest(workingDirectory: directory), targets: .configured)
            .compile(upTo: .plan)
        if result.hasErrors {
            var output = DiagnosticOutput(format: .text, quiet: false)
            output.place = result.place(of:)
            output.report(result.shownDiagnostics, documentCount: result.documentCount, context: context)
            context.standardOutput.write("\nFix these, then run baton check and baton gen.\n")
            context.standardOutput.write(ruleSettingsHint(result.shownDiagnostics.filter { $0.severity == .error }))
            return .failure
        } else {
            let count = result.documentCount ?? 0
            context.standardOutput.write(
                "\nbaton check: \(count) \(count == 1 ? "document" : "documents"), no problems. Next: baton gen\n")
        }
        return .success
    }

    /// For each rule the errors come from, the `rules` setting that would turn it off (or, for a
    /// category `rules` cannot change, that it must be fixed): a project adopting a schema it does
    /// not control learns what it can relax.
    static func ruleSettingsHint(_ errors: [Diagnostic]) -> String {
        var ids: [String] = []
        for error in errors where !ids.contains(error.rule) { ids.append(error.rule) }
        guard !ids.isEmpty else { return "" }
        var text = "Or, in baton.json, for each rule:\n"
        for id in ids {
            if RuleCatalog.descriptor(id)?.configurable == true {
                text += "  \(id): \"rules\": {\"\(id)\": \"off\"} turns it off (\"warning\" keeps it shown)\n"
            } else {
                text += "  \(id): cannot be turned off; fix it\n"
            }
        }
        return text
    }
}
