#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `def` lines of a plan summary section (`DefinitionSummary.writeFields`, then a tab and the path), kept where
/// they lie in the section's bytes and read a field at a time where a step needs one, instead of a
/// `DefinitionSummary` each (a large project's tens of thousands, of which an edit needs a few whole). Each line is
/// checked when it is added (`DefinitionSummary.checkedKind`, the one check of a line's fields, which makes no
/// `String`), so no accessor fails.
package struct DefinitionLines: Sendable {
    /// Where one line's fields are in `bytes` (offsets from its start): its first byte (the kind's), its name's
    /// start and end, its type condition's start (the operation id is between the name and it), its three lists'
    /// start and end (a generated name follows them when they end before the tab), its tab (the path follows it)
    /// and its end (its newline, or the bytes' end: the path is between the two); its kind.
    struct Line: Sendable {
        var start, name, nameEnd, condition, lists, listsEnd, tab, end: UInt32
        var kind: DefinitionSummary.Kind
    }

    /// The section (a slice of the manifest's bytes, not a copy).
    package let bytes: ArraySlice<UInt8>
    private var lines: [Line] = []

    /// How many lines.
    package var count: Int { lines.count }

    /// No lines yet, over `bytes` (`append` adds them).
    package init(bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// The `def` lines of `section` (its other lines passed over); nil when one is not what `writeFields` and a
    /// path write, or when the section is too large for its offsets.
    package init?(section: ArraySlice<UInt8>) {
        self.init(bytes: section)
        guard section.count < Int(UInt32.max) else { return nil }
        var lines = self
        let read: Bool = section.withUnsafeBufferPointer { buffer in
            var fields: [Range<Int>] = []
            var start = 0
            while start < buffer.count {
                var end = start
                while end < buffer.count, buffer[end] != 0x0A { end += 1 }
                defer { start = end + 1 }
                let isDefinition =
                    end - start > 4 && buffer[start] == UInt8(ascii: "d") && buffer[start + 1] == UInt8(ascii: "e")
                    && buffer[start + 2] == UInt8(ascii: "f") && buffer[start + 3] == UInt8(ascii: " ")
                guard isDefinition else { continue }
                var tab = start
                while tab < end, buffer[tab] != UInt8(ascii: "\t") { tab += 1 }
                guard tab < end else { return false }
                fields.removeAll(keepingCapacity: true)
                var fieldStart = start + 4
                for index in (start + 4)...tab where index == tab || buffer[index] == UInt8(ascii: " ") {
                    fields.append(fieldStart..<index)
                    fieldStart = index + 1
                }
                guard lines.append(fields: fields[...], tab: tab, end: end, in: buffer) else { return false }
            }
            return true
        }
        guard read else { return nil }
        self = lines
    }

    /// Adds the line of `buffer` (the section's) whose fields after `def` are `fields`, whose tab is at `tab` and
    /// whose end (its newline, or the buffer's end) is at `end`; false (nothing added) when the fields are not
    /// what `writeFields` writes, the path is empty, or an offset does not fit. The path stays where it lies: a
    /// line's path is made a `String` only when asked (`path(at:)`; format 5 writes the lines in the plan's order,
    /// where a document's lines are seldom next to each other).
    /// With `inPlanOrder`, a line not after the last one in the plan's order (`comparePlanOrder`) is refused too.
    package mutating func append(
        fields: ArraySlice<Range<Int>>, tab: Int, end: Int, in buffer: UnsafeBufferPointer<UInt8>,
        inPlanOrder: Bool = false
    ) -> Bool {
        guard end > tab + 1, end < Int(UInt32.max), let kind = DefinitionSummary.checkedKind(fields: fields, in: buffer)
        else { return false }
        let first = fields.startIndex
        if inPlanOrder, let last = lines.last, let base = buffer.baseAddress {
            // Operations (of any kind) before fragments, each kind by its names' bytes, each after the last.
            let (wasFragment, isFragment) = (last.kind == .fragment, kind == .fragment)
            if wasFragment != isFragment {
                guard isFragment else { return false }
            } else {
                let name = fields[first + 1]
                let compared = Self.compare(
                    UnsafeBufferPointer(start: base + Int(last.name), count: Int(last.nameEnd - last.name)),
                    UnsafeBufferPointer(start: base + name.lowerBound, count: name.count))
                guard compared < 0 else { return false }
            }
        }
        lines.append(
            Line(
                start: UInt32(fields[first].lowerBound - 4), name: UInt32(fields[first + 1].lowerBound),
                nameEnd: UInt32(fields[first + 1].upperBound), condition: UInt32(fields[first + 3].lowerBound),
                lists: UInt32(fields[first + 4].lowerBound), listsEnd: UInt32(fields[first + 6].upperBound),
                tab: UInt32(tab), end: UInt32(end), kind: kind))
        return true
    }

    /// How line `index` orders in the plan's order (format 5's order of `def` lines: operations of any kind before
    /// fragments, each kind by its names' bytes) against a definition that is a fragment or not and named `name`:
    /// negative before, 0 the same kind and name, positive after.
    package func comparePlanOrder(at index: Int, fragment: Bool, name: UnsafeBufferPointer<UInt8>) -> Int {
        let isFragment = lines[index].kind == .fragment
        if isFragment != fragment { return isFragment ? 1 : -1 }
        return compareName(at: index, with: name)
    }

    /// The bytes of `range` of the section.
    private func withBytes<Result>(_ range: Range<UInt32>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[Int(range.lowerBound)..<Int(range.upperBound)]))
        }
    }

    private func text(_ range: Range<UInt32>) -> String { withBytes(range) { String(decoding: $0, as: UTF8.self) } }

    /// A field's text, empty for `-`.
    private func optional(_ range: Range<UInt32>) -> String {
        withBytes(range) { DefinitionSummary.isNone($0) ? "" : String(decoding: $0, as: UTF8.self) }
    }

    /// Line `index`'s kind.
    package func kind(at index: Int) -> DefinitionSummary.Kind { lines[index].kind }

    /// Line `index`'s name's bytes, read where they lie.
    package func withName<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withBytes(lines[index].name..<lines[index].nameEnd, body)
    }

    /// Line `index`'s name.
    package func name(at index: Int) -> String { text(lines[index].name..<lines[index].nameEnd) }

    /// Line `index`'s name and generated name: the recorded one, else the name (`DefinitionSummary.typeName`;
    /// one `String` then).
    package func names(at index: Int) -> (name: String, typeName: String) {
        let line = lines[index]
        let name = text(line.name..<line.nameEnd)
        return (name, line.listsEnd < line.tab ? text((line.listsEnd + 1)..<line.tab) : name)
    }

    /// Line `index`'s display path (a `String` made of its bytes).
    package func path(at index: Int) -> String { text((lines[index].tab + 1)..<lines[index].end) }

    /// The indices of the lines in each group `classify` puts their paths' bytes in (`0..<count`), each in order:
    /// one pass over the lines, the bytes read where they lie (a large project's tens of thousands).
    package func group(byPath classify: (UnsafeBufferPointer<UInt8>) -> Int, count: Int) -> [[Int]] {
        var groups = [[Int]](repeating: [], count: count)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for (index, line) in lines.enumerated() {
                let group = classify(
                    UnsafeBufferPointer(start: base + Int(line.tab) + 1, count: Int(line.end - line.tab) - 1))
                if groups[group].isEmpty, group == 0 { groups[group].reserveCapacity(lines.count) }
                groups[group].append(index)
            }
        }
        return groups
    }

    /// Appends the bytes of the lines `indices` (each with its newline), lines next to each other in the bytes
    /// copied at once.
    package func appendLines(_ indices: ArraySlice<Int>, to out: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var run: Range<Int>?
            func flush() {
                guard let copied = run else { return }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[copied]))
                if copied.upperBound == buffer.count, out.last != 0x0A { out.append(0x0A) }
                run = nil
            }
            for index in indices {
                let line = lines[index]
                let range = Int(line.start)..<min(Int(line.end) + 1, buffer.count)
                if let copied = run, copied.upperBound == range.lowerBound {
                    run = copied.lowerBound..<range.upperBound
                } else {
                    flush()
                    run = range
                }
            }
            flush()
        }
    }

    /// Line `index`'s operation id; empty for none.
    package func operationID(at index: Int) -> String {
        optional((lines[index].nameEnd + 1)..<(lines[index].condition - 1))
    }

    /// Line `index`'s type condition; empty for none.
    package func typeCondition(at index: Int) -> String { optional(lines[index].condition..<(lines[index].lists - 1)) }

    /// Line `index`'s used schema types.
    package func usedTypes(at index: Int) -> UsedTypeNames {
        withBytes(lines[index].lists..<lines[index].listsEnd) { field in
            var lists: [[String]] = []
            var start = 0
            for position in 0...field.count where position == field.count || field[position] == UInt8(ascii: " ") {
                lists.append(DefinitionSummary.list(UnsafeBufferPointer(rebasing: field[start..<position])))
                start = position + 1
            }
            return UsedTypeNames(enums: lists[0], inputObjects: lists[1], customScalars: lists[2])
        }
    }

    /// True when lines `index` and `other` use the same schema types, written alike (their lists' bytes equal).
    package func sameUsedTypes(at index: Int, as other: Int) -> Bool {
        same(lines[index].lists..<lines[index].listsEnd, lines[other].lists..<lines[other].listsEnd)
    }

    /// True when lines `index` and `other` have the same type condition (or none).
    package func sameTypeCondition(at index: Int, as other: Int) -> Bool {
        same(lines[index].condition..<(lines[index].lists - 1), lines[other].condition..<(lines[other].lists - 1))
    }

    /// True when the bytes of `a` and `b` are the same.
    private func same(_ a: Range<UInt32>, _ b: Range<UInt32>) -> Bool {
        guard a.count == b.count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return true }
            return memcmp(base + Int(a.lowerBound), base + Int(b.lowerBound), a.count) == 0
        }
    }

    /// How line `index`'s name orders against `name` (bytes): negative before, 0 equal, positive after; for
    /// GraphQL's names (ASCII) as `String`'s `<` orders them.
    package func compareName(at index: Int, with name: UnsafeBufferPointer<UInt8>) -> Int {
        withName(at: index) { Self.compare($0, name) }
    }

    /// The same with `name` a `String` (or a part of one).
    package func compareName(at index: Int, with name: some StringProtocol) -> Int {
        if let compared = name.utf8.withContiguousStorageIfAvailable({ compareName(at: index, with: $0) }) {
            return compared
        }
        var copy = String(name)
        return copy.withUTF8 { compareName(at: index, with: $0) }
    }

    /// How the names of lines `index` and `other` order (as `compareName`).
    package func compareNames(at index: Int, _ other: Int) -> Int {
        withName(at: index) { a in withName(at: other) { b in Self.compare(a, b) } }
    }

    /// memcmp's sign over the common length, then the shorter first.
    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
            let compared = memcmp(left, right, common)
            if compared != 0 { return Int(compared) }
        }
        return a.count - b.count
    }

    /// Line `index`'s bytes, from `def` to its end (without its newline).
    package func withLine<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withBytes(lines[index].start..<lines[index].end, body)
    }

    /// Line `index`'s summary, whole (for the few a step reads whole).
    package func summary(at index: Int) -> DefinitionSummary {
        var summary = DefinitionSummary(
            kind: kind(at: index), name: name(at: index), path: path(at: index), usedTypes: usedTypes(at: index),
            operationID: operationID(at: index), typeCondition: typeCondition(at: index))
        let line = lines[index]
        if line.listsEnd < line.tab { summary.typeName = text((line.listsEnd + 1)..<line.tab) }
        return summary
    }
}
