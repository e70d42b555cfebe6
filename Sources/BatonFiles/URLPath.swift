#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths spelled as Foundation's `URL` spells them (`URL(fileURLWithPath:)`, `deletingLastPathComponent`,
/// `standardizedFileURL`, `resolvingSymlinksInPath`), for the places where Baton promises `URL`'s answers
/// (the Kotlin runtime's folders, as its problems list them) in a process that links no Foundation.
/// `Path` is Baton's own arithmetic; these differ from it on purpose (`absolute` keeps `.` and `..`).
package enum URLPath {
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
        guard case .success(let resolved) = FileSystem.resolvingLinks(path) else { return standardized(path) }
        return resolved
    }

    private static func components(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }
}
