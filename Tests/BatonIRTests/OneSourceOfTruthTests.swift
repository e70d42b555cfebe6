import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonCompiler
import BatonDiagnostics
import BatonIR
import BatonSchema
import BatonSyntax
import BatonTestSupport
import BatonValidation
import Foundation
import XCTest

/// One source of truth: for the Examples (their checked-in code and fresh code) and every valid
/// corpus project, the generated Swift and Kotlin come from the same plan (`PlanAgreement`): the
/// plan's names, operation ids, optionality at every level and inside a Result, and the plan's
/// runtime conditions. (Every generator fixture is checked the same way, in `GeneratorFixtureTests`.)
final class OneSourceOfTruthTests: XCTestCase {
    static let repository = TestPaths.repository

    func testExamplesGeneratedCodeComesFromThePlan() throws {
        for example in ["GitHub", "RickAndMorty"] {
            let folder = Self.repository.appendingPathComponent("Examples/\(example)")
            let result = Driver(request: ProjectRequest(workingDirectory: folder.path)).compile(upTo: .plan)
            XCTAssertFalse(result.hasErrors, "\(example): \(result.diagnostics.map(\.message))")
            let model = try XCTUnwrap(result.models.first, example)
            XCTAssertFalse(model.operations.isEmpty, example)
            // The checked-in generated code and freshly generated code both agree with the plan.
            let checkedIn = PlanAgreement.problems(
                model, swift: try Self.files(folder.appendingPathComponent("Generated/Swift")),
                kotlin: try Self.files(folder.appendingPathComponent("Generated/Kotlin")))
            XCTAssertEqual(checkedIn, [], "\(example) (checked in)")
            XCTAssertEqual(
                PlanAgreement.problems(model, swift: Self.swift(model), kotlin: Self.kotlin(model)), [], example)
        }
    }

    func testCorpusGeneratedCodeComesFromThePlan() throws {
        let corpus = try Unavailable.corpus()
        var schemas: [String: GraphQLSchema] = [:]
        var checked = 0
        for (project, schemaPath) in CorpusLensTests.projects {
            if schemas[schemaPath] == nil {
                let url = corpus.appendingPathComponent("schemas").appendingPathComponent(schemaPath)
                schemas[schemaPath] =
                    SchemaBuilder.build(sources: [SourceFile(path: schemaPath, bytes: Array(try Data(contentsOf: url)))]
                    ).0
            }
            let schema = try XCTUnwrap(schemas[schemaPath])
            let documents = try CorpusLensTests.documents(
                in: corpus.appendingPathComponent("documents").appendingPathComponent(project))
            guard Validator.validate(schema: schema, documents: documents).isEmpty else { continue }
            let model = LensModelBuilder.build(
                schema: schema, documents: documents, options: GenerationTargets.planOptions()
            ).0
            XCTAssertEqual(
                PlanAgreement.problems(model, swift: Self.swift(model), kotlin: Self.kotlin(model)), [], project)
            checked += model.operations.count + model.fragments.count
        }
        XCTAssertGreaterThan(checked, 100)
    }

    static func swift(_ model: LensModel) -> [GeneratedFile] { SwiftGenerator(model: model).generate() }

    static func kotlin(_ model: LensModel) -> [GeneratedFile] {
        KotlinGenerator.generate(
            model, options: KotlinGeneratorOptions(packageName: "com.example", includeRuntime: false))
    }

    /// The files directly in `folder`, as generated files.
    static func files(_ folder: URL) throws -> [GeneratedFile] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().compactMap { name in
            let url = folder.appendingPathComponent(name)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
            return GeneratedFile(path: name, contents: text)
        }
    }
}
