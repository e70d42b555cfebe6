import BatonCompiler
import BatonDiagnostics
import BatonTestSupport
import XCTest

/// A one-shot check lets the schema's text go once the schema is built (`ProjectLoader.loadSchema`'s
/// `releasingText`): a diagnostic into a file reads it again when it is printed, the same as if it had been
/// kept, and a file changed on disk meanwhile is never read as the text that was checked.
final class SchemaTextReleaseTests: XCTestCase {
    static let broken = "type Query { a: Int a: String user: User }\n"
    static let clean = "type User {\n  id: ID!\n}\n"

    /// Writes `text` over the file, keeping its length (only the digest tells the two apart).
    private static func rewrite(_ path: String, _ text: String) throws {
        let changed = String(text.map { $0 == "a" ? "b" : $0 == "i" ? "j" : $0 })
        XCTAssertEqual(changed.utf8.count, text.utf8.count)
        try changed.write(toFile: path, atomically: false, encoding: .utf8)
    }

    func testASchemaDiagnosticReadsItsFileAgainWhenPrinted() throws {
        let scratch = try Scratch()
        try scratch.write("Broken.graphql", Self.broken)
        try scratch.write("User.graphql", Self.clean)
        let paths = ["\(scratch.path)/Broken.graphql", "\(scratch.path)/User.graphql"]
        let loader = ProjectLoader(workingDirectory: scratch.path)
        let kept = loader.loadSchema(paths)
        let released = loader.loadSchema(paths, releasingText: true)
        XCTAssertEqual(released.diagnostics.map(\.rule), ["unique-field-definition-names"])
        let text = TextRenderer.render(kept.diagnostics)
        XCTAssertTrue(text.hasPrefix("Broken.graphql:1:14: error:"), text)
        XCTAssertEqual(TextRenderer.render(released.diagnostics), text)
        XCTAssertEqual(
            PrettyRenderer(color: false).render(released.diagnostics),
            PrettyRenderer(color: false).render(kept.diagnostics))
        XCTAssertEqual(released.sources.map(\.isStale), [false, false])
    }

    func testAFileChangedBeforeItsDiagnosticIsPrintedHasNoPlace() throws {
        let scratch = try Scratch()
        try scratch.write("Broken.graphql", Self.broken)
        try scratch.write("User.graphql", Self.clean)
        let paths = ["\(scratch.path)/Broken.graphql", "\(scratch.path)/User.graphql"]
        let loaded = ProjectLoader(workingDirectory: scratch.path).loadSchema(paths, releasingText: true)
        try Self.rewrite(paths[0], Self.broken)
        try FileManager.default.removeItem(atPath: paths[1])
        let diagnostic = try XCTUnwrap(loaded.diagnostics.first)
        // The message still names the file; the place is unknown (0:0), and no line of the new text shows.
        XCTAssertEqual(
            PrettyRenderer(color: false).render(diagnostic),
            "Broken.graphql:0:0: error: \(diagnostic.message) [unique-field-definition-names]\n"
                + "  Broken.graphql:0:0: note: Also defined here.\n")
        XCTAssertEqual(loaded.sources.map(\.isStale), [true, false], "the deleted file is not read until asked")
        XCTAssertEqual(loaded.sources[1].bytes, [])
        XCTAssertEqual(loaded.sources.map(\.isStale), [true, true])
    }

    func testAnUnchangedReleasedFileIsReadAgainTheSame() throws {
        let scratch = try Scratch()
        try scratch.write("User.graphql", "type Query { user: User }\n" + Self.clean)
        let path = "\(scratch.path)/User.graphql"
        let loaded = ProjectLoader(workingDirectory: scratch.path).loadSchema([path], releasingText: true)
        XCTAssertEqual(loaded.diagnostics.count, 0)
        let user = try XCTUnwrap(loaded.sources.first)
        let location = user.localLocation(of: 40)
        XCTAssertEqual([location.line, location.column], [3, 3])
        XCTAssertEqual(user.text, "type Query { user: User }\n" + Self.clean)
        XCTAssertFalse(user.isStale)

        // Deleted after the build: nothing to read again.
        let deleted = ProjectLoader(workingDirectory: scratch.path).loadSchema([path], releasingText: true)
        try FileManager.default.removeItem(atPath: path)
        XCTAssertEqual(deleted.sources.first?.bytes, [])
        XCTAssertEqual(deleted.sources.first?.isStale, true)
    }

    func testWithoutReleasingTheTextIsKept() throws {
        let scratch = try Scratch()
        try scratch.write("User.graphql", "type Query { user: User }\n" + Self.clean)
        let path = "\(scratch.path)/User.graphql"
        let loaded = ProjectLoader(workingDirectory: scratch.path).loadSchema([path])
        try Self.rewrite(path, "type Query { user: User }\n" + Self.clean)
        XCTAssertEqual(loaded.sources.first?.text, "type Query { user: User }\n" + Self.clean)
        XCTAssertEqual(loaded.sources.first?.isStale, false)
    }

    func testAStreamingCheckPrintsWhatTheWholeCheckPrints() throws {
        let scratch = try Scratch()
        try scratch.write("schema.graphql", Self.broken + Self.clean)
        try scratch.write("Q.graphql", "query Q { a }\n")
        let schema = "\(scratch.path)/schema.graphql"
        func check(streaming: Bool, workers: Int = 2, rewriting: Bool = false) -> [Diagnostic] {
            let project = ProjectInput(
                configuration: nil, schemaFiles: [schema], documentFiles: ["\(scratch.path)/Q.graphql"])
            var options = CompilationOptions(checksOnly: true, streamsDocuments: streaming, workers: workers)
            if rewriting {
                // Written between the passes: after the schema is built, before anything is printed.
                options.betweenStreamingPasses = { try? Self.rewrite(schema, Self.broken + Self.clean) }
            }
            let compilation = Compilation(project: project, workingDirectory: scratch.path, options: options)
            compilation.run(upTo: .plan)
            return compilation.shownDiagnostics
        }
        let expected = check(streaming: false)
        XCTAssertEqual(expected.map(\.rule), ["unique-field-definition-names"])
        let rendered = PrettyRenderer(color: false).render(expected)
        XCTAssertTrue(rendered.hasPrefix("schema.graphql:1:14: error:"), rendered)
        for workers in [1, 2] {
            XCTAssertEqual(PrettyRenderer(color: false).render(check(streaming: true, workers: workers)), rendered)
        }
        let changed = check(streaming: true, rewriting: true)
        XCTAssertEqual(
            TextRenderer.render(changed),
            "schema.graphql:0:0: error: \(expected[0].message) [unique-field-definition-names]\n"
                + "  schema.graphql:0:0: note: Also defined here.\n")
    }
}
