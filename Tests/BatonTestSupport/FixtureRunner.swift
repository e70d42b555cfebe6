import BatonDiagnostics
import Foundation

/// One fixture: a `<case>.graphql` file (or `.graphqls`) of a suite, with its `<case>.expected`
/// beside it. `*.invalid.*` cases must report an error, every other case must not.
package struct FixtureCase: Sendable, Hashable, CustomStringConvertible {
    /// The suite (a folder name: `plates`, a rule id).
    package var suite: String
    package var file: URL

    package init(suite: String, file: URL) {
        self.suite = suite
        self.file = file
    }

    /// The case's file name (`aliases.graphql`).
    package var name: String { file.lastPathComponent }
    /// `suite/name`, as the test is reported.
    package var description: String { "\(suite)/\(name)" }
    /// True for a case that must report an error.
    package var isInvalid: Bool { name.contains(".invalid.") }
    /// The `.expected` file beside the case.
    package var expectedFile: URL { file.deletingPathExtension().appendingPathExtension("expected") }

    /// The case's text.
    package func input() throws -> String { try String(contentsOf: file, encoding: .utf8) }

    /// The case's files: one per `#- path` line (the lines after it, up to the next), or the
    /// whole text as one file named after the case when there are none. Text before the first
    /// `#- path` line is the case's preamble (comments saying what it shows): kept as a file of
    /// its own only when `keepsPreamble` and it is more than comments.
    package func sections(keepsPreamble: Bool = false) throws -> [(path: String, text: String)] {
        let text = try input()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.contains(where: { $0.hasPrefix("#- ") }) else { return [(name, text)] }
        var sections: [(path: String, text: String)] = []
        var path: String?
        var body: [Substring] = []
        func flush() {
            let joined = body.joined(separator: "\n")
            if let path {
                sections.append((path, joined))
            } else if keepsPreamble, !FixtureRunner.isOnlyComments(joined) {
                sections.append((name, joined))
            }
        }
        for line in lines {
            if line.hasPrefix("#- ") {
                flush()
                path = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                body = []
            } else {
                body.append(line)
            }
        }
        flush()
        return sections
    }
}

/// What a suite made of one case: the OUTPUT text, or the ERROR text when it reported
/// diagnostics, and whether it counts as an error for the invalid/valid check.
package struct FixtureResult: Sendable {
    /// Printed under OUTPUT when `errorText` is nil.
    package var output: String
    /// Printed under ERROR instead of the output (rendered diagnostics), if any.
    package var errorText: String?
    /// The case reported what makes it invalid (an error, or the suite's rule).
    package var failed: Bool
    /// The case reported nothing a valid case may not report.
    package var clean: Bool

    package init(output: String, errorText: String? = nil, failed: Bool, clean: Bool) {
        self.output = output
        self.errorText = errorText
        self.failed = failed
        self.clean = clean
    }

    /// The usual result: diagnostics (rendered as text) under ERROR when there are any, else
    /// `output`; failed when some diagnostic is an error, clean when there is none.
    package static func diagnostics(_ diagnostics: [Diagnostic], output: @autoclosure () -> String) -> FixtureResult {
        let hasErrors = diagnostics.contains { $0.severity == .error }
        if diagnostics.isEmpty { return FixtureResult(output: output(), failed: false, clean: true) }
        return FixtureResult(
            output: "", errorText: TextRenderer.render(diagnostics), failed: hasErrors, clean: !hasErrors)
    }
}

/// The one fixture runner of every fixture suite (schema, spec rules, Baton rules, plates,
/// generators), in Relay's style: `<case>.expected` holds the input under an INPUT banner and
/// then the OUTPUT or the ERROR. `BATON_UPDATE_FIXTURES=1 swift test` rewrites every expectation;
/// the diff is then read like code.
package enum FixtureRunner {
    /// The environment variable that rewrites expectations.
    package static let updateVariable = "BATON_UPDATE_FIXTURES"

    /// Whether this run rewrites expectations instead of comparing.
    package static var isUpdating: Bool { ProcessInfo.processInfo.environment[updateVariable] == "1" }

    /// The cases of a suite: the files in `directory` ending in one of `extensions`, sorted. An
    /// unreadable or empty folder yields no cases (the suite's own test says so).
    package static func cases(_ suite: String, in directory: URL, extensions: [String] = ["graphql"]) -> [FixtureCase] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { name in extensions.contains { name.hasSuffix("." + $0) } }.sorted().map {
            FixtureCase(suite: suite, file: directory.appendingPathComponent($0))
        }
    }

    /// Every suite folder under `directory` (names without a dot), sorted.
    package static func suites(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { !$0.contains(".") }
            .sorted()
    }

    /// Checks one case: the invalid/valid direction, then the text against `<case>.expected`
    /// (or, when updating, writes it). Returns the problems, empty when the case passes.
    package static func verify(_ fixture: FixtureCase, _ result: FixtureResult) -> [String] {
        var problems: [String] = []
        if fixture.isInvalid && !result.failed { problems.append("\(fixture): expected an error") }
        if !fixture.isInvalid && !result.clean {
            problems.append("\(fixture): unexpected errors:\n\(result.errorText ?? "")")
        }
        let input: String
        do { input = try fixture.input() } catch { return problems + ["\(fixture): cannot read: \(error)"] }
        var actual = banner("INPUT") + input
        if !actual.hasSuffix("\n") { actual += "\n" }
        if let errorText = result.errorText {
            actual += banner("ERROR") + errorText
        } else {
            actual += banner("OUTPUT") + result.output
        }
        if isUpdating {
            do {
                try actual.write(to: fixture.expectedFile, atomically: true, encoding: .utf8)
            } catch {
                problems.append("\(fixture): cannot write \(fixture.expectedFile.lastPathComponent): \(error)")
            }
            return problems
        }
        guard let expected = try? String(contentsOf: fixture.expectedFile, encoding: .utf8) else {
            return problems + [
                "\(fixture): missing \(fixture.expectedFile.lastPathComponent); run with \(updateVariable)=1"
            ]
        }
        if actual != expected {
            problems.append("\(fixture): differs from its .expected\n" + difference(expected, actual))
        }
        return problems
    }

    /// `===== TITLE =====`, 78 columns wide.
    package static func banner(_ title: String) -> String {
        let side = String(repeating: "=", count: (78 - title.count - 2) / 2)
        return "\(side) \(title) \(side)\n"
    }

    /// True for text with nothing but blank and `#` comment lines.
    package static func isOnlyComments(_ text: String) -> Bool {
        text.split(separator: "\n").allSatisfy {
            let line = $0.trimmingCharacters(in: .whitespaces)
            return line.isEmpty || line.hasPrefix("#")
        }
    }

    /// The first lines where `expected` and `actual` differ, for a failure message.
    static func difference(_ expected: String, _ actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var index = 0
        while index < old.count, index < new.count, old[index] == new[index] { index += 1 }
        var lines = ["first difference at line \(index + 1):"]
        for offset in 0..<4 {
            if index + offset < old.count { lines.append("- " + old[index + offset]) }
            if index + offset < new.count { lines.append("+ " + new[index + offset]) }
        }
        return lines.joined(separator: "\n")
    }
}
