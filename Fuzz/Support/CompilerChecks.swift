import BatonDiagnostics
import Foundation

/// Every diagnostic is located inside its file (its span, and the line and column it prints, fall within the
/// file, or within the host file of an embedded document), has a message, and every renderer accepts it.
func checkLocated(_ diagnostics: [Diagnostic], _ stage: String) {
    for diagnostic in diagnostics {
        if diagnostic.message.isEmpty { violated("\(stage): an empty message [\(diagnostic.rule)]") }
        if diagnostic.severity == .error, diagnostic.range == nil, diagnostic.path == nil {
            violated("\(stage): an error without a location: [\(diagnostic.rule)] \(diagnostic.message)")
        }
        let ranges = [diagnostic.range].compactMap { $0 } + diagnostic.notes.compactMap(\.range)
        for range in ranges { checkInside(range, stage, diagnostic) }
    }
    _ = TextRenderer.render(diagnostics)
    _ = JSONRenderer.render(diagnostics)
    _ = SARIFRenderer.render(diagnostics, descriptions: [:], version: "0")
    _ = GitHubRenderer.render(diagnostics)
}

private func checkInside(_ range: SourceRange, _ stage: String, _ diagnostic: Diagnostic) {
    let count = range.file.bytes.count
    guard range.span.start >= 0, range.span.start <= range.span.end, range.span.end <= count else {
        violated("\(stage): span \(range.span) outside its file (\(count) bytes): \(diagnostic.message)")
    }
    for offset in [range.span.start, range.span.end] {
        let (file, location) = range.file.resolve(offset)
        let lines = file.lineStarts.count
        guard location.line >= 1, location.line <= lines, location.column >= 1, location.offset <= file.bytes.count
        else {
            violated(
                "\(stage): \(file.path):\(location.line):\(location.column) outside the file (\(lines) lines): "
                    + diagnostic.message)
        }
    }
}
