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

    /// The corpus's Apollo apps load: AniHyou (Apollo Kotlin) with its `@typePolicy`/`@fieldPolicy`
    /// extension file (20 unknown directives to graphql-js) with two warnings (`@link`, `@fieldPolicy`)
    /// and no error, its `@typePolicy(keyFields: "id mediaId")` honoured (the plate says so and `mediaId`
    /// is sent wherever a MediaList is read, though `BasicMediaListEntry` does not select it), and gen runs; MortyComposeKMM and RickComposeMultiplatform (Apollo Kotlin) and GitHawk (Apollo iOS)
    /// check clean.
    func testApolloAppsDocumentsLoad() throws {
        let aniList = try run(
            ["check"], schema: "anilist/schema.graphqls", documents: ["anilist/AniHyou-android/**/*.graphql"],
            extra: ", \"output\": {\"swift\": {\"path\": \"Generated\"}}")
        XCTAssertEqual(aniList.status, 0, "\(aniList)")
        let corpus = try Unavailable.corpus()
        let scratch = try Scratch()
        try scratch.write(
            "baton.json",
            #"""
            {"schema": ["\#(corpus.path)/schemas/anilist/schema.graphqls", "\#(corpus.path)/schemas/anilist/apollo-client-extra.graphqls"],
             "documents": ["\#(corpus.path)/documents/anilist/AniHyou-android/**/*.graphql"],
             "output": {"swift": {"path": "Generated"}}}
            """#)
        let check = try BatonProcess.run(["check"], in: scratch.path)
        XCTAssertEqual(check.status, 0, "\(check)")
        XCTAssertFalse(check.stderr.contains("error:"), check.stderr)
        XCTAssertEqual(check.stderr.components(separatedBy: "[apollo-client-directives]").count - 1, 2, check.stderr)
        XCTAssertFalse(check.stderr.contains("@typePolicy"), check.stderr)
        XCTAssertFalse(check.stderr.contains("[key-fields]"), check.stderr)
        XCTAssertTrue(check.stderr.contains("2 warnings in the schema"), check.stderr)
        let plate = try BatonProcess.run(["plate", "AiringOnMyList"], in: scratch.path)
        XCTAssertTrue(plate.stdout.contains("a lens of MediaList, optional, keyed by id and mediaId"), plate.stdout)
        let gen = try BatonProcess.run(["gen", "--lang", "swift"], in: scratch.path)
        XCTAssertEqual(gen.status, 0, "\(gen)")
        let airing = try String(
            contentsOfFile: scratch.path + "/Generated/AiringOnMyList.graphql.swift", encoding: .utf8)
        XCTAssertTrue(airing.contains(#"keyFields: ["MediaList": ["id", "mediaId"]]"#), airing)
        let entry = try String(
            contentsOfFile: scratch.path + "/Generated/BasicMediaListEntry.graphql.swift", encoding: .utf8)
        XCTAssertTrue(entry.contains("mediaId"), "the key field is sent: \(entry)")
        XCTAssertFalse(entry.contains("static let mediaId"), "and is no accessor of the fragment: \(entry)")

        for (schema, documents) in [
            ("rickandmorty/schema.graphqls", "rickandmorty/MortyComposeKMM/**/*.graphql"),
            ("rickandmorty/schema.graphqls", "rickandmorty/RickComposeMultiplatform/**/*.graphql"),
            ("github-2018-githawk/schema.json", "github/GitHawk/**/*.graphql"),
        ] {
            let app = try run(["check"], schema: schema, documents: [documents])
            XCTAssertEqual(app.status, 0, "\(documents): \(app)")
            XCTAssertTrue(app.stderr.hasPrefix("No problems found in "), "\(documents): \(app.stderr)")
        }
    }
}
