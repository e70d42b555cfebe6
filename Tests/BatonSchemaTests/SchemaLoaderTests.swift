import BatonDiagnostics
import BatonSchema
import Foundation
import XCTest

/// Loading schema files: SDL merged, introspection by extension or content, I/O errors.
final class SchemaLoaderTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "baton-schema-loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("nested"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func testMergesSDLFilesAndDirectories() throws {
        let query = try write("schema.graphqls", "type Query { user: User }")
        _ = try write("nested/user.graphql", "type User { id: ID! }")
        _ = try write("nested/extend.gql", "extend type User { name: String }")
        _ = try write("nested/notes.txt", "not a schema")
        let (schema, diagnostics) = SchemaLoader.load(paths: [query, directory.appendingPathComponent("nested").path])
        XCTAssertEqual(TextRenderer.render(diagnostics), "")
        XCTAssertEqual(schema?.type(named: "User")?.fields.map(\.name), ["id", "name"])
    }

    func testMissingFileIsAnIODiagnostic() throws {
        let good = try write("schema.graphql", "type Query { a: Int }")
        let missing = directory.appendingPathComponent("missing.graphql").path
        let (schema, diagnostics) = SchemaLoader.load(paths: [missing, good])
        XCTAssertNotNil(schema)
        XCTAssertEqual(diagnostics.map(\.rule), ["io"])
        XCTAssertEqual(diagnostics.first?.displayPath, missing)
        XCTAssertEqual(diagnostics.first?.message, "Cannot read \(missing): No such file or directory.")

        let (none, only) = SchemaLoader.load(paths: [missing])
        XCTAssertNil(none)
        XCTAssertEqual(only.map(\.rule), ["io"])
    }

    func testPicksIntrospectionByContent() throws {
        let json = try write(
            "schema.graphql",
            #"  {"__schema":{"queryType":{"name":"Q"},"types":[{"kind":"OBJECT","name":"Q","interfaces":[],"fields":[{"name":"a","args":[],"type":{"kind":"SCALAR","name":"Boolean"}}]},{"kind":"SCALAR","name":"Boolean"}]}}"#
        )
        let (schema, diagnostics) = SchemaLoader.load(paths: [json])
        XCTAssertEqual(diagnostics.count, 0)
        XCTAssertEqual(schema?.queryTypeName, "Q")
    }

    func testIntrospectionCannotBeCombined() throws {
        let json = try write(
            "schema.json",
            #"{"__schema":{"queryType":{"name":"Q"},"types":[{"kind":"OBJECT","name":"Q","interfaces":[],"fields":[{"name":"a","args":[],"type":{"kind":"SCALAR","name":"Boolean"}}]},{"kind":"SCALAR","name":"Boolean"}]}}"#
        )
        let sdl = try write("extra.graphql", "extend type Q { b: Int }")
        let (schema, diagnostics) = SchemaLoader.load(paths: [json, sdl])
        XCTAssertEqual(schema?.queryTypeName, "Q")
        XCTAssertEqual(diagnostics.map(\.displayPath), [sdl])
    }

    func testNoPaths() {
        let (schema, diagnostics) = SchemaLoader.load(paths: [])
        XCTAssertNil(schema)
        XCTAssertEqual(diagnostics.map(\.rule), ["io"])
    }
}
