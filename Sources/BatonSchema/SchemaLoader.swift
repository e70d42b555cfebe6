import BatonDiagnostics
import BatonFiles

/// Loads a schema from the paths a configuration names: SDL files (`.graphql`, `.graphqls`,
/// `.gql`, merged into one schema), a directory of them (searched recursively, in sorted
/// order), or one introspection result (`.json`, or any file whose text starts with `{`).
///
/// A file that cannot be read is a diagnostic with rule `io` naming its path; the other files
/// still load. An introspection result cannot be combined with other files (Baton does not
/// extend a built schema); that is reported and the introspection result alone is used.
package enum SchemaLoader {
    /// File name endings read as SDL when a directory is searched.
    package static let sdlExtensions = [".graphql", ".graphqls", ".gql"]

    package static func load(paths: [String]) -> (GraphQLSchema?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var sources: [SourceFile] = []
        for path in paths {
            switch expand(path) {
            case .success(let files):
                for file in files {
                    switch readFile(file) {
                    case .success(let source): sources.append(source)
                    case .failure(let error): diagnostics.append(error.diagnostic)
                    }
                }
            case .failure(let error):
                diagnostics.append(error.diagnostic)
            }
        }
        if sources.isEmpty {
            if diagnostics.isEmpty {
                diagnostics.append(Diagnostic(.error, "No schema files were given.", rule: "io", range: nil))
            }
            return (nil, diagnostics)
        }
        let (schema, more) = load(sources: sources)
        return (schema, diagnostics + more)
    }

    /// Builds one schema from sources already read, choosing SDL or introspection by content. Without
    /// `descriptions`, SDL descriptions are left empty (`SchemaBuilder.build(sources:descriptions:)`).
    package static func load(sources: [SourceFile], descriptions: Bool = true) -> (GraphQLSchema?, [Diagnostic]) {
        let introspection = sources.filter(isIntrospection)
        guard let first = introspection.first else {
            return SchemaBuilder.build(sources: sources, descriptions: descriptions)
        }
        var (schema, diagnostics) = IntrospectionSchemaBuilder.build(source: first)
        for other in sources where other !== first {
            diagnostics.append(
                Diagnostic(
                    .error,
                    "An introspection result (\(first.path)) cannot be combined with other schema files; this file was ignored.",
                    rule: "schema", range: nil, path: other.path))
        }
        return (schema, diagnostics)
    }

    /// True for a `.json` file or a text whose first non-blank character is `{`.
    package static func isIntrospection(_ source: SourceFile) -> Bool {
        if source.path.lowercased().hasSuffix(".json") { return true }
        var index = 0
        let bytes = source.bytes
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "{")
    }

    /// Reads one file into a `SourceFile`, or an `io` diagnostic naming the path and the reason.
    package static func readFile(_ path: String) -> Result<SourceFile, SchemaIOError> {
        switch FileSystem.readFile(path) {
        case .success(let bytes): .success(SourceFile(path: path, bytes: bytes))
        case .failure(let failure): .failure(ioError(path, failure.reason))
        }
    }

    /// The file itself, or for a directory the SDL files under it (hidden ones left out), sorted.
    private static func expand(_ path: String) -> Result<[String], SchemaIOError> {
        switch FileSystem.statusOrError(of: path, followingLinks: true) {
        case .failure(let error): return .failure(ioError(path, error.description))
        case .success(let status) where status.kind != .directory: return .success([path])
        case .success: break
        }
        var files: [String] = []
        var pending = [path]
        var visited = 0
        while let directory = pending.popLast() {
            visited += 1
            if visited > 100_000 { break }  // a link cycle cannot make this endless
            let entries: [FileSystem.ListedEntry]
            switch FileSystem.listing(of: directory) {
            case .success(let listed): entries = listed
            case .failure(let error): return .failure(ioError(directory, error.description))
            }
            for entry in entries where !entry.name.hasPrefix(".") {
                let name = entry.name
                let child = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                // What a symbolic link names, as `stat` says (a listing's kind is the link's own).
                guard let kind = FileSystem.kind(of: child) else { continue }
                if kind == .directory {
                    pending.append(child)
                } else if sdlExtensions.contains(where: { name.lowercased().hasSuffix($0) }) {
                    files.append(child)
                }
            }
        }
        return .success(files.sorted())
    }

    private static func ioError(_ path: String, _ reason: String) -> SchemaIOError {
        SchemaIOError(
            diagnostic: Diagnostic(.error, "Cannot read \(path): \(reason).", rule: "io", range: nil, path: path))
    }
}

/// A file that could not be read, as the diagnostic to report.
package struct SchemaIOError: Error, Sendable {
    package var diagnostic: Diagnostic
}
