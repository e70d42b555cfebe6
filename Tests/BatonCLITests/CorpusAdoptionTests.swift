import BatonTestSupport
import Foundation
import XCTest

/// Other projects' real documents and schemas from the corpus, read in place through a scratch
/// baton.json: each problem a new user met says what to do (which setting, which rename, which
/// file to list).
final class CorpusAdoptionTests: XCTestCase {
    typealias Run = BatonProcess.Run

    /// `baton <arguments>` in a scratch folder whose baton.json names `schema` and `documents`
    /// (corpus paths) and sets `extra` (JSON members).
    func run(
        _ arguments: [String], schema: String, documents: [String], extra: String = ""
    ) throws -> Run {
        let corpus = try Unavailable.corpus()
        let scratch = try Scratch()
        let patterns = documents.map { "\"\(corpus.path)/documents/\($0)\"" }.joined(separator: ", ")
        try scratch.write(
            "baton.json",
            #"{"schema": "\#(corpus.path)/schemas/\#(schema)", "documents": [\#(patterns)]\#(extra)}"#)
        return try BatonProcess.run(arguments, in: scratch.path)
    }

    /// saleor's apps keep shared fragments no operation of theirs uses: the error says which
    /// setting keeps them, and with it gen runs.
    func testSaleorUnusedSharedFragmentsNameTheSetting() throws {
        let documents = ["saleor/saleor-apps-klaviyo/**/*.graphql"]
        let check = try run(["check"], schema: "saleor/schema.graphql", documents: documents)
        XCTAssertEqual(check.status, 1, "\(check)")
        XCTAssertTrue(check.stderr.contains(#"Fragment "AddressFragment" is never used. [no-unused-fragments]"#))
        XCTAssertTrue(
            check.stderr.contains(#"set "rules": {"no-unused-fragments": "warning"} in baton.json"#), check.stderr)
        let gen = try run(
            ["gen", "--lang", "swift", "--swift-out", "Generated"], schema: "saleor/schema.graphql",
            documents: documents,
            extra: #", "rules": {"no-unused-fragments": "warning"}"#)
        XCTAssertEqual(gen.status, 0, "\(gen)")
    }

    /// saleor's avatax app names an operation and a fragment `OrderCancelledSubscription`: the
    /// error suggests the fragment's new name.
    func testSaleorOperationAndFragmentOfOneNameSuggestARename() throws {
        let check = try run(
            ["check"], schema: "saleor/schema.graphql", documents: ["saleor/saleor-apps-avatax/**/*.graphql"])
        XCTAssertEqual(check.status, 1, "\(check)")
        XCTAssertTrue(
            check.stderr.contains(
                #"rename one of them: the fragment, say to "OrderCancelledSubscriptionFields" with its spreads"#),
            check.stderr)
    }

    /// GitHub's current schema (two identical repeated fields) with the vscode extension's
    /// documents, which use graphql-tag's #import: warnings for the schema, and each unknown
    /// fragment names the file to list; listing both files leaves no unknown fragment.
    func testGitHubSchemaAndGraphQLTagImports() throws {
        let alone = try run(
            ["check"], schema: "github/schema.graphql",
            documents: ["github/vscode-pull-request-github/queriesLimited.gql"])
        XCTAssertTrue(alone.stderr.contains("warning: Field \"EnterpriseOwnerInfo.repositoryDeployKeySetting\""))
        XCTAssertFalse(alone.stderr.contains("error: Field \"EnterpriseOwnerInfo"), alone.stderr)
        XCTAssertTrue(alone.stderr.contains(#"Unknown fragment "Ref". [known-fragment-names]"#), alone.stderr)
        XCTAssertTrue(alone.stderr.contains(#"This file #imports ""#), alone.stderr)
        XCTAssertTrue(alone.stderr.contains(#"queriesShared.gql" there"#), alone.stderr)
        let both = try run(
            ["check"], schema: "github/schema.graphql", documents: ["github/vscode-pull-request-github/*.gql"])
        XCTAssertFalse(both.stderr.contains("[known-fragment-names]"), both.stderr)
    }
}
