import BatonDiagnostics
import BatonSemantics
import BatonSchema
import BatonSyntax

extension BatonDirectives {
    /// The span of the operation keyword or name, for pointing at an operation.
    package static func headSpan(of operation: OperationDefinition) -> Span {
        if let name = operation.name { return name.span }
        if operation.isShorthand { return Span(start: operation.span.start, end: operation.span.start + 1) }
        let keyword = operation.operation.rawValue.utf8.count
        return Span(start: operation.span.start, end: operation.span.start + keyword)
    }

    /// A fix-it removing `span` from `file` together with the spaces before it, so
    /// `author @required(action: LOG) {` becomes `author {`.
    package static func removal(of span: Span, in file: SourceFile, message: String) -> FixIt {
        var start = span.start
        while start > 0, start <= file.bytes.count,
            file.bytes[start - 1] == UInt8(ascii: " ")
                || file.bytes[start - 1] == UInt8(ascii: "\t")
        {
            start -= 1
        }
        return FixIt(
            message: message, range: SourceRange(file: file, span: Span(start: start, end: span.end)), replacement: "")
    }
}

/// A Baton rule's descriptor (id, title, summary, default severity), declared once in the rule's
/// file and read by the rule catalog, `baton help rules`, SARIF and the docs test.
package protocol BatonRuleInfo {
    static var descriptor: RuleDescriptor { get }
}

extension BatonRuleInfo {
    /// The stable kebab-case id.
    package static var id: String { descriptor.id }
    /// The severity the rule reports with unless baton.json's `rules` changes it.
    package static var severity: Severity { descriptor.severity }
    /// The title and the sentence of what the rule requires (SARIF's rule description).
    package static var summary: String { descriptor.description }
}

extension ValidationRule where Self: BatonRuleInfo {
    /// Reports at `span` of the file being walked, with the rule's severity, notes and fix-its.
    package func diagnose(
        _ message: String, at span: Span, notes: [DiagnosticNote] = [], fixIts: [FixIt] = []
    ) {
        context.report(
            Diagnostic(
                Self.severity, message, rule: Self.id, range: context.range(span), notes: notes, fixIts: fixIts))
    }

    /// Reports at `range` (possibly another file of the unit), with the rule's severity.
    package func diagnose(_ message: String, range: SourceRange, notes: [DiagnosticNote] = [], fixIts: [FixIt] = []) {
        context.report(Diagnostic(Self.severity, message, rule: Self.id, range: range, notes: notes, fixIts: fixIts))
    }

    /// A note at `span` of the file being walked.
    package func note(_ message: String, at span: Span) -> DiagnosticNote {
        DiagnosticNote(message: message, range: context.range(span))
    }
}
