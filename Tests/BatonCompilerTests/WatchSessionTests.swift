import BatonCompiler
import BatonConfig
import BatonFiles
import BatonSyntax
import BatonTestSupport
import Foundation
import XCTest

/// `WatchSession`, one test per kind of file event, with the changed paths handed in as a watcher
/// would hand them: what each event re-reads, what it reports, and that the session recovers from
/// every bad state (a half-written file, a broken baton.json or schema).
final class WatchSessionTests: XCTestCase {
    static let schema = "type Query { hello(name: String): String  issue: Issue }\ntype Issue { title: String! }\n"

    /// A project: schema, baton.json with a Swift output, two documents.
    func project() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("schema.graphqls", Self.schema)
        try scratch.write(
            "baton.json",
            #"{"schema": "schema.graphqls", "documents": "Queries/**/*.graphql", "output": {"swift": {"path": "Generated"}}}"#
        )
        try scratch.write("Queries/A.graphql", "query A { hello }\n")
        try scratch.write("Queries/B.graphql", "query B { issue { title } }\n")
        return scratch
    }

    func session(_ scratch: Scratch, stage: Compilation.Stage = .plan) -> WatchSession {
        WatchSession(
            driver: Driver(request: ProjectRequest(workingDirectory: scratch.path), targets: .configured), stage: stage)
    }

    /// A unit's first operation: the same object when the unit was kept rather than read again.
    func node(_ unit: DocumentUnit) -> AnyObject? {
        guard case .operation(let operation)? = unit.documents.first?.definitions.first else { return nil }
        return operation
    }

    /// The messages of the session's current diagnostics.
    func messages(_ session: WatchSession) -> [String] { session.result.shownDiagnostics.map(\.message) }

    func testEditingADocumentReadsItAlone() throws {
        let scratch = try project()
        let watch = session(scratch)
        let before = try XCTUnwrap(watch.result.compilations.first?.units.first { $0.path.hasSuffix("B.graphql") })
        try scratch.write("Queries/A.graphql", "query A { helo }\n")
        let outcome = try XCTUnwrap(watch.apply([scratch.path + "/Queries/A.graphql"]))
        XCTAssertEqual(outcome.changed, ["Queries/A.graphql"])
        XCTAssertFalse(outcome.resolvedAgain)
        XCTAssertEqual(messages(watch), [#"Cannot query field "helo" on type "Query". Did you mean "hello"?"#])
        // B's unit was kept, not read again: the same parsed document.
        let after = try XCTUnwrap(watch.result.compilations.first?.units.first { $0.path.hasSuffix("B.graphql") })
        XCTAssertTrue(node(before) === node(after))
        try scratch.write("Queries/A.graphql", "query A { hello }\n")
        XCTAssertNotNil(watch.apply([scratch.path + "/Queries/A.graphql"]))
        XCTAssertEqual(messages(watch), [])
    }

    func testAHalfWrittenFileIsReportedThenHealed() throws {
        let scratch = try project()
        let watch = session(scratch)
        try scratch.write("Queries/A.graphql", "query A { hel")
        XCTAssertNotNil(watch.apply([scratch.path + "/Queries/A.graphql"]))
        XCTAssertTrue(messages(watch)[0].hasPrefix("Syntax Error"), "\(messages(watch))")
        try scratch.write("Queries/A.graphql", "query A { hello }\n")
        XCTAssertNotNil(watch.apply([scratch.path + "/Queries/A.graphql"]))
        XCTAssertEqual(messages(watch), [])
    }

    func testCreatingADocumentResolvesTheProjectAgain() throws {
        let scratch = try project()
        let watch = session(scratch)
        try scratch.write("Queries/C.graphql", "query C { nope }\n")
        let outcome = try XCTUnwrap(watch.apply([scratch.path + "/Queries/C.graphql"]))
        XCTAssertTrue(outcome.resolvedAgain)
        XCTAssertEqual(outcome.changed, ["Queries/C.graphql"])
        XCTAssertEqual(watch.result.compilations.first?.project.documentFiles.count, 3)
        XCTAssertEqual(messages(watch), [#"Cannot query field "nope" on type "Query"."#])
    }

    func testDeletingADocumentDropsIt() throws {
        let scratch = try project()
        try scratch.write("Queries/Row.graphql", "fragment Row on Issue { title }\n")
        try scratch.write("Queries/B.graphql", "query B { issue { ...Row } }\n")
        let watch = session(scratch)
        XCTAssertEqual(messages(watch), [])
        try FileManager.default.removeItem(atPath: scratch.path + "/Queries/Row.graphql")
        let outcome = try XCTUnwrap(watch.apply([scratch.path + "/Queries/Row.graphql"]))
        XCTAssertEqual(outcome.changed, ["Queries/Row.graphql"])
        // The fragment B spreads is gone, and B (not edited) says so.
        XCTAssertEqual(messages(watch), [#"Unknown fragment "Row"."#])
    }

    func testRenamingADocumentMovesIt() throws {
        let scratch = try project()
        let watch = session(scratch)
        try FileManager.default.moveItem(
            atPath: scratch.path + "/Queries/A.graphql", toPath: scratch.path + "/Queries/Renamed.graphql")
        let outcome = try XCTUnwrap(
            watch.apply([scratch.path + "/Queries/A.graphql", scratch.path + "/Queries/Renamed.graphql"]))
        XCTAssertEqual(outcome.changed, ["Queries/A.graphql", "Queries/Renamed.graphql"])
        XCTAssertEqual(
            watch.result.compilations.first?.project.documentFiles.map { Path.lastComponent($0) },
            ["B.graphql", "Renamed.graphql"])
        XCTAssertEqual(messages(watch), [])
    }

    func testANewFolderWithDocuments() throws {
        let scratch = try project()
        let watch = session(scratch)
        try scratch.write("Queries/Feature/Deep/D.graphql", "query D { hello(name: 1) }\n")
        // A watcher reports the folder and what it found in it.
        let outcome = try XCTUnwrap(
            watch.apply([scratch.path + "/Queries/Feature", scratch.path + "/Queries/Feature/Deep/D.graphql"]))
        XCTAssertTrue(outcome.resolvedAgain)
        XCTAssertEqual(messages(watch).count, 1)
        XCTAssertTrue(messages(watch)[0].contains("String cannot represent a non string value"), "\(messages(watch))")
    }

    func testEditingTheSchemaKeepsTheDocuments() throws {
        let scratch = try project()
        let watch = session(scratch)
        let before = try XCTUnwrap(watch.result.compilations.first?.units.first)
        try scratch.write("schema.graphqls", "type Query { hello(name: String): String }\n")
        let outcome = try XCTUnwrap(watch.apply([scratch.path + "/schema.graphqls"]))
        XCTAssertEqual(outcome.changed, ["schema.graphqls"])
        XCTAssertFalse(outcome.resolvedAgain)
        XCTAssertEqual(messages(watch), [#"Cannot query field "issue" on type "Query"."#])
        let after = try XCTUnwrap(watch.result.compilations.first?.units.first)
        XCTAssertTrue(node(before) === node(after))
        // A schema that does not parse, then fixed.
        try scratch.write("schema.graphqls", "type Query {")
        XCTAssertNotNil(watch.apply([scratch.path + "/schema.graphqls"]))
        XCTAssertTrue(messages(watch).contains { $0.hasPrefix("Syntax Error") }, "\(messages(watch))")
        try scratch.write("schema.graphqls", Self.schema)
        XCTAssertNotNil(watch.apply([scratch.path + "/schema.graphqls"]))
        XCTAssertEqual(messages(watch), [])
    }

    func testEditingBatonJSONStartsTheProjectAfresh() throws {
        let scratch = try project()
        let watch = session(scratch)
        try scratch.write(
            "baton.json",
            #"{"schema": "schema.graphqls", "documents": "Queries/**/*.graphql", "rules": {"nope": "off"}}"#)
        XCTAssertNotNil(watch.apply([scratch.path + "/baton.json"]))
        XCTAssertEqual(messages(watch).count, 1)
        XCTAssertTrue(messages(watch)[0].hasPrefix("Unknown rule \"nope\""), "\(messages(watch))")
        XCTAssertTrue(watch.result.compilations.isEmpty)
        // Broken JSON, then a good file: the session recovers and picks up the new settings.
        try scratch.write("baton.json", "{ broken")
        XCTAssertNotNil(watch.apply([scratch.path + "/baton.json"]))
        XCTAssertTrue(messages(watch)[0].hasPrefix("Malformed JSON"), "\(messages(watch))")
        try scratch.write(
            "baton.json",
            #"{"schema": "schema.graphqls", "documents": "Queries/A.graphql", "output": {"swift": {"path": "Generated"}}}"#
        )
        let outcome = try XCTUnwrap(watch.apply([scratch.path + "/baton.json"]))
        XCTAssertTrue(outcome.resolvedAgain)
        XCTAssertEqual(messages(watch), [])
        XCTAssertEqual(
            watch.result.compilations.first?.project.documentFiles.map { Path.lastComponent($0) }, ["A.graphql"])
        // Touched without a change: nothing to do.
        XCTAssertNil(watch.apply([scratch.path + "/baton.json"]))
    }

    func testOtherFilesAndGeneratedCodeAreIgnored() throws {
        let scratch = try project()
        let watch = session(scratch, stage: .generate)
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.path + "/Generated/A.graphql.swift"))
        try scratch.write("README.md", "hello")
        try scratch.write("Other/Not.graphql", "query X { nope }")
        XCTAssertNil(watch.apply([scratch.path + "/README.md", scratch.path + "/Other/Not.graphql"]))
        // gen's own writes are not changes (no loop).
        XCTAssertNil(watch.apply([scratch.path + "/Generated/A.graphql.swift", scratch.path + "/Generated"]))
        XCTAssertTrue(watch.ignoredFolders.contains(scratch.path + "/Generated"))
    }

    func testGenRewritesOnlyWhatChanged() throws {
        let scratch = try project()
        let watch = session(scratch, stage: .generate)
        XCTAssertEqual(watch.result.folders.first?.report.changes.count, 2)
        try scratch.write("Queries/A.graphql", "query A { hello(name: \"x\") }\n")
        XCTAssertNotNil(watch.apply([scratch.path + "/Queries/A.graphql"]))
        XCTAssertEqual(watch.result.folders.first?.report.changes.map(\.path), ["A.graphql.swift"])
        let text = try String(contentsOfFile: scratch.path + "/Generated/A.graphql.swift", encoding: .utf8)
        XCTAssertTrue(text.contains(#"hello(name: "x")"#))
        // An error writes nothing, and keeps the last good files.
        try scratch.write("Queries/A.graphql", "query A { helo }\n")
        XCTAssertNotNil(watch.apply([scratch.path + "/Queries/A.graphql"]))
        XCTAssertEqual(watch.result.folders.count, 0)
        XCTAssertTrue(
            try String(contentsOfFile: scratch.path + "/Generated/A.graphql.swift", encoding: .utf8).contains("name"))
    }

    /// A gen session trusts the files it wrote: a generated file edited by hand meanwhile stays as
    /// it is (its definition unchanged), and the next one-shot `gen --check` and `gen` find it.
    func testAGenSessionTrustsItsOwnWritesAndAOneShotGenChecksThem() throws {
        let scratch = try project()
        let watch = session(scratch, stage: .generate)
        let generated = scratch.path + "/Generated/B.graphql.swift"
        let original = try String(contentsOfFile: generated, encoding: .utf8)
        try (original + "// by hand\n").write(toFile: generated, atomically: true, encoding: .utf8)
        try scratch.write("Queries/A.graphql", "query A { hello(name: \"y\") }\n")
        XCTAssertNotNil(watch.apply([scratch.path + "/Queries/A.graphql"]))
        XCTAssertEqual(watch.result.folders.first?.report.changes.map(\.path), ["A.graphql.swift"])
        XCTAssertEqual(try String(contentsOfFile: generated, encoding: .utf8), original + "// by hand\n")
        let driver = Driver(request: ProjectRequest(workingDirectory: scratch.path), targets: .configured)
        let check = driver.generate(check: true)
        XCTAssertEqual(check.status, .problems)
        XCTAssertEqual(check.folders.first?.report.changes.map(\.path), ["B.graphql.swift"])
        XCTAssertEqual(driver.generate(check: false).folders.first?.report.changes.map(\.path), ["B.graphql.swift"])
        XCTAssertEqual(try String(contentsOfFile: generated, encoding: .utf8), original)
    }

    func testWatchedFoldersFollowThePatterns() throws {
        let scratch = try project()
        try scratch.write("../shared-\(Path.lastComponent(scratch.path))/S.graphql", "query S { hello }\n")
        let shared = Path.directory(of: scratch.path) + "/shared-\(Path.lastComponent(scratch.path))"
        defer { try? FileManager.default.removeItem(atPath: shared) }
        try scratch.write(
            "baton.json",
            #"{"schema": "schema.graphqls", "documents": ["Queries/**/*.graphql", "../shared-\#(Path.lastComponent(scratch.path))/*.graphql"]}"#
        )
        let watch = session(scratch)
        XCTAssertEqual(watch.watchedFolders, [shared, scratch.path].sorted())
    }
}
