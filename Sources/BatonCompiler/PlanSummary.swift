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
/// nothing changed skips without reading: every document's `links` line, sorted by path, then every
/// `def` line in the plan's order (format 5): operations of every kind by name, then fragments by name
/// (`DefinitionLines.comparePlanOrder`), each with its document's path:
///
///     links 0 name:IssueRow name:Feed label:x%20y\tDocuments/Feed.graphql
///     links 0 name:Feed\tDocuments/IssueRow.graphql
///     def query Feed 5f2c… IssueState - -\tDocuments/Feed.graphql
///     def fragment IssueRow - Issue - - -\tDocuments/IssueRow.graphql
///
/// So the definitions an edit does not reach are a filter over the lines, in the order the plan's block takes
/// them (`SummaryBlock`), with no sort.
///
/// `links` carries `joinsAll` (0 or 1) and the keys, each with its bytes below `!`, `%` and DEL
/// written as `%XX` (a `@defer` label may hold anything); `def` carries what `DefinitionSummary.writeFields` writes.
package struct PlanSummary: Sendable, Equatable {
    /// One document's part.
    package struct Document: Sendable {
        package var links: DocumentLinks
        /// The definitions of a summary made from a plan (`of`); a summary read holds its definitions as
        /// `definitionLines`, by path.
        package var definitions: [DefinitionSummary]

        package init(links: DocumentLinks = DocumentLinks(), definitions: [DefinitionSummary] = []) {
            self.links = links
            self.definitions = definitions
        }
    }

    /// By display path.
    package var documents: [String: Document] {
        didSet { planOrder = nil }
    }
    /// The `def` lines of a summary read, where they lie in its bytes, in the plan's order (none in one made).
    package private(set) var definitionLines = DefinitionLines(bytes: [])
    /// For a summary made from a plan (`of`): its definitions in the plan's order, which `bytes` writes; nil once
    /// `documents` changes.
    private var planOrder: [DefinitionSummary]?

    package init(documents: [String: Document] = [:]) { self.documents = documents }

    /// The definitions of the document at `path`, whole (none for a path the summary does not hold).
    package func definitions(of path: String) -> [DefinitionSummary] {
        guard let document = documents[path] else { return [] }
        return document.definitions + lines(in: [path]).map { definitionLines.summary(at: $0) }
    }

    /// The indices of the `def` lines (`definitionLines`) whose path is among `paths` (compared as `String`'s
    /// `==` compares them: `PathSet`), in order.
    package func lines(in paths: Set<String>) -> [Int] {
        guard !paths.isEmpty, definitionLines.count > 0 else { return [] }
        let set = PathSet(paths)
        return definitionLines.group(byPath: { set.contains($0) ? 1 : 0 }, count: 2)[1]
    }

    /// Equal when the documents are, with their links and their definitions (made or read).
    package static func == (lhs: PlanSummary, rhs: PlanSummary) -> Bool {
        guard lhs.documents.count == rhs.documents.count else { return false }
        for (path, document) in lhs.documents {
            guard let other = rhs.documents[path], document.links == other.links else { return false }
        }
        func byPath(_ summary: PlanSummary) -> [String: [DefinitionSummary]] {
            var result: [String: [DefinitionSummary]] = [:]
            for (path, document) in summary.documents where !document.definitions.isEmpty {
                result[path, default: []] += document.definitions
            }
            for line in 0..<summary.definitionLines.count {
                let path = summary.definitionLines.path(at: line)
                guard summary.documents[path] != nil else { continue }
                result[path, default: []].append(summary.definitionLines.summary(at: line))
            }
            return result.mapValues { list in list.sorted { Self.precedes($0, $1) } }
        }
        return byPath(lhs) == byPath(rhs)
    }

    /// The plan's order of two definitions (`DefinitionLines.comparePlanOrder`): operations before fragments,
    /// each kind by its names' bytes.
    static func precedes(_ a: DefinitionSummary, _ b: DefinitionSummary) -> Bool {
        let (first, second) = (a.kind == .fragment, b.kind == .fragment)
        if first != second { return second }
        return a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
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
        }
        func write(_ definition: DefinitionSummary) {
            definition.writeFields(to: &out)
            out.append(UInt8(ascii: "\t"))
            out.append(contentsOf: definition.path.utf8)
            out.append(UInt8(ascii: "\n"))
        }
        let madeCount = documents.values.reduce(0) { $0 + $1.definitions.count }
        if madeCount == 0 {
            // A summary read: its lines are in the plan's order already; those of a document taken out are not.
            for line in 0..<definitionLines.count where documents[definitionLines.path(at: line)] != nil {
                definitionLines.withLine(at: line) { out.append(contentsOf: $0) }
                out.append(UInt8(ascii: "\n"))
            }
            return out
        }
        // A summary made from a plan holds its definitions in the plan's order (`of`); any other, sorted so.
        var ordered: [DefinitionSummary]
        if let planOrder, planOrder.count == madeCount, definitionLines.count == 0 {
            ordered = planOrder
        } else {
            ordered = documents.values.flatMap(\.definitions)
            for line in 0..<definitionLines.count where documents[definitionLines.path(at: line)] != nil {
                ordered.append(definitionLines.summary(at: line))
            }
        }
        if !zip(ordered, ordered.dropFirst()).allSatisfy({ Self.precedes($0, $1) }) {
            ordered.sort { Self.precedes($0, $1) }
        }
        for definition in ordered {
            guard documents[definition.path] != nil else { return nil }
            write(definition)
        }
        return out
    }

    /// Reads the section's bytes; nil for anything `bytes` does not write (a `links` line after a `def` line, two
    /// of one path, a `def` line not after the last one in the plan's order, a malformed field). One pass over the
    /// bytes, a line at a time. A `def` line is checked (`DefinitionSummary.checkedKind`) and kept where it lies
    /// (`definitionLines`), not made a summary: a large project's tens of thousands, of which an edit reads few.
    package init?(bytes: ArraySlice<UInt8>) {
        guard bytes.count < Int(UInt32.max) else { return nil }
        var lines = DefinitionLines(bytes: bytes)
        let read: [String: Document]? = bytes.withUnsafeBufferPointer { buffer in
            var documents: [String: Document] = [:]
            documents.reserveCapacity(buffer.count / 200)
            guard let base = buffer.baseAddress else { return documents }
            /// Where `byte` is first in `range`, found with `memchr` (the section is megabytes).
            func find(_ byte: UInt8, in range: Range<Int>) -> Int? {
                memchr(base + range.lowerBound, Int32(byte), range.count).map {
                    UnsafeRawPointer($0) - UnsafeRawPointer(base)
                }
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
                if equals(fields[0], "def") {
                    // In the plan's order: after the last one (so no two of one kind and name); a path on one line.
                    guard find(UInt8(ascii: "\t"), in: pathRange) == nil,
                        lines.append(fields: fields.dropFirst(), tab: tab, end: end, in: buffer, inPlanOrder: true)
                    else { return nil }
                } else if equals(fields[0], "links") {
                    // Every document's `links` line before the first `def` line.
                    guard lines.count == 0 else { return nil }
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
                    documents[path] = Document(links: DocumentLinks(keys: keys, joinsAll: joinsAll))
                } else {
                    return nil
                }
            }
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
        // The `links` lines by path, as before; the `def` lines after them in the plan's order (format 5).
        let split = firstDefinition(section)
        let freshSplit = firstDefinition(fresh[...])
        let links = Array(fresh[..<freshSplit])
        var out =
            spliceInPlace(section[..<split], replacing: replaced, with: links)
            ?? spliceByString(section[..<split], replacing: replaced, with: links)
        out += spliceDefinitions(section[split...], replacing: replaced, with: fresh[freshSplit...])
        return out
    }

    /// The same for a section read (`init?(bytes:)`, whose `def` lines are `lines`) of which `kept` (indices of
    /// `lines`, in order: a filter of the read lines, which are in the plan's order) are the `def` lines of the
    /// documents not `replaced`: the `links` lines are spliced as above, and the kept `def` lines are copied in runs
    /// with `fresh`'s put among them, each where halving over `kept` finds its place. No line is parsed again (a
    /// large project's tens of thousands). When `fresh`'s `def` lines are not in the plan's order, as `splice`.
    static func splice(
        _ section: ArraySlice<UInt8>, lines: DefinitionLines, kept: [Int], replacing replaced: Set<String>,
        with fresh: [UInt8]
    ) -> [UInt8] {
        let freshSplit = firstDefinition(fresh[...])
        guard let added = DefinitionLines(section: fresh[freshSplit...]),
            fresh[freshSplit...].reduce(0, { $0 + ($1 == 0x0A ? 1 : 0) }) == added.count
        else { return splice(section, replacing: replaced, with: fresh) }
        var ordered = true
        for index in 1..<max(1, added.count) {
            let previous = added.withName(at: index - 1) { name in
                added.comparePlanOrder(at: index, fragment: added.kind(at: index - 1) == .fragment, name: name)
            }
            if previous <= 0 { ordered = false }
        }
        guard ordered else { return splice(section, replacing: replaced, with: fresh) }
        let split = firstDefinition(section)
        let links = Array(fresh[..<freshSplit])
        var out =
            spliceInPlace(section[..<split], replacing: replaced, with: links)
            ?? spliceByString(section[..<split], replacing: replaced, with: links)
        out.reserveCapacity(out.count + (section.endIndex - split) + (fresh.count - freshSplit))
        var next = 0
        for index in 0..<added.count {
            let fragment = added.kind(at: index) == .fragment
            // The first kept line after this one, from `next` on.
            var (low, high) = (next, kept.count)
            added.withName(at: index) { name in
                while low < high {
                    let middle = (low + high) / 2
                    if lines.comparePlanOrder(at: kept[middle], fragment: fragment, name: name) <= 0 {
                        low = middle + 1
                    } else {
                        high = middle
                    }
                }
            }
            lines.appendLines(kept[next..<low], to: &out)
            next = low
            added.appendLines([index], to: &out)
        }
        lines.appendLines(kept[next...], to: &out)
        return out
    }

    /// Where the first `def` line of `section` begins (its end when it has none).
    private static func firstDefinition(_ section: ArraySlice<UInt8>) -> Int {
        section.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                if buffer.count - start > 4, buffer[start] == UInt8(ascii: "d"), buffer[start + 1] == UInt8(ascii: "e"),
                    buffer[start + 2] == UInt8(ascii: "f"), buffer[start + 3] == UInt8(ascii: " ")
                {
                    break
                }
                start = lineBounds(at: start, in: buffer).end + 1
            }
            return section.startIndex + min(start, buffer.count)
        }
    }

    /// The `def` lines of `section` whose path is not among `replaced`, with `fresh`'s put among them in the plan's
    /// order (`DefinitionLines.comparePlanOrder`): both are in that order (as `bytes` writes them), so the few
    /// fresh lines are merged into the kept ones, which are copied in runs; lines out of that order (not a section
    /// `bytes` wrote) are sorted into it instead.
    static func spliceDefinitions(
        _ section: ArraySlice<UInt8>, replacing replaced: Set<String>, with fresh: ArraySlice<UInt8>
    ) -> [UInt8] {
        /// A line: its bytes (with its newline, when it has one), whether it is a fragment's, its name.
        typealias Line = (range: Range<Int>, fragment: Bool, name: Range<Int>)
        func lines(_ buffer: UnsafeBufferPointer<UInt8>, keeping keep: (Range<Int>) -> Bool) -> [Line] {
            var result: [Line] = []
            var start = 0
            while start < buffer.count {
                let (tab, end) = lineBounds(at: start, in: buffer)
                defer { start = end + 1 }
                guard keep(tab < end ? (tab + 1)..<end : end..<end) else { continue }
                // `def KIND NAME …`: the kind's and the name's fields (empty for a line that has none).
                var kindEnd = min(start + 4, tab)
                while kindEnd < tab, buffer[kindEnd] != UInt8(ascii: " ") { kindEnd += 1 }
                var nameEnd = min(kindEnd + 1, tab)
                while nameEnd < tab, buffer[nameEnd] != UInt8(ascii: " ") { nameEnd += 1 }
                let kind = UnsafeBufferPointer(rebasing: buffer[min(start + 4, kindEnd)..<kindEnd])
                result.append(
                    (
                        start..<min(end + 1, buffer.count), kind.elementsEqual("fragment".utf8),
                        min(kindEnd + 1, nameEnd)..<nameEnd
                    ))
            }
            return result
        }
        let paths = PathSet(replaced)
        return section.withUnsafeBufferPointer { buffer in
            fresh.withUnsafeBufferPointer { freshBuffer in
                let kept = lines(buffer) { path in
                    replaced.isEmpty || !paths.contains(UnsafeBufferPointer(rebasing: buffer[path]))
                }
                let added = lines(freshBuffer) { _ in true }
                func order(
                    _ a: Line, in aBuffer: UnsafeBufferPointer<UInt8>, _ b: Line, in bBuffer: UnsafeBufferPointer<UInt8>
                )
                    -> Int
                {
                    if a.fragment != b.fragment { return a.fragment ? 1 : -1 }
                    return compareBytes(
                        UnsafeBufferPointer(rebasing: aBuffer[a.name]), UnsafeBufferPointer(rebasing: bBuffer[b.name]))
                }
                func inOrder(_ list: [Line], _ source: UnsafeBufferPointer<UInt8>) -> Bool {
                    zip(list, list.dropFirst()).allSatisfy { order($0, in: source, $1, in: source) < 0 }
                }
                var out: [UInt8] = []
                out.reserveCapacity(buffer.count + freshBuffer.count + 1)
                func append(_ line: Line, from source: UnsafeBufferPointer<UInt8>) {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: source[line.range]))
                    if out.last != 0x0A { out.append(0x0A) }
                }
                guard inOrder(kept, buffer), inOrder(added, freshBuffer) else {
                    // Not as `bytes` writes: every line sorted into the plan's order (the kept ones first on a tie).
                    var all = kept.map { ($0, false) } + added.map { ($0, true) }
                    all.sort { a, b in
                        order(a.0, in: a.1 ? freshBuffer : buffer, b.0, in: b.1 ? freshBuffer : buffer) < 0
                    }
                    for (line, isFresh) in all { append(line, from: isFresh ? freshBuffer : buffer) }
                    return out
                }
                // Kept lines not copied yet, copied at once.
                var run: Range<Int>?
                func flush() {
                    guard let copied = run else { return }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[copied]))
                    if out.last != 0x0A { out.append(0x0A) }
                    run = nil
                }
                var next = 0
                for line in kept {
                    if next < added.count, order(added[next], in: freshBuffer, line, in: buffer) < 0 {
                        flush()
                        while next < added.count, order(added[next], in: freshBuffer, line, in: buffer) < 0 {
                            append(added[next], from: freshBuffer)
                            next += 1
                        }
                    }
                    if let copied = run, copied.upperBound == line.range.lowerBound {
                        run = copied.lowerBound..<line.range.upperBound
                    } else {
                        flush()
                        run = line.range
                    }
                }
                flush()
                while next < added.count {
                    append(added[next], from: freshBuffer)
                    next += 1
                }
                return out
            }
        }
    }

    /// memcmp's sign over the common length, then the shorter first: the order of the bytes.
    static func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
            let compared = memcmp(left, right, common)
            if compared != 0 { return Int(compared) }
        }
        return a.count - b.count
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
        let summaries = model.summaries
        for summary in summaries {
            result[summary.path, default: Document()].definitions.append(summary)
        }
        var made = PlanSummary(documents: result)
        // The plan's order (each kind sorted by name), which the section's `def` lines take (`bytes`).
        made.planOrder = summaries.filter { $0.kind != .fragment } + summaries.filter { $0.kind == .fragment }
        return made
    }
}

/// Paths looked up by their bytes as `String`'s `==` finds them (canonical equivalence): where the path asked
/// about and every path of the set are ASCII, only equal bytes are equal, so the set's bytes, sorted, are searched
/// by halving with `memcmp`; otherwise the path is made a `String` and looked up. A large project's section asks
/// about tens of thousands of `def` lines' paths, each for a set of a few.
struct PathSet {
    private let strings: Set<String>
    private let sorted: [[UInt8]]
    private let allASCII: Bool

    init(_ paths: Set<String>) {
        strings = paths
        sorted = paths.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        allASCII = sorted.allSatisfy { $0.allSatisfy { $0 < 0x80 } }
    }

    func contains(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        guard allASCII, Self.isASCII(path) else { return strings.contains(String(decoding: path, as: UTF8.self)) }
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            let compared = sorted[middle].withUnsafeBufferPointer { PlanSummary.compareBytes($0, path) }
            if compared == 0 { return true }
            if compared < 0 { low = middle + 1 } else { high = middle }
        }
        return false
    }

    /// True when every byte is below 0x80, read eight at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if base[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}
