import BatonCodegen
import BatonCompiler
import BatonIR
import XCTest

/// A definition's digest in the manifest (`PlanDigests.definitions`): the hashes and paths of its own document and
/// of every document holding a fragment it reaches, one line each in the paths' order, hashed; none when one of
/// those documents has no hash.
final class PlanDigestsTests: XCTestCase {
    static let schema = """
        type User { id: ID! name: String friend: User }
        type Query { me: User }
        """
    static let documents = [
        ("q/a.graphql", "query A { me { ...Friend } }"),
        ("f/friend.graphql", "fragment Friend on User { friend { ...Name } }"),
        ("f/name.graphql", "fragment Name on User { name }"),
        ("q/d.graphql", "query D { me { ...Name id } }"),
    ]

    /// The digest each definition would have, worked out from its closure as the manifest describes it.
    static func expected(files: [String], hashes: [String: String]) -> String? {
        var lines = ""
        for file in Set(files).sorted() {
            guard let hash = hashes[file] else { return nil }
            lines += hash + "\t" + file + "\n"
        }
        return SHA256.hexDigest(lines)
    }

    func testOperationDigestsHashTheirClosuresFiles() throws {
        let schema = try ModelHarness.schema(sdl: Self.schema)
        let model = try ModelHarness.model(schema: schema, documents: Self.documents)
        var hashes: [String: String] = [:]
        for (path, text) in Self.documents { hashes[path] = SHA256.hexDigest(text) }
        let closures = [
            "A": ["q/a.graphql", "f/friend.graphql", "f/name.graphql"], "D": ["q/d.graphql", "f/name.graphql"],
        ]
        for missing in [nil, "f/friend.graphql", "f/name.graphql"] {
            var given = hashes
            if let missing { given[missing] = nil }
            let (digests, undigested) = PlanDigests.definitions(model, documents: given)
            for operation in model.operations {
                let files = try XCTUnwrap(closures[operation.name])
                let expected = Self.expected(files: files, hashes: given)
                XCTAssertEqual(
                    digests[operation.definitionKey], expected, "\(operation.name) without \(missing ?? "-")")
                XCTAssertEqual(undigested.contains(operation.definitionKey), expected == nil, operation.name)
            }
            // A fragment gets a digest exactly when every document of its closure has a hash.
            let friend = try XCTUnwrap(model.fragments.first { $0.name == "Friend" })
            XCTAssertEqual(digests[friend.definitionKey] == nil, missing != nil, "Friend without \(missing ?? "-")")
        }
    }

    /// Definitions that reach the same files share one digest, hashed once; those that reach other files (here two
    /// operations of one document, one spreading a fragment of another document) do not.
    func testDefinitionsOfOneDocumentDigestTheirOwnClosures() throws {
        let schema = try ModelHarness.schema(sdl: Self.schema)
        let documents = [
            ("q/two.graphql", "query B { me { id } }\nquery C { me { ...Name } }\nquery E { me { name } }"),
            ("f/name.graphql", "fragment Name on User { name }"),
        ]
        let model = try ModelHarness.model(schema: schema, documents: documents)
        var hashes: [String: String] = [:]
        for (path, text) in documents { hashes[path] = SHA256.hexDigest(text) }
        let (digests, undigested) = PlanDigests.definitions(model, documents: hashes)
        XCTAssertTrue(undigested.isEmpty)
        let closures = ["B": ["q/two.graphql"], "C": ["q/two.graphql", "f/name.graphql"], "E": ["q/two.graphql"]]
        for operation in model.operations {
            let files = try XCTUnwrap(closures[operation.name])
            XCTAssertEqual(
                digests[operation.definitionKey], Self.expected(files: files, hashes: hashes), operation.name)
        }
        let byName = Dictionary(uniqueKeysWithValues: model.operations.map { ($0.name, $0.definitionKey) })
        XCTAssertEqual(digests[try XCTUnwrap(byName["B"])], digests[try XCTUnwrap(byName["E"])])
        XCTAssertNotEqual(digests[try XCTUnwrap(byName["B"])], digests[try XCTUnwrap(byName["C"])])
    }
}
