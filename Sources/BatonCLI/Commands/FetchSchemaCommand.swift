import BatonConfig
import BatonDiagnostics

/// `baton fetch-schema`: introspects an endpoint and writes its schema (Docs/CLI.md). Its arguments
/// and help are here; the work is done by `baton-fetch-schema`, installed beside `baton`
/// (Sources/BatonFetchSchema), so that no other command's process loads an HTTP stack.
package enum FetchSchemaCommand: Command {
    /// What is written: SDL or the introspection JSON.
    package enum Format: String, Sendable, CaseIterable {
        case sdl, json
    }

    /// The executable that does the work, beside `baton`.
    package static let helperName = "baton-fetch-schema"

    package static let name = "fetch-schema"
    package static let abstract = "Introspect a GraphQL endpoint and write its schema (SDL or introspection JSON)."
    package static let discussion = """
        Sends the current spec's introspection query (descriptions, repeatable directives, specifiedByURL, \
        isOneOf, deprecated arguments and input fields) to the endpoint as a POST, checks that the answer \
        builds a valid schema, and writes it to --output, or else to baton.json's schema path (one file, no \
        wildcards). A path ending in .json gets the introspection JSON as the server sent it; any other gets \
        SDL printed by baton's printer, sorted by name, so the file changes only when the schema does. The \
        file is written atomically and only when its content changed.

        Exit status: 0 written or unchanged; 2 usage, configuration, network or I/O error, an endpoint that \
        refuses introspection, or an answer that is not a valid schema (nothing is written then).
        """

    package static let signature = CommandSignature(
        options: [
            .value("endpoint", valueName: "url", help: "The GraphQL endpoint (http or https)."),
            .value(
                "header", short: "H", valueName: "name: value", repeatable: true,
                help: "A header to send, such as \"Authorization: Bearer TOKEN\" (repeatable)."),
            .value(
                "output", short: "o", valueName: "path",
                help: "Where to write (default: baton.json's schema path)."),
            .value(
                "format", valueName: "format", choices: Format.allCases.map(\.rawValue),
                help: "sdl or json (default: json for a path ending in .json, sdl otherwise)."),
            .value(
                "config", valueName: "path",
                help: "The baton.json to use, or a folder holding one (default: the nearest one up from here)."),
            .value("timeout", valueName: "seconds", defaultValue: "30", help: "Seconds to wait for the answer."),
        ])

    /// Runs `baton-fetch-schema` with the same arguments (the helper's command, `FetchSchemaWork`, has
    /// this one's name and signature and does the work).
    package static func run(_ arguments: ParsedArguments, context: CommandContext) -> ExitCode {
        guard let helper = HelperProcess.locate(helperName) else {
            context.standardError.write(
                "error: \(helperName) is not installed beside baton: reinstall baton with scripts/install.sh (or run `swift build`), which puts both in one folder.\n"
            )
            return .usage
        }
        // The parsed arguments again, in the signature's order: the helper parses them the same way.
        var forwarded: [String] = []
        for option in signature.options {
            for value in arguments.allValues(option.name) { forwarded += ["--\(option.name)", value] }
        }
        switch HelperProcess.run(helper, forwarded, context: context) {
        case .success(let status): return ExitCode(status)
        case .failure(let error):
            context.standardError.write("error: could not start \(helper): \(error)\n")
            return .usage
        }
    }
}
