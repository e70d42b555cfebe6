import BatonDiagnostics
import BatonSchema
import BatonTestSupport
import Foundation
import XCTest

/// `baton fetch-schema` against the server: the built `baton`, its files and exit codes.
final class FetchSchemaTests: ServerTestCase {
    struct Run {
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// The `baton` executable next to the test bundle (`swift build` makes it; CI builds before testing).
    static func executable() throws -> URL {
        var candidates: [URL] = []
        for bundle in [Bundle.main] + Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("baton"))
            candidates.append(bundle.bundleURL.appendingPathComponent("baton"))
        }
        candidates.append(TestServer.packageRoot.appendingPathComponent(".build/debug/baton"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw TestServer.unavailable("the baton executable is not built next to the tests; run `swift build` first")
        }
        return found
    }

    func baton(_ arguments: [String], in directory: URL) throws -> Run {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
            status: process.terminationStatus)
    }

    func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    /// The server's own SDL (graphql-core's `print_schema`), printed by Baton's printer.
    func serverSDL() throws -> String {
        let process = Process()
        process.executableURL = try PythonScript.python()
        process.arguments = [TestServer.script.path, "--print-schema"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let (schema, diagnostics) = SchemaBuilder.build(sources: [
            SourceFile(path: "server.graphql", bytes: Array(data))
        ])
        XCTAssertEqual(diagnostics.filter { $0.severity == .error }.map(\.message), [])
        return try XCTUnwrap(schema.map(SchemaPrinter.print))
    }

    func testWritesSortedSDLToTheSchemaPathOfBatonJSON() throws {
        let folder = try scratch()
        try #"{"schema": "schema/server.graphql"}"#.write(
            to: folder.appendingPathComponent("baton.json"), atomically: true, encoding: .utf8)
        let key = UUID().uuidString
        let run = try baton(
            ["fetch-schema", "--endpoint", try server.url.absoluteString, "-H", "X-Baton-Test-Key: \(key)"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "wrote schema/server.graphql\n")
        let written = try String(contentsOf: folder.appendingPathComponent("schema/server.graphql"), encoding: .utf8)
        XCTAssertEqual(written, try serverSDL())
        for expected in [
            "directive @cacheHint(maxAge: Int!) repeatable on FIELD_DEFINITION | OBJECT",
            #"scalar DateTime @specifiedBy(url: "https://www.rfc-editor.org/rfc/rfc3339")"#,
            #"name: String @deprecated(reason: "Use species")"#,
            #"oldest(limit: Int @deprecated(reason: "Use characters(first:)")): Character @deprecated(reason: "Use characters")"#,
        ] {
            XCTAssertTrue(written.contains(expected), "missing: \(expected)")
        }
        XCTAssertEqual(try server.log(key: key).map(\.operationName), ["IntrospectionQuery"])
        // A server of the 2021 spec refuses `isOneOf`: asked again without it, the same schema.
        let oldKey = UUID().uuidString
        let again = try baton(
            [
                "fetch-schema", "--endpoint", try server.url.absoluteString, "-H", "X-Baton-Fault: old-spec",
                "-H", "X-Baton-Test-Key: \(oldKey)",
            ], in: folder)
        XCTAssertEqual(again.stdout, "unchanged schema/server.graphql\n", again.stderr)
        XCTAssertEqual(try server.log(key: oldKey).count, 2)
    }

    func testWritesIntrospectionJSONThatBatonReadsBack() throws {
        let folder = try scratch()
        let run = try baton(
            ["fetch-schema", "--endpoint", try server.url.absoluteString, "--output", "schema.json"], in: folder)
        XCTAssertEqual(run.status, 0, run.stderr)
        let bytes = try Data(contentsOf: folder.appendingPathComponent("schema.json"))
        let (schema, diagnostics) = IntrospectionSchemaBuilder.build(
            source: SourceFile(path: "schema.json", bytes: Array(bytes)))
        XCTAssertEqual(diagnostics.filter { $0.severity == .error }.map(\.message), [])
        XCTAssertEqual(schema.map(SchemaPrinter.print), try serverSDL())
    }

    func testAnEndpointThatRefusesIntrospectionIsAClearErrorAndWritesNothing() throws {
        let folder = try scratch()
        let run = try baton(
            [
                "fetch-schema", "--endpoint", try server.url.absoluteString, "-o", "schema.graphql", "--header",
                "X-Baton-Fault: refuse-introspection",
            ], in: folder)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(
            run.stderr,
            "error: the endpoint refused introspection: GraphQL introspection is not allowed (is introspection disabled? ask for a schema file, or pass the headers that allow it with --header)\n"
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("schema.graphql").path))
    }

    func testAnHTMLErrorPageAndAnUnreachableEndpointAreClearErrors() throws {
        let folder = try scratch()
        let html = try baton(
            [
                "fetch-schema", "--endpoint", try server.url.absoluteString, "-o", "s.graphql", "-H",
                "X-Baton-Fault: status=502",
            ],
            in: folder)
        XCTAssertEqual(html.status, 2)
        XCTAssertTrue(
            html.stderr.hasPrefix("error: the endpoint answered HTTP 502 without a GraphQL response: <html>"),
            html.stderr)
        let usage = try baton(["fetch-schema", "-o", "s.graphql"], in: folder)
        XCTAssertEqual(usage.status, 2)
        XCTAssertEqual(
            usage.stderr, "error: Missing --endpoint: which GraphQL endpoint should be introspected? (--endpoint URL)\n"
        )
    }
}
