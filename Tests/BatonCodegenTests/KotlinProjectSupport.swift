import BatonCLI
import BatonCodegen
import BatonCodegenKotlin
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

    /// Loads the baton.json in `folder` and builds its lens model; fails the test on any error.
    static func project(at folder: URL, file: StaticString = #filePath, line: UInt = #line) throws -> Project {
        let directory = folder.path
        let loaded = ConfigurationLoader.load(path: "baton.json", workingDirectory: directory)
        let errors = loaded.diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.map(\.message), [], file: file, line: line)
        let configuration = try XCTUnwrap(loaded.projects.first, file: file, line: line)
        let loader = ProjectLoader(workingDirectory: directory)
        let (schemaFiles, _) = DocumentDiscovery.schemaFiles(of: configuration)
        let (schema, _, _) = loader.loadSchema(schemaFiles)
        let (documentFiles, _) = DocumentDiscovery.documentFiles(of: configuration)
        let documents = loader.loadDocuments(documentFiles)
        XCTAssertEqual(documents.diagnostics.map(\.message), [], file: file, line: line)
        var options = LensModelOptions(onError: configuration.onError?.value.rawValue)
        for scalar in configuration.customScalarTypes {
            options.customScalars[scalar.name] = CustomScalarMapping(
                swiftType: scalar.swift?.value, kotlinType: scalar.kotlin?.type.value,
                kotlinConverter: scalar.kotlin?.converter.value)
        }
        let model = try build(
            schema: XCTUnwrap(schema, file: file, line: line), documents: documents.documents, options: options)
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
        let (model, diagnostics) = LensModelBuilder.build(schema: schema, documents: documents, options: options)
        XCTAssertEqual(diagnostics.filter { $0.severity == .error }.map(\.message), [], file: file, line: line)
        return model
    }
}
