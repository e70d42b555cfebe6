import BatonCompiler
import BatonDiagnostics

/// The output formats of diagnostics (`--format`).
package enum DiagnosticFormat: String, CaseIterable, Sendable {
    case text
    case pretty
    case json
    case sarif
    case github

    package static var names: [String] { allCases.map(\.rawValue) }

    /// The `--format` option every command reporting diagnostics takes.
    package static var option: OptionSpec {
        .value(
            "format", valueName: "format", choices: names, defaultValue: "text",
            help: "How to report diagnostics: text and pretty on stderr; json, sarif and github on stdout.")
    }
}

/// Writes diagnostics in the chosen format, to the stream that format belongs on, with the
/// summary line human formats end with.
package struct DiagnosticOutput {
    package var format: DiagnosticFormat
    /// Leave out the summary line (and, at the caller's choice, warnings).
    package var quiet: Bool
    /// Descriptions of rule ids, for SARIF.
    package var ruleDescriptions: [String: String]
    /// Text added to the summary line, before its full stop (e.g. why something was skipped).
    package var summarySuffix = ""

    package init(format: DiagnosticFormat, quiet: Bool, ruleDescriptions: [String: String] = RuleCatalog.descriptions) {
        self.format = format
        self.quiet = quiet
        self.ruleDescriptions = ruleDescriptions
    }

    /// Reports `diagnostics`; `documentCount` (if known) goes into the summary line.
    package func report(_ diagnostics: [Diagnostic], documentCount: Int?, context: CommandContext) {
        switch format {
        case .text:
            let stream = context.standardError
            stream.write(TextRenderer.render(diagnostics))
            if !quiet { stream.write(summary(diagnostics, documentCount: documentCount) + "\n") }
        case .pretty:
            let stream = context.standardError
            let renderer = PrettyRenderer(color: context.allowsColor(on: stream))
            stream.write(renderer.render(diagnostics))
            if !quiet { stream.write(summary(diagnostics, documentCount: documentCount) + "\n") }
        case .json:
            context.standardOutput.write(JSONRenderer.render(diagnostics))
        case .sarif:
            context.standardOutput.write(
                SARIFRenderer.render(diagnostics, descriptions: ruleDescriptions, version: BatonCLI.version))
        case .github:
            context.standardOutput.write(GitHubRenderer.render(diagnostics))
        }
    }

    /// "No problems found in 3 documents." / "Found 2 errors and 1 warning in 3 documents."
    package func summary(_ diagnostics: [Diagnostic], documentCount: Int?) -> String {
        let counts = DiagnosticSummary(diagnostics)
        let scope = documentCount.map { " in \($0) \($0 == 1 ? "document" : "documents")" } ?? ""
        if counts.errors == 0 && counts.warnings == 0 { return "No problems found\(scope)\(summarySuffix)." }
        var parts: [String] = []
        if counts.errors > 0 { parts.append("\(counts.errors) \(counts.errors == 1 ? "error" : "errors")") }
        if counts.warnings > 0 { parts.append("\(counts.warnings) \(counts.warnings == 1 ? "warning" : "warnings")") }
        return "Found \(parts.joined(separator: " and "))\(scope)\(summarySuffix)."
    }
}
