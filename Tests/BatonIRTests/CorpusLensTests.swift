import BatonDiagnostics
import BatonIR
import BatonPlate
import BatonSchema
import BatonSyntax
import BatonTestSupport
import BatonValidation
import Foundation
import XCTest

/// The lens model on real documents: every project of the shared corpus that graphql-js finds
/// valid as one merged document builds a model without errors, deterministically, and every
/// operation and fragment has a plate whose rows match its accessors.
final class CorpusLensTests: XCTestCase {
    /// (project folder under documents/, schema under schemas/).
    static let projects: [(String, String)] = [
        ("anilist/AniHyou-android", "anilist/schema.graphqls"),
        ("github/GitHawk", "github/schema.graphql"),
        ("rickandmorty/MortyComposeKMM", "rickandmorty/schema.graphqls"),
        ("rickandmorty/RickComposeMultiplatform", "rickandmorty/schema.graphqls"),
        ("rickandmorty/rickandmortyapi050425", "rickandmorty/schema.graphqls"),
        ("saleor/saleor-apps-anonymizer", "saleor/schema.graphql"),
        ("saleor/saleor-apps-avatax", "saleor/schema.graphql"),
        ("saleor/saleor-apps-dummy-payment-app", "saleor/schema.graphql"),
        ("saleor/saleor-apps-np-atobarai", "saleor/schema.graphql"),
        ("saleor/saleor-apps-search", "saleor/schema.graphql"),
        ("saleor/saleor-apps-segment", "saleor/schema.graphql"),
        ("saleor/saleor-apps-stripe", "saleor/schema.graphql"),
        ("saleor/saleor-apps-webhook-utils", "saleor/schema.graphql"),
    ]

    /// The model's own errors some real projects have.
    static let expectedRules: [String: [String]] = [
        // `subscription OrderCancelledSubscription` beside `fragment OrderCancelledSubscription`.
        "saleor/saleor-apps-avatax": [LensDiagnosticRule.definitionNameConflict]
    ]

    func testCorpusProjectsBuildModels() throws {
        var definitions = 0
        try Self.eachProject { project, schema, documents in
            XCTAssertFalse(documents.isEmpty, project)
            let validation = Validator.validate(schema: schema, documents: documents)
            guard validation.isEmpty else {
                XCTFail("\(project): invalid:\n\(TextRenderer.render(validation))")
                return
            }
            let (model, diagnostics) = LensModelBuilder.build(schema: schema, documents: documents)
            XCTAssertEqual(diagnostics.map(\.rule), Self.expectedRules[project] ?? [], project)
            let (again, _) = LensModelBuilder.build(schema: schema, documents: documents)
            XCTAssertEqual(
                LensModelJSON.model(model).rendered(), LensModelJSON.model(again).rendered(),
                "\(project): not deterministic")
            for operation in model.operations {
                XCTAssertEqual(
                    Plate(subject: .operation(operation)).rows.count, Self.count(operation.lens), operation.name)
                XCTAssertFalse(operation.documentText.isEmpty, operation.name)
                // The text sent parses and carries no client-only directive.
                let sent = Parser.parse(SourceFile(path: operation.name, text: operation.documentText))
                XCTAssertNotNil(sent.document, operation.name)
                XCTAssertFalse(operation.documentText.contains("@required"), operation.name)
            }
            for fragment in model.fragments {
                XCTAssertEqual(Plate(subject: .fragment(fragment)).rows.count, Self.count(fragment.lens), fragment.name)
            }
            definitions += model.operations.count + model.fragments.count
        }
        XCTAssertGreaterThan(definitions, 100)
    }

    /// Calls `body` with each corpus project's name, schema (built once per schema file) and
    /// parsed documents; throws `Unavailable` without the corpus.
    static func eachProject(_ body: (String, GraphQLSchema, [Document]) throws -> Void) throws {
        let corpus = PlateFixtures.corpusDirectory
        guard FileManager.default.fileExists(atPath: corpus.path) else {
            throw Unavailable.error("no corpus at \(corpus.path)")
        }
        var schemas: [String: GraphQLSchema] = [:]
        for (project, schemaPath) in projects {
            if schemas[schemaPath] == nil {
                let url = corpus.appendingPathComponent("schemas").appendingPathComponent(schemaPath)
                let source = SourceFile(path: schemaPath, bytes: Array(try Data(contentsOf: url)))
                schemas[schemaPath] = SchemaBuilder.build(sources: [source]).0
            }
            let schema = try XCTUnwrap(schemas[schemaPath], schemaPath)
            let documents = try Self.documents(
                in: corpus.appendingPathComponent("documents").appendingPathComponent(project))
            try body(project, schema, documents)
        }
    }

    static func count(_ lens: Lens) -> Int {
        lens.accessors.reduce(0) { $0 + 1 + ($1.lens.map(count) ?? 0) }
    }

    static func documents(in folder: URL) throws -> [Document] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var urls: [URL] = []
        for case let url as URL in enumerator where ["graphql", "gql"].contains(url.pathExtension) { urls.append(url) }
        return try urls.sorted { $0.path < $1.path }.compactMap { url in
            Parser.parse(SourceFile(path: url.lastPathComponent, bytes: Array(try Data(contentsOf: url)))).document
        }
    }
}
