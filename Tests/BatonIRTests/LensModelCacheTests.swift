import BatonCompiler
import BatonDiagnostics
import BatonIR
import BatonSyntax
import BatonTestSupport
import Foundation
import XCTest

/// `LensModelCache`: a plan built with the definitions of an earlier build is the plan built
/// from nothing, JSON for JSON and diagnostic for diagnostic, on every plate and generator
/// fixture, when nothing changed (everything is reused) and when each document in turn is
/// parsed again (its definitions and those reaching its fragments are built again).
final class LensModelCacheTests: XCTestCase {
    func testAPlanWithACacheIsThePlanWithout() throws {
        let irFixtures = PlateFixtures.fixtures
        let codegenFixtures = irFixtures.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BatonCodegenTests/Fixtures")
        var compared = 0
        var rebuilt = 0
        for folder in [
            irFixtures.appendingPathComponent("plates"), codegenFixtures.appendingPathComponent("generators"),
        ] {
            let schemaURL = folder.deletingLastPathComponent().appendingPathComponent("schema.graphql")
            let schema = ("schema.graphql", Array(try Data(contentsOf: schemaURL)))
            for fixture in FixtureRunner.cases("cache", in: folder) {
                guard PlateFixtures.corpusSchema(try fixture.input()) == nil else { continue }
                let project = FixtureProject(
                    sections: try fixture.sections(keepsPreamble: true), defaultSchema: schema, upTo: .plan,
                    targets: .configured)
                guard let built = project.compilation.schema, project.compilation.model != nil else { continue }
                let options = Compilation.modelOptions(project.compilation.project.configuration)
                let documents = project.compilation.documents
                let cold = LensModelBuilder.build(schema: built, documents: documents, options: options)
                let expected = Self.text(cold)
                let cache = LensModelCache()
                _ = LensModelBuilder.build(schema: built, documents: documents, options: options, cache: cache)
                let again = LensModelBuilder.build(schema: built, documents: documents, options: options, cache: cache)
                XCTAssertEqual(Self.text(again), expected, "\(fixture): nothing changed")
                if cold.1.isEmpty {
                    XCTAssertEqual(cache.built, 0, "\(fixture): nothing changed, nothing built")
                }
                for index in documents.indices {
                    var edited = documents
                    guard let reparsed = Parser.parse(documents[index].source).document else { continue }
                    edited[index] = reparsed
                    let model = LensModelBuilder.build(schema: built, documents: edited, options: options, cache: cache)
                    XCTAssertEqual(Self.text(model), expected, "\(fixture): document \(index) parsed again")
                    if cold.1.isEmpty, !reparsed.definitions.isEmpty {
                        XCTAssertGreaterThan(cache.built, 0, "\(fixture): document \(index) parsed again")
                        rebuilt += 1
                    }
                }
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 20)
        XCTAssertGreaterThan(rebuilt, 20)
    }

    func testOnlyWhatAChangeReachesIsBuiltAgain() throws {
        let schema = try XCTUnwrap(
            FixtureProject(
                sections: [("A.graphql", "query A { __typename }")],
                defaultSchema: (
                    "schema.graphql", Array("type Query { a: A b: String }\ntype A { x: String y: String }".utf8)
                ),
                upTo: .plan
            ).compilation.schema)
        func parse(_ text: String) throws -> Document {
            try XCTUnwrap(Parser.parse(SourceFile(path: "\(text.count).graphql", bytes: Array(text.utf8))).document)
        }
        let fragment = try parse("fragment F on A { x }")
        let spreads = try parse("query Q1 { a { ...F } }")
        let alone = try parse("query Q2 { b }")
        let cache = LensModelCache()
        _ = LensModelBuilder.build(schema: schema, documents: [fragment, spreads, alone], cache: cache)
        XCTAssertEqual(cache.built, 3)
        // The fragment parsed again (even with the same text): it and Q1 are built again, Q2 is reused.
        let (model, diagnostics) = LensModelBuilder.build(
            schema: schema, documents: [try parse("fragment F on A { x y }"), spreads, alone], cache: cache)
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual([cache.built, cache.reused], [2, 1])
        XCTAssertEqual(model.fragments.first?.lens.accessors.map(\.name), ["x", "y"])
        // A fragment of that name gone: Q1 is built again (and its spread now names nothing).
        _ = LensModelBuilder.build(schema: schema, documents: [spreads, alone], cache: cache)
        XCTAssertEqual([cache.built, cache.reused], [1, 1])
    }

    /// The model as JSON and the diagnostics, rendered.
    static func text(_ built: (LensModel, [Diagnostic])) -> String {
        LensModelJSON.model(built.0).rendered() + "\n" + TextRenderer.render(built.1)
    }
}
