import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonSyntax

/// A fixture's files compiled as a project, in memory, by the driver `check` and `gen` run: the
/// same stages, gate and diagnostic policy, so a fixture shows exactly what the commands would.
///
/// A section named `schema.graphql` or ending in `.graphqls` is the schema; `baton.json` is the
/// configuration (read by the real loader: `customScalarTypes`, `onError`, `rules`, `output`; its
/// `schema` must be given but is not read, the fixture's schema is); every other section is a
/// document, except one that is nothing but comments (a case's preamble).
package struct FixtureProject {
    /// The folder the fixture's files seem to be in; diagnostics show paths relative to it.
    package static let root = "/fixture"

    /// The compilation, run up to `stage`.
    package let compilation: Compilation
    /// Problems reading `baton.json`.
    package let configurationDiagnostics: [Diagnostic]

    /// Compiles `sections` up to `stage` (as `check` does with `checksOnly`); `defaultSchema` (a
    /// display path and bytes) stands in when no section is a schema. `streaming` streams the
    /// documents (`CompilationOptions.streamsDocuments`) with that many workers and batch size;
    /// `workers` (with `batchBytes`) sets them for the whole-project path. `schemas` shares the schema built with
    /// other fixture projects of the same schema files (`SchemaMemo`).
    package init(
        sections: [(path: String, text: String)], defaultSchema: (path: String, bytes: [UInt8])?,
        upTo stage: Compilation.Stage, targets: TargetSelection = .none, checksOnly: Bool = false,
        streaming: (workers: Int, batchBytes: Int)? = nil, workers: Int? = nil, batchBytes: Int? = nil,
        schemas: SchemaMemo? = nil
    ) {
        var overlays: [String: [UInt8]] = [:]
        var schemaFiles: [String] = []
        var documentFiles: [String] = []
        var configuration: Configuration?
        var configurationDiagnostics: [Diagnostic] = []
        for section in sections {
            let path = Self.root + "/" + section.path
            if section.path == "baton.json" {
                let loaded = ConfigurationLoader.load(
                    text: section.text, path: path, workingDirectory: Self.root, knownRules: RuleCatalog.ruleIDs)
                configuration = loaded.projects.first
                configurationDiagnostics = loaded.diagnostics
                continue
            }
            if section.path.hasSuffix("schema.graphql") || section.path.hasSuffix(".graphqls") {
                schemaFiles.append(path)
            } else if FixtureRunner.isOnlyComments(section.text) {
                continue
            } else {
                documentFiles.append(path)
            }
            overlays[path] = Array(section.text.utf8)
        }
        if schemaFiles.isEmpty, let defaultSchema {
            let path = Self.root + "/" + defaultSchema.path
            schemaFiles = [path]
            overlays[path] = defaultSchema.bytes
        }
        let project = ProjectInput(
            configuration: configuration, schemaFiles: schemaFiles, documentFiles: documentFiles, overlays: overlays)
        var options = CompilationOptions(checksOnly: checksOnly)
        options.schemas = schemas
        if let workers { options.workers = workers }
        if let batchBytes { options.batchBytes = batchBytes }
        if let streaming {
            options.streamsDocuments = true
            options.workers = streaming.workers
            options.batchBytes = streaming.batchBytes
        }
        compilation = Compilation(project: project, workingDirectory: Self.root, targets: targets, options: options)
        compilation.run(upTo: stage)
        self.configurationDiagnostics = configurationDiagnostics
    }

    /// Every diagnostic: the configuration's, then the compilation's, sorted.
    package var diagnostics: [Diagnostic] {
        (configurationDiagnostics + compilation.diagnostics).sorted(by: Diagnostic.sortKey)
    }
}

extension FixtureCase {
    /// The case's files parsed (`sections()`), with their syntax diagnostics: what the rule
    /// fixture suites validate.
    package func documents() throws -> (documents: [Document], diagnostics: [Diagnostic]) {
        var documents: [Document] = []
        var diagnostics: [Diagnostic] = []
        for section in try sections() {
            let result = Parser.parse(SourceFile(path: section.path, text: section.text))
            diagnostics += result.diagnostics
            if let document = result.document { documents.append(document) }
        }
        return (documents, diagnostics)
    }
}
