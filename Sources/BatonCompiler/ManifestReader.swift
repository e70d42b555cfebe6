#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a `GenerationManifest`'s text in one pass over its bytes: lines of space-separated
/// fields, a tab, then a path to the end of the line (the format `GenerationManifest.text`
/// writes). Numbers are read from their digits, keywords compared as bytes; only hashes, names
/// and paths become `String`s. Anything that is not exactly that format, whole and ending in
/// `end`, is no manifest (nil): another version, a truncated file, an edited line.
struct ManifestReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// Where each `files` line's fields are, in order (`ManifestFiles`: the caller holds the bytes).
    private(set) var lines: [ManifestFiles.Line] = []
    /// Where the plan's summary section is (`GenerationManifest.plan`: the caller holds the bytes).
    private(set) var plan: Range<Int>?

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let newline = UInt8(ascii: "\n")

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func manifest() -> GenerationManifest? {
        // Offsets of file lines are kept in 32 bits.
        guard bytes.count < Int(UInt32.max), line(equals: GenerationManifest.firstLine),
            word(after: "inputs", ends: Self.space),
            let inputs = text(until: Self.newline), word(after: "names", ends: Self.space),
            let names = text(until: Self.newline)
        else { return nil }
        var manifest = GenerationManifest(inputs: inputs, names: names, documents: [:], files: [])
        // About one document line per three lines (a document makes about two files).
        manifest.documents.reserveCapacity(bytes.count / 400)
        // The stamps' table sized for fewer: by the documents' estimate it held three times saleor's 10,000 (11.4 MB
        // of manifest, 4.8 MB of it the plan section, which has no document line) and a run's peak grew by 3 MB;
        // this one still holds them without growing.
        manifest.documentStamps.reserveCapacity(bytes.count / 1_000)
        lines.reserveCapacity(bytes.count / 180)
        // Set once read whole: a change of `documents` empties it.
        var documentLines = manifest.documentLines
        documentLines.reserveCapacity(bytes.count / 400)
        while position < bytes.count {
            let lineStart = position
            guard let keyword = keyword() else { return nil }
            switch keyword {
            case .end:
                // `end` and its newline must be the last bytes.
                guard position == bytes.count else { return nil }
                manifest.documentLines = documentLines
                return manifest
            case .input, .document:
                guard let hash = text(until: Self.space) else { return nil }
                var stamp: FileStamp?
                if byte(at: position) == UInt8(ascii: "-") && byte(at: position + 1) == Self.tab {
                    position += 2
                } else {
                    guard let read = self.stamp(ends: Self.tab) else { return nil }
                    stamp = read
                }
                guard let path = text(until: Self.newline) else { return nil }
                if keyword == .input {
                    manifest.projectFiles[path] = hash
                    if let stamp { manifest.projectFileStamps[path] = stamp }
                } else {
                    manifest.documents[path] = hash
                    if let stamp { manifest.documentStamps[path] = stamp }
                    documentLines.append((path, hash, stamp, lineStart..<position))
                }
            case .file:
                // Checked whole here, kept as where its fields are (`ManifestFiles`): decoded when asked.
                guard let stamp = stamp(ends: Self.space), let definition = span(until: Self.space),
                    let digest = span(until: Self.tab), let path = span(until: Self.newline)
                else { return nil }
                lines.append(
                    ManifestFiles.Line(
                        start: UInt32(lineStart), definition: UInt32(definition.lowerBound),
                        digest: UInt32(digest.lowerBound), path: UInt32(path.lowerBound), end: UInt32(position),
                        stamp: stamp))
            case .extra:
                guard let stamp = stamp(ends: Self.tab), let path = text(until: Self.newline) else { return nil }
                manifest.extras.append((path, stamp))
            case .plan:
                // Its length first, then the section, taken as bytes (`PlanSummary` reads it when asked).
                guard plan == nil, let count = magnitude(ends: Self.newline),
                    count <= UInt64(bytes.count - position)
                else { return nil }
                let start = position
                position += Int(count)
                plan = start..<position
            }
        }
        return nil
    }

    private enum Keyword { case input, document, file, extra, plan, end }

    private func byte(at index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The line's first word with its separator (a space; `end` a newline), told by the line's first byte and
    /// compared as bytes (a manifest has tens of thousands of lines).
    private mutating func keyword() -> Keyword? {
        switch byte(at: position) {
        case UInt8(ascii: "d"): return word(after: "doc", ends: Self.space) ? .document : nil
        case UInt8(ascii: "f"): return word(after: "file", ends: Self.space) ? .file : nil
        case UInt8(ascii: "i"): return word(after: "input", ends: Self.space) ? .input : nil
        case UInt8(ascii: "e"):
            if word(after: "extra", ends: Self.space) { return .extra }
            return word(after: "end", ends: Self.newline) ? .end : nil
        case UInt8(ascii: "p"): return word(after: "plan", ends: Self.space) ? .plan : nil
        default: return nil
        }
    }

    /// True, and past them, when the next bytes are `word` then `separator`.
    private mutating func word(after word: StaticString, ends separator: UInt8) -> Bool {
        let count = word.utf8CodeUnitCount
        guard let base = bytes.baseAddress, count < bytes.count - position,
            memcmp(base + position, word.utf8Start, count) == 0, bytes[position + count] == separator
        else { return false }
        position += count + 1
        return true
    }

    /// True, and past it, when the next bytes are `text` then a newline.
    private mutating func line(equals text: String) -> Bool {
        var index = position
        for byte in text.utf8 {
            guard self.byte(at: index) == byte else { return false }
            index += 1
        }
        guard byte(at: index) == Self.newline else { return false }
        position = index + 1
        return true
    }

    /// The non-empty text up to `terminator` (past it), which must hold no other separator
    /// (a path may hold spaces, nothing else may); nil otherwise. (Found with `memchr`: the text
    /// is most of the manifest's bytes.)
    private mutating func text(until terminator: UInt8) -> String? {
        guard let span = span(until: terminator), let base = bytes.baseAddress else { return nil }
        return String(decoding: UnsafeBufferPointer(start: base + span.lowerBound, count: span.count), as: UTF8.self)
    }

    /// Where that text is (`text(until:)`'s checks), past its terminator; nil as there.
    private mutating func span(until terminator: UInt8) -> Range<Int>? {
        guard let base = bytes.baseAddress, position < bytes.count else { return nil }
        let start = base + position
        let remaining = bytes.count - position
        guard let found = memchr(start, Int32(terminator), remaining) else { return nil }
        let count = UnsafeRawPointer(found) - UnsafeRawPointer(start)
        guard count > 0 else { return nil }
        func holds(_ separator: UInt8) -> Bool { memchr(start, Int32(separator), count) != nil }
        if terminator != Self.newline && holds(Self.newline) { return nil }
        if terminator != Self.tab && holds(Self.tab) { return nil }
        if terminator == Self.tab && holds(Self.space) { return nil }
        let from = position
        position += count + 1
        return from..<(from + count)
    }

    /// A decimal natural number followed by `terminator` (past it); nil when it overflows.
    private mutating func magnitude(ends terminator: UInt8) -> UInt64? {
        guard let base = bytes.baseAddress else { return nil }
        return Self.magnitude(base, bytes.count, at: &position, ends: terminator)
    }

    /// A stamp's six numbers, separated by spaces, the last followed by `terminator`; each but the inode
    /// optionally negative. Read from the bytes in locals (six numbers per line, tens of thousands of lines).
    private mutating func stamp(ends terminator: UInt8) -> FileStamp? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = position
        func number(ends terminator: UInt8) -> Int64? {
            let negative = index < count && base[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            guard let magnitude = Self.magnitude(base, count, at: &index, ends: terminator),
                magnitude <= UInt64(Int64.max)
            else { return nil }
            return negative ? -Int64(magnitude) : Int64(magnitude)
        }
        guard let size = number(ends: Self.space), let seconds = number(ends: Self.space),
            let nanoseconds = number(ends: Self.space),
            let inode = Self.magnitude(base, count, at: &index, ends: Self.space),
            let changeSeconds = number(ends: Self.space), let changeNanoseconds = number(ends: terminator)
        else { return nil }
        position = index
        return FileStamp(
            size: size, seconds: seconds, nanoseconds: nanoseconds, inode: inode, changeSeconds: changeSeconds,
            changeNanoseconds: changeNanoseconds)
    }

    /// A decimal natural number at `index` in the `count` bytes at `base`, followed by `terminator` (`index` then
    /// past it); nil when there is no digit, another byte follows or it overflows.
    @inline(__always)
    private static func magnitude(
        _ base: UnsafePointer<UInt8>, _ count: Int, at index: inout Int, ends terminator: UInt8
    ) -> UInt64? {
        let start = index
        var at = start
        var value: UInt64 = 0
        // 19 digits always fit
        let fits = min(count, start + 19)
        while at < fits {
            let digit = base[at] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ UInt64(digit)
            at += 1
        }
        while at < count {
            let digit = base[at] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = times.addingReportingOverflow(UInt64(digit))
            guard !overflowed, !overflowedAgain else { return nil }
            value = sum
            at += 1
        }
        guard at > start, at < count, base[at] == terminator else { return nil }
        index = at + 1
        return value
    }
}
