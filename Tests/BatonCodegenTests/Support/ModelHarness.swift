import BatonCompiler
import BatonDiagnostics
import BatonIR
import BatonSchema
import BatonSyntax
import BatonTestSupport
import BatonValidation
import Foundation
import XCTest

/// Builds lens models from schema and document text for generator tests, failing on any error diagnostic.
enum ModelHarness {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static var corpus: URL {
        TestPaths.corpus
    }

    nonisolated(unsafe) private static var schemas: [String: GraphQLSchema] = [:]
    private static let lock = NSLock()

    /// A schema from SDL text.
    static func schema(sdl: String, path: String = "schema.graphql") throws -> GraphQLSchema {
        let (schema, diagnostics) = SchemaBuilder.build(sources: [SourceFile(path: path, text: sdl)])
        let errors = diagnostics.filter { $0.severity == .error }
        guard let schema, errors.isEmpty else { throw Failure(description: "schema: \(errors.map(\.message))") }
        return schema
    }

    /// A schema file, built once per path.
    static func schema(file: URL) throws -> GraphQLSchema {
        lock.lock()
        defer { lock.unlock() }
        if let cached = schemas[file.path] { return cached }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw Failure(description: "no file \(file.path)")
        }
        let schema = try self.schema(sdl: String(decoding: data, as: UTF8.self), path: file.path)
        schemas[file.path] = schema
        return schema
    }

    /// The lens model of `documents` (path, text) against `schema`.
    static func model(
        schema: GraphQLSchema, documents: [(String, String)], options: LensModelOptions = LensModelOptions()
    ) throws -> LensModel {
        var parsed: [Document] = []
        for (path, text) in documents {
            let result = Parser.parse(SourceFile(path: path, text: text))
            guard let document = result.document, !result.diagnostics.contains(where: { $0.severity == .error }) else {
                throw Failure(description: "\(path): \(result.diagnostics.map(\.message))")
            }
            parsed.append(document)
        }
        let validation = Validator.validate(schema: schema, documents: parsed).filter { $0.severity == .error }
        guard validation.isEmpty else { throw Failure(description: "validation: \(validation.map(\.message))") }
        let (model, diagnostics) = LensModelBuilder.build(
            schema: schema, documents: parsed, options: GenerationTargets.planOptions(options))
        let errors = diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else { throw Failure(description: "model: \(errors.map(\.message))") }
        return model
    }
}
