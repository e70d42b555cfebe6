import BatonDiagnostics

/// The result of parsing one source: the document (nil when a syntax error stopped the parse,
/// as graphql-js stops at its first syntax error) and the diagnostics.
package struct ParseResult: Sendable {
    package var document: Document?
    package var diagnostics: [Diagnostic]
    package init(document: Document?, diagnostics: [Diagnostic]) {
        self.document = document
        self.diagnostics = diagnostics
    }
}
