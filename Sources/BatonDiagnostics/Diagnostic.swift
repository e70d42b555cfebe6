/// How serious a diagnostic is. `error` fails `baton check`; `warning` does not (unless
/// `--warnings-as-errors`).
package enum Severity: String, Sendable, Hashable, Comparable {
    case error
    case warning
    case note

    private var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .note: 2
        }
    }
    package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A place in a source: the file and a byte span in it.
package struct SourceRange: Sendable, Hashable {
    package var file: SourceFile
    package var span: Span
    package init(file: SourceFile, span: Span) {
        self.file = file
        self.span = span
    }
    /// The file to name and the 1-based start location (mapped to the host file for embedded text).
    package var start: (file: SourceFile, location: SourceLocation) { file.resolve(span.start) }
    /// The end location (exclusive), mapped like `start`.
    package var end: (file: SourceFile, location: SourceLocation) { file.resolve(span.end) }
}

/// A secondary message attached to a diagnostic, usually pointing at another place.
package struct DiagnosticNote: Sendable, Hashable {
    package var message: String
    package var range: SourceRange?
    package init(message: String, range: SourceRange?) {
        self.message = message
        self.range = range
    }
}

/// A suggested edit: replace the text at `range` with `replacement`.
package struct FixIt: Sendable, Hashable {
    package var message: String
    package var range: SourceRange
    package var replacement: String
    package init(message: String, range: SourceRange, replacement: String) {
        self.message = message
        self.range = range
        self.replacement = replacement
    }
}

/// The one diagnostic type every stage reports: syntax, schema, validation, configuration, I/O.
///
/// `rule` is a stable kebab-case id (`unique-operation-names`, `syntax`, `schema`, `config`,
/// `io`) that users can name in `baton.json`'s `rules` and that machine formats carry.
/// `range` is nil only for problems that belong to no file (a missing file names its path in
/// `path` instead).
package struct Diagnostic: Sendable, Hashable {
    package var severity: Severity
    package var message: String
    package var rule: String
    package var range: SourceRange?
    /// A path to name when there is no source range (e.g. a file that could not be read).
    package var path: String?
    package var notes: [DiagnosticNote]
    package var fixIts: [FixIt]

    package init(
        _ severity: Severity, _ message: String, rule: String, range: SourceRange?,
        path: String? = nil, notes: [DiagnosticNote] = [], fixIts: [FixIt] = []
    ) {
        self.severity = severity
        self.message = message
        self.rule = rule
        self.range = range
        self.path = path
        self.notes = notes
        self.fixIts = fixIts
    }

    /// An error at `span` of `file`.
    package static func error(
        _ message: String, rule: String, file: SourceFile, span: Span, notes: [DiagnosticNote] = []
    ) -> Diagnostic {
        Diagnostic(.error, message, rule: rule, range: SourceRange(file: file, span: span), notes: notes)
    }

    /// The path shown for this diagnostic: the (host) file of its range, or `path`. Nothing is located for it (a
    /// released schema file is not read again to filter or sort what `--quiet` then leaves out).
    package var displayPath: String? { range?.file.named.path ?? path }

    /// The 1-based start location, if the diagnostic has a range.
    package var location: SourceLocation? { range?.start.location }

    /// Orders diagnostics by file, then position, then message, for stable output.
    package static func sortKey(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        let lp = lhs.displayPath ?? ""
        let rp = rhs.displayPath ?? ""
        if lp != rp { return lp < rp }
        let ll = lhs.location.map { ($0.line, $0.column) } ?? (0, 0)
        let rl = rhs.location.map { ($0.line, $0.column) } ?? (0, 0)
        if ll != rl { return ll < rl }
        return lhs.message < rhs.message
    }
}
