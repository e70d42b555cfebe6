import BatonCompiler
import BatonDiagnostics
import BatonTestSupport
import XCTest

/// A streamed check lets a document's text go once its batch is validated and planned
/// (`StreamingCheck.releaseTexts`): a diagnostic into the file reads it again when it is printed, the same as
/// if it had been kept, and a file changed on disk meanwhile is never read as the text that was checked.
final class DocumentTextReleaseTests: XCTestCase {
    /// Two files that name one operation twice (an error in each, with a note into the other) and a
    /// deprecated field (a warning); a file with nothing to report beside them.
    func project() throws -> (Scratch, ProjectInput) {
        let scratch = try Scratch()
        try scratch.write(
            "schema.graphql", "type Query {\n  a: Int\n  old: Int @deprecated(reason: \"Use a.\")\n}\n")
        try scratch.write("A.graphql", "# é😀\nquery Same {\n  old\n}\n")
        try scratch.write("B.graphql", "\n\nquery Same { a }\n")
        try scratch.write("C.graphql", "query Clean { a }\n")
        let project = ProjectInput(
            configuration: nil, schemaFiles: ["\(scratch.path)/schema.graphql"],
            documentFiles: ["A", "B", "C"].map { "\(scratch.path)/\($0).graphql" })
        return (scratch, project)
    }

    func check(
        _ scratch: Scratch, _ project: ProjectInput, streaming: Bool, workers: Int, afterwards: () throws -> Void
    )
        rethrows -> String
    {
        let options = CompilationOptions(checksOnly: true, streamsDocuments: streaming, workers: workers, batchBytes: 1)
        let compilation = Compilation(project: project, workingDirectory: scratch.path, options: options)
        compilation.run(upTo: .plan)
        try afterwards()
        return PrettyRenderer(color: false).render(compilation.shownDiagnostics)
    }

    func testAReleasedDocumentPrintsWhatAKeptOnePrints() throws {
        let (scratch, project) = try project()
        let kept = check(scratch, project, streaming: false, workers: 1) {}
        XCTAssertTrue(kept.contains("A.graphql:2:7: error:"), kept)
        XCTAssertTrue(kept.contains("  B.graphql:3:7: note:"), kept)
        XCTAssertTrue(kept.contains("A.graphql:3:3: warning:"), kept)
        for workers in [1, 2] {
            XCTAssertEqual(check(scratch, project, streaming: true, workers: workers) {}, kept, "\(workers) workers")
        }
    }

    func testADocumentChangedBeforeItsDiagnosticIsPrintedHasNoPlace() throws {
        let (scratch, project) = try project()
        let kept = check(scratch, project, streaming: false, workers: 1) {}
        // Rewritten after the check, before its diagnostics are printed: the same length, other bytes.
        let changed = try check(scratch, project, streaming: true, workers: 2) {
            try scratch.write("A.graphql", "# é😀\nquery Sbme {\n  old\n}\n")
        }
        XCTAssertFalse(changed.contains("A.graphql:2:7"), changed)
        XCTAssertTrue(changed.contains("A.graphql:0:0: error:"), changed)
        XCTAssertTrue(changed.contains("A.graphql:0:0: warning:"), changed)
        // The unchanged file is read again the same.
        let unchangedLines = kept.split(separator: "\n").filter { $0.contains("B.graphql:3:7") }
        XCTAssertFalse(unchangedLines.isEmpty, kept)
        for line in unchangedLines { XCTAssertTrue(changed.contains(line), "\(line) in \(changed)") }
    }
}
