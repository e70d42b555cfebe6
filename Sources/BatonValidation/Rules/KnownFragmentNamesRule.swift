import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Fragment spread target defined.
///
/// Every fragment spread must name a fragment defined in the document (or, when validating a
/// project, in any of its files).
/// Spec: 5.5.2.1 Fragment spread target defined.
package final class KnownFragmentNamesRule: ValidationRuleBase, ValidationRule {
    package static let id = "known-fragment-names"
    package static let hooks: ValidationHooks = [.fragmentSpread]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    override package func enterFragmentSpread(_ node: FragmentSpread) {
        guard context.fragmentIndex(of: node) == nil else { return }
        let file = context.currentFile
        let notes = Self.imports(in: file).map { span in
            DiagnosticNote(
                message: Self.importNote(Self.importedPath(file, span)), range: SourceRange(file: file, span: span))
        }
        context.report(
            Diagnostic(
                .error, Self.message(node.name.value), rule: Self.id, range: context.range(node.name.span), notes: notes
            ))
    }

    /// The spans of the path strings of graphql-tag's `#import "path"` lines (comments to
    /// GraphQL), which Baton does not follow: the fragments they bring come from the project's
    /// other documents, when `documents` lists them.
    static func imports(in file: SourceFile) -> [Span] {
        let bytes = file.bytes
        let keyword = Array("#import".utf8)
        var spans: [Span] = []
        var lineStart = 0
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var index = lineStart
            while index < end && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) {
                index += 1
            }
            if end - index > keyword.count && Array(bytes[index..<index + keyword.count]) == keyword {
                index += keyword.count
                while index < end && bytes[index] == UInt8(ascii: " ") { index += 1 }
                if index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    var close = index + 1
                    while close < end && bytes[close] != quote { close += 1 }
                    if close < end { spans.append(Span(start: index + 1, end: close)) }
                }
            }
            lineStart = end + 1
        }
        return spans
    }

    /// The imported path as written, resolved against the importing file's folder when relative.
    static func importedPath(_ file: SourceFile, _ span: Span) -> String {
        let written = String(decoding: file.bytes[span.start..<span.end], as: UTF8.self)
        guard written.hasPrefix("./") || written.hasPrefix("../") else { return written }
        let folder = file.path.lastIndex(of: "/").map { file.path[..<$0] } ?? ""
        var parts =
            folder.isEmpty ? [] : folder.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for part in written.split(separator: "/").map(String.init) {
            switch part {
            case ".": continue
            case ".." where !parts.isEmpty && parts.last != "..": parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}

extension KnownFragmentNamesRule {
    static func message(_ name: String) -> String { "Unknown fragment \"\(name)\"." }

    static func importNote(_ path: String) -> String {
        "This file #imports \"\(path)\" (graphql-tag), which Baton does not follow: every document baton.json's \"documents\" lists shares its fragments, so list \"\(path)\" there (or a pattern matching it)."
    }
}
