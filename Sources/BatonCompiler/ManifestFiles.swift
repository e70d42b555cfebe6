import BatonDiagnostics
import BatonIR

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A manifest's `files` entries (`GenerationManifest.Entry`). Those read from a manifest's bytes are kept as
/// where their line's fields are in those bytes (`source`), not as values: a large project's manifest lists tens
/// of thousands of files, and a run after one edit looks at most of them only to compare a path or a key, copy
/// a line, or take a stamp. Decisions, made here once:
///
/// - **Read once, checked once**: `ManifestReader` checks every line's format as it finds its fields (a line it
///   refuses is no manifest); a field is decoded from its bytes when asked (`subscript`, `definition(at:)`,
///   `stamp(at:)`), compared in place (`path(at:equals:)`, `definition(at:equals:)`).
/// - **A recorded line is copied, never spelt again**: a manifest written after an edit lists each kept file
///   as the last manifest's line (`append(_:of:)`, `GenerationManifest.bytes(reusing:)` copies `line(at:)`), the
///   bytes it was read from; an entry set or added as a value is spelt.
/// - **Equality** is the entries', whatever their storage.
package struct ManifestFiles: Sendable, Equatable, RandomAccessCollection, MutableCollection,
    RangeReplaceableCollection, ExpressibleByArrayLiteral
{
    /// Where a `file` line's fields start in `source` (`file <stamp> <definition> <digest>\t<path>\n`): the
    /// line, its definition, digest and path, and the line's end (past its newline); and its stamp, read with
    /// the line (its numbers are checked then, and every kept file's is compared). A slot whose `start` is
    /// `valueSlot` is `values[definition]` instead.
    struct Line: Sendable {
        var start: UInt32
        var definition: UInt32
        var digest: UInt32
        var path: UInt32
        var end: UInt32
        var stamp: FileStamp

        /// The slot of `values[index]`.
        static func value(_ index: Int) -> Line {
            Line(start: valueSlot, definition: UInt32(index), digest: 0, path: 0, end: 0, stamp: noStamp)
        }
    }
    private static let valueSlot = UInt32.max
    /// A stamp no file has (a negative size), in a value's slot.
    private static let noStamp = FileStamp(
        size: -1, seconds: 0, nanoseconds: 0, inode: 0, changeSeconds: 0, changeNanoseconds: 0)

    /// The bytes the lines are in: a manifest's as read (shared, not copied), or empty.
    private(set) var source: [UInt8]
    private var slots: [Line]
    private var values: [GenerationManifest.Entry] = []

    package init() {
        source = []
        slots = []
    }

    package init(arrayLiteral elements: GenerationManifest.Entry...) {
        self.init()
        append(contentsOf: elements)
    }

    /// No entries yet, lines to be taken from `other`'s source (`append(_:of:)`).
    package init(sharingSourceOf other: ManifestFiles) {
        source = other.source
        slots = []
    }

    /// The lines `ManifestReader` found in `source`.
    init(source: [UInt8], lines: [Line]) {
        self.source = source
        slots = lines
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { slots.count }

    package subscript(index: Int) -> GenerationManifest.Entry {
        get {
            let slot = slots[index]
            guard slot.start != Self.valueSlot else { return values[Int(slot.definition)] }
            return GenerationManifest.Entry(
                path: text(slot.path, slot.end - 1), stamp: slot.stamp,
                definition: text(slot.definition, slot.digest - 1), digest: text(slot.digest, slot.path - 1))
        }
        set {
            values.append(newValue)
            slots[index] = .value(values.count - 1)
        }
    }

    package mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with entries: C)
    where C.Element == GenerationManifest.Entry {
        var replacement: [Line] = []
        replacement.reserveCapacity(entries.count)
        for entry in entries {
            values.append(entry)
            replacement.append(.value(values.count - 1))
        }
        slots.replaceSubrange(subrange, with: replacement)
    }

    package mutating func reserveCapacity(_ count: Int) { slots.reserveCapacity(count) }

    package static func == (lhs: ManifestFiles, rhs: ManifestFiles) -> Bool { lhs.elementsEqual(rhs) }

    /// Appends `other`'s entry at `index`: as its line when it is one and `other` shares this one's source
    /// (`init(sharingSourceOf:)`), else as a value.
    package mutating func append(_ index: Int, of other: ManifestFiles) {
        let slot = other.slots[index]
        if slot.start != Self.valueSlot, sharesSource(with: other) {
            slots.append(slot)
        } else {
            append(other[index])
        }
    }

    private func sharesSource(with other: ManifestFiles) -> Bool {
        source.count == other.source.count
            && source.withUnsafeBufferPointer { mine in
                other.source.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress }
            }
    }

    /// The line of the entry at `index` as read (with its newline), when it was read and not set since.
    package func line(at index: Int) -> ArraySlice<UInt8>? { lineRange(at: index).map { source[$0] } }

    /// Where that line is in `source`.
    func lineRange(at index: Int) -> Range<Int>? {
        let slot = slots[index]
        guard slot.start != Self.valueSlot else { return nil }
        return Int(slot.start)..<Int(slot.end)
    }

    /// The entry's definition key (or `-`), as `self[index].definition`.
    package func definition(at index: Int) -> String {
        let slot = slots[index]
        guard slot.start != Self.valueSlot else { return values[Int(slot.definition)].definition }
        return text(slot.definition, slot.digest - 1)
    }

    /// True when the entry's definition is `-` (a schema type's file, the runtime's).
    package func isNoDefinition(at index: Int) -> Bool { definition(at: index, equals: "-") }

    /// `self[index].definition == key`, compared in place.
    package func definition(at index: Int, equals key: String) -> Bool {
        let slot = slots[index]
        guard slot.start != Self.valueSlot else { return values[Int(slot.definition)].definition == key }
        return equal(slot.definition, slot.digest - 1, key)
    }

    /// A hash of the entry's definition key's bytes (`ByteHash.of`), taken in place: a key is made a `String` only
    /// where this hash is a wanted key's (`Compilation.keptDefinitions`).
    package func definitionHash(at index: Int) -> UInt64 {
        let slot = slots[index]
        guard slot.start != Self.valueSlot else { return ByteHash.of(values[Int(slot.definition)].definition) }
        return source.withUnsafeBufferPointer { bytes in
            ByteHash.of(UnsafeBufferPointer(rebasing: bytes[Int(slot.definition)..<Int(slot.digest - 1)]))
        }
    }

    /// True when the entry's definition key is an operation's or a fragment's (`DefinitionKey.isDefinition`),
    /// read in place.
    package func isDefinitionKey(at index: Int) -> Bool {
        let slot = slots[index]
        guard slot.start != Self.valueSlot else {
            return DefinitionKey.isDefinition(values[Int(slot.definition)].definition)
        }
        guard slot.digest - 1 - slot.definition >= 2 else { return false }
        return source.withUnsafeBufferPointer { bytes in
            let first = bytes[Int(slot.definition)]
            return (first == UInt8(ascii: "o") || first == UInt8(ascii: "f"))
                && bytes[Int(slot.definition) + 1] == UInt8(ascii: ":")
        }
    }

    /// `self[index].path == path`, compared in place.
    package func path(at index: Int, equals path: String) -> Bool {
        let slot = slots[index]
        guard slot.start != Self.valueSlot else { return values[Int(slot.definition)].path == path }
        return equal(slot.path, slot.end - 1, path)
    }

    /// The entry's path, as `self[index].path`.
    package func path(at index: Int) -> String {
        let slot = slots[index]
        guard slot.start != Self.valueSlot else { return values[Int(slot.definition)].path }
        return text(slot.path, slot.end - 1)
    }

    /// The entry's digest, as `self[index].digest`.
    package func digest(at index: Int) -> String {
        let slot = slots[index]
        guard slot.start != Self.valueSlot else { return values[Int(slot.definition)].digest }
        return text(slot.digest, slot.path - 1)
    }

    /// The entry's stamp, as `self[index].stamp`.
    package func stamp(at index: Int) -> FileStamp {
        let slot = slots[index]
        guard slot.start != Self.valueSlot else { return values[Int(slot.definition)].stamp }
        return slot.stamp
    }

    /// True when the file of the entry at `index` has, in `folder`, the stamp the entry records.
    package func isOnDisk(_ index: Int, in folder: inout FileStamp.Folder) -> Bool {
        let slot = slots[index]
        guard slot.start != Self.valueSlot else {
            let entry = values[Int(slot.definition)]
            return folder.stamp(of: entry.path) == entry.stamp
        }
        let found = source.withUnsafeBufferPointer { bytes in
            folder.stamp(
                ofBytes: UnsafeBufferPointer(rebasing: bytes[Int(slot.path)..<Int(slot.end - 1)]))
        }
        return found == slot.stamp
    }

    /// For each of `indices`, whether its entry's file is on disk in `root` with the stamp it records
    /// (`isOnDisk`), the files looked up on up to `workers` threads (tens of thousands of `stat`s).
    package func areOnDisk(_ indices: [Int], root: String, workers: Int) -> [Bool] {
        ParallelWork.ranges(count: indices.count, workers: workers, minimumItems: 512) { range in
            var folder = FileStamp.Folder(root)
            return range.map { isOnDisk(indices[$0], in: &folder) }
        }
    }

    private func text(_ start: UInt32, _ end: UInt32) -> String {
        source.withUnsafeBufferPointer { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(start)..<Int(end)]), as: UTF8.self)
        }
    }

    private func equal(_ start: UInt32, _ end: UInt32, _ text: String) -> Bool {
        let count = Int(end - start)
        // The count first (a native string knows it), then the bytes in place.
        guard text.utf8.count == count else { return false }
        if count == 0 { return true }
        let same = text.utf8.withContiguousStorageIfAvailable { wanted in
            source.withUnsafeBufferPointer { bytes in
                guard let base = bytes.baseAddress, let other = wanted.baseAddress else { return false }
                return memcmp(base + Int(start), other, count) == 0
            }
        }
        return same ?? (self.text(start, end) == text)
    }
}
