import BatonCompiler
import BatonDiagnostics
import BatonIR
import BatonSchema
import BatonSyntax
import BatonValidation
import Foundation

/// The shared corpus's projects (`shared/corpus/documents/*/GRAPHQLJS-RESULTS.jsonl`), each as the units it is
/// validated in (the whole project merged, or file by file), with the schema graphql-js validated it against.
enum CorpusProjects {
    struct Unit {
        /// `github/GitHawk`, `github/vscode-pull-request-github/queriesShared.gql`.
        var name: String
        var schemaFamily: String
        var schemaPath: String
        var documents: [(path: String, text: String)]
    }

    struct Built {
        var unit: Unit
        var model: LensModel
        /// No syntax, validation or model errors: generated code for it must compile.
        var isValid: Bool
    }

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: ModelHarness.corpus.appendingPathComponent("documents").path)
    }

    /// Every unit, one entry per project (the first schema listed for it).
    static func units(families: Set<String>? = nil) throws -> [Unit] {
        let documents = ModelHarness.corpus.appendingPathComponent("documents")
        var units: [Unit] = []
        var seen = Set<String>()
        for family in try FileManager.default.contentsOfDirectory(atPath: documents.path).sorted() {
            if let families, !families.contains(family) { continue }
            let results = documents.appendingPathComponent(family + "/GRAPHQLJS-RESULTS.jsonl")
            guard let data = FileManager.default.contents(atPath: results.path) else { continue }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let project = object["project"] as? [String: Any], let name = project["project"] as? String,
                    let schema = project["validatedAgainst"] as? String, let mode = project["mode"] as? String,
                    seen.insert(family + "/" + name).inserted
                else { continue }
                let folder = documents.appendingPathComponent(family + "/" + name)
                let files = try documentFiles(folder)
                let schemaPath = ModelHarness.corpus.appendingPathComponent("schemas/" + schema).path
                if mode.hasPrefix("per-file") {
                    for file in files {
                        units.append(
                            Unit(
                                name: "\(family)/\(name)/\(file.path.dropFirst(folder.path.count + 1))",
                                schemaFamily: family, schemaPath: schemaPath, documents: [file]))
                    }
                } else {
                    units.append(
                        Unit(name: "\(family)/\(name)", schemaFamily: family, schemaPath: schemaPath, documents: files))
                }
            }
        }
        return units
    }

    private static func documentFiles(_ folder: URL) throws -> [(path: String, text: String)] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var files: [(path: String, text: String)] = []
        while let next = enumerator?.nextObject() as? String {
            guard next.hasSuffix(".graphql") || next.hasSuffix(".gql") else { continue }
            let path = folder.appendingPathComponent(next).path
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            files.append((path, String(decoding: data, as: UTF8.self)))
        }
        return files.sorted { $0.path < $1.path }
    }

    nonisolated(unsafe) private static var schemas: [String: GraphQLSchema] = [:]
    private static let lock = NSLock()

    static func schema(_ path: String) -> GraphQLSchema? {
        lock.lock()
        defer { lock.unlock() }
        if let schema = schemas[path] { return schema }
        let (schema, _, _) = ProjectLoader(workingDirectory: "/").loadSchema([path])
        schemas[path] = schema
        return schema
    }

    /// Parses, validates and models a unit; nil when the schema cannot be built or nothing parses.
    static func build(_ unit: Unit) -> Built? {
        guard let schema = schema(unit.schemaPath) else { return nil }
        var parsed: [Document] = []
        var isValid = true
        for (path, text) in unit.documents {
            let result = Parser.parse(SourceFile(path: path, text: text))
            if result.diagnostics.contains(where: { $0.severity == .error }) { isValid = false }
            if let document = result.document { parsed.append(document) }
        }
        guard !parsed.isEmpty else { return nil }
        if Validator.validate(schema: schema, documents: parsed).contains(where: { $0.severity == .error }) {
            isValid = false
        }
        let (model, diagnostics) = LensModelBuilder.build(
            schema: schema, documents: parsed, options: GenerationTargets.planOptions())
        if diagnostics.contains(where: { $0.severity == .error }) { isValid = false }
        return Built(unit: unit, model: model, isValid: isValid)
    }
}
