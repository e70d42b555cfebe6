/// What a command accepts: its options, flags and positional arguments, declared as data so
/// that parsing, `--help` and error messages all come from one description.
package struct CommandSignature: Sendable {
    package var options: [OptionSpec]
    package var arguments: [ArgumentSpec]

    package init(options: [OptionSpec] = [], arguments: [ArgumentSpec] = []) {
        self.options = options
        self.arguments = arguments
    }

    /// The option whose long name is `name`.
    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }
    /// The option whose short name is `letter`.
    func option(short letter: Character) -> OptionSpec? { options.first { $0.short == letter } }
}

/// A named option: a flag (`--quiet`) or an option taking a value (`--format json`,
/// `--format=json`).
package struct OptionSpec: Sendable {
    package enum Kind: Sendable {
        case flag
        /// An option with a value; `valueName` shows in help (`--format <format>`).
        case value(valueName: String, choices: [String]?, defaultValue: String?, repeatable: Bool)
    }

    /// The long name without dashes (`format`).
    package var name: String
    /// An optional one-letter short name (`q` for `-q`).
    package var short: Character?
    package var kind: Kind
    package var help: String

    /// A flag.
    package static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, kind: .flag, help: help)
    }

    /// An option taking a value. With `choices`, any other value is a usage error.
    package static func value(
        _ name: String, short: Character? = nil, valueName: String, choices: [String]? = nil,
        defaultValue: String? = nil,
        repeatable: Bool = false, help: String
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short,
            kind: .value(valueName: valueName, choices: choices, defaultValue: defaultValue, repeatable: repeatable),
            help: help)
    }

    /// `--format <format>` or `--quiet`, as usage lines and errors show it.
    package var synopsis: String {
        switch kind {
        case .flag: "--\(name)"
        case .value(let valueName, _, _, _): "--\(name) <\(valueName)>"
        }
    }

    var takesValue: Bool {
        if case .flag = kind { return false }
        return true
    }
}

/// A positional argument.
package struct ArgumentSpec: Sendable {
    /// The name shown in help (`paths`).
    package var name: String
    package var help: String
    /// Whether it takes any number of values (`<paths> ...`).
    package var repeating: Bool
    package var optional: Bool

    package init(_ name: String, help: String, repeating: Bool = false, optional: Bool = true) {
        self.name = name
        self.help = help
        self.repeating = repeating
        self.optional = optional
    }

    var synopsis: String {
        let core = repeating ? "<\(name)> ..." : "<\(name)>"
        return optional ? "[\(core)]" : core
    }
}

/// The parsed command line of one command.
package struct ParsedArguments: Sendable, Equatable {
    package var flags: Set<String> = []
    package var values: [String: [String]] = [:]
    package var positionals: [String] = []

    package init() {}

    /// Whether a flag was given.
    package func flag(_ name: String) -> Bool { flags.contains(name) }
    /// The last value given for an option (or its default).
    package func value(_ name: String) -> String? { values[name]?.last }
    /// Every value given for a repeatable option, in order.
    package func allValues(_ name: String) -> [String] { values[name] ?? [] }
}

/// A command-line mistake: the message says what was wrong; the caller adds the usage line.
package struct UsageError: Error, Sendable, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}
