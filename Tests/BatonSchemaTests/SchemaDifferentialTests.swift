import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonTestSupport
import Foundation
import XCTest

/// Baton's schema diagnostics against graphql-js 16.6's (`Peers/graphqljs-schema-errors.mjs`),
/// compared as sets of (line, column, message) on every corpus schema and every single-file
/// fixture. Skips, saying why, when node or graphql-js is not installed (CI installs both).
///
/// Intended differences, removed from graphql-js's side before comparing:
/// - Baton knows `@oneOf` (in the spec after graphql-js 16.6) and its own directives
///   (`@required @catch @throwOnFieldError @semanticNonNull`) without a declaration, so
///   graphql-js's "Unknown directive" for them is not expected. (graphql-js then stops before
///   schema validation; fixtures using them are valid schemas otherwise.)
final class SchemaDifferentialTests: XCTestCase {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let script = testsDirectory.appendingPathComponent("Peers/graphqljs-schema-errors.mjs").path
    static let corpus = TestPaths.corpus.appendingPathComponent("schemas")

    static let batonKnownDirectives =
        ["oneOf", "required", "catch", "throwOnFieldError", "semanticNonNull"] + BuiltIns.apolloDirectiveNames

    struct Problem: Hashable, Comparable, CustomStringConvertible {
        var line: Int?
        var column: Int?
        var message: String
        static func < (lhs: Problem, rhs: Problem) -> Bool {
            (lhs.line ?? 0, lhs.column ?? 0, lhs.message) < (rhs.line ?? 0, rhs.column ?? 0, rhs.message)
        }
        var description: String { "\(line.map(String.init) ?? "-"):\(column.map(String.init) ?? "-"): \(message)" }
    }

    func testFixturesAgreeWithGraphQLJS() throws {
        var files: [String] = []
        for suite in ["sdl", "schema"] {
            let directory = Self.testsDirectory.appendingPathComponent("Fixtures/\(suite)")
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            where name.hasSuffix(".graphql") {
                let path = directory.appendingPathComponent(name).path
                let text = try String(contentsOfFile: path, encoding: .utf8)
                if text.split(separator: "\n").contains(where: { $0.hasPrefix("#- ") }) { continue }  // several files
                files.append(path)
            }
        }
        try compare(files, locations: true)
    }

    func testCorpusSchemasAgreeWithGraphQLJS() throws {
        guard FileManager.default.fileExists(atPath: Self.corpus.path) else {
            throw Unavailable.error("corpus not found at \(Self.corpus.path)")
        }
        let names = [
            "anilist/schema.graphqls", "anilist/apollo-client-extra.graphqls", "github/schema.graphql",
            "github/schema-2024-07-08.graphql", "github-2021-git-touch/schema.graphql", "rickandmorty/schema.graphqls",
            "saleor/schema.graphql", "swapi/schema.graphql",
        ]
        try compare(names.map { Self.corpus.appendingPathComponent($0).path }, locations: true)
        // graphql-js's introspection errors carry no locations; Baton's point into the JSON.
        try compare([Self.corpus.appendingPathComponent("github-2018-githawk/schema.json").path], locations: false)
    }

    func compare(_ paths: [String], locations: Bool) throws {
        let reference = try graphQLJS(paths)
        var agreed = 0
        for path in paths {
            let source = try XCTUnwrap(SchemaLoader.readFile(path).get())
            let (_, diagnostics) = SchemaLoader.load(sources: [source])
            // Baton's warning at Apollo's directives, which graphql-js does not know.
            let ours = Set(
                diagnostics.filter { $0.rule != "apollo-client-directives" }.map {
                    Problem(
                        line: locations ? $0.location?.line : nil, column: locations ? $0.location?.column : nil,
                        message: $0.message)
                })
            let theirs = Set(
                (reference[path] ?? []).filter { problem in
                    !Self.batonKnownDirectives.contains { problem.message == "Unknown directive \"@\($0)\"." }
                }.map { locations ? $0 : Problem(line: nil, column: nil, message: $0.message) })
            if ours == theirs {
                agreed += 1
            } else {
                XCTFail(
                    """
                    \(path): Baton and graphql-js disagree
                      only Baton:      \(ours.subtracting(theirs).sorted())
                      only graphql-js: \(theirs.subtracting(ours).sorted())
                    """)
            }
        }
        print("schema differential: \(agreed)/\(paths.count) schemas agree with graphql-js")
    }

    /// Runs the peer script once over all paths; problems by path.
    func graphQLJS(_ paths: [String]) throws -> [String: [Problem]] {
        let (status, data) = try NodePeer.run(
            [Self.script] + paths, missing: "node is not installed; skipping the graphql-js differential test")
        if status == 2 {
            throw Unavailable.error("graphql-js is not installed (Debian node-graphql); skipping the differential test")
        }
        XCTAssertEqual(status, 0, "graphqljs-schema-errors.mjs failed")
        var problems: [String: [Problem]] = [:]
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let file = object["file"] as? String, let message = object["message"] as? String
            else { continue }
            problems[file, default: []].append(
                Problem(line: object["line"] as? Int, column: object["column"] as? Int, message: message))
        }
        return problems
    }
}
