import BatonCompiler
import Foundation
import XCTest

/// `baton gen` with `output.persistedQueries`: writes the manifest beside the generated code, rewrites it only
/// when an operation changes, reports it under --check, and rejects a malformed setting.
final class PersistedQueryGenTests: XCTestCase {
    var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "baton-manifest-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/Queries", withIntermediateDirectories: true)
        try write("schema.graphql", "type Query { hero(id: ID!): Hero }\ntype Hero { id: ID! name: String }\n")
        try write("Queries/Hero.graphql", "query Hero($id: ID!) { hero(id: $id) { id name } }\n")
        try write(
            "baton.json",
            #"{"schema": "schema.graphql", "documents": "Queries/**/*.graphql", "output": {"swift": {"path": "Generated"}, "persistedQueries": {"path": "Persisted/manifest.json"}}}"#
        )
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func write(_ path: String, _ text: String) throws {
        try text.write(toFile: folder + "/" + path, atomically: true, encoding: .utf8)
    }

    func gen(check: Bool = false) -> DriverResult {
        Driver(request: ProjectRequest(workingDirectory: folder), targets: .configured).generate(check: check)
    }

    func manifest() throws -> [[String: String]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/Persisted/manifest.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["operations"] as? [[String: String]] ?? []
    }

    func testTheManifestIsWrittenCheckedAndRewrittenOnlyOnChange() throws {
        let first = gen()
        XCTAssertEqual(first.status, .clean, "\(first.diagnostics.map(\.message))")
        let manifestReport = first.folders.first { $0.language == "persistedQueries" }
        XCTAssertEqual(manifestReport?.report.changes.map(\.path), ["manifest.json"])
        let hero = try manifest()
        XCTAssertEqual(hero.map { $0["name"] }, ["Hero"])
        let swift = try String(contentsOfFile: folder + "/Generated/Hero.graphql.swift", encoding: .utf8)
        XCTAssertTrue(swift.contains("static var operationID: String { \"\(hero.first?["id"] ?? "?")\" }"))

        let again = gen()
        XCTAssertEqual(again.folders.first { $0.language == "persistedQueries" }?.report.changes.count, 0)
        XCTAssertEqual(gen(check: true).status, .clean)

        try write("Queries/Hero.graphql", "query Hero($id: ID!) { hero(id: $id) { id } }\n")
        XCTAssertEqual(gen(check: true).status, .problems, "a changed operation makes the manifest stale")
        XCTAssertEqual(try manifest().first?["id"], hero.first?["id"], "--check writes nothing")
        XCTAssertEqual(gen().status, .clean)
        XCTAssertNotEqual(try manifest().first?["id"], hero.first?["id"])
    }

    func testAMalformedSettingIsAConfigurationError() throws {
        try write(
            "baton.json",
            #"{"schema": "schema.graphql", "documents": "Queries/**/*.graphql", "output": {"swift": {"path": "Generated"}, "persistedQueries": "manifest.json"}}"#
        )
        let outcome = gen()
        XCTAssertEqual(outcome.status, .unusable)
        XCTAssertTrue(
            outcome.diagnostics.contains { $0.message.contains("output.persistedQueries") },
            "\(outcome.diagnostics.map(\.message))")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder + "/manifest.json"))
    }
}
