import BatonDiagnostics
import BatonIR
import BatonPlate
import BatonSchema
import BatonSyntax
import BatonValidation
import Foundation
import XCTest

/// Loads fixture cases: documents, the schema they run against, and baton.json-style options.
///
/// A case is one `.graphql` file. Without `#- path` section lines it is all documents, run
/// against `Fixtures/schema.graphql`. Sections split it: `#- schema.graphql` brings its own schema,
/// `#- options.json` holds `{"customScalarTypes": …, "onError": …}` as baton.json spells them, and
/// every other section is a document. A line `# schema: corpus/<path>` anywhere uses a schema of
/// the shared corpus (`../shared/corpus` beside the repository, or `$BATON_CORPUS`); the case is
/// skipped with a printed reason when the corpus is absent.
enum PlateFixtures {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static var corpusDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["BATON_CORPUS"] { return URL(fileURLWithPath: path) }
        // Tests/BatonIRTests/Support/PlateFixtures.swift → repository → its parent → shared/corpus
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/corpus")
    }

    struct Case {
        var schemaSources: [SourceFile]
        var documents: [SourceFile]
        var options: LensModelOptions
    }

    struct Built {
        var schema: GraphQLSchema
        var model: LensModel
        /// Syntax, schema, validation and model diagnostics.
        var diagnostics: [Diagnostic]
    }

    enum FixtureError: Error { case skipped(String) }

    /// Schemas built once per path (the GitHub schema is 1.2 MB).
    nonisolated(unsafe) static var schemaCache: [String: (GraphQLSchema?, [Diagnostic])] = [:]
    static let cacheLock = NSLock()

    static func parse(name: String, text: String) throws -> Case {
        var sections: [(String, String)] = []
        var path = name
        var body: [Substring] = []
        var corpusSchema: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#- ") {
                if !body.isEmpty || path != name { sections.append((path, body.joined(separator: "\n"))) }
                path = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                body = []
                continue
            }
            if line.hasPrefix("# schema: corpus/") { corpusSchema = String(line.dropFirst("# schema: corpus/".count)) }
            body.append(line)
        }
        sections.append((path, body.joined(separator: "\n")))

        var schemaSources: [SourceFile] = []
        var documents: [SourceFile] = []
        var options = LensModelOptions()
        for (path, body) in sections {
            if path.hasSuffix("schema.graphql") {
                schemaSources.append(SourceFile(path: path, text: body))
            } else if path.hasSuffix("options.json") {
                options = try self.options(body)
            } else if !isOnlyComments(body) {
                documents.append(SourceFile(path: path, text: body))
            }
        }
        if let corpusSchema {
            let url = corpusDirectory.appendingPathComponent(corpusSchema)
            guard let data = try? Data(contentsOf: url) else {
                throw FixtureError.skipped("no corpus schema at \(url.path)")
            }
            schemaSources = [SourceFile(path: "corpus/" + corpusSchema, bytes: Array(data))]
        } else if schemaSources.isEmpty {
            let url = fixtures.appendingPathComponent("schema.graphql")
            schemaSources = [SourceFile(path: "schema.graphql", bytes: Array(try Data(contentsOf: url)))]
        }
        return Case(schemaSources: schemaSources, documents: documents, options: options)
    }

    /// True for text with nothing but blank and `#` comment lines (a case's preamble).
    static func isOnlyComments(_ text: String) -> Bool {
        text.split(separator: "\n").allSatisfy {
            let line = $0.trimmingCharacters(in: .whitespaces)
            return line.isEmpty || line.hasPrefix("#")
        }
    }

    /// `customScalarTypes` and `onError` as baton.json writes them.
    static func options(_ text: String) throws -> LensModelOptions {
        guard case .success(let json) = JSONParser.parse(Array(text.utf8)) else {
            throw FixtureError.skipped("options.json does not parse")
        }
        var options = LensModelOptions()
        options.onError = json["onError"]?.stringValue
        for member in json["customScalarTypes"]?.objectMembers ?? [] {
            var mapping = CustomScalarMapping()
            mapping.swiftType = member.value["swift"]?.stringValue
            mapping.kotlinType = member.value["kotlin"]?["type"]?.stringValue
            mapping.kotlinConverter = member.value["kotlin"]?["converter"]?.stringValue
            options.customScalars[member.key] = mapping
        }
        return options
    }

    static func build(_ fixture: Case) -> Built? {
        let key = fixture.schemaSources.map { $0.path + "\u{0}" + $0.text }.joined(separator: "\u{0}")
        cacheLock.lock()
        let cached = schemaCache[key]
        cacheLock.unlock()
        let (schema, schemaDiagnostics) = cached ?? SchemaBuilder.build(sources: fixture.schemaSources)
        if cached == nil {
            cacheLock.lock()
            schemaCache[key] = (schema, schemaDiagnostics)
            cacheLock.unlock()
        }
        guard let schema else { return nil }
        // A corpus schema is taken as it is (GitHub's has a field defined twice); a fixture's own
        // schema must be valid.
        let isCorpus = fixture.schemaSources.contains { $0.path.hasPrefix("corpus/") }
        var diagnostics = isCorpus ? [] : schemaDiagnostics.filter { $0.severity == .error }
        var documents: [Document] = []
        for source in fixture.documents {
            let result = Parser.parse(source)
            diagnostics += result.diagnostics
            if let document = result.document { documents.append(document) }
        }
        // The gate: the model is built only from valid documents.
        // The gate: the spec's rules and Baton's, as check, plate and gen run them.
        let validation = Validator.validate(schema: schema, documents: documents, rules: allRules)
        if !validation.isEmpty {
            return Built(schema: schema, model: LensModel(), diagnostics: diagnostics + validation)
        }
        let (model, modelDiagnostics) = LensModelBuilder.build(
            schema: schema, documents: documents, options: fixture.options)
        return Built(schema: schema, model: model, diagnostics: diagnostics + modelDiagnostics)
    }

    /// Every operation's plate, then every fragment's, in name order, as `baton plate` prints them.
    static func plates(_ model: LensModel) -> String {
        let plates =
            model.operations.map { Plate(subject: .operation($0)) }
            + model.fragments.map { Plate(subject: .fragment($0)) }
        return PlateRenderer.render(plates, format: .text)
    }

    static func banner(_ title: String) -> String {
        let side = String(repeating: "=", count: (78 - title.count - 2) / 2)
        return "\(side) \(title) \(side)\n"
    }

    /// Compares `actual` with `<case>.expected`, or writes it under `BATON_UPDATE_FIXTURES=1`.
    static func check(
        _ actual: String, expectedURL: URL, label: String, file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        if ProcessInfo.processInfo.environment["BATON_UPDATE_FIXTURES"] == "1" {
            try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: expectedURL, encoding: .utf8) else {
            XCTFail(
                "\(label): missing \(expectedURL.lastPathComponent); run with BATON_UPDATE_FIXTURES=1", file: file,
                line: line)
            return
        }
        XCTAssertEqual(actual, expected, label, file: file, line: line)
    }
}
