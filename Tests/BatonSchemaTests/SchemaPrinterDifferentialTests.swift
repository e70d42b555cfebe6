import BatonDiagnostics
import BatonSchema
import BatonTestSupport
import Foundation
import XCTest

/// `SchemaPrinter` (what `baton fetch-schema` writes) against graphql-js 16.6: for each schema, graphql-js
/// writes its introspection (`Peers/graphqljs-print-sorted.mjs`), Baton builds a schema from that JSON and
/// prints it, and the text must be graphql-js's `print(parse(printSchema(lexicographicSortSchema(…))))` byte
/// for byte. Runs on the test server's schema, the examples', the SDL fixtures and, when present, the corpus.
final class SchemaPrinterDifferentialTests: XCTestCase {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let root = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let script = testsDirectory.appendingPathComponent("Peers/graphqljs-print-sorted.mjs").path
    static let corpus = root.appendingPathComponent("../shared/corpus/schemas").standardizedFileURL

    func testSortedSDLFromIntrospectionIsGraphQLJSs() throws {
        var paths = [
            "Tests/Server/schema.graphql", "Examples/GitHub/schema.graphql", "Examples/RickAndMorty/schema.graphqls",
        ].map { Self.root.appendingPathComponent($0).path }
        for name in [
            // (GitHub's and Saleor's agree too, 8/8 with these; left out to keep the suite fast: the GitHub
            // example above is a GitHub schema.)
            "anilist/schema.graphqls", "swapi/schema.graphql", "github-2018-githawk/schema.json",
        ] {
            let path = Self.corpus.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path) { paths.append(path) }
        }
        let outputs = try graphQLJS(paths)
        var agreed = 0
        for (path, output) in outputs {
            let json = try Data(contentsOf: URL(fileURLWithPath: output.json))
            let (schema, diagnostics) = IntrospectionSchemaBuilder.build(
                source: SourceFile(path: output.json, bytes: Array(json)))
            XCTAssertEqual(diagnostics.filter { $0.severity == .error }.map(\.message), [], path)
            let expected = try String(contentsOfFile: output.sdl, encoding: .utf8) + "\n"
            let printed = try XCTUnwrap(schema.map(SchemaPrinter.print), path)
            if printed == expected {
                agreed += 1
            } else {
                let ours = printed.split(separator: "\n", omittingEmptySubsequences: false)
                let theirs = expected.split(separator: "\n", omittingEmptySubsequences: false)
                let line =
                    zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(ours.count, theirs.count)
                XCTFail(
                    "\(path): line \(line + 1) differs\n  Baton:      \(line < ours.count ? ours[line] : "<end>")\n  graphql-js: \(line < theirs.count ? theirs[line] : "<end>")"
                )
            }
        }
        XCTAssertEqual(outputs.count, paths.count, "graphql-js could not read every schema")
        print("schema printer differential: \(agreed)/\(paths.count) schemas print as graphql-js prints them")
    }

    /// Runs the peer script over all paths: per path, its introspection JSON and its sorted SDL.
    func graphQLJS(_ paths: [String]) throws -> [(String, (json: String, sdl: String))] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-print-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let (status, data) = try NodePeer.run(
            [Self.script, folder.path] + paths,
            missing: "node is not installed; skipping the schema printer differential test")
        if status == 2 {
            throw Unavailable.error("graphql-js is not installed (Debian node-graphql); skipping the differential test")
        }
        var results: [(String, (json: String, sdl: String))] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: String],
                let file = object["file"]
            else { continue }
            if let error = object["error"] {
                XCTFail("\(file): graphql-js: \(error)")
            } else if let json = object["json"], let sdl = object["sdl"] {
                results.append((file, (json, sdl)))
            }
        }
        return results
    }
}
