import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonTestSupport
import Foundation
import XCTest

@testable import BatonValidation

/// Baton against graphql-js 16.6.0 on every schema and document pair of the shared corpus: the
/// same (file, line, column, message) for every error.
final class CorpusDifferentialTests: XCTestCase {
    /// One validated pair, as recorded in a `GRAPHQLJS-RESULTS.jsonl` project line.
    struct Pair {
        let schemaGroup: String
        let project: String
        let schemaPath: String
        let merge: Bool
        let assumeValidSDL: Bool
        var directory: String { TestSupport.corpus.path + "/documents/\(schemaGroup)/\(project)" }
    }

    static func pairs() -> [Pair] {
        let documents = TestSupport.corpus.appendingPathComponent("documents").path
        var pairs: [Pair] = []
        let groups = ((try? FileManager.default.contentsOfDirectory(atPath: documents)) ?? []).sorted()
        for group in groups {
            guard
                let data = FileManager.default.contents(
                    atPath: "\(documents)/\(group)/GRAPHQLJS-RESULTS.jsonl")
            else {
                continue
            }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                guard
                    let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let project = object["project"] as? [String: Any],
                    let name = project["project"] as? String,
                    let against = project["validatedAgainst"] as? String,
                    let mode = project["mode"] as? String
                else { continue }
                pairs.append(
                    Pair(
                        schemaGroup: group, project: name,
                        schemaPath: TestSupport.corpus.path + "/schemas/" + against,
                        merge: mode.hasPrefix("merge"), assumeValidSDL: mode.contains("assumeValidSDL")))
            }
        }
        return pairs
    }

    /// Recorded results, keyed like graphql-js's tool prints them for an absolute directory.
    static func recorded(_ pair: Pair) -> [TestSupport.ErrorKey] {
        let documents = TestSupport.corpus.path + "/documents/"
        guard
            let data = FileManager.default.contents(
                atPath: documents + pair.schemaGroup + "/GRAPHQLJS-RESULTS.jsonl")
        else { return [] }
        let against = String(pair.schemaPath.dropFirst((TestSupport.corpus.path + "/schemas/").count))
        var keys: [TestSupport.ErrorKey] = []
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["project"] as? String == pair.project,
                object["validatedAgainst"] as? String == against,
                let file = object["file"] as? String, let message = object["message"] as? String
            else { continue }
            keys.append(
                TestSupport.ErrorKey(
                    file: documents + file, line: object["line"] as? Int ?? 0,
                    column: object["column"] as? Int ?? 0,
                    message: message))
        }
        return keys
    }

    static func baton(_ pair: Pair, schema: GraphQLSchema) -> [TestSupport.ErrorKey] {
        let (documents, _) = TestSupport.parse(files: TestSupport.documentFiles(under: pair.directory))
        let diagnostics = Validator.validate(
            schema: schema, documents: documents, mode: pair.merge ? .merged : .perFile)
        return TestSupport.keys(diagnostics)
    }

    func testCorpusAgreesWithGraphQLJS() throws {
        let pairs = Self.pairs()
        guard !pairs.isEmpty else { throw Unavailable.error("corpus not found at \(TestSupport.corpus.path)") }
        let node = TestSupport.nodeWithGraphQL()
        if node == nil {
            print("note: node/graphql-js missing; comparing with the recorded GRAPHQLJS-RESULTS.jsonl")
        }
        var schemas: [String: GraphQLSchema] = [:]
        var agreed = 0
        var errors = 0
        for pair in pairs {
            let schema = try schemas[pair.schemaPath] ?? TestSupport.loadSchema(pair.schemaPath)
            schemas[pair.schemaPath] = schema
            let expected: [TestSupport.ErrorKey]
            if let node,
                let live = TestSupport.graphQLJS(
                    node: node, schema: pair.schemaPath, paths: [pair.directory], merge: pair.merge,
                    assumeValidSDL: pair.assumeValidSDL)
            {
                expected = live
            } else {
                expected = Self.recorded(pair)
            }
            let actual = Self.baton(pair, schema: schema)
            let (missing, extra) = TestSupport.difference(expected: expected, actual: actual)
            errors += expected.count
            if missing.isEmpty && extra.isEmpty {
                agreed += 1
            } else {
                XCTFail(
                    "\(pair.project) vs \(pair.schemaPath):\n  missing (graphql-js only):\n    "
                        + missing.map(\.description).joined(separator: "\n    ")
                        + "\n  extra (Baton only):\n    "
                        + extra.map(\.description).joined(separator: "\n    "))
            }
        }
        print(
            "corpus: \(agreed) of \(pairs.count) schema/document pairs agree with graphql-js (\(errors) errors)"
        )
    }
}
