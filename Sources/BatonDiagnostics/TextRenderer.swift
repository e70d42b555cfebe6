/// Renders diagnostics as `path:line:column: severity: message [rule-id]` lines, notes below.
///
/// This is the default format and the one tests compare against. Richer formats (pretty,
/// json, sarif, github) live beside it.
package enum TextRenderer {
    package static func render(_ diagnostic: Diagnostic) -> String {
        var out = prefix(path: diagnostic.displayPath, location: diagnostic.location)
        out += "\(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.rule)]\n"
        for note in diagnostic.notes {
            let start = note.range?.start
            out += "  " + prefix(path: start?.file.path, location: start?.location)
            out += "note: \(note.message)\n"
        }
        return out
    }

    /// Every diagnostic, sorted, each rendered on up to `workers` threads (a large project's thousands of
    /// warnings were most of what a `check` ran on one core after its batches), joined in order.
    package static func render(_ diagnostics: [Diagnostic], workers: Int = 1) -> String {
        ParallelWork.map(diagnostics.sorted(by: Diagnostic.sortKey), workers: workers, minimumItems: 256) { render($0) }
            .joined()
    }

    private static func prefix(path: String?, location: SourceLocation?) -> String {
        guard let path else { return "" }
        guard let location else { return "\(path): " }
        return "\(path):\(location.line):\(location.column): "
    }
}
