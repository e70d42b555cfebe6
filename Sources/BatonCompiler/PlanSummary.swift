import BatonDiagnostics
import BatonIR
import BatonValidation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a `gen` records of every document of its plan, so the next run after an edit can read,
/// validate and plan only the documents the edit reaches (`GenerationRun.incremental`): each
/// document's links (`DocumentLinks`: the names that tie it to others) and a summary of each
/// definition written in it (`DefinitionSummary`), by display path. Every document of the project
/// has an entry, one that defines nothing too.
///
/// Kept in the manifest (`GenerationManifest.plan`) as its own section of lines, which a run with
/// nothing changed skips without reading:
///
///     links 0 name:IssueRow name:Feed label:x%20y\tDocuments/Feed.graphql
///     def query Feed 5f2c… IssueState - -\tDocuments/Feed.graphql
///
/// `links` carries `joinsAll` (0 or 1) and the keys, each with its bytes below `!`, `%` and DEL
/// written as `%XX` (a `@defer` label may hold anything); `def` carries what `DefinitionSummary.writeFields` writes.
package struct PlanSummary: Sendable, Equatable {
    /// One document's part.
    package struct Document: Sendable {
        package var links: DocumentLinks
        /// The definitions of a summary made from a plan (`of`).
        package var definitions: [DefinitionSummary]
        /// The definitions of a summary read (`init?(bytes:)`): its lines' indices in `definitionLines`.
        package var lines: Range<Int> = 0..<0

        package init(links: DocumentLinks = DocumentLinks(), definitions: [DefinitionSummary] = []) {
            self.links = links
            self.definitions = definitions
        }

        /// True when the document defines something.
        package var definesAnything: Bool { !definitions.isEmpty || !lines.isEmpty }
    }

    /// By display path.
    package var documents: [String: Document]
    /// The `def` lines of a summary read, where they lie in its bytes (none in one made).
    package private(set) var definitionLines = DefinitionLines(bytes: [])

    package init(documents: [String: Document] = [:]) { self.documents = documents }

    /// The definitions of the document at `path`, whole (none for a path the summary does not hold).
    package func definitions(of path: String) -> [DefinitionSummary] {
        guard let document = documents[path] else { return [] }
        return document.definitions + document.lines.map { definitionLines.summary(at: $0) }
    }

    /// Equal when the documents are, with their links and their definitions (made or read).
    package static func == (lhs: PlanSummary, rhs: PlanSummary) -> Bool {
        guard lhs.documents.count == rhs.documents.count else { return false }
        for (path, document) in lhs.documents {
            guard let other = rhs.documents[path], document.links == other.links,
                lhs.definitions(of: path) == rhs.definitions(of: path)
            else { return false }
        }
        return true
    }

    // MARK: Text

    /// The section's bytes (without the manifest's `plan` line); nil when a path cannot be written
    /// on one line.
    package var bytes: [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(documents.count * 160)
        for path in documents.keys.sorted() {
            guard let document = documents[path], Self.fits(path) else { return nil }
            out.append(contentsOf: "links ".utf8)
            out.append(document.links.joinsAll ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            for key in document.links.keys {
                out.append(UInt8(ascii: " "))
                Self.escape(key, into: &out)
            }
            out.append(UInt8(ascii: "\t"))
            out.append(contentsOf: path.utf8)
            out.append(UInt8(ascii: "\n"))
            for definition in document.definitions {
                definition.writeFields(to: &out)
                out.append(UInt8(ascii: "\t"))
                out.append(contentsOf: path.utf8)
                out.append(UInt8(ascii: "\n"))
            }
            for line in document.lines {
                definitionLines.withLine(at: line) { out.append(contentsOf: $0) }
                out.append(UInt8(ascii: "\n"))
            }
        }
        return out
    }

    /// Reads the section's bytes; nil for anything `bytes` does not write (a `def` line but right after its
    /// document's `links` line or another `def` line of it, a malformed field). One pass over the bytes, a line
    /// at a time; the document being read is held aside until its lines end, so a `def` line makes no path of its
    /// own and looks nothing up. A `def` line is checked (`DefinitionSummary.checkedKind`) and kept where it lies
    /// (`definitionLines`), not made a summary: a large project's tens of thousands, of which an edit reads few.
    package init?(bytes: ArraySlice<UInt8>) {
        guard bytes.count < Int(UInt32.max) else { return nil }
        var lines = DefinitionLines(bytes: bytes)
        let read: [String: Document]? = bytes.withUnsafeBufferPointer { buffer in
            var documents: [String: Document] = [:]
            documents.reserveCapacity(buffer.count / 200)
            /// The document of the last `links` line (its path, where the path is in `buffer`, its part).
            var current: (path: String, range: Range<Int>, document: Document)?
            func flush() {
                guard let held = current else { return }
                documents[held.path] = held.document
                current = nil
            }
            guard let base = buffer.baseAddress else { return documents }
            /// Where `byte` is first in `range`, found with `memchr` (the section is megabytes).
            func find(_ byte: UInt8, in range: Range<Int>) -> Int? {
                memchr(base + range.lowerBound, Int32(byte), range.count).map {
                    UnsafeRawPointer($0) - UnsafeRawPointer(base)
                }
            }
            func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
                a.count == b.count && memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0
            }
            func equals(_ range: Range<Int>, _ word: StaticString) -> Bool {
                range.count == word.utf8CodeUnitCount
                    && memcmp(base + range.lowerBound, word.utf8Start, range.count) == 0
            }
            var position = 0
            let count = buffer.count
            var fields: [Range<Int>] = []
            fields.reserveCapacity(8)
            while position < count {
                // One line: fields separated by spaces, a tab, the path, a newline.
                guard let end = find(0x0A, in: position..<count),
                    let tab = find(UInt8(ascii: "\t"), in: position..<end),
                    end > tab + 1
                else { return nil }
                let pathRange = (tab + 1)..<end
                fields.removeAll(keepingCapacity: true)
                var fieldStart = position
                while let space = find(UInt8(ascii: " "), in: fieldStart..<tab) {
                    fields.append(fieldStart..<space)
                    fieldStart = space + 1
                }
                fields.append(fieldStart..<tab)
                position = end + 1
                func field(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
                    UnsafeBufferPointer(rebasing: buffer[range])
                }
                if equals(fields[0], "links") {
                    flush()
                    let path = String(decoding: field(pathRange), as: UTF8.self)
                    guard Self.fits(path), fields.count >= 2, documents[path] == nil else { return nil }
                    let joinsAll: Bool
                    if equals(fields[1], "0") {
                        joinsAll = false
                    } else if equals(fields[1], "1") {
                        joinsAll = true
                    } else {
                        return nil
                    }
                    var keys: [String] = []
                    keys.reserveCapacity(fields.count - 2)
                    for range in fields.dropFirst(2) {
                        guard let key = Self.unescape(field(range)) else { return nil }
                        keys.append(key)
                    }
                    current = (path, pathRange, Document(links: DocumentLinks(keys: keys, joinsAll: joinsAll)))
                } else if equals(fields[0], "def") {
                    // Right after its document's `links` line, or its other `def` lines: its lines are one run.
                    guard let held = current, same(held.range, pathRange),
                        lines.append(fields: fields.dropFirst(), tab: tab, end: end, in: buffer, path: held.path)
                    else { return nil }
                    let first = held.document.lines.isEmpty ? lines.count - 1 : held.document.lines.lowerBound
                    current?.document.lines = first..<lines.count
                } else {
                    return nil
                }
            }
            flush()
            return documents
        }
        guard let read else { return nil }
        self.documents = read
        self.definitionLines = lines
    }

    /// A section (`bytes`) with every line of the documents `replaced` taken out and the lines of
    /// `fresh` (another section, of documents among `replaced`) put in their places: both are sorted
    /// by path, so the result is what `bytes` writes for the merged summary, made by copying lines.
    ///
    /// Where every path is ASCII (there `String`'s `==` and `<` are the bytes'), the section's paths are
    /// compared in place with the replaced ones, sorted, as the two lists are walked together: no `String` and
    /// no hash per document (a large project's section lists tens of thousands). A section whose paths are not
    /// in that order (not one `bytes` wrote), or a path outside ASCII, is spliced through `String`s instead.
    package static func splice(_ section: [UInt8], replacing replaced: Set<String>, with fresh: [UInt8]) -> [UInt8] {
        splice(section[...], replacing: replaced, with: fresh)
    }

    /// The same with the section as a slice (a manifest's, read: `GenerationManifest.plan`).
    package static func splice(_ section: ArraySlice<UInt8>, replacing replaced: Set<String>, with fresh: [UInt8])
        -> [UInt8]
    {
        spliceInPlace(section, replacing: replaced, with: fresh)
            ?? spliceByString(section, replacing: replaced, with: fresh)
    }

    /// Each line's range and its path's, in order.
    private static func lines(_ bytes: [UInt8]) -> [(range: Range<Int>, path: Range<Int>)] {
        var result: [(Range<Int>, Range<Int>)] = []
        var start = 0
        bytes.withUnsafeBufferPointer { buffer in
            while start < buffer.count {
                let (tab, end) = lineBounds(at: start, in: buffer)
                result.append((start..<min(end + 1, buffer.count), tab < end ? (tab + 1)..<end : end..<end))
                start = end + 1
            }
        }
        return result
    }

    /// `splice` with the paths compared as bytes; nil when a path is not ASCII or the section's paths are not in
    /// strictly increasing order from one document to the next.
    private static func spliceInPlace(
        _ section: ArraySlice<UInt8>, replacing replaced: Set<String>, with fresh: [UInt8]
    )
        -> [UInt8]?
    {
        func isASCII(_ bytes: some Sequence<UInt8>) -> Bool { bytes.allSatisfy { $0 < 0x80 } }
        guard replaced.allSatisfy({ isASCII($0.utf8) }), isASCII(fresh) else { return nil }
        let removed = replaced.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        let freshLines = lines(fresh)
        var out: [UInt8] = []
        out.reserveCapacity(section.count + fresh.count)
        var next = 0
        let spliced: Bool = section.withUnsafeBufferPointer { buffer in
            fresh.withUnsafeBufferPointer { freshBuffer in
                guard let base = buffer.baseAddress else { return true }
                /// How `a` (in the section) orders against `b`'s bytes: memcmp's sign, then the shorter first.
                func order(_ a: Range<Int>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
                    let common = min(a.count, b.count)
                    if common > 0, let other = b.baseAddress {
                        let compared = memcmp(base + a.lowerBound, other, common)
                        if compared != 0 { return Int(compared) }
                    }
                    return a.count - b.count
                }
                func freshPath(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                    UnsafeBufferPointer(rebasing: freshBuffer[freshLines[index].path])
                }
                var run: Range<Int>?
                func flush() {
                    guard let copied = run else { return }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[copied]))
                    run = nil
                }
                var previous: (path: Range<Int>, kept: Bool)?
                var nextRemoved = 0
                var start = 0
                while start < buffer.count {
                    let (tab, end) = lineBounds(at: start, in: buffer)
                    let line = start..<min(end + 1, buffer.count)
                    let path = tab < end ? (tab + 1)..<end : end..<end
                    start = end + 1
                    if let known = previous {
                        let compared = order(known.path, UnsafeBufferPointer(rebasing: buffer[path]))
                        if compared == 0 {
                            if known.kept { run = run.map { $0.lowerBound..<line.upperBound } ?? line }
                            continue
                        }
                        // A document's lines together, the documents in increasing order, or not a section `bytes` wrote.
                        guard compared < 0 else { return false }
                    }
                    guard isASCII(UnsafeBufferPointer(rebasing: buffer[path])) else { return false }
                    // The replaced paths before this one are passed: it is replaced when it is the next one.
                    var kept = true
                    while nextRemoved < removed.count {
                        let compared = removed[nextRemoved].withUnsafeBufferPointer { order(path, $0) }
                        if compared > 0 {
                            nextRemoved += 1
                            continue
                        }
                        kept = compared != 0
                        break
                    }
                    previous = (path, kept)
                    guard kept else {
                        flush()
                        continue
                    }
                    // Fresh documents' lines go before the first kept line of a later path.
                    if next < freshLines.count, order(path, freshPath(next)) > 0 {
                        flush()
                        while next < freshLines.count, order(path, freshPath(next)) > 0 {
                            out.append(contentsOf: UnsafeBufferPointer(rebasing: freshBuffer[freshLines[next].range]))
                            next += 1
                        }
                    }
                    run = run.map { $0.lowerBound..<line.upperBound } ?? line
                }
                flush()
                return true
            }
        }
        guard spliced else { return nil }
        while next < freshLines.count {
            out.append(contentsOf: fresh[freshLines[next].range])
            next += 1
        }
        return out
    }

    /// `splice` with each document's path made a `String`, looked up in `replaced` and compared with the fresh
    /// ones' as `String`s.
    private static func spliceByString(
        _ section: ArraySlice<UInt8>, replacing replaced: Set<String>, with fresh: [UInt8]
    )
        -> [UInt8]
    {
        var out: [UInt8] = []
        out.reserveCapacity(section.count + fresh.count)
        let freshLines = lines(fresh)
        let freshPaths = freshLines.map { String(decoding: fresh[$0.path], as: UTF8.self) }
        var next = 0
        section.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // Kept lines not copied yet: a run of them is copied at once.
            var run: Range<Int>?
            func flush() {
                guard let copied = run else { return }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[copied]))
                run = nil
            }
            func keep(_ line: Range<Int>) { run = run.map { $0.lowerBound..<line.upperBound } ?? line }
            func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
                a.count == b.count && memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0
            }
            // A document's lines are together: its path is made, looked up and compared once, on its first line.
            var previous: (path: Range<Int>, kept: Bool)?
            var start = 0
            while start < buffer.count {
                let (tab, end) = lineBounds(at: start, in: buffer)
                let line = start..<min(end + 1, buffer.count)
                let path = tab < end ? (tab + 1)..<end : end..<end
                start = end + 1
                if let known = previous, same(known.path, path) {
                    if known.kept { keep(line) }
                    continue
                }
                let linePath = String(decoding: UnsafeBufferPointer(rebasing: buffer[path]), as: UTF8.self)
                let kept = !replaced.contains(linePath)
                previous = (path, kept)
                guard kept else {
                    flush()
                    continue
                }
                // Fresh documents' lines go before the first kept line of a later path.
                if next < freshLines.count, freshPaths[next] < linePath {
                    flush()
                    while next < freshLines.count, freshPaths[next] < linePath {
                        out.append(contentsOf: fresh[freshLines[next].range])
                        next += 1
                    }
                }
                keep(line)
            }
            flush()
        }
        while next < freshLines.count {
            out.append(contentsOf: fresh[freshLines[next].range])
            next += 1
        }
        return out
    }

    /// The line of `buffer` that begins at `start`: where its first tab is (`end` when it has none) and where
    /// it ends (its newline, or the buffer's end). Found with `memchr` (a section is megabytes).
    private static func lineBounds(at start: Int, in buffer: UnsafeBufferPointer<UInt8>) -> (tab: Int, end: Int) {
        guard let base = buffer.baseAddress, start < buffer.count else { return (start, start) }
        func find(_ byte: UInt8, before limit: Int) -> Int? {
            memchr(base + start, Int32(byte), limit - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
        }
        let end = find(0x0A, before: buffer.count) ?? buffer.count
        return (find(UInt8(ascii: "\t"), before: end) ?? end, end)
    }

    private static func fits(_ path: String) -> Bool {
        !path.isEmpty && !path.utf8.contains(where: { $0 == UInt8(ascii: "\t") || $0 == 0x0A || $0 == 0x0D })
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `key` with every byte below `!`, `%` and DEL as `%XX`.
    private static func escape(_ key: String, into out: inout [UInt8]) {
        if key.isEmpty {
            out.append(contentsOf: "%".utf8)  // never written by `DocumentLinks`; read back as an error
            return
        }
        for byte in key.utf8 {
            if byte <= 0x20 || byte == UInt8(ascii: "%") || byte == 0x7F {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            } else {
                out.append(byte)
            }
        }
    }

    private static func unescape(_ field: UnsafeBufferPointer<UInt8>) -> String? {
        guard !field.isEmpty else { return nil }
        guard field.contains(UInt8(ascii: "%")) else { return String(decoding: field, as: UTF8.self) }
        var out: [UInt8] = []
        var index = field.startIndex
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while index < field.endIndex {
            let byte = field[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < field.endIndex, let high = hex(field[index + 1]), let low = hex(field[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension PlanSummary {
    /// The summary of a plan of `units` (every document of the project, or the documents an
    /// incremental run planned again), with an empty entry for each of `documents` (display paths)
    /// no unit holds (a schema-only file the project leaves out): each unit's links (its
    /// documents' merged) and the definitions of `model` written in it (summaries excluded).
    static func of(
        units: [DocumentUnit], model: LensModel, documents: some Sequence<String>, display: (String) -> String
    ) -> PlanSummary {
        var result: [String: Document] = [:]
        for path in documents { result[path] = Document() }
        for unit in units {
            let links = unit.documents.reduce(DocumentLinks()) { $0.merging(DocumentLinks.of($1)) }
            result[display(unit.path)] = Document(links: links)
        }
        for summary in model.summaries {
            result[summary.path, default: Document()].definitions.append(summary)
        }
        return PlanSummary(documents: result)
    }
}
