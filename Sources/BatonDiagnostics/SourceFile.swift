#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One text that diagnostics point into: a `.graphql` file, a schema, a `baton.json`, or the
/// GraphQL embedded in a Swift string literal.
///
/// Text is kept as UTF-8 bytes; positions everywhere are byte offsets. Lines and columns are
/// computed only when a diagnostic is printed. Columns count UTF-16 code units, as graphql-js,
/// LSP and VS Code do, so our locations compare one to one with graphql-js's.
///
/// An embedded document (GraphQL inside a Swift literal) carries a `host` file and a list of
/// `segments` mapping its offsets back into the host, so a diagnostic on the extracted text is
/// reported at the true line and column of the `.swift` file.
package final class SourceFile: Sendable, Hashable, CustomStringConvertible {
    /// The path as it is shown to the user (relative to the working directory where possible).
    package let path: String
    /// The text, as UTF-8 bytes (a leading BOM, if any, is kept; lexers skip it). A file whose
    /// bytes were let go (`releaseBytes`) reads them again here, the first time it is asked.
    package var bytes: [UInt8] {
        guard let releasable else { return storedBytes }
        return releasable.bytes()
    }
    private let storedBytes: [UInt8]
    /// For a file that may let its bytes go: them, or how to read them again.
    private let releasable: ReleasableBytes?
    /// Byte offset of the first byte of each line. `lineStarts[0] == 0`. Computed on first use:
    /// only diagnostics need lines, and most files of a project have none.
    package var lineStarts: [Int] { lineTable.starts(of: bytes) }
    private let lineTable = LineTable()
    /// The file this text was extracted from, if it is embedded.
    package let host: SourceFile?
    /// For embedded text: runs mapping offsets of this text to offsets of `host`, sorted by
    /// `offset`. Within a run the mapping is one byte to one byte.
    package let segments: [SourceSegment]

    package init(path: String, bytes: [UInt8]) {
        self.path = path
        self.storedBytes = bytes
        self.releasable = nil
        self.host = nil
        self.segments = []
    }

    /// A file whose bytes `releaseBytes` may let go: asked for again, they are read by `reread` (the
    /// file's bytes on disk, or nil when it cannot be read) and used only if they are the same bytes.
    package init(path: String, bytes: [UInt8], reread: @escaping @Sendable () -> [UInt8]?) {
        self.path = path
        self.storedBytes = []
        self.releasable = ReleasableBytes(bytes, reread: reread)
        self.host = nil
        self.segments = []
    }

    package convenience init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// An embedded text whose offsets map into `host` through `segments`.
    package init(path: String, bytes: [UInt8], host: SourceFile, segments: [SourceSegment]) {
        self.path = path
        self.storedBytes = bytes
        self.releasable = nil
        self.host = host
        self.segments = segments.sorted { $0.offset < $1.offset }
    }

    /// The text decoded as a String (invalid UTF-8 is repaired with U+FFFD).
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    package var description: String { path }

    /// Lets the bytes go, keeping their length and digest, when the file may (`init(path:bytes:reread:)`;
    /// otherwise nothing happens): a schema's text, which only a diagnostic's place needs once the schema
    /// is built. Asked for again (`bytes`), they are read again; if the file has changed or cannot be
    /// read, the text is empty from then on (`isStale`): a place in it is line 0, column 0 (unknown) with
    /// no excerpt, rather than the new text's lines under the old offsets.
    package func releaseBytes() { releasable?.release() }

    /// True when the bytes were let go and, read again, were not the same (the file changed or is gone).
    package var isStale: Bool { releasable?.isStale ?? false }

    package static func == (lhs: SourceFile, rhs: SourceFile) -> Bool { lhs === rhs }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// Line starts after `\n`, `\r\n` and a lone `\r`, as graphql-js counts lines.
    static func computeLineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(bytes.count / 32 + 1)
        let count = bytes.count
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, count > 0 else { return }
            if memchr(base, 0x0D, count) == nil {
                // LF only (the usual case): let memchr find each one.
                var index = 0
                while index < count, let found = memchr(base + index, 0x0A, count - index) {
                    index = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                    starts.append(index)
                }
                return
            }
            var index = 0
            while index < count {
                let byte = buffer[index]
                if byte == 0x0A {
                    starts.append(index + 1)
                } else if byte == 0x0D {
                    if index + 1 < count && buffer[index + 1] == 0x0A { index += 1 }
                    starts.append(index + 1)
                }
                index += 1
            }
        }
        return starts
    }

    /// The 1-based line and UTF-16 column of a byte offset in this text (not mapped to a host).
    package func localLocation(of offset: Int) -> SourceLocation {
        let bytes = self.bytes
        // A released file found changed when read again: no line and no column (0, 0), not a guess.
        if releasable?.isStale == true { return SourceLocation(line: 0, column: 0, offset: offset) }
        let clamped = max(0, min(offset, bytes.count))
        let lineStarts = self.lineStarts
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= clamped { low = mid } else { high = mid - 1 }
        }
        let lineStart = lineStarts[low]
        var column = 1
        var index = lineStart
        while index < clamped {
            if bytes[index] < 0x80 {
                column += 1
                index += 1
                continue
            }
            let (length, units) = SourceFile.utf16Width(bytes, at: index)
            column += units
            index += length
        }
        return SourceLocation(line: low + 1, column: column, offset: clamped)
    }

    /// The byte length and UTF-16 width of the character at `index`. Ill-formed UTF-8 counts as
    /// a decoder that follows the WHATWG Encoding Standard (node's `readFileSync(…, 'utf8')`)
    /// sees it: each maximal ill-formed subpart is one U+FFFD, one code unit wide.
    package static func utf16Width(_ bytes: [UInt8], at index: Int) -> (length: Int, units: Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (1, 1) }
        let needed: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: needed = 1
        case 0xE0:
            needed = 2
            low = 0xA0
        case 0xED:
            needed = 2
            high = 0x9F
        case 0xE1...0xEF: needed = 2
        case 0xF0:
            needed = 3
            low = 0x90
        case 0xF4:
            needed = 3
            high = 0x8F
        case 0xF1...0xF3: needed = 3
        default: return (1, 1)  // a stray continuation byte or a byte that never begins UTF-8
        }
        var length = 1
        while length <= needed {
            guard index + length < bytes.count else { return (length, 1) }
            let byte = bytes[index + length]
            guard byte >= low && byte <= high else { return (length, 1) }
            low = 0x80
            high = 0xBF
            length += 1
        }
        return (length, needed == 3 ? 2 : 1)
    }

    /// The file a diagnostic names: for embedded text, its (outermost) host; otherwise this file. The
    /// file `resolve` answers with, found without locating anything.
    package var named: SourceFile { host?.named ?? self }

    /// The file a diagnostic should name and the location in it: for embedded text, the host
    /// file and the mapped location; otherwise this file.
    package func resolve(_ offset: Int) -> (file: SourceFile, location: SourceLocation) {
        guard let host else { return (self, localLocation(of: offset)) }
        var low = 0
        var high = segments.count - 1
        var found: SourceSegment?
        while low <= high {
            let mid = (low + high) / 2
            if segments[mid].offset <= offset {
                found = segments[mid]
                low = mid + 1
            } else {
                high = mid - 1
            }
        }
        let hostOffset = found.map { $0.hostOffset + (offset - $0.offset) } ?? 0
        return host.resolve(hostOffset)
    }
}

/// A source's line table, made the first time a line is asked for and kept from then on. A
/// `SourceFile` is shared across threads, so the one-time computation is guarded by a lock.
private final class LineTable: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Guarded by `lock`.
    private var starts: [Int]?

    init() { pthread_mutex_init(lock, nil) }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    func starts(of bytes: [UInt8]) -> [Int] {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let starts { return starts }
        let computed = SourceFile.computeLineStarts(bytes)
        starts = computed
        return computed
    }
}

/// A file's bytes that may be let go and read again (`SourceFile.releaseBytes`), guarded by a lock: a
/// `SourceFile` is shared across threads.
private final class ReleasableBytes: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let reread: @Sendable () -> [UInt8]?
    /// Guarded by `lock`: the bytes while held; nil once released (until read again).
    private var held: [UInt8]?
    /// Guarded by `lock`: the released bytes' length and digest, to know them again.
    private var count = 0
    private var digest: UInt64 = 0
    /// Guarded by `lock`: read again and found different (or unreadable).
    private var stale = false

    init(_ bytes: [UInt8], reread: @escaping @Sendable () -> [UInt8]?) {
        self.reread = reread
        held = bytes
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    func release() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard let bytes = held else { return }
        count = bytes.count
        digest = ReleasableBytes.digest(bytes)
        held = nil
    }

    var isStale: Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return stale
    }

    func bytes() -> [UInt8] {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let held { return held }
        let read = reread()
        let same = read.map { $0.count == count && ReleasableBytes.digest($0) == digest } ?? false
        stale = !same
        let kept = same ? read ?? [] : []
        held = kept
        return kept
    }

    /// A 64-bit digest of `bytes`, eight bytes at a time (a multiply-xor mix; not for an adversary, for a
    /// file edited while it was let go).
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        bytes.withUnsafeBytes { raw in
            let words = raw.count / 8
            for index in 0..<words {
                let word = raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
            }
            for index in (words * 8)..<raw.count {
                hash = (hash ^ UInt64(raw[index])) &* 0x0000_0100_0000_01B3
            }
        }
        return hash
    }
}

/// A run of an embedded text that maps byte for byte onto its host, from `offset` on.
package struct SourceSegment: Sendable, Hashable {
    package var offset: Int
    package var hostOffset: Int
    package init(offset: Int, hostOffset: Int) {
        self.offset = offset
        self.hostOffset = hostOffset
    }
}

/// A 1-based line and UTF-16 column, with the byte offset they were computed from.
package struct SourceLocation: Sendable, Hashable, Comparable {
    package var line: Int
    package var column: Int
    package var offset: Int
    package init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }
    package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// A half-open range of UTF-8 byte offsets `[start, end)` in one source.
///
/// Stored as two 32-bit offsets: every AST node, name and value carries a span, and half the
/// size of each is several megabytes on a project of 10,000 operations. Sources longer than
/// `maximumOffset` bytes are refused by the parser; an offset past it is clamped, never trapped.
package struct Span: Sendable, Hashable {
    private var storedStart: UInt32
    private var storedEnd: UInt32
    package var start: Int {
        get { Int(storedStart) }
        set { storedStart = UInt32(clamping: newValue) }
    }
    package var end: Int {
        get { Int(storedEnd) }
        set { storedEnd = UInt32(clamping: newValue) }
    }
    package init(start: Int, end: Int) {
        storedStart = UInt32(clamping: start)
        storedEnd = UInt32(clamping: end)
    }
    /// The largest offset a span holds exactly (4 GiB - 1).
    package static let maximumOffset = Int(UInt32.max)
    package static let zero = Span(start: 0, end: 0)
    /// The span from the start of `self` to the end of `other`.
    package func through(_ other: Span) -> Span { Span(start: start, end: max(end, other.end)) }
}
