import BatonCLI
import BatonDiagnostics
import XCTest

final class RendererTests: XCTestCase {
    let file = SourceFile(path: "Q.graphql", text: "query Q {\n\thelo\n}\n")

    func diagnostic() -> Diagnostic {
        Diagnostic(
            .error, "Cannot query field \"helo\".", rule: "fields-on-correct-type",
            range: SourceRange(file: file, span: Span(start: 11, end: 15)),
            notes: [
                DiagnosticNote(message: "Operation here.", range: SourceRange(file: file, span: Span(start: 6, end: 7)))
            ])
    }

    func testPrettyWithoutColorKeepsTabsUnderCarets() {
        XCTAssertEqual(
            PrettyRenderer(color: false).render([diagnostic()]),
            """
            Q.graphql:2:2: error: Cannot query field "helo". [fields-on-correct-type]
                2 | \thelo
                  | \t^~~~
              Q.graphql:1:7: note: Operation here.
                1 | query Q {
                  |       ^

            """)
    }

    func testPrettyWithColor() {
        let text = PrettyRenderer(color: true).render([diagnostic()])
        XCTAssertTrue(text.contains("\u{1B}[1;31merror:\u{1B}[0m"), text)
        XCTAssertTrue(text.contains("\u{1B}[1;32m^~~~\u{1B}[0m"), text)
    }

    /// Only the process's own context (which exits after its command) keeps a run's results for
    /// the exit to reclaim; a context a test or a host reuses releases them as usual.
    func testOnlyTheProcessContextKeepsResultsUntilExit() {
        final class Probe {}
        XCTAssertTrue(CommandContext.process().exitsAfterCommand)
        var context = CommandContext(
            standardOutput: OutputStream(capturingAsTerminal: false),
            standardError: OutputStream(capturingAsTerminal: false), workingDirectory: "/", environment: [:])
        XCTAssertFalse(context.exitsAfterCommand)
        /// Whether a value handed to `keepUntilExit` is still alive once the caller let it go.
        func survives(_ context: CommandContext) -> Bool {
            weak var watched: Probe?
            do {
                let probe = Probe()
                watched = probe
                context.keepUntilExit(probe)
            }
            return watched != nil
        }
        XCTAssertFalse(survives(context), "a reused context keeps nothing")
        context.exitsAfterCommand = true
        XCTAssertTrue(survives(context), "kept for the exit")
    }

    func testColorOnlyOnATerminalWithoutNoColor() {
        func context(terminal: Bool, _ environment: [String: String]) -> CommandContext {
            CommandContext(
                standardOutput: OutputStream(capturingAsTerminal: terminal),
                standardError: OutputStream(capturingAsTerminal: terminal),
                workingDirectory: "/", environment: environment)
        }
        let tty = context(terminal: true, [:])
        XCTAssertTrue(tty.allowsColor(on: tty.standardError))
        let pipe = context(terminal: false, [:])
        XCTAssertFalse(pipe.allowsColor(on: pipe.standardError))
        let noColor = context(terminal: true, ["NO_COLOR": "1"])
        XCTAssertFalse(noColor.allowsColor(on: noColor.standardError))
        let dumb = context(terminal: true, ["TERM": "dumb"])
        XCTAssertFalse(dumb.allowsColor(on: dumb.standardError))
    }

    func testJSONWithNotesAndWithoutPlace() {
        let io = Diagnostic(.error, "Cannot read x: gone.", rule: "io", range: nil, path: "x")
        XCTAssertEqual(
            JSONRenderer.render([diagnostic(), io]),
            #"{"version":1,"diagnostics":[{"rule":"fields-on-correct-type","severity":"error","message":"Cannot query field \"helo\".","file":"Q.graphql","line":2,"column":2,"endLine":2,"endColumn":6,"notes":[{"message":"Operation here.","file":"Q.graphql","line":1,"column":7}]},"#
                + #"{"rule":"io","severity":"error","message":"Cannot read x: gone.","file":"x","line":null,"column":null,"endLine":null,"endColumn":null,"notes":[]}],"summary":{"errors":2,"warnings":0}}"#
                + "\n")
    }

    func testGitHubEscapesAndNotes() {
        var item = diagnostic()
        item.message = "50% done, a: b\nnext"
        XCTAssertEqual(
            GitHubRenderer.render([item]),
            "::error file=Q.graphql,line=2,col=2,endLine=2,endColumn=6,title=baton%3A fields-on-correct-type::50%25 done, a: b%0Anext%0AQ.graphql:1:7: note: Operation here.\n"
        )
    }

    func testSARIFRelatedLocations() {
        let text = SARIFRenderer.render([diagnostic()], descriptions: [:], version: "1")
        XCTAssertTrue(
            text.contains(
                #""relatedLocations":[{"id":0,"physicalLocation":{"artifactLocation":{"uri":"Q.graphql"},"region":{"startLine":1,"startColumn":7,"endLine":1,"endColumn":8}},"message":{"text":"Operation here."}}]"#
            ), text)
    }
}
