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
        // Every pair in one graphql-js run (each schema built once), as one run per pair gave.
        let live = node.flatMap { node in
            TestSupport.graphQLJS(
                node: node,
                jobs: pairs.map {
                    .init(schema: $0.schemaPath, paths: [$0.directory], merge: $0.merge, assumeValidSDL: $0.assumeValidSDL)
                })
        }
        if node != nil, live == nil { print("note: the graphql-js batch did not run; comparing with the recorded results") }
        var schemas: [String: GraphQLSchema] = [:]
        var agreed = 0
        var errors = 0
        for (index, pair) in pairs.enumerated() {
            let schema = try schemas[pair.schemaPath] ?? TestSupport.loadSchema(pair.schemaPath)
            schemas[pair.schemaPath] = schema
            let expected = live?[index] ?? Self.recorded(pair)
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

    /// The batch the tests above use gives, job by job, what the shared tool gives run once per job: per file and
    /// merged, one schema reused by several jobs, `assumeValidSDL` (a schema that only it builds), a document that does
    /// not parse, and a schema that fails (nil in both).
    func testTheBatchIsTheSharedToolRunOncePerJob() throws {
        guard let node = TestSupport.nodeWithGraphQL() else {
            throw Unavailable.error("node with graphql-js is not installed (run ../shared/tools/install-peers.sh)")
        }
        let pairs = Self.pairs().filter { !$0.schemaPath.contains("/github") && !$0.schemaPath.contains("/saleor/") }
        guard pairs.count >= 3 else { throw Unavailable.error("corpus not found at \(TestSupport.corpus.path)") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-graphqljs-batch-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.graphqls")
        try Data("type Query { a: Missing }\n".utf8).write(to: broken)
        let documents = folder.appendingPathComponent("documents")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        try Data("query A { a }\n".utf8).write(to: documents.appendingPathComponent("a.graphql"))
        try Data("query B { a b }\nquery A { nope }\n".utf8).write(to: documents.appendingPathComponent("b.graphql"))
        try Data("query { \n".utf8).write(to: documents.appendingPathComponent("c.graphql"))
        let valid = folder.appendingPathComponent("valid.graphqls")
        try Data("type Query { a: Int b: String }\n".utf8).write(to: valid)
        var jobs = pairs.map {
            TestSupport.GraphQLJSJob(
                schema: $0.schemaPath, paths: [$0.directory], merge: $0.merge, assumeValidSDL: $0.assumeValidSDL)
        }
        for merge in [false, true] {
            jobs.append(.init(schema: valid.path, paths: [documents.path], merge: merge, assumeValidSDL: false))
            jobs.append(.init(schema: valid.path, paths: [documents.path], merge: merge, assumeValidSDL: true))
        }
        // A field defined twice: strict graphql-js fails the schema; with assumeValidSDL it builds (one path, both ways).
        let repeated = folder.appendingPathComponent("repeated.graphqls")
        try Data("type Query { a: Int a: Int b: String }\n".utf8).write(to: repeated)
        for assume in [false, true] {
            jobs.append(.init(schema: repeated.path, paths: [documents.path], merge: true, assumeValidSDL: assume))
        }
        jobs.append(.init(schema: broken.path, paths: [documents.path], merge: false, assumeValidSDL: false))
        let batch = try XCTUnwrap(TestSupport.graphQLJS(node: node, jobs: jobs))
        XCTAssertEqual(batch.count, jobs.count)
        var withErrors = 0
        for (job, batched) in zip(jobs, batch) {
            let single = TestSupport.graphQLJS(
                node: node, schema: job.schema, paths: job.paths, merge: job.merge, assumeValidSDL: job.assumeValidSDL)
            XCTAssertEqual(batched?.sorted(), single?.sorted(), "\(job)")
            if let batched, !batched.isEmpty { withErrors += 1 }
        }
        XCTAssertNil(batch[jobs.count - 1], "a schema that fails is nil, as the shared tool's status 2")
        XCTAssertNil(batch[jobs.count - 3], "the repeated field fails the strict build")
        XCTAssertNotNil(batch[jobs.count - 2], "the repeated field builds with assumeValidSDL")
        XCTAssertGreaterThanOrEqual(withErrors, 4, "the jobs with errors: the documents folder's four at least")
    }
}
