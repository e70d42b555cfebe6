import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonConfig
import BatonDiagnostics
import BatonIR
import BatonSchema
import BatonSyntax
import BatonTestSupport
import BatonValidation
import Foundation
import XCTest

/// One source of truth: for every operation and fragment of the Examples and the valid corpus
/// projects, the accessors' types in the generated Swift and Kotlin have exactly the optionality
/// (per list level, and inside a Result) the lens model, and so the plate, says.
///
/// Each generated file is compared with its definition's accessors as multisets of
/// (name, shape), where a shape is the type with every name replaced by `T`: `[T?]?` for Plate 1's
/// `nodes`, `Result<T?>` for its `repository`. Order is left to the templates.
final class OneSourceOfTruthTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testExamplesGeneratedTypesMatchTheModel() throws {
        for example in ["GitHub", "RickAndMorty"] {
            let folder = Self.repository.appendingPathComponent("Examples/\(example)")
            let schemaName = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .first { $0.hasPrefix("schema.graphql") }
            let schemaURL = folder.appendingPathComponent(try XCTUnwrap(schemaName, example))
            let schema = try XCTUnwrap(
                SchemaBuilder.build(sources: [
                    SourceFile(path: schemaURL.lastPathComponent, bytes: Array(try Data(contentsOf: schemaURL)))
                ]).0)
            let generatedSwift = try Self.generatedFiles(folder.appendingPathComponent("Generated/Swift"), ext: "swift")
            let generatedKotlin = try Self.generatedFiles(folder.appendingPathComponent("Generated/Kotlin"), ext: "kt")
            let documents = try Self.exampleDocuments(folder)
            XCTAssertTrue(Validator.validate(schema: schema, documents: documents).isEmpty, example)
            let options = LensModelOptions(customScalars: [
                "DateTime": CustomScalarMapping(
                    swiftType: "Foundation.Date", kotlinType: "java.time.Instant", kotlinConverter: "app.DateTimes")
            ])
            let model = LensModelBuilder.build(schema: schema, documents: documents, options: options).0
            XCTAssertFalse(model.operations.isEmpty, example)
            // The checked-in generated code and freshly generated code both agree with the model.
            compare(model, swift: generatedSwift, kotlin: generatedKotlin, label: "\(example) (checked in)")
            compare(model, swift: Self.swift(model), kotlin: Self.kotlin(model), label: example)
        }
    }

    func testCorpusGeneratedTypesMatchTheModel() throws {
        let corpus = PlateFixtures.corpusDirectory
        guard FileManager.default.fileExists(atPath: corpus.path) else {
            throw Unavailable.error("no corpus at \(corpus.path)")
        }
        var schemas: [String: GraphQLSchema] = [:]
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
            let model = LensModelBuilder.build(schema: schema, documents: documents).0
            compare(model, swift: Self.swift(model), kotlin: Self.kotlin(model), label: project)
        }
    }

    // MARK: Comparing

    func compare(_ model: LensModel, swift: [String: String], kotlin: [String: String], label: String) {
        let definitions = model.operations.map { ($0.name, $0.lens) } + model.fragments.map { ($0.name, $0.lens) }
        // Names an operation and a fragment share are an error of the model (no code is generated).
        let shared = Set(model.operations.map(\.name)).intersection(model.fragments.map(\.name))
        for (name, lens) in definitions where !shared.contains(name) {
            let expected = Self.expectedShapes(lens).sorted()
            if let text = swift[name] {
                XCTAssertEqual(Self.swiftShapes(text).sorted(), expected, "\(label): Swift \(name)")
            } else {
                XCTFail("\(label): no Swift file for \(name)")
            }
            if let text = kotlin[name] {
                XCTAssertEqual(Self.kotlinShapes(text).sorted(), expected, "\(label): Kotlin \(name)")
            } else {
                XCTFail("\(label): no Kotlin file for \(name)")
            }
        }
    }

    /// `name: shape` of every accessor of a lens and its nested lenses.
    static func expectedShapes(_ lens: Lens) -> [String] {
        var result: [String] = []
        for accessor in lens.accessors {
            var shape = "T"
            for index in accessor.levels.indices.reversed() {
                if index < accessor.levels.count - 1 { shape = "[" + shape + "]" }
                if accessor.levels[index].isOptional { shape += "?" }
            }
            if case .parentRecord = accessor.reads { shape = accessor.isOptional ? "T?" : "T" }
            if accessor.catchMode == .result { shape = "Result<" + shape + ">" }
            result.append(accessor.name + ": " + shape)
            if let child = accessor.lens { result += expectedShapes(child) }
        }
        return result
    }

    /// Accessor declarations of generated Swift: `var name: Type {` reading through the lens.
    static func swiftShapes(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var result: [String] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let range = trimmed.range(of: "var "), trimmed.hasSuffix("{") || trimmed.hasSuffix("}") else {
                continue
            }
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            guard trimmed.contains("lens") || trimmed.contains("throws") || next.contains("get throws") else {
                continue
            }
            let declaration = trimmed[range.upperBound...]
            guard let colon = declaration.range(of: ": "), let brace = declaration.range(of: " {") else { continue }
            let name = generatedName(declaration[..<colon.lowerBound])
            var type = String(declaration[colon.upperBound..<brace.lowerBound])
            var wrapped = false
            if type.hasPrefix("Swift.Result<"), type.hasSuffix(", Baton.FieldErrors>") {
                type = String(type.dropFirst("Swift.Result<".count).dropLast(", Baton.FieldErrors>".count))
                wrapped = true
            }
            let shape = shapeOf(SwiftTypeSpelling.bracketed(type))
            result.append(name + ": " + (wrapped ? "Result<" + shape + ">" : shape))
        }
        return result
    }

    /// Accessor declarations of generated Kotlin: `val name: Type get() =`.
    static func kotlinShapes(_ text: String) -> [String] {
        var result: [String] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("val "), let getter = trimmed.range(of: " get() ") else { continue }
            let declaration = trimmed.dropFirst(4)[..<getter.lowerBound]
            guard let colon = declaration.range(of: ": ") else { continue }
            let name = generatedName(declaration[..<colon.lowerBound])
            var type = String(declaration[colon.upperBound...])
            if name == "SELECTIONS" && type == "List<Selection>" { continue }
            var wrapped = false
            if type.hasPrefix("FieldResult<"), type.hasSuffix(">") {
                type = String(type.dropFirst("FieldResult<".count).dropLast())
                wrapped = true
            }
            // List<X> → [X]
            var converted = ""
            var index = type.startIndex
            while index < type.endIndex {
                if type[index...].hasPrefix("List<") {
                    converted += "["
                    index = type.index(index, offsetBy: 5)
                } else if type[index] == ">" {
                    converted += "]"
                    index = type.index(after: index)
                } else {
                    converted.append(type[index])
                    index = type.index(after: index)
                }
            }
            let shape = shapeOf(converted)
            result.append(name + ": " + (wrapped ? "Result<" + shape + ">" : shape))
        }
        return result
    }

    /// A declared name back to the model's: without backticks, and without the `_` a generator
    /// appends when the name would clash with a type in scope (`nodeFields` beside fragment
    /// `nodeFields`).
    static func generatedName(_ declared: Substring) -> String {
        var name = declared.replacingOccurrences(of: "`", with: "")
        while name.count > 1 && name.hasSuffix("_") { name.removeLast() }
        return name
    }

    /// The type with every run of name characters replaced by `T`.
    static func shapeOf(_ type: String) -> String {
        var shape = ""
        var inName = false
        for character in type {
            if character == "[" || character == "]" || character == "?" {
                shape.append(character)
                inName = false
            } else if !inName {
                shape.append("T")
                inName = true
            }
        }
        return shape
    }

    // MARK: Inputs

    static func swift(_ model: LensModel) -> [String: String] {
        byDefinition(SwiftGenerator(model: model).generate(), model: model, ext: "graphql.swift")
    }

    static func kotlin(_ model: LensModel) -> [String: String] {
        byDefinition(
            KotlinGenerator.generate(
                model, options: KotlinGeneratorOptions(packageName: "com.example", includeRuntime: false)),
            model: model, ext: "kt")
    }

    /// Generated files by the definition they declare at the top level (`struct Name:` in Swift,
    /// `class Name(` in Kotlin); file names may be shortened or numbered.
    static func byDefinition(_ files: [GeneratedFile], model: LensModel, ext: String) -> [String: String] {
        byDeclaration(files.filter { $0.path.hasSuffix("." + ext) }.map(\.contents))
    }

    static func byDeclaration(_ texts: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for text in texts {
            for line in text.split(separator: "\n") {
                for prefix in ["struct ", "class ", "public struct ", "public class "] where line.hasPrefix(prefix) {
                    let rest = line.dropFirst(prefix.count)
                    let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    if !name.isEmpty, result[String(name)] == nil { result[String(name)] = text }
                }
            }
        }
        return result
    }

    static func generatedFiles(_ folder: URL, ext: String) throws -> [String: String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix("." + ext) }
            .sorted()
        return byDeclaration(
            try names.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) })
    }

    /// The GraphQL of an example: `.graphql` files, and the literals of `@Query`/`@Fragment`…
    /// in Swift sources, extracted as `baton check` extracts them.
    static func exampleDocuments(_ folder: URL) throws -> [Document] {
        var documents: [Document] = []
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var urls: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.path.contains("/Generated/") { continue }
            if ["graphql", "gql", "swift"].contains(url.pathExtension), !url.lastPathComponent.hasPrefix("schema.") {
                urls.append(url)
            }
        }
        for url in urls.sorted(by: { $0.path < $1.path }) {
            let source = SourceFile(path: url.lastPathComponent, bytes: Array(try Data(contentsOf: url)))
            if url.pathExtension == "swift" {
                for embedded in SwiftDocumentExtractor.extract(from: source).documents {
                    if let document = Parser.parse(embedded.source).document { documents.append(document) }
                }
            } else if let document = Parser.parse(source).document {
                documents.append(document)
            }
        }
        return documents
    }
}
