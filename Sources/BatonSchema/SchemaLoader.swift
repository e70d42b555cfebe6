import BatonDiagnostics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(ioError(path, errno)) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base, buffer.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(ioError(path, errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return .success(SourceFile(path: path, bytes: bytes))
    }

    /// The file itself, or for a directory the SDL files under it, sorted.
    private static func expand(_ path: String) -> Result<[String], SchemaIOError> {
        var status = stat()
        guard stat(path, &status) == 0 else { return .failure(ioError(path, errno)) }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return .success([path]) }
        var files: [String] = []
        var pending = [path]
        var visited = 0
        while let directory = pending.popLast() {
            visited += 1
            if visited > 100_000 { break }  // a link cycle cannot make this endless
            guard let handle = opendir(directory) else { return .failure(ioError(directory, errno)) }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name == "." || name == ".." || name.hasPrefix(".") { continue }
                let child = directory.hasSuffix("/") ? directory + name : directory + "/" + name
                var childStatus = stat()
                guard stat(child, &childStatus) == 0 else { continue }
                if (childStatus.st_mode & S_IFMT) == S_IFDIR {
                    pending.append(child)
                } else if sdlExtensions.contains(where: { name.lowercased().hasSuffix($0) }) {
                    files.append(child)
                }
            }
        }
        return .success(files.sorted())
    }

    private static func ioError(_ path: String, _ code: Int32) -> SchemaIOError {
        let reason = String(cString: strerror(code))
        return SchemaIOError(
            diagnostic: Diagnostic(.error, "Cannot read \(path): \(reason).", rule: "io", range: nil, path: path))
    }
}

/// A file that could not be read, as the diagnostic to report.
package struct SchemaIOError: Error, Sendable {
    package var diagnostic: Diagnostic
}
