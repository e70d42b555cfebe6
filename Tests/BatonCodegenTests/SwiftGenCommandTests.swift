import BatonCompiler
import Foundation
import XCTest

/// `baton gen --lang swift` on a small project in a temporary folder: writes, rewrites only on change, reports under
/// --check, removes only its own stale files, and writes nothing when the documents have errors.
final class SwiftGenCommandTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "baton-gen-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/Queries", withIntermediateDirectories: true)
        try write("schema.graphql", "type Query { hero(id: ID!): Hero }\ntype Hero { id: ID! name: String }\n")
        try write("Queries/Hero.graphql", "query Hero($id: ID!) { hero(id: $id) { id name } }\n")
        try write(
            "baton.json",
            #"{"schema": "schema.graphql", "documents": "Queries/**/*.graphql", "output": {"swift": {"path": "Generated"}}}"#
        )
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func write(_ path: String, _ text: String) throws {
        try text.write(toFile: folder + "/" + path, atomically: true, encoding: .utf8)
    }

    func gen(check: Bool = false) -> DriverResult {
        Driver(request: ProjectRequest(workingDirectory: folder), targets: .named(["swift"])).generate(check: check)
    }

    func testGenerateCheckAndStaleFiles() throws {
        let first = gen()
        XCTAssertEqual(first.status, .clean, "\(first.diagnostics.map(\.message))")
        XCTAssertEqual(first.folders.first?.report.changes.map(\.path), ["Hero.graphql.swift"])
        XCTAssertEqual(gen(check: true).status, .clean)

        try write("Generated/Mine.swift", "let mine = 1\n")
        try write("Queries/Hero.graphql", "query Villain($id: ID!) { hero(id: $id) { id } }\n")
        let check = gen(check: true)
        XCTAssertEqual(check.status, .problems)
        XCTAssertEqual(
            check.folders.first?.report.changes.map(\.path), ["Hero.graphql.swift", "Villain.graphql.swift"])
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: folder + "/Generated/Hero.graphql.swift"), "--check writes nothing")

        XCTAssertEqual(gen().status, .clean)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: folder + "/Generated/Hero.graphql.swift"),
            "stale generated file removed")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: folder + "/Generated/Mine.swift"), "a file without the header stays")
        XCTAssertEqual(gen(check: true).status, .clean)
    }

    func testDocumentErrorsStopGenerationBeforeAnyWrite() throws {
        try write("Queries/Hero.graphql", "query Hero { hero(id: 1) { nope } }\n")
        let outcome = gen()
        XCTAssertEqual(outcome.status, .problems)
        XCTAssertFalse(outcome.diagnostics.isEmpty)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/Generated"))
    }

    func testMappedTypeMustBeASwiftTypeName() throws {
        try write("schema.graphql", "scalar When\ntype Query { when: When }\n")
        try write("Queries/Hero.graphql", "query Hero { when }\n")
        try write(
            "baton.json",
            #"{"schema": "schema.graphql", "documents": "Queries/**/*.graphql", "customScalarTypes": {"When": {"swift": "Date\nimport Evil"}}, "output": {"swift": {"path": "Generated"}}}"#
        )
        let outcome = gen()
        XCTAssertEqual(outcome.status, .unusable)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/Generated"))
        XCTAssertTrue(GenerationTargets.isSwiftTypeName("Foundation.Date"))
        XCTAssertTrue(GenerationTargets.isSwiftTypeName("MyApp.Money"))
        XCTAssertFalse(GenerationTargets.isSwiftTypeName("Date; import Evil"))
        XCTAssertFalse(GenerationTargets.isSwiftTypeName("1Date"))
        XCTAssertFalse(GenerationTargets.isSwiftTypeName(""))
    }
}
