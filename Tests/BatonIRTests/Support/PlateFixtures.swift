import BatonCompiler
import BatonDiagnostics
import BatonIR
import BatonPlate
import BatonSchema
import BatonTestSupport
import Foundation
import XCTest

/// Plate fixture cases: documents, the schema they run against, and a baton.json, compiled in
/// memory by the driver (`FixtureProject`) as `baton plate` compiles a project.
///
/// A case is one `.graphql` file (see `FixtureCase.sections`). Without `#- path` section lines it
/// is all documents, run against `Fixtures/schema.graphql`. Sections split it: `#- schema.graphql`
/// brings its own schema, `#- baton.json` the project's settings (`customScalarTypes`, `onError`,
/// `rules`), and every other section is a document. A line `# schema: corpus/<path>` anywhere uses
/// a schema of the shared corpus (`TestPaths.corpus`); the case then skips with a printed reason
/// when the corpus is absent (and fails in CI).
enum PlateFixtures {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static var corpusDirectory: URL { TestPaths.corpus }

    struct Built {
        var schema: GraphQLSchema?
        var model: LensModel
        /// Configuration, syntax, schema, validation and model diagnostics.
        var diagnostics: [Diagnostic]
    }

    /// The corpus schema a case names, if any.
    static func corpusSchema(_ text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("# schema: corpus/") }.map {
            String($0.dropFirst("# schema: corpus/".count))
        }
    }

    /// Compiles a case's sections up to the plan.
    static func build(sections: [(path: String, text: String)], text: String) throws -> Built {
        var defaultSchema: (path: String, bytes: [UInt8])
        if let corpusSchema = corpusSchema(text) {
            let url = try Unavailable.corpus().appendingPathComponent(corpusSchema)
            guard let data = try? Data(contentsOf: url) else {
                throw Unavailable.error("no corpus schema at \(url.path)")
            }
            defaultSchema = ("corpus/" + corpusSchema, Array(data))
        } else {
            let url = fixtures.appendingPathComponent("schema.graphql")
            defaultSchema = ("schema.graphql", Array(try Data(contentsOf: url)))
        }
        let project = FixtureProject(sections: sections, defaultSchema: defaultSchema, upTo: .plan)
        return Built(
            schema: project.compilation.schema, model: project.compilation.model ?? LensModel(),
            diagnostics: project.diagnostics)
    }

    /// Compiles a fixture case.
    static func build(_ fixture: FixtureCase) throws -> Built {
        try build(sections: fixture.sections(keepsPreamble: true), text: fixture.input())
    }

    /// Compiles case text (sections as in a fixture file) named `name`.
    static func build(name: String, text: String) throws -> Built {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("baton-plate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: file) }
        let url = file.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return try build(FixtureCase(suite: "test", file: url))
    }

    /// Every operation's plate, then every fragment's, in name order, as `baton plate` prints them.
    static func plates(_ model: LensModel) -> String {
        let plates =
            model.operations.map { Plate(subject: .operation($0)) }
            + model.fragments.map { Plate(subject: .fragment($0)) }
        return PlateRenderer.render(plates, format: .text)
    }
}
