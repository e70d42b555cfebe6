/// `--format pretty`: the text format with each diagnostic's source line and carets under
/// the range; colour (ANSI) only when asked, i.e. on a terminal without `NO_COLOR`.
///
/// ```
/// Queries/Issue.graphql:3:5: error: Cannot query field "titel" on type "Issue". Did you mean "title"? [fields-on-correct-type]
///     3 |     titel
///       |     ^~~~~
/// ```
package struct PrettyRenderer {
    package var color: Bool

    package init(color: Bool) { self.color = color }

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    private func severityLabel(_ severity: Severity) -> String {
        switch severity {
        case .error: paint("error:", "1;31")
        case .warning: paint("warning:", "1;33")
        case .note: paint("note:", "1;36")
        }
    }

    package func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.sorted(by: Diagnostic.sortKey).map(render).joined()
    }

    package func render(_ diagnostic: Diagnostic) -> String {
        var out = ""
        if let path = diagnostic.displayPath {
            let place = diagnostic.location.map { "\(path):\($0.line):\($0.column):" } ?? "\(path):"
            out += paint(place, "1") + " "
        }
        out +=
            severityLabel(diagnostic.severity) + " " + paint(diagnostic.message, "1") + " "
            + paint("[\(diagnostic.rule)]", "2") + "\n"
        if let range = diagnostic.range { out += excerpt(range) }
        for note in diagnostic.notes {
            out += "  "
            if let start = note.range?.start {
                out += paint("\(start.file.path):\(start.location.line):\(start.location.column):", "1") + " "
            }
            out += severityLabel(.note) + " \(note.message)\n"
            if let range = note.range { out += excerpt(range) }
        }
        return out
    }

    /// The source line of `range`'s start with carets under the range (to the end of the
    /// line when the range goes on).
    func excerpt(_ range: SourceRange) -> String {
        let (file, start) = range.start
        let (endFile, end) = range.end
        let lineIndex = start.line - 1
        guard lineIndex >= 0, lineIndex < file.lineStarts.count else { return "" }
        let lineStart = file.lineStarts[lineIndex]
        var lineEnd = lineIndex + 1 < file.lineStarts.count ? file.lineStarts[lineIndex + 1] : file.bytes.count
        while lineEnd > lineStart, file.bytes[lineEnd - 1] == 0x0A || file.bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        let startOffset = min(max(start.offset, lineStart), lineEnd)
        var endOffset = endFile === file && end.line == start.line ? min(end.offset, lineEnd) : lineEnd
        if endOffset < startOffset { endOffset = startOffset }

        let line = String(decoding: file.bytes[lineStart..<lineEnd], as: UTF8.self)
        let before = String(decoding: file.bytes[lineStart..<startOffset], as: UTF8.self)
        let marked = String(decoding: file.bytes[startOffset..<endOffset], as: UTF8.self)
        // Keep tabs so the carets line up under them.
        let padding = String(before.map { $0 == "\t" ? "\t" : " " })
        let width = max(1, marked.count)
        let carets = "^" + String(repeating: "~", count: width - 1)

        let number = String(start.line)
        let gutter = String(repeating: " ", count: max(5, number.count + 1))
        let numberColumn = String(repeating: " ", count: gutter.count - number.count) + number
        return paint(numberColumn + " |", "2") + " " + line + "\n" + paint(gutter + " |", "2") + " " + padding
            + paint(carets, "1;32") + "\n"
    }
}
