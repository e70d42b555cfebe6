import BatonCompiler
import BatonConfig
import BatonFiles

/// A `baton` subcommand. To add one, write a type conforming to this protocol in
/// `Sources/BatonCLI/Commands/` and list it in `CommandRegistry.commands`; parsing, `--help`,
/// usage errors and exit code 2 for them come for free (see Docs/CLI.md).
package protocol Command {
    /// The subcommand's name (`check`).
    static var name: String { get }
    /// One line for `baton --help` and the OVERVIEW of the command's help.
    static var abstract: String { get }
    /// Paragraphs shown under the overview in the command's help ("" for none).
    static var discussion: String { get }
    /// The options and arguments the command takes (`--help` is added automatically).
    static var signature: CommandSignature { get }
    /// Runs the command with its parsed arguments; the result is the process's exit code.
    static func run(_ arguments: ParsedArguments, context: CommandContext) -> ExitCode
}

extension Command {
    package static var discussion: String { "" }
}

/// The process's exit status, with Baton's meanings.
package struct ExitCode: Sendable, Hashable, CustomStringConvertible {
    package var rawValue: Int32
    package init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// No errors (warnings allowed).
    package static let success = ExitCode(0)
    /// Problems found: errors in the input (or warnings under `--warnings-as-errors`), or
    /// `--check` found stale generated files.
    package static let failure = ExitCode(1)
    /// A usage, configuration or I/O error: the command could not do its job.
    package static let usage = ExitCode(2)

    package var description: String { "\(rawValue)" }

    /// The exit status of a driver run.
    package init(_ status: RunStatus) {
        switch status {
        case .clean: self = .success
        case .problems: self = .failure
        case .unusable: self = .usage
        }
    }
}

/// A place a command writes text: a file descriptor, or a buffer in tests.
package final class OutputStream {
    private var buffer: [UInt8] = []
    private let descriptor: Int32?
    /// Whether this stream is a terminal (colour is allowed only then).
    package let isTerminal: Bool

    /// A stream writing to a file descriptor (1 for stdout, 2 for stderr).
    package init(descriptor: Int32) {
        self.descriptor = descriptor
        self.isTerminal = FileSystem.isTerminal(descriptor)
    }

    /// A stream collecting text in memory.
    package init(capturingAsTerminal isTerminal: Bool = false) {
        self.descriptor = nil
        self.isTerminal = isTerminal
    }

    package func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if descriptor != nil && buffer.count >= 1 << 16 { flush() }
    }

    /// Sends buffered text to the descriptor (no-op for a capturing stream).
    package func flush() {
        guard let descriptor, !buffer.isEmpty else { return }
        FileSystem.write(buffer, to: descriptor)
        buffer.removeAll(keepingCapacity: true)
    }

    /// What a capturing stream has collected.
    package var text: String { String(decoding: buffer, as: UTF8.self) }
}

/// What a command runs in: its streams, working directory and environment.
package struct CommandContext {
    package var standardOutput: OutputStream
    package var standardError: OutputStream
    /// The absolute working directory; relative paths resolve against it and shown paths are
    /// relative to it.
    package var workingDirectory: String
    package var environment: [String: String]
    /// True for the real process (`process()`), which exits when the command returns: what a one-shot command
    /// built (the schema, the files' units, the diagnostics) is handed to `keepUntilExit` and taken back by
    /// `exit` with the address space, instead of being freed object by object first (13 of the 190 M
    /// instructions of `check` on GitHub's schema and one document). A test's context frees as usual.
    package var keepsResultsUntilExit = false

    package init(
        standardOutput: OutputStream, standardError: OutputStream, workingDirectory: String,
        environment: [String: String]
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.workingDirectory = workingDirectory
        self.environment = environment
    }

    /// The real process: stdout, stderr, the current directory and the environment variables
    /// Baton reads.
    package static func process() -> CommandContext {
        var environment: [String: String] = [:]
        for name in ["NO_COLOR", "TERM", "GITHUB_ACTIONS", "BATON_WATCH_POLL"] {
            if let value = FileSystem.environment(name) { environment[name] = value }
        }
        var context = CommandContext(
            standardOutput: OutputStream(descriptor: 1), standardError: OutputStream(descriptor: 2),
            workingDirectory: FileSystem.currentDirectory(), environment: environment)
        context.keepsResultsUntilExit = true
        return context
    }

    /// Keeps `value` alive until the process exits when `keepsResultsUntilExit`; otherwise does nothing.
    /// Returns whether it was kept.
    @discardableResult
    package func keepUntilExit(_ value: Any) -> Bool {
        guard keepsResultsUntilExit else { return false }
        KeptUntilExit.values.append(value)
        return true
    }

    /// Whether colour may be used on `stream`: a terminal, `NO_COLOR` unset or empty, and
    /// not a dumb terminal.
    package func allowsColor(on stream: OutputStream) -> Bool {
        guard stream.isTerminal else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }
}

/// What the process's commands keep for `exit` (`CommandContext.keepUntilExit`). Only the main thread runs
/// commands and appends here.
private enum KeptUntilExit {
    nonisolated(unsafe) static var values: [Any] = []
}
