/// Interns the names of one parse, so that a long name (more than 15 bytes, which Swift cannot
/// store inline) is allocated once however often it occurs. Short names are made directly:
/// they cost no allocation anyway.
///
/// Open addressing on an FNV-1a hash of the bytes; each slot remembers where its name first
/// occurred in the source, so a lookup compares bytes without touching the String.
struct NameTable {
    private struct Slot {
        var hash: UInt32
        var start: Int32
        var length: Int32
        var name: String
    }

    /// Empty until the first long name: most documents have few or none, and a parse of each
    /// of 10,000 small files should not allocate and clear a table it never uses.
    private var slots: [Slot?] = []
    private var count = 0

    mutating func name(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        let length = end - start
        if length <= 15 {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        var hash: UInt32 = 2_166_136_261
        for index in start..<end { hash = (hash ^ UInt32(bytes[index])) &* 16_777_619 }
        if slots.isEmpty { slots = Array(repeating: nil, count: 32) }
        let mask = slots.count - 1
        var index = Int(hash) & mask
        while let slot = slots[index] {
            if slot.hash == hash && Int(slot.length) == length
                && memoryEqual(bytes, Int(slot.start), start, length)
            {
                return slot.name
            }
            index = (index + 1) & mask
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        slots[index] = Slot(hash: hash, start: Int32(truncatingIfNeeded: start), length: Int32(length), name: name)
        count += 1
        if count * 2 > slots.count { grow() }
        return name
    }

    private func memoryEqual(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Int, _ second: Int, _ length: Int) -> Bool {
        for offset in 0..<length where bytes[first + offset] != bytes[second + offset] { return false }
        return true
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: old.count * 2)
        let mask = slots.count - 1
        for case let slot? in old {
            var index = Int(slot.hash) & mask
            while slots[index] != nil { index = (index + 1) & mask }
            slots[index] = slot
        }
    }
}
