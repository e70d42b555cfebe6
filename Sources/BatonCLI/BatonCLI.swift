import BatonCompiler
import BatonConfig
import BatonDiagnostics

/// The `baton` command line: dispatches to a subcommand, handles `--help` and `--version`,
/// and turns usage errors into swift-argument-parser-style messages with exit code 2.
package enum BatonCLI {
    /// Baton's version, printed by `--version`.
    package static let version = "0.1.0"

    static let abstract = "A GraphQL compiler and runtime for Swift and Kotlin apps."

    /// Runs `baton` with `arguments` (without the program name) and returns the exit code.
    /// Everything written goes through `context`'s streams, flushed before returning.
    package static func run(_ arguments: [String], context: CommandContext) -> ExitCode {
        defer {
            context.standardOutput.flush()
            context.standardError.flush()
        }
        let commands = CommandRegistry.commands
        guard let first = arguments.first else {
            context.standardOutput.write(rootHelp())
            return .success
        }
        switch first {
        case "-h", "--help", "-help":
            context.standardOutput.write(rootHelp())
            return .success
        case "--version":
            context.standardOutput.write(version + "\n")
            return .success
        case "help":
            return help(Array(arguments.dropFirst()), context: context)
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let names = commands.map { $0.name } + ["help"]
            let message: String
            if first.hasPrefix("-") {
                message =
                    "Unknown option '\(first)'."
                    + Suggestion.didYouMean(first, in: ["--help", "--version"], quote: "'")
            } else {
                message = "Unknown subcommand '\(first)'." + Suggestion.didYouMean(first, in: names, quote: "'")
            }
            context.standardError.write(
                "Error: \(message)\nUsage: baton <subcommand>\n  See 'baton --help' for more information.\n")
            return .usage
        }
        return run(command, Array(arguments.dropFirst()), context: context)
    }

    /// Runs one command with its arguments (after its name): `--help`, parsing, usage errors. Also
    /// the whole command line of a helper executable that is one command (`baton-fetch-schema`).
    package static func run(_ command: any Command.Type, _ rest: [String], context: CommandContext) -> ExitCode {
        let commandPath = "baton \(command.name)"
        // --help anywhere before `--` shows the command's help.
        let beforeTerminator = rest.prefix { $0 != "--" }
        if beforeTerminator.contains(where: { $0 == "--help" || $0 == "-h" }) {
            context.standardOutput.write(commandHelp(command))
            return .success
        }
        switch ArgumentParser.parse(rest, signature: command.signature) {
        case .failure(let error):
            context.standardError.write(
                "Error: \(error.message)\n"
                    + "Usage: \(HelpFormatter.usage(commandPath: commandPath, signature: command.signature))\n"
                    + "  See '\(commandPath) --help' for more information.\n")
            return .usage
        case .success(let parsed):
            return command.run(parsed, context: context)
        }
    }

    /// `baton help [subcommand]`, and `baton help rules`.
    static func help(_ arguments: [String], context: CommandContext) -> ExitCode {
        guard let name = arguments.first else {
            context.standardOutput.write(rootHelp())
            return .success
        }
        if name == "rules" {
            context.standardOutput.write(rulesHelp())
            return .success
        }
        guard let command = CommandRegistry.commands.first(where: { $0.name == name }) else {
            let names = CommandRegistry.commands.map { $0.name }
            context.standardError.write(
                "Error: Unknown subcommand '\(name)'." + Suggestion.didYouMean(name, in: names, quote: "'")
                    + "\nUsage: baton help [<subcommand>]\n  See 'baton --help' for more information.\n")
            return .usage
        }
        context.standardOutput.write(commandHelp(command))
        return .success
    }

    static func commandHelp(_ command: any Command.Type) -> String {
        HelpFormatter.help(
            commandPath: "baton \(command.name)", abstract: command.abstract, discussion: command.discussion,
            signature: command.signature)
    }

    /// `baton --help`.
    static func rootHelp() -> String {
        var out = "OVERVIEW: \(abstract)\n\nUSAGE: baton <subcommand>\n\nOPTIONS:\n"
        out += HelpFormatter.row("--version", "Show the version.")
        out += HelpFormatter.row("-h, --help", "Show help information.")
        out += "\nSUBCOMMANDS:\n"
        for command in CommandRegistry.commands {
            out += HelpFormatter.row(command.name, command.abstract)
        }
        out += HelpFormatter.row("help", "Show subcommand help information.")
        out += "\n  See 'baton help <subcommand>' for detailed help, and 'baton help rules' for every rule.\n"
        return out
    }

    /// `baton help rules`: every rule's id, default severity and title, from the rule catalog's
    /// descriptors.
    static func rulesHelp() -> String {
        let descriptors = RuleCatalog.descriptors
        let width = (descriptors.map(\.id.count).max() ?? 0) + 2
        var out = "OVERVIEW: Every rule baton check can report, by id (Docs/Rules.md has each with an example).\n"
        out += "\n  baton.json's \"rules\" sets a configurable rule to \"error\", \"warning\" or \"off\".\n"
        for (heading, origin) in [
            ("CATEGORIES (not rules; not configurable)", RuleDescriptor.Origin.category),
            ("THE SPEC'S RULES", .specification), ("BATON'S RULES", .baton),
        ] {
            out += "\n\(heading):\n"
            for descriptor in descriptors where descriptor.origin == origin {
                let padding = String(repeating: " ", count: width - descriptor.id.count)
                var line = "  " + descriptor.id + padding
                if origin != .category {
                    line +=
                        descriptor.severity.rawValue.padding(toLength: 9) + (descriptor.configurable ? "" : "(fixed) ")
                }
                out += line + descriptor.title + "\n"
            }
        }
        return out
    }
}

extension String {
    /// The string followed by spaces up to `length` characters (unchanged when longer).
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
