#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `KotlinRuntimeFiles` needs of the file system and of paths, with the C library's calls instead of
/// Foundation's (`FileManager`, `URL`), answering as those do.
package enum FilePath {
    /// What a path is, not following a symbolic link at its end (`lstat`, as `FileManager.attributesOfItem`).
    package enum Kind { case directory, symbolicLink, other }

    package static func kind(of path: String) -> Kind? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// The names in a folder but `.` and `..`, in no order; nil when it cannot be read.
    package static func entries(of folder: String) -> [String]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(cString: $0)
                }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// A file's text when it is UTF-8 (a byte order mark at its start left out, as `String(data:encoding:)`
    /// leaves it); nil when it cannot be read or is not UTF-8.
    package static func utf8Text(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        // Decoding repairs what is not UTF-8 (macOS 13 has no `String(validating:)`): a repaired text differs.
        let text = String(decoding: content, as: UTF8.self)
        return text.utf8.elementsEqual(content) ? text : nil
    }

    /// `path` made absolute against the working directory (as `URL(fileURLWithPath:)`), `//` and a final `/`
    /// dropped.
    package static func absolute(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/"), let directory = getcwd(nil, 0) {
            full = String(cString: directory) + "/" + path
            free(directory)
        }
        return "/" + components(full).joined(separator: "/")
    }

    /// The path without its last component, as `URL.deletingLastPathComponent`: a last `..` stays, and `/`
    /// has none to lose.
    package static func deletingLastComponent(_ path: String) -> String {
        var parts = components(path)
        if let last = parts.last, last != ".." { parts.removeLast() }
        return "/" + parts.joined(separator: "/")
    }

    /// `.` and `..` worked out on the text (`..` at the root stays there), as `URL.standardizedFileURL`.
    package static func standardized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in components(path) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// An existing path with its links resolved (`realpath`), another standardized, as
    /// `URL.resolvingSymlinksInPath`.
    package static func resolvingLinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return standardized(path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func components(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}
