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

    /// Where each diagnostic is (the run's `place(of:)`), so that the summary counts only
    /// documents as documents; without it every diagnostic counts as in a document.
    package var place: (Diagnostic) -> DiagnosticPlace = { _ in .document }

    /// Reports `diagnostics`; `documentCount` (if known) goes into the summary line.
    package func report(_ diagnostics: [Diagnostic], documentCount: Int?, context: CommandContext) {
        switch format {
        case .text:
            let stream = context.standardError
            stream.write(TextRenderer.render(diagnostics, workers: Compilation.defaultWorkers))
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

    /// "No problems found in 3 documents." / "Found 2 errors and 1 warning in 1 of 3 documents." /
    /// "Found 3 errors: 2 in the schema, 1 in 1 of 3 documents." Documents are the files (and
    /// literals) checked; problems in the schema or baton.json are named as such, not counted as
    /// documents.
    package func summary(_ diagnostics: [Diagnostic], documentCount: Int?) -> String {
        let counts = DiagnosticSummary(diagnostics)
        guard let documentCount else {
            if counts.errors == 0 && counts.warnings == 0 { return "No problems found\(summarySuffix)." }
            return "Found \(Self.counted(counts))\(summarySuffix)."
        }
        if counts.errors == 0 && counts.warnings == 0 {
            return "No problems found in \(Self.plural(documentCount, "document"))\(summarySuffix)."
        }
        var schema: [Diagnostic] = []
        var configuration: [Diagnostic] = []
        var documents: [Diagnostic] = []
        for diagnostic in diagnostics {
            switch place(diagnostic) {
            case .schema: schema.append(diagnostic)
            case .configuration: configuration.append(diagnostic)
            case .document: documents.append(diagnostic)
            }
        }
        let files = Set(documents.compactMap(\.displayPath)).count
        let documentPlace =
            files == 0
            ? ""
            : files >= documentCount
                ? Self.plural(files, "document") : "\(files) of \(Self.plural(documentCount, "document"))"
        var places: [(counts: DiagnosticSummary, place: String)] = []
        if !schema.isEmpty { places.append((DiagnosticSummary(schema), "the schema")) }
        if !configuration.isEmpty { places.append((DiagnosticSummary(configuration), "baton.json")) }
        if !documents.isEmpty { places.append((DiagnosticSummary(documents), documentPlace)) }
        let located = places.map {
            $0.place.isEmpty ? Self.counted($0.counts) : "\(Self.counted($0.counts)) in \($0.place)"
        }
        if places.count == 1 { return "Found \(located[0])\(summarySuffix)." }
        return "Found \(Self.counted(counts)): \(located.joined(separator: ", "))\(summarySuffix)."
    }

    /// "2 errors and 1 warning".
    static func counted(_ counts: DiagnosticSummary) -> String {
        var parts: [String] = []
        if counts.errors > 0 { parts.append(plural(counts.errors, "error")) }
        if counts.warnings > 0 { parts.append(plural(counts.warnings, "warning")) }
        return parts.joined(separator: " and ")
    }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
