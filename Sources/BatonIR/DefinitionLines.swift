/// The `def` lines of a plan summary section (`DefinitionSummary.writeFields`, then a tab and the path), kept where
/// they lie in the section's bytes and read a field at a time where a step needs one, instead of a
/// `DefinitionSummary` each (a large project's tens of thousands, of which an edit needs a few whole). Each line is
/// checked when it is added (by `DefinitionSummary.init?(fields:in:path:)`, the one reader of a line's fields), so no accessor fails.
package struct DefinitionLines: Sendable {
    /// Where one line's parts are in `bytes` (offsets from its start): its kind, its name's end (the name follows
    /// the kind and a space), its tab (the path follows it) and its end (its newline, or the bytes' end).
    struct Line: Sendable {
        var kind: UInt32
        var nameEnd: UInt32
        var tab: UInt32
        var end: UInt32
    }

    /// The section (a slice of the manifest's bytes, not a copy).
    package let bytes: ArraySlice<UInt8>
    private var lines: [Line] = []

    /// How many lines.
    package var count: Int { lines.count }

    /// The `def` lines of `section` (its other lines passed over); nil when one is not what `writeFields` and a
    /// path write, or when the section is too large for its offsets.
    package init?(section: ArraySlice<UInt8>) {
        bytes = section
        guard section.count < Int(UInt32.max) else { return nil }
        let read: [Line]? = section.withUnsafeBufferPointer { buffer in
            var lines: [Line] = []
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
                guard let line = Self.line(start + 4..<end, in: buffer, fields: &fields) else { return nil }
                lines.append(line)
            }
            return lines
        }
        guard let read else { return nil }
        lines = read
    }

    /// The line of `range` (after `def `, up to its newline): its fields up to a tab, then a path that is not
    /// empty; nil for anything else. `fields` is scratch space.
    private static func line(
        _ range: Range<Int>, in buffer: UnsafeBufferPointer<UInt8>, fields: inout [Range<Int>]
    ) -> Line? {
        var tab = range.lowerBound
        while tab < range.upperBound, buffer[tab] != UInt8(ascii: "\t") { tab += 1 }
        guard tab + 1 < range.upperBound else { return nil }
        fields.removeAll(keepingCapacity: true)
        var fieldStart = range.lowerBound
        for index in range.lowerBound...tab where index == tab || buffer[index] == UInt8(ascii: " ") {
            fields.append(fieldStart..<index)
            fieldStart = index + 1
        }
        // Checked by the one reader of a line's fields. (A check without its `String`s, `checkedKind`, cost 13.4 M
        // instructions for saleor 10k's 26,303 lines and made the reader's 6 M dearer: to come with the block that
        // reads lines in place, when the summaries are no longer made.)
        let path = String(decoding: UnsafeBufferPointer(rebasing: buffer[(tab + 1)..<range.upperBound]), as: UTF8.self)
        guard DefinitionSummary(fields: fields[...], in: buffer, path: path) != nil else { return nil }
        return Line(
            kind: UInt32(range.lowerBound), nameEnd: UInt32(fields[1].upperBound), tab: UInt32(tab),
            end: UInt32(range.upperBound))
    }

    /// The fields of line `index` before its tab, each a range of the section's buffer.
    private func fields(_ index: Int, in buffer: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let line = lines[index]
        var fields: [Range<Int>] = []
        var fieldStart = Int(line.kind)
        for position in Int(line.kind)...Int(line.tab)
        where position == Int(line.tab) || buffer[position] == UInt8(ascii: " ") {
            fields.append(fieldStart..<position)
            fieldStart = position + 1
        }
        return fields
    }

    /// Line `index`'s name's bytes, read where they lie.
    package func withName<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let line = lines[index]
        return bytes.withUnsafeBufferPointer { buffer in
            var start = Int(line.kind)
            while buffer[start] != UInt8(ascii: " ") { start += 1 }
            return body(UnsafeBufferPointer(rebasing: buffer[(start + 1)..<Int(line.nameEnd)]))
        }
    }

    /// Line `index`'s name.
    package func name(at index: Int) -> String { withName(at: index) { String(decoding: $0, as: UTF8.self) } }

    /// Line `index`'s display path.
    package func path(at index: Int) -> String {
        let line = lines[index]
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[(Int(line.tab) + 1)..<Int(line.end)]), as: UTF8.self)
        }
    }

    /// Line `index`'s summary, whole (for the few a step reads whole).
    package func summary(at index: Int) -> DefinitionSummary? {
        let path = path(at: index)
        return bytes.withUnsafeBufferPointer { buffer in
            DefinitionSummary(fields: fields(index, in: buffer)[...], in: buffer, path: path)
        }
    }
}
