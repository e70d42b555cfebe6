import BatonFiles

/// A file pattern from `baton.json` or the command line: `*` matches any run of characters
/// within one path segment, `?` one character, and `**` as a whole segment any number of
/// segments (zero included). Everything else matches itself.
///
/// A pattern is anchored at a directory: its leading segments without wildcards are resolved
/// against the base directory and form `root`, the folder a walk starts from; the rest is
/// matched against paths relative to `root`. A pattern without wildcards names a file, or a
/// directory and everything under it.
package struct GlobPattern: Sendable, Hashable, CustomStringConvertible {
    /// One segment of the wildcard part.
    enum Segment: Sendable, Hashable {
        /// `**`: any number of segments.
        case recursive
        /// A segment without wildcards.
        case literal(String)
        /// A segment with `*` or `?`, as Unicode scalars.
        case wildcard([Unicode.Scalar])
    }

    /// The pattern as written.
    package let text: String
    /// The absolute, normalised directory (or file) the wildcard part is relative to.
    package let root: String
    /// The wildcard part; empty for a plain path.
    let segments: [Segment]
    /// For the most common pattern, `…/**/*.ext` (`**` then `*` and an ASCII suffix without
    /// wildcards), the suffix's bytes: a path matches when its last segment ends with them, which
    /// `matches` then checks on bytes without splitting the path.
    let recursiveSuffix: [UInt8]?
    /// `root`'s bytes, for `matches`' byte-wise route (`recursiveSuffix`).
    let rootBytes: [UInt8]

    /// Compiles `text` against `base` (an absolute directory).
    package init(_ text: String, base: String) {
        self.text = text
        let absolute = Path.absolute(text, relativeTo: base)
        var rootParts: [Substring] = []
        var rest: [Segment] = []
        var inWildcardPart = false
        for part in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            let hasWildcard = part.contains("*") || part.contains("?")
            if !inWildcardPart && !hasWildcard {
                rootParts.append(part)
                continue
            }
            inWildcardPart = true
            if part == "**" {
                if rest.last != .recursive { rest.append(.recursive) }
            } else if hasWildcard {
                rest.append(.wildcard(Array(part.unicodeScalars)))
            } else {
                rest.append(.literal(String(part)))
            }
        }
        self.root = "/" + rootParts.joined(separator: "/")
        self.rootBytes = Array(root.utf8)
        self.segments = rest
        if rest.count == 2, rest[0] == .recursive, case .wildcard(let scalars) = rest[1], scalars.first == "*",
            scalars.dropFirst().allSatisfy({ $0.isASCII && $0 != "*" && $0 != "?" && $0 != "/" })
        {
            recursiveSuffix = scalars.dropFirst().map { UInt8($0.value) }
        } else {
            recursiveSuffix = nil
        }
    }

    package var description: String { text }

    /// Whether the pattern has wildcards (a plain path has none).
    package var hasWildcards: Bool { !segments.isEmpty }

    /// Whether an absolute, normalised path matches: for a plain path, the path itself or
    /// anything under it; otherwise the path relative to `root` matches the wildcard part.
    package func matches(_ path: String) -> Bool {
        if let suffix = recursiveSuffix, let answer = matchesSuffix(path, suffix) { return answer }
        guard Path.isInside(path, directory: root) else { return false }
        if segments.isEmpty { return true }
        let relative = path.utf8.dropFirst(root == "/" ? 1 : root.utf8.count + 1)
        guard !relative.isEmpty else { return false }
        if let suffix = recursiveSuffix {
            // `**` takes every segment but the last, `*` any start of the last: what is left is
            // the suffix (ASCII, so comparing bytes is comparing scalars).
            let slash = relative.lastIndex(of: UInt8(ascii: "/"))
            let last = slash.map { relative[relative.index(after: $0)...] } ?? relative
            if !last.isEmpty {
                return last.count >= suffix.count && last.suffix(suffix.count).elementsEqual(suffix)
            }
        }
        let parts = String(decoding: relative, as: UTF8.self).split(separator: "/", omittingEmptySubsequences: true)
        return GlobPattern.match(segments, parts)
    }

    /// `matches`' answer for a `recursiveSuffix` pattern, read from the path's bytes in place (a project's
    /// walk asks it of every file, tens of thousands): when the path's bytes begin with `root`'s and a `/`,
    /// and its last segment is not empty, whether that segment ends with the suffix; nil otherwise (the
    /// general route answers: a path equal to `root`, ending in `/`, or inside it only as Unicode compares).
    private func matchesSuffix(_ path: String, _ suffix: [UInt8]) -> Bool? {
        path.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            let slash = UInt8(ascii: "/")
            let start: Int
            if rootBytes == [slash] {
                guard bytes.first == slash else { return nil }
                start = 1
            } else {
                guard bytes.count > rootBytes.count, bytes[rootBytes.count] == slash,
                    rootBytes.withUnsafeBufferPointer({ root in
                        // Byte by byte where they lie (not `elementsEqual`'s iterators: asked of every file walked).
                        var index = root.count
                        while index > 0, bytes[index - 1] == root[index - 1] { index -= 1 }
                        return index == 0
                    })
                else { return nil }
                start = rootBytes.count + 1
            }
            var lastStart = bytes.count
            while lastStart > start, bytes[lastStart - 1] != slash { lastStart -= 1 }
            let lastCount = bytes.count - lastStart
            guard lastCount > 0 else { return nil }
            return lastCount >= suffix.count && bytes.suffix(suffix.count).elementsEqual(suffix)
        } ?? nil
    }

    /// Whether some path under the directory `path` (absolute) could match: lets a walk skip
    /// folders the pattern can never reach.
    package func couldMatchInside(_ path: String) -> Bool {
        if Path.isInside(root, directory: path) { return true }
        guard Path.isInside(path, directory: root) else { return false }
        if segments.isEmpty { return true }
        let relative = path.utf8.dropFirst(root == "/" ? 1 : root.utf8.count + 1)
        let parts = String(decoding: relative, as: UTF8.self).split(separator: "/", omittingEmptySubsequences: true)
        // The pattern positions reachable after consuming the directory's segments.
        var reachable = Set([0])
        for part in parts {
            var next = Set<Int>()
            for index in reachable where index < segments.count {
                switch segments[index] {
                case .recursive:
                    next.insert(index)
                    if index + 1 < segments.count, GlobPattern.matchSegment(segments[index + 1], part) {
                        next.insert(index + 2)
                    }
                default:
                    if GlobPattern.matchSegment(segments[index], part) { next.insert(index + 1) }
                }
            }
            reachable = next
            if reachable.isEmpty { return false }
        }
        // A file inside needs at least one more segment of pattern (or a `**` to absorb it).
        return reachable.contains { $0 < segments.count }
    }

    /// Matches path segments against pattern segments; `**` by dynamic programming so no
    /// pattern can make matching exponential.
    static func match(_ pattern: [Segment], _ parts: [Substring]) -> Bool {
        // matched[j]: pattern prefix consumed so far matches parts[0..<j].
        var matched = [Bool](repeating: false, count: parts.count + 1)
        matched[0] = true
        for segment in pattern {
            var next = [Bool](repeating: false, count: parts.count + 1)
            switch segment {
            case .recursive:
                var any = false
                for j in 0...parts.count {
                    any = any || matched[j]
                    next[j] = any
                }
            default:
                for j in 0..<parts.count where matched[j] && matchSegment(segment, parts[j]) {
                    next[j + 1] = true
                }
            }
            matched = next
        }
        return matched[parts.count]
    }

    /// Matches one path segment against one pattern segment.
    static func matchSegment(_ segment: Segment, _ part: Substring) -> Bool {
        switch segment {
        case .recursive: return true
        case .literal(let text): return part == text
        case .wildcard(let pattern): return matchWildcard(pattern, Array(part.unicodeScalars))
        }
    }

    /// `*` and `?` matching with single-star backtracking: linear in practice, quadratic at worst.
    static func matchWildcard(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        var p = 0
        var t = 0
        var starP = -1
        var starT = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == text[t])) {
                p += 1
                t += 1
            } else if p < pattern.count && pattern[p] == "*" {
                starP = p
                starT = t
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
