import Foundation

/// The records one response writes, by key: finds the record of a response object from the bytes of its
/// `__typename` and `id`, without building the key `String` or hashing it with SipHash, when the object was seen
/// before (a shared episode, location or author).
///
/// Keys are compared as bytes only while every key seen is ASCII: `String` equality is canonical equivalence, and
/// a non-ASCII key can equal an ASCII one (U+037E is `;`). The first key with an escape or a non-ASCII byte moves
/// the index to a `[String: Int]` dictionary of every key, as the store itself compares keys.
struct RecordKeyIndex {
    /// Open addressing: pending index + 1, 0 for an empty slot; the capacity is a power of two.
    private var table: [Int32] = Array(repeating: 0, count: 64)
    /// Per pending record: its key's bytes in `arena` and their hash.
    private var spans: [(start: Int32, count: Int32, hash: UInt64)] = []
    private var arena: [UInt8] = []
    /// Every key by text, once a key needed comparing as a `String`.
    private var texts: [String: Int]?

    init() {
        arena.reserveCapacity(4096)
        spans.reserveCapacity(256)
    }

    /// Whether keys are compared as bytes (every key so far is ASCII).
    var comparesBytes: Bool { texts == nil }

    // MARK: Bytes

    /// FNV-1a over the key's bytes, which are `type`, a colon and `id` (`id` nil: the key is `type` alone).
    @inline(__always)
    static func hash(_ type: UnsafeBufferPointer<UInt8>, _ id: UnsafeBufferPointer<UInt8>?) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in type { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        if let id {
            hash = (hash ^ UInt64(UInt8(ascii: ":"))) &* 0x100_0000_01b3
            for byte in id { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return hash
    }

    /// The pending index of the key spelled `type:id` (or `type`), compared as bytes.
    func find(hash: UInt64, _ type: UnsafeBufferPointer<UInt8>, _ id: UnsafeBufferPointer<UInt8>?) -> Int? {
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        let length = type.count + (id.map { $0.count + 1 } ?? 0)
        return arena.withUnsafeBufferPointer { arena in
            while true {
                let entry = table[slot]
                if entry == 0 { return nil }
                let index = Int(entry - 1)
                let span = spans[index]
                if span.hash == hash, Int(span.count) == length, let base = arena.baseAddress {
                    let start = base + Int(span.start)
                    if Self.equal(start, type), let id {
                        if start[type.count] == UInt8(ascii: ":"), Self.equal(start + type.count + 1, id) {
                            return index
                        }
                    } else if id == nil, Self.equal(start, type) {
                        return index
                    }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    @inline(__always)
    private static func equal(_ stored: UnsafePointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        return memcmp(stored, base, bytes.count) == 0
    }

    /// Records that pending record `index` (the next one) has the ASCII key spelled by `type` and `id`.
    mutating func insert(
        _ index: Int, hash: UInt64, _ type: UnsafeBufferPointer<UInt8>, _ id: UnsafeBufferPointer<UInt8>?
    ) {
        let start = arena.count
        arena.append(contentsOf: type)
        if let id {
            arena.append(UInt8(ascii: ":"))
            arena.append(contentsOf: id)
        }
        spans.append((Int32(truncatingIfNeeded: start), Int32(truncatingIfNeeded: arena.count - start), hash))
        place(index, hash: hash)
        if spans.count * 2 > table.count { grow() }
    }

    private mutating func place(_ index: Int, hash: UInt64) {
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while table[slot] != 0 { slot = (slot + 1) & mask }
        table[slot] = Int32(truncatingIfNeeded: index + 1)
    }

    private mutating func grow() {
        table = Array(repeating: 0, count: table.count * 2)
        for index in spans.indices { place(index, hash: spans[index].hash) }
    }

    // MARK: Texts

    /// Moves to comparing keys as `String`s; `keys` are every pending record's key so far.
    mutating func compareTexts(_ keys: [String]) {
        guard texts == nil else { return }
        var all: [String: Int] = [:]
        all.reserveCapacity(keys.count * 2)
        for (index, existing) in keys.enumerated() where all[existing] == nil { all[existing] = index }
        texts = all
    }

    /// The pending index of `key`, compared as a `String` (after `compareTexts`).
    func find(text key: String) -> Int? { texts?[key] }

    /// Records that pending record `index` has the key `key`, compared as a `String` (after `compareTexts`).
    mutating func insert(_ index: Int, text key: String) {
        texts?[key] = index
        // Keep the byte spans aligned with the pending records (never searched in this mode).
        spans.append((0, 0, 0))
    }
}
