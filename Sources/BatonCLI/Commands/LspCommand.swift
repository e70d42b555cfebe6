import BatonLanguageServer

/// `baton lsp`: the Language Server Protocol server an editor starts, over stdin and stdout.
package enum LspCommand: Command {
    package static let name = "lsp"
    package static let abstract = "Run the language server for editors (LSP 3.17 over stdin and stdout)."
    package static let discussion = """
        Speaks the Language Server Protocol on stdin and stdout; an editor starts it (Docs/Editors.md has \
        the setups). It serves every project of the baton.json found from each workspace folder: \
        .graphql documents, schema files, and the GraphQL in the @Query, @Fragment, @Mutation and \
        @Subscription literals of Swift sources, exactly as check finds them.

        Diagnostics are check's (the same rule ids, messages, severities and ranges), published when a \
        document is opened or changed for every document the change reaches; hover, go-to-definition, \
        completion and document and workspace symbols answer on the same compilations. Positions count \
        UTF-16 code units unless the client offers UTF-8.

        Exit status: 0 after the client's shutdown and exit; 1 when the input ends without them.
        """

    package static let signature = CommandSignature(
        options: [
            .flag("stdio", help: "Talk over stdin and stdout (the default and only transport; editors often pass it).")
        ],
        arguments: [])

    package static func run(_ arguments: ParsedArguments, context: CommandContext) -> ExitCode {
        context.standardOutput.flush()
        return ExitCode(StandardStreams.serve(workingDirectory: context.workingDirectory))
    }
}
