import BatonConfig
import BatonDiagnostics
import BatonFiles
import BatonSchema
import BatonSyntax
import BatonValidation

/// Reads what a project is made of: its schema and its documents (GraphQL files and the
/// literals in Swift sources), parsed, one `DocumentUnit` per file. The driver's first stage;
/// benchmarks and tests that need a project's files read them through it too.
package struct ProjectLoader {
    /// Where paths are shown relative to.
    package var workingDirectory: String
    /// Texts read instead of the files at their (absolute) paths: an editor's unsaved buffers, or
    /// a test's files that exist only in memory.
    package var overlays: [String: [UInt8]]
    /// Schemas already built for another compilation of the same files (`SchemaMemo`: tests), or nil.
    package var schemas: SchemaMemo?

    package init(workingDirectory: String, overlays: [String: [UInt8]] = [:], schemas: SchemaMemo? = nil) {
        self.workingDirectory = workingDirectory
        self.overlays = overlays
        self.schemas = schemas
    }

    /// A path as shown in diagnostics.
    package func display(_ path: String) -> String { Path.display(path, from: workingDirectory) }

    /// An I/O error for a file that cannot be read.
    package func unreadable(_ path: String, _ reason: String) -> Diagnostic {
        Diagnostic(.error, "Cannot read \(display(path)): \(reason).", rule: "io", range: nil, path: display(path))
    }

    /// A file read, or the `io` diagnostic saying why it could not be.
    package enum ReadResult {
        case success(SourceFile)
        case failure(Diagnostic)
    }

    /// Reads a file as a source; a `releasable` one may let its bytes go and read them again from the file
    /// (`SourceFile.releaseBytes`; an overlay's never do).
    package func read(_ path: String, releasable: Bool = false) -> ReadResult {
        if let bytes = overlays[path] { return .success(SourceFile(path: display(path), bytes: bytes)) }
        switch FileSystem.readFile(path) {
        case .success(let bytes) where releasable:
            return .success(
                SourceFile(path: display(path), bytes: bytes) { try? FileSystem.readFile(path).get() })
        case .success(let bytes): return .success(SourceFile(path: display(path), bytes: bytes))
        case .failure(let failure): return .failure(unreadable(path, failure.reason))
        }
    }

    /// Builds the schema from its files: one introspection result (`.json`), or any number of
    /// SDL files merged. The schema is nil when it could not be built at all.
    /// Baton's schema checks (`semantic-non-null-levels`) run on a schema that was built. (The
    /// driver's policy applies the project's `rules` to every schema diagnostic, so a vendor
    /// schema's known problem can be turned into a warning.)
    /// Without `descriptions`, an SDL schema's descriptions are left empty (`check`, which never shows them).
    /// `releasingText` lets the files' text go once the schema is built (`SourceFile.releaseBytes`: a
    /// one-shot `check`; only a diagnostic's place needs the text then, and a saleor-sized schema is a
    /// megabyte): a diagnostic into a file reads it again when it is printed.
    package func loadSchema(_ paths: [String], descriptions: Bool = true, releasingText: Bool = false) -> LoadedSchema {
        var sources: [SourceFile] = []
        var diagnostics: [Diagnostic] = []
        for path in paths {
            switch read(path, releasable: releasingText) {
            case .success(let source): sources.append(source)
            case .failure(let diagnostic): diagnostics.append(diagnostic)
            }
        }
        guard diagnostics.isEmpty, !sources.isEmpty else { return (nil, sources, diagnostics) }
        func build() -> LoadedSchema {
            var (schema, diagnostics) = SchemaLoader.load(sources: sources, descriptions: descriptions)
            if let schema { diagnostics += BatonSchemaRules.check(schema) }
            return (schema, sources, diagnostics)
        }
        let loaded = schemas?.schema(of: sources, descriptions: descriptions, build: build) ?? build()
        if releasingText { loaded.sources.forEach { $0.releaseBytes() } }
        return loaded
    }

    /// A schema built from its files (nil when it could not be built at all), the files, and what was found.
    package typealias LoadedSchema = (schema: GraphQLSchema?, sources: [SourceFile], diagnostics: [Diagnostic])

    /// The GraphQL sources in a document file: the file itself, or for a Swift source the
    /// literals of its Baton attributes.
    package func documentSources(_ path: String) -> (sources: [SourceFile], diagnostics: [Diagnostic]) {
        switch read(path) {
        case .failure(let diagnostic):
            return ([], [diagnostic])
        case .success(let file):
            guard Path.pathExtension(path) == "swift" else { return ([file], []) }
            let (documents, diagnostics) = SwiftDocumentExtractor.extract(from: file)
            return (documents.map { $0.source }, diagnostics)
        }
    }

    /// Reads and parses one document file: a unit of its own, so a changed file is read again
    /// alone and files can be parsed independently.
    package func loadUnit(_ path: String) -> DocumentUnit {
        let (sources, diagnostics) = documentSources(path)
        return DocumentUnit(path: path, parsing: sources, diagnostics: diagnostics)
    }

    /// Reads and parses documents, in the order given.
    package func loadDocuments(_ paths: [String]) -> LoadedDocuments {
        var loaded = LoadedDocuments()
        for path in paths {
            let unit = loadUnit(path)
            loaded.diagnostics += unit.diagnostics
            loaded.sourceCount += unit.sourceCount
            loaded.documents += unit.documents
        }
        return loaded
    }
}

/// One document file, read and parsed: a `.graphql` file, or the GraphQL literals of a Swift
/// source (each its own document).
package struct DocumentUnit: Sendable {
    /// The absolute path.
    package var path: String
    package var documents: [Document] = []
    /// Reading, extraction and syntax diagnostics.
    package var diagnostics: [Diagnostic] = []
    /// How many GraphQL texts the file holds (one for a GraphQL file, one per literal in Swift).
    package var sourceCount = 0

    package init(path: String) { self.path = path }

    /// The unit of a file read as `sources` with `diagnostics` (reading, extraction): each source
    /// parsed, its syntax diagnostics after those.
    package init(path: String, parsing sources: [SourceFile], diagnostics: [Diagnostic]) {
        var names = NameTable()
        self.init(path: path, parsing: sources, diagnostics: diagnostics, names: &names)
    }

    /// The same, its names made through `names`, a table the caller keeps across files (`Parser.parse(_:names:)`).
    package init(path: String, parsing sources: [SourceFile], diagnostics: [Diagnostic], names: inout NameTable) {
        self.path = path
        self.diagnostics = diagnostics
        for source in sources {
            sourceCount += 1
            let result = Parser.parse(source, names: &names)
            self.diagnostics += result.diagnostics
            if let document = result.document { documents.append(document) }
        }
    }

    /// True for a file that parsed and holds type-system definitions only (a schema, not a
    /// document): without a baton.json saying which files are the schema, such a file found
    /// among the documents is left out rather than reported as not executable.
    package var isSchemaOnly: Bool {
        guard !documents.isEmpty, !diagnostics.contains(where: { $0.severity == .error }) else { return false }
        return documents.allSatisfy { document in
            !document.definitions.isEmpty && !document.definitions.contains(where: \.isExecutable)
        }
    }
}

/// Parsed documents with the problems found reading and parsing them.
package struct LoadedDocuments {
    package var documents: [Document] = []
    package var diagnostics: [Diagnostic] = []
    /// How many GraphQL texts were read (files and Swift literals), parsed or not.
    package var sourceCount = 0
}
