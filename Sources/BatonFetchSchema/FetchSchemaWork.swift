import BatonCLI
import BatonConfig
import BatonDiagnostics
import BatonFiles
import Foundation

/// `baton-fetch-schema`'s one command: `baton fetch-schema`'s name, help and arguments
/// (`FetchSchemaCommand`, which runs this executable) and its work.
enum FetchSchemaWork: Command {
    static let name = FetchSchemaCommand.name
    static let abstract = FetchSchemaCommand.abstract
    static let discussion = FetchSchemaCommand.discussion
    static let signature = FetchSchemaCommand.signature

    static func run(_ arguments: ParsedArguments, context: CommandContext) -> ExitCode {
        let fail = { (message: String) -> ExitCode in
            context.standardError.write("error: \(message)\n")
            return .usage
        }
        guard let text = arguments.value("endpoint") else {
            return fail("Missing --endpoint: which GraphQL endpoint should be introspected? (--endpoint URL)")
        }
        guard let endpoint = URL(string: text), ["http", "https"].contains(endpoint.scheme?.lowercased() ?? "") else {
            return fail("--endpoint \"\(text)\" is not an http or https URL.")
        }
        var headers: [(String, String)] = []
        for header in arguments.allValues("header") {
            let parts = header.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, !parts[0].trimmingCharacters(in: .whitespaces).isEmpty else {
                return fail("--header \"\(header)\" is not \"Name: value\".")
            }
            headers.append(
                (parts[0].trimmingCharacters(in: .whitespaces), parts[1].trimmingCharacters(in: .whitespaces)))
        }
        guard let timeout = TimeInterval(arguments.value("timeout") ?? "30"), timeout > 0 else {
            return fail("--timeout must be a positive number of seconds.")
        }
        let output: String
        switch outputPath(arguments, context: context) {
        case .failure(let error): return fail(error.description)
        case .success(let path): output = path
        }
        let format =
            arguments.value("format").flatMap(FetchSchemaCommand.Format.init(rawValue:))
            ?? (output.hasSuffix(".json") ? .json : .sdl)
        let fetch = SchemaFetch(endpoint: endpoint, headers: headers, timeout: timeout, format: format)
        let written = fetch.fetch().flatMap { SchemaFetch.write($0, to: output) }
        let shown = Path.display(output, from: context.workingDirectory)
        switch written {
        case .failure(let error): return fail(error.description)
        case .success(true): context.standardOutput.write("wrote \(shown)\n")
        case .success(false): context.standardOutput.write("unchanged \(shown)\n")
        }
        return .success
    }

    /// `--output`, or the one schema file baton.json names.
    private static func outputPath(_ arguments: ParsedArguments, context: CommandContext)
        -> Result<String, FetchSchemaError>
    {
        if let output = arguments.value("output") {
            return .success(Path.absolute(output, relativeTo: context.workingDirectory))
        }
        guard
            let path = ConfigurationLoader.locate(arguments.value("config"), workingDirectory: context.workingDirectory)
        else {
            return .failure(.write("No --output and no baton.json found: where should the schema go? (--output PATH)"))
        }
        let loaded = ConfigurationLoader.load(path: path, workingDirectory: context.workingDirectory)
        guard !loaded.hasErrors, loaded.projects.count == 1, let project = loaded.projects.first else {
            return .failure(
                .write(
                    "\(Path.display(path, from: context.workingDirectory)) does not name one project's schema: pass --output PATH."
                ))
        }
        guard project.schema.count == 1, let schema = project.schema.first, !schema.value.hasWildcards else {
            return .failure(.write("baton.json's schema is not one file: pass --output PATH."))
        }
        return .success(Path.absolute(schema.value.text, relativeTo: project.directory))
    }
}
