#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Path arithmetic on `/`-separated strings: joining, normalising, relative paths.
///
/// Baton keeps absolute, normalised paths internally and shows paths relative to the working
/// directory, so output is the same wherever the project is checked out.
package enum Path {
    /// `path` made absolute against `base` (if relative) and normalised.
    package static func absolute(_ path: String, relativeTo base: String) -> String {
        if path.hasPrefix("/") { return isNormalAbsolute(path) ? path : normalize(path) }
        let joined = base + "/" + path
        return isNormalAbsolute(joined) ? joined : normalize(joined)
    }

    /// True when `normalize` returns `path` as it is, read on bytes (the usual case: `check` makes every
    /// diagnostic's path absolute): it begins with `/`, and no segment is empty, `.` or `..`. Every `/` must
    /// have ASCII bytes beside it, because `normalize` splits on `Character`s and a combining mark after a
    /// `/`, or a prepended mark before it, makes one character of them.
    package static func isNormalAbsolute(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        var bytes = path.utf8.makeIterator()
        guard bytes.next() == slash else { return false }
        // The current segment's length and whether it is all dots, and the byte before the current one.
        var length = 0
        var dots = true
        var previous = slash
        while let byte = bytes.next() {
            if byte == slash {
                guard previous < 0x80, length > 0, !(dots && length <= 2) else { return false }
                length = 0
                dots = true
            } else {
                if previous == slash, byte >= 0x80 { return false }
                length += 1
                if byte != dot { dots = false }
            }
            previous = byte
        }
        // `/` alone is normal; otherwise the last segment is checked as the others are.
        return length == 0 ? path.utf8.count == 1 : !(dots && length <= 2)
    }

    /// Removes `.` segments, empty segments and resolves `..` lexically.
    package static func normalize(_ path: String) -> String {
        let isAbsolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !isAbsolute {
                    parts.append(part)
                }
                continue
            }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        if isAbsolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The directory part of a path (`/a/b/c` → `/a/b`, `/a` → `/`).
    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// The last segment of a path.
    package static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The extension of the last segment, without the dot, lowercased ("" if none).
    package static func pathExtension(_ path: String) -> String {
        // On bytes where they lie: `/` and `.` are ASCII and never part of a longer UTF-8 sequence.
        var path = path
        return path.withUTF8 { bytes -> String in
            var index = bytes.count
            while index > 0 {
                let byte = bytes[index - 1]
                if byte == UInt8(ascii: "/") { return "" }
                if byte == UInt8(ascii: ".") { break }
                index -= 1
            }
            // No dot (`index` 0), or a name that starts with its only dot (`.gitignore`), has no extension.
            let dot = index - 1
            guard dot > 0, bytes[dot - 1] != UInt8(ascii: "/") else { return "" }
            let suffix = UnsafeBufferPointer(rebasing: bytes[(dot + 1)...])
            if suffix.allSatisfy({ $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
                return String(decoding: suffix, as: UTF8.self)
            }
            return String(decoding: suffix, as: UTF8.self).lowercased()
        }
    }

    /// Orders paths (and names) by their UTF-8 bytes, as every file list Baton makes is sorted.
    package static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0, let a = left.baseAddress, let b = right.baseAddress {
                    let order = memcmp(a, b, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }

    /// `list` in `precedes`' order of `name`s (their UTF-8 bytes; items of one name in no set order): by
    /// the names' first sixteen bytes as two numbers, and by the whole names' bytes only where those are the same
    /// (a project of ten thousand documents in folders of a hundred: compared name against name, most of its walk).
    package static func sortByBytes<Item>(_ list: inout [Item], name: (Item) -> String) {
        guard list.count > 1 else { return }
        var keys: [(high: UInt64, low: UInt64, index: Int)] = []
        keys.reserveCapacity(list.count)
        for index in list.indices {
            var key: (high: UInt64, low: UInt64) = (0, 0)
            var text = name(list[index])
            text.withUTF8 { bytes in
                // Big-endian: the numbers order as the bytes do; a shorter name's missing bytes are zeros.
                for count in 0..<min(bytes.count, 8) { key.high |= UInt64(bytes[count]) << (56 - 8 * count) }
                guard bytes.count > 8 else { return }
                for count in 8..<min(bytes.count, 16) { key.low |= UInt64(bytes[count]) << (56 - 8 * (count - 8)) }
            }
            keys.append((key.high, key.low, index))
        }
        keys.sort { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            // The same first sixteen bytes (or a name that is their prefix padded with zeros): the whole names.
            return precedes(name(list[a.index]), name(list[b.index]))
        }
        list = keys.map { list[$0.index] }
    }

    /// The entry `name` of the folder `directory` (absolute; `/` joins without a second slash), its bytes
    /// copied once into a string of their size (a walk makes one per file found, tens of thousands).
    package static func child(_ directory: String, _ name: String) -> String {
        var directory = directory
        var name = name
        return directory.withUTF8 { folder in
            name.withUTF8 { name in
                let slash = folder.count == 1 && folder[0] == UInt8(ascii: "/") ? 0 : 1
                return String(unsafeUninitializedCapacity: folder.count + slash + name.count) { buffer in
                    var end = buffer.initialize(fromContentsOf: folder)
                    if slash == 1 {
                        buffer[end] = UInt8(ascii: "/")
                        end += 1
                    }
                    return buffer[end...].initialize(fromContentsOf: name)
                }
            }
        }
    }

    /// Joins two paths (`b` absolute wins).
    package static func join(_ a: String, _ b: String) -> String {
        if b.hasPrefix("/") || a.isEmpty { return b }
        if b.isEmpty { return a }
        return a.hasSuffix("/") ? a + b : a + "/" + b
    }

    /// `path` relative to `base` (both absolute and normalised): `a/b`, `../c`, or `.`.
    package static func relative(_ path: String, to base: String) -> String {
        // The usual case, a path under `base`: the rest of its bytes after `base/`.
        // (Compared as contiguous bytes: `gen` with nothing changed takes every document's display path.)
        if base != "/" {
            var path = path
            var base = base
            let rest: String? = path.withUTF8 { path in
                base.withUTF8 { base in
                    guard path.count > base.count + 1, path[base.count] == UInt8(ascii: "/"),
                        let a = path.baseAddress, let b = base.baseAddress, memcmp(a, b, base.count) == 0
                    else { return nil }
                    return String(decoding: UnsafeBufferPointer(rebasing: path[(base.count + 1)...]), as: UTF8.self)
                }
            }
            if let rest { return rest }
        }
        let target = path.split(separator: "/")
        let from = base.split(separator: "/")
        var common = 0
        while common < target.count && common < from.count && target[common] == from[common] { common += 1 }
        var parts = [Substring](repeating: "..", count: from.count - common)
        parts.append(contentsOf: target[common...])
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// How a path is shown: relative to `base` when it lies under it, or is close (at most two
    /// levels up), otherwise absolute; always absolute from `/` (`--absolute-paths`).
    package static func display(_ path: String, from base: String) -> String {
        guard path.utf8.first == UInt8(ascii: "/"), base != "/" else { return path }
        let relative = relative(path, to: base)
        if relative.utf8.first != UInt8(ascii: ".") { return relative }
        var ups = 0
        var rest = Substring(relative)
        while rest.hasPrefix("../") {
            ups += 1
            rest = rest.dropFirst(3)
        }
        return ups <= 2 ? relative : path
    }

    /// Whether `path` is `directory` itself or lies under it (both absolute and normalised).
    package static func isInside(_ path: String, directory: String) -> Bool {
        if path == directory || directory == "/" { return true }
        return path.hasPrefix(directory) && path.utf8.dropFirst(directory.utf8.count).first == UInt8(ascii: "/")
    }
}
