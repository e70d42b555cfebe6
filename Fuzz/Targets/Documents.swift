// GraphQL documents through parsing, validation (every rule), the lens model, plates and both generators,
// against the Examples' schemas (the first byte picks one). Errors must be located inside their file.
import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonCompiler
import BatonDiagnostics
import BatonIR
import BatonPlate
import BatonSchema
import BatonSyntax
import BatonValidation
import Foundation

let schemas: [GraphQLSchema] = exampleSchemas()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0, !schemas.isEmpty else { return 0 }
    let schema = schemas[Int(data[0]) % schemas.count]
    let source = SourceFile(path: "Fuzz.graphql", bytes: Array(UnsafeBufferPointer(start: data + 1, count: size - 1)))
    let parsed = Parser.parse(source)
    checkLocated(parsed.diagnostics, "parse")
    guard let document = parsed.document else { return 0 }
    _ = Printer.print(document)
    let options = ValidationOptions(
        scalarMappings: ["DateTime": [.swift, .kotlin], "URI": [.swift]], outputLanguages: [.swift, .kotlin])
    let diagnostics = Validator.validate(
        schema: schema, documents: [document], rules: DocumentValidation.rules, mode: .merged, options: options)
    checkLocated(diagnostics, "validate")
    // baton.json's `rules` can turn any rule off, so the lens model must survive any parsed document.
    let (model, modelDiagnostics) = LensModelBuilder.build(
        schema: schema, documents: [document],
        options: GenerationTargets.planOptions(
            LensModelOptions(
                customScalars: [
                    "DateTime": CustomScalarMapping(
                        swiftType: "Foundation.Date", kotlinType: "java.time.Instant", kotlinConverter: "app.D")
                ], onError: nil)))
    checkLocated(modelDiagnostics, "lens model")
    guard !modelDiagnostics.contains(where: { $0.severity == .error }) else { return 0 }
    let plates =
        model.operations.map { Plate(subject: .operation($0)) } + model.fragments.map { Plate(subject: .fragment($0)) }
    for format in PlateFormat.allCases { _ = PlateRenderer.render(plates, format: format) }
    let swift = SwiftGenerator(model: model).generate()
    let kotlin = KotlinGenerator.generate(
        model, options: KotlinGeneratorOptions(packageName: "com.example.fuzz", includeRuntime: false))
    if diagnostics.isEmpty, !model.operations.isEmpty || !model.fragments.isEmpty, swift.isEmpty || kotlin.isEmpty {
        violated("a valid document generated no \(swift.isEmpty ? "Swift" : "Kotlin")")
    }
    return 0
}

/// The Examples' schemas, read from the package root (`BATON_ROOT`, or the working directory).
func exampleSchemas() -> [GraphQLSchema] {
    let root = ProcessInfo.processInfo.environment["BATON_ROOT"] ?? FileManager.default.currentDirectoryPath
    return ["Examples/RickAndMorty/schema.graphqls", "Examples/GitHub/schema.graphql"].compactMap { path in
        SchemaLoader.load(paths: [root + "/" + path]).0
    }
}
