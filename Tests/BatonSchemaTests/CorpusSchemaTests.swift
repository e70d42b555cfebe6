import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonTestSupport
import Foundation
import XCTest

/// Every schema of the shared corpus builds (SDL and introspection) with graphql-js's named
/// types (counts from each schema's SOURCE.txt, graphql-js 16.6.0) and exactly the expected
/// problems. The differential test compares the problems with graphql-js itself.
final class CorpusSchemaTests: XCTestCase {
    static let corpus = TestPaths.corpus.appendingPathComponent("schemas")

    func load(_ relative: [String]) throws -> (GraphQLSchema, [Diagnostic]) {
        guard FileManager.default.fileExists(atPath: Self.corpus.path) else {
            throw Unavailable.error("corpus not found at \(Self.corpus.path)")
        }
        let (schema, diagnostics) = SchemaLoader.load(
            paths: relative.map { Self.corpus.appendingPathComponent($0).path })
        return (try XCTUnwrap(schema, "\(relative) did not build:\n\(TextRenderer.render(diagnostics))"), diagnostics)
    }

    /// Named types as graphql-js counts them: without introspection types and Baton's own.
    func graphQLJSTypeCount(_ schema: GraphQLSchema) -> Int {
        schema.typeNames.filter { !$0.hasPrefix("__") && !BuiltIns.batonTypeNames.contains($0) }.count
    }

    func testEveryCorpusSchemaBuilds() throws {
        let expected: [(String, Int)] = [
            ("anilist/schema.graphqls", 188),
            ("github/schema-2024-07-08.graphql", 1598),
            ("github-2021-git-touch/schema.graphql", 1077),
            ("rickandmorty/schema.graphqls", 17),
            ("saleor/schema.graphql", 1474),
            ("swapi/schema.graphql", 58),
            ("github-2018-githawk/schema.json", 375),
        ]
        for (path, count) in expected {
            let (schema, diagnostics) = try load([path])
            XCTAssertEqual(TextRenderer.render(diagnostics), "", path)
            XCTAssertEqual(graphQLJSTypeCount(schema), count, path)
            XCTAssertNotNil(schema.rootType(for: .query), path)
        }
    }

    /// GitHub's current schema repeats two field definitions identically (descriptions aside):
    /// graphql-js rejects it; Baton reports the same two problems as warnings, since it keeps
    /// the first definition and generates the same code, and builds a usable schema.
    func testGitHubSchemaWithRepeatedFieldsBuildsWithTwoWarnings() throws {
        let (schema, diagnostics) = try load(["github/schema.graphql"])
        let path = Self.corpus.appendingPathComponent("github/schema.graphql").path
        XCTAssertEqual(Set(diagnostics.map(\.severity)), [.warning])
        XCTAssertEqual(
            diagnostics.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0): \($0.message) [\($0.rule)]" },
            [
                "15003:3: Field \"EnterpriseOwnerInfo.repositoryDeployKeySetting\" can only be defined once. [unique-field-definition-names]",
                "15008:3: Field \"EnterpriseOwnerInfo.repositoryDeployKeySettingOrganizations\" can only be defined once. [unique-field-definition-names]",
            ], path)
        XCTAssertEqual(graphQLJSTypeCount(schema), 1628)
        let owner = try XCTUnwrap(schema.type(named: "EnterpriseOwnerInfo"))
        XCTAssertEqual(owner.fields.filter { $0.name == "repositoryDeployKeySetting" }.count, 1)
        XCTAssertNotNil(schema.type(named: "Repository")?.field(named: "issues"))
        XCTAssertEqual(schema.mutationTypeName, "Mutation")
    }

    /// AniList with Apollo Kotlin's client extension file: the extensions apply; Apollo's cache
    /// directives are known (graphql-js reports 20 unknown directives), each Baton does not act on
    /// with one warning per file saying what Baton does instead. `@typePolicy` is read (its
    /// `keyFields` key records, `RecordKeyPolicy`), so it is not warned about.
    func testAniListWithClientExtensions() throws {
        let (schema, diagnostics) = try load(["anilist/schema.graphqls", "anilist/apollo-client-extra.graphqls"])
        XCTAssertEqual(Set(diagnostics.map(\.rule)), ["apollo-client-directives"])
        XCTAssertEqual(Set(diagnostics.map(\.severity)), [.warning])
        XCTAssertEqual(diagnostics.map { $0.message.prefix { $0 != " " } }, ["@link", "@fieldPolicy"])
        XCTAssertTrue(diagnostics[1].message.contains("(5 uses in this file)"), diagnostics[1].message)
        XCTAssertEqual(schema.type(named: "User")?.directives.map(\.name), ["typePolicy"])
        XCTAssertEqual(schema.schemaDirectives.map(\.name), ["link"])
    }

    /// Docs/Migrating.md maps every Apollo directive Baton knows, and each has its sentence for the warning.
    func testMigratingMapsEveryApolloDirective() throws {
        let text = try String(
            contentsOf: TestPaths.repository.appendingPathComponent("Docs/Migrating.md"), encoding: .utf8)
        for name in BuiltIns.apolloDirectiveNames {
            XCTAssertTrue(text.contains("| `@\(name)"), "Docs/Migrating.md has no row for @\(name)")
            XCTAssertTrue(
                name == "typePolicy" || BuiltIns.apolloDirectiveMeaning[name] != nil, "no warning text for @\(name)")
        }
    }

    func testGitHawkIntrospectionSchema() throws {
        let (schema, _) = try load(["github-2018-githawk/schema.json"])
        XCTAssertEqual(schema.queryTypeName, "Query")
        XCTAssertEqual(schema.mutationTypeName, "Mutation")
        let issue = try XCTUnwrap(schema.type(named: "Issue"))
        XCTAssertEqual(issue.kind, .object)
        XCTAssertTrue(issue.interfaces.contains("Node"))
        XCTAssertEqual(issue.field(named: "title")?.type.description, "String!")
        let comments = try XCTUnwrap(issue.field(named: "comments"))
        XCTAssertEqual(comments.argument(named: "first")?.type.description, "Int")
        let node = try XCTUnwrap(schema.type(named: "Node"))
        XCTAssertTrue(schema.possibleTypes(of: node).contains { $0.name == "Issue" })
        // Default values arrive as GraphQL text and are parsed.
        let defaults = schema.typeNames.compactMap { schema.type(named: $0) }.flatMap(\.fields).flatMap(\.arguments)
            .compactMap(\.defaultValue)
        XCTAssertFalse(defaults.isEmpty)
        XCTAssertNotNil(schema.directive(named: "include"))
        XCTAssertNotNil(schema.directive(named: "semanticNonNull"))
    }
}
