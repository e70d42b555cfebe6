/// Help text in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS,
/// SUBCOMMANDS, with help columns aligned and wrapped at 80 columns.
package enum HelpFormatter {
    static let labelWidth = 26
    static let lineWidth = 80

    /// The usage line of a command: `baton check [--config <path>] … [<paths> ...]`.
    package static func usage(commandPath: String, signature: CommandSignature) -> String {
        var parts = [commandPath]
        for option in signature.options {
            var text = option.synopsis
            if case .value(_, _, _, true) = option.kind { text += " ..." }
            parts.append("[\(text)]")
        }
        parts += signature.arguments.map(\.synopsis)
        return parts.joined(separator: " ")
    }

    /// The full help of a command.
    package static func help(
        commandPath: String, abstract: String, discussion: String, signature: CommandSignature
    ) -> String {
        var out = "OVERVIEW: \(abstract)\n"
        if !discussion.isEmpty { out += "\n" + wrap(discussion, indent: 0) + "\n" }
        out += "\nUSAGE: \(usage(commandPath: commandPath, signature: signature))\n"
        if !signature.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in signature.arguments {
                out += row("<\(argument.name)>", argument.help)
            }
        }
        out += "\nOPTIONS:\n"
        for option in signature.options {
            var label = option.short.map { "-\($0), " } ?? ""
            label += option.synopsis
            var help = option.help
            if case .value(_, let choices, let defaultValue, _) = option.kind {
                if let choices { help += " (values: \(choices.joined(separator: ", ")))" }
                if let defaultValue { help += " (default: \(defaultValue))" }
            }
            out += row(label, help)
        }
        out += row("-h, --help", "Show help information.")
        return out
    }

    /// One aligned row: the label, then the help wrapped in its column.
    package static func row(_ label: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: labelWidth)
        let wrapped = wrap(help, indent: labelWidth)
        let firstLineHelp = String(wrapped.dropFirst(labelWidth))
        let padded = "  " + label
        if padded.count + 1 < labelWidth {
            return padded + String(repeating: " ", count: labelWidth - padded.count) + firstLineHelp + "\n"
        }
        return padded + "\n" + indent + firstLineHelp + "\n"
    }

    /// Wraps words at `lineWidth`, indenting every line by `indent` spaces.
    static func wrap(_ text: String, indent: Int) -> String {
        let prefix = String(repeating: " ", count: indent)
        var lines: [String] = []
        for paragraphLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = prefix
            for word in paragraphLine.split(separator: " ") {
                if line.count > indent && line.count + 1 + word.count > lineWidth {
                    lines.append(line)
                    line = prefix
                }
                if line.count > indent { line += " " }
                line += word
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
