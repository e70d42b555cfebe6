/// Interns names by their bytes, so that each distinct name is made into a `String` once however often it
/// occurs: within one parse (each parse has its own table) or across several (`Parser.parse(_:names:)`, as
/// `check`'s batches keep one table for all their files, whose names repeat: `id`, `node`, `edges`).
///
/// Open addressing on a hash of the bytes, never the `String`. A name of at most 15 bytes (almost every
/// one) is its bytes as two little-endian words, zero past its end: a lookup loads them and compares two
/// integers and the length. A longer name is hashed eight bytes at a time and compared (`memcmp`-like) with
/// a copy of its bytes the table keeps, so a table can outlive the text it first met a name in.
package struct NameTable {
    /// Plain data, so that growing the table moves no reference.
    private struct Slot {
        /// Short: the name's first eight bytes. Long: its hash.
        var low: UInt64
        /// Short: bytes 8 to 15 (zero past the end). Long: where its bytes start in `longBytes`.
        var high: UInt64
        /// The name's length in bytes; 0 for an empty slot (a name is never empty).
        var length: UInt32
        /// Where its `String` is in `names`.
        var index: UInt32

        static let empty = Slot(low: 0, high: 0, length: 0, index: 0)
    }

    /// A power of two, empty until the first name.
    private var slots: [Slot] = []
    /// The names made, in the order first met.
    private var names: [String] = []
    /// `64 - log2(slots.count)`: a hash's top bits pick the slot.
    private var shift: UInt64 = 64
    /// The bytes of the names longer than 15 bytes, one after another.
    private var longBytes: [UInt8] = []

    package init() {}

    /// How many distinct names the table holds.
    package var distinctCount: Int { names.count }
    /// The number of the name `name(_:_:_:)` gave last: the order in which the table first met it, so two names
    /// the table gave have one number exactly when they are equal.
    package private(set) var lastIndex: UInt32 = 0

    /// The name spelled by `bytes[start..<end]` (a name token: ASCII, not empty), made once per table.
    package mutating func name(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        let length = end - start
        if slots.isEmpty { resize(to: 64) }
        let mask = slots.count - 1
        if length <= 15 {
            let (low, high) = Self.words(bytes, start, length)
            var index = Int(truncatingIfNeeded: Self.shortHash(low, high, length) &>> shift)
            while true {
                let found = Int(slots[index].length)
                if found == 0 { break }
                if found == length && slots[index].low == low && slots[index].high == high {
                    lastIndex = slots[index].index
                    return names[Int(slots[index].index)]
                }
                index = (index + 1) & mask
            }
            return add(Slot(low: low, high: high, length: UInt32(length), index: 0), at: index, bytes, start, end)
        }
        let hash = Self.longHash(bytes, start, length)
        var index = Int(truncatingIfNeeded: hash &>> shift)
        while true {
            let found = Int(slots[index].length)
            if found == 0 { break }
            if found == length && slots[index].low == hash
                && longBytesEqual(bytes, start, at: Int(truncatingIfNeeded: slots[index].high), length)
            {
                lastIndex = slots[index].index
                return names[Int(slots[index].index)]
            }
            index = (index + 1) & mask
        }
        let offset = longBytes.count
        longBytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        return add(
            Slot(low: hash, high: UInt64(offset), length: UInt32(length), index: 0), at: index, bytes, start, end)
    }

    /// Makes the name of `bytes[start..<end]` and puts `slot` for it at `index` (an empty slot).
    private mutating func add(
        _ slot: Slot, at index: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
    ) -> String {
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        var slot = slot
        slot.index = UInt32(truncatingIfNeeded: names.count)
        lastIndex = slot.index
        names.append(name)
        slots[index] = slot
        // Three quarters full at most: linear probing stays short with a hash this even, and a schema's
        // thousands of names (its parse's table) take a smaller table.
        if names.count * 4 > slots.count * 3 { resize(to: slots.count * 2) }
        return name
    }

    /// The first `length` (at most 15) bytes at `start` as two little-endian words, zero past the end.
    @inline(__always)
    private static func words(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> (UInt64, UInt64) {
        let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped) + start
        if start + 16 <= bytes.count {
            let first = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
            let second = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            if length >= 8 { return (first, second & lowBytes(length - 8)) }
            return (first & lowBytes(length), 0)
        }
        // Near the end of the text: byte by byte, never reading past it.
        var first: UInt64 = 0
        var second: UInt64 = 0
        for offset in 0..<length {
            let byte = UInt64(base.load(fromByteOffset: offset, as: UInt8.self))
            if offset < 8 {
                first |= byte &<< UInt64(8 * offset)
            } else {
                second |= byte &<< UInt64(8 * (offset - 8))
            }
        }
        return (first, second)
    }

    /// A mask of the low `count` (0 to 7) bytes of a word.
    @inline(__always)
    private static func lowBytes(_ count: Int) -> UInt64 {
        (1 &<< UInt64(8 * count)) &- 1
    }

    @inline(__always)
    private static func shortHash(_ low: UInt64, _ high: UInt64, _ length: Int) -> UInt64 {
        ((low ^ (high &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(length)) &* 0xBF58_476D_1CE4_E5B9) ^ (low &>> 29)
    }

    /// A hash of a name longer than 15 bytes, eight bytes at a time (the last word overlaps the one before).
    private static func longHash(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> UInt64 {
        let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped) + start
        var hash = UInt64(length) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 < length {
            hash =
                (hash ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash &>> 31
            offset += 8
        }
        hash =
            (hash ^ UInt64(littleEndian: base.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)))
            &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash &>> 29)
    }

    private func longBytesEqual(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, at offset: Int, _ length: Int)
        -> Bool
    {
        longBytes.withUnsafeBufferPointer { kept in
            Self.sameBytes(
                UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped) + start,
                UnsafeRawPointer(kept.baseAddress.unsafelyUnwrapped) + offset, length)
        }
    }

    /// True when the `length` (at least 8) bytes at `a` are those at `b`: compared eight bytes at a time, the
    /// last word overlapping the one before (as `longHash` reads them).
    @inline(__always)
    static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ length: Int) -> Bool {
        var position = 0
        while position + 8 < length {
            if a.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                != b.loadUnaligned(fromByteOffset: position, as: UInt64.self)
            {
                return false
            }
            position += 8
        }
        return a.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            == b.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
    }

    private mutating func resize(to capacity: Int) {
        var grown = [Slot](repeating: .empty, count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        let mask = capacity - 1
        grown.withUnsafeMutableBufferPointer { grown in
            for slot in slots where slot.length != 0 {
                let length = Int(slot.length)
                let hash = length <= 15 ? Self.shortHash(slot.low, slot.high, length) : slot.low
                var index = Int(truncatingIfNeeded: hash &>> shift)
                while grown[index].length != 0 { index = (index + 1) & mask }
                grown[index] = slot
            }
        }
        slots = grown
    }
}
