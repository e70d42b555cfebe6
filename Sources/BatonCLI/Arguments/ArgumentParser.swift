import BatonConfig

/// Parses a command's arguments against its signature, in swift-argument-parser's manner:
/// `--name value`, `--name=value`, `-q`, combined short flags (`-qv`), `--` ending options,
/// and errors that name the problem and what would be valid.
package enum ArgumentParser {
    /// Parses `arguments` (without the command names). `--help`/`-h` is handled by the caller.
    package static func parse(_ arguments: [String], signature: CommandSignature) -> Result<ParsedArguments, UsageError>
    {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                var inlineValue: String?
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                guard let option = signature.option(named: name) else {
                    let suggestion = Suggestion.didYouMean(
                        "--" + name, in: signature.options.map { "--" + $0.name } + ["--help"], quote: "'")
                    return .failure(UsageError("Unknown option '--\(name)'." + suggestion))
                }
                if !option.takesValue {
                    if inlineValue != nil {
                        return .failure(UsageError("The flag '--\(name)' does not take a value."))
                    }
                    parsed.flags.insert(option.name)
                    continue
                }
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count, !looksLikeOption(arguments[index]) {
                    value = arguments[index]
                    index += 1
                } else {
                    return .failure(UsageError("Missing value for '\(option.synopsis)'."))
                }
                if let failure = record(value, for: option, into: &parsed) { return .failure(failure) }
                continue
            }
            // Short options: -q, -qv, -f json, -fjson.
            var letters = Array(argument.dropFirst())
            while !letters.isEmpty {
                let letter = letters.removeFirst()
                guard let option = signature.option(short: letter) else {
                    return .failure(UsageError("Unknown option '-\(letter)'."))
                }
                if !option.takesValue {
                    parsed.flags.insert(option.name)
                    continue
                }
                let value: String
                if !letters.isEmpty {
                    value = String(letters)
                    letters = []
                } else if index < arguments.count, !looksLikeOption(arguments[index]) {
                    value = arguments[index]
                    index += 1
                } else {
                    return .failure(UsageError("Missing value for '-\(letter) <\(valueName(option))>'."))
                }
                if let failure = record(value, for: option, into: &parsed) { return .failure(failure) }
            }
        }
        // Defaults.
        for option in signature.options {
            if case .value(_, _, let defaultValue?, _) = option.kind, parsed.values[option.name] == nil {
                parsed.values[option.name] = [defaultValue]
            }
        }
        // Positional arguments.
        let required = signature.arguments.filter { !$0.optional }
        if parsed.positionals.count < required.count {
            let missing = required[parsed.positionals.count]
            return .failure(UsageError("Missing expected argument '<\(missing.name)>'."))
        }
        if !signature.arguments.contains(where: \.repeating) && parsed.positionals.count > signature.arguments.count {
            return .failure(UsageError("Unexpected argument '\(parsed.positionals[signature.arguments.count])'."))
        }
        return .success(parsed)
    }

    private static func looksLikeOption(_ argument: String) -> Bool {
        argument.count > 1 && argument.hasPrefix("-")
    }

    private static func valueName(_ option: OptionSpec) -> String {
        if case .value(let name, _, _, _) = option.kind { return name }
        return option.name
    }

    private static func record(_ value: String, for option: OptionSpec, into parsed: inout ParsedArguments)
        -> UsageError?
    {
        guard case .value(_, let choices, _, let repeatable) = option.kind else { return nil }
        if let choices, !choices.contains(value) {
            let list = choices.map { "'\($0)'" }
            let joined =
                list.count > 1 ? list.dropLast().joined(separator: ", ") + " or " + (list.last ?? "") : list.joined()
            return UsageError(
                "The value '\(value)' is invalid for '\(option.synopsis)'. Please provide one of \(joined)."
                    + Suggestion.didYouMean(value, in: choices, quote: "'"))
        }
        if repeatable {
            parsed.values[option.name, default: []].append(value)
        } else {
            parsed.values[option.name] = [value]
        }
        return nil
    }
}
