import BatonCodegen
import BatonCodegenKotlin
import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonIR
import BatonSchema
import BatonSyntax
import BatonValidation
import Foundation
import XCTest

/// Builds lens models for the Kotlin tests: from an Examples project's baton.json, or from inline SDL and
/// documents.
enum KotlinProjectSupport {
    /// The repository's root, from this file's path.
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A project's model, its Kotlin package and its Kotlin output folder (absolute).
    struct Project {
        var model: LensModel
        var packageName: String
        var outputPath: String
    }

    /// Loads `Examples/<name>/baton.json` and builds its lens model; fails the test on any error.
    static func example(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> Project {
        try project(at: repositoryRoot.appendingPathComponent("Examples/\(name)"), file: file, line: line)
    }

    /// Loads the baton.json in `folder` through the driver and builds its lens model; fails the test on any error.
    static func project(at folder: URL, file: StaticString = #filePath, line: UInt = #line) throws -> Project {
        let directory = folder.path
        let result = Driver(request: ProjectRequest(workingDirectory: directory)).compile(upTo: .plan)
        let errors = result.diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.map(\.message), [], file: file, line: line)
        let compilation = try XCTUnwrap(result.compilations.first, file: file, line: line)
        let configuration = try XCTUnwrap(compilation.project.configuration, file: file, line: line)
        let model = try XCTUnwrap(compilation.model, file: file, line: line)
        return Project(
            model: model, packageName: configuration.output.kotlinPackage?.value ?? "generated",
            outputPath: configuration.output.kotlinPath?.value ?? directory + "/Generated/Kotlin")
    }

    /// The model of `documents` against the SDL `schema`; fails the test on any error.
    static func model(
        schema: String, documents: String, options: LensModelOptions = LensModelOptions(),
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> LensModel {
        let (built, schemaDiagnostics) = SchemaBuilder.build(sources: [SourceFile(path: "schema.graphql", text: schema)]
        )
        XCTAssertEqual(schemaDiagnostics.filter { $0.severity == .error }.map(\.message), [], file: file, line: line)
        let parsed = Parser.parse(SourceFile(path: "documents.graphql", text: documents))
        XCTAssertEqual(parsed.diagnostics.map(\.message), [], file: file, line: line)
        return try build(
            schema: XCTUnwrap(built, file: file, line: line), documents: parsed.document.map { [$0] } ?? [],
            options: options, file: file, line: line)
    }

    static func build(
        schema: GraphQLSchema, documents: [Document], options: LensModelOptions,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> LensModel {
        let validation = Validator.validate(schema: schema, documents: documents)
        XCTAssertEqual(validation.map(\.message), [], file: file, line: line)
        let (model, diagnostics) = LensModelBuilder.build(
            schema: schema, documents: documents, options: GenerationTargets.planOptions(options))
        XCTAssertEqual(diagnostics.filter { $0.severity == .error }.map(\.message), [], file: file, line: line)
        return model
    }
}
