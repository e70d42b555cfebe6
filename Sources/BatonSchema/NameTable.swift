// Name lookups for schema building, where Swift's `Set<String>` / `[String: …]` cost the most:
// SipHash over every name, a hasher per lookup, a table per index. GraphQL names are short ASCII
// identifiers, so a multiplicative hash over 8-byte words and a table of `Int32` positions (the
// names stay in the caller's array) do the same job at a fraction of the cost.
//
// Equality is `String.==` throughout, so results are exactly those of the standard collections;
// only the hash differs.

/// A cheap hash of a name's UTF-8 bytes, eight bytes at a time. Names with non-ASCII bytes
/// (possible only in introspection input) take Swift's own hash, which respects canonical
/// equivalence as `String.==` does.
@inline(__always)
package func nameHash(_ name: String) -> Int {
    let hash = name.utf8.withContiguousStorageIfAvailable(asciiHash(bytes:)) ?? nil
    return hash ?? name.hashValue
}

@inline(__always)
private func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
    let product = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
    return product ^ (product >> 29)
}

/// The hash of ASCII bytes; nil when some byte is not ASCII.
private func asciiHash(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var hash = UInt64(truncatingIfNeeded: bytes.count) &* 0xFF51_AFD7_ED55_8CCD
    guard let base = bytes.baseAddress else { return Int(truncatingIfNeeded: mix(hash, 0)) }
    let raw = UnsafeRawPointer(base)
    var high: UInt64 = 0
    var offset = 0
    while offset + 8 <= bytes.count {
        let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        high |= word
        hash = mix(hash, word)
        offset += 8
    }
    // The last 0-7 bytes in at most three loads rather than a loop (most names are shorter than
    // eight bytes): two overlapping 4-byte words, or the first, middle and last of 1-3 bytes.
    // Either covers every byte, and the count is hashed too, so equal tails mean equal bytes.
    let remaining = bytes.count - offset
    var tail: UInt64 = 0
    if remaining >= 4 {
        let low = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        let last = raw.loadUnaligned(fromByteOffset: bytes.count - 4, as: UInt32.self)
        tail = UInt64(low) | UInt64(last) << 32
    } else if remaining > 0 {
        tail = UInt64(bytes[offset]) | UInt64(bytes[offset + remaining / 2]) << 8 | UInt64(bytes[bytes.count - 1]) << 16
    }
    high |= tail
    if high & 0x8080_8080_8080_8080 != 0 { return nil }
    return Int(truncatingIfNeeded: mix(hash, tail))
}

/// The slot count for `count` names: a power of two at least twice as large.
@inline(__always)
private func slotCount(for count: Int) -> Int {
    var capacity = 16
    while capacity < count * 2 { capacity <<= 1 }
    return capacity
}

/// A read-only index from names to positions in a list the caller owns (a type's fields, a
/// schema's types). The first of equal names wins. Lists of at most `linearLimit` names are
/// searched linearly and need no table at all.
struct NameIndex: Sendable {
    static let linearLimit = 8
    /// Position + 1 of the name hashed to each slot; 0 for empty. Empty for short lists.
    private let slots: [Int32]
    /// True when some name occurs more than once in the list.
    let hasDuplicates: Bool

    /// Indexes `count` names, the name at position `i` being `name(i)`.
    init(count: Int, name: (Int) -> String) {
        if count <= NameIndex.linearLimit {
            slots = []
            var duplicates = false
            if count > 1 {
                search: for i in 1..<count {
                    let current = name(i)
                    for j in 0..<i where name(j) == current {
                        duplicates = true
                        break search
                    }
                }
            }
            hasDuplicates = duplicates
            return
        }
        let capacity = slotCount(for: count)
        let mask = capacity - 1
        var duplicates = false
        slots = [Int32](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            buffer.initialize(repeating: 0)
            initialized = capacity
            for position in 0..<count {
                let current = name(position)
                var slot = nameHash(current) & mask
                while true {
                    let occupant = Int(buffer[slot])
                    if occupant == 0 {
                        buffer[slot] = Int32(truncatingIfNeeded: position + 1)
                        break
                    }
                    if name(occupant - 1) == current {
                        duplicates = true
                        break
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
        hasDuplicates = duplicates
    }

    /// The position of the first element named `target` among `count` names, if any.
    @inline(__always)
    func position(of target: String, count: Int, name: (Int) -> String) -> Int? {
        if slots.isEmpty {
            for position in 0..<count where name(position) == target { return position }
            return nil
        }
        let mask = slots.count - 1
        var slot = nameHash(target) & mask
        while true {
            let occupant = Int(slots[slot])
            if occupant == 0 { return nil }
            if name(occupant - 1) == target { return occupant - 1 }
            slot = (slot + 1) & mask
        }
    }
}

/// A growable set of names that remembers insertion order and each name's position: the fast
/// stand-in for `Set<String>` and `[String: Int]` while building a schema (and validation's
/// fragment names).
package struct NameSet {
    /// The names, in insertion order.
    package private(set) var names: [String] = []
    private var slots: [Int32]
    private var mask: Int

    /// An empty set allocates nothing until the first insertion.
    package init() {
        slots = []
        mask = 0
    }

    package init(minimumCapacity: Int) {
        let capacity = slotCount(for: minimumCapacity)
        slots = [Int32](repeating: 0, count: capacity)
        mask = capacity - 1
        names.reserveCapacity(minimumCapacity)
    }

    init<Names: Sequence>(_ names: Names) where Names.Element == String {
        self.init(minimumCapacity: names.underestimatedCount)
        for name in names { insert(name) }
    }

    package var count: Int { names.count }

    /// The position of `name` (its insertion index), if present.
    @inline(__always)
    package func position(of name: String) -> Int? {
        if names.isEmpty { return nil }
        var slot = nameHash(name) & mask
        while true {
            let occupant = Int(slots[slot])
            if occupant == 0 { return nil }
            if names[occupant - 1] == name { return occupant - 1 }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always)
    package func contains(_ name: String) -> Bool { position(of: name) != nil }

    /// Adds `name` unless present; returns whether it was added and its position.
    @discardableResult
    package mutating func insert(_ name: String) -> (inserted: Bool, position: Int) {
        if (names.count + 1) * 2 > slots.count { grow() }
        var slot = nameHash(name) & mask
        while true {
            let occupant = Int(slots[slot])
            if occupant == 0 {
                names.append(name)
                slots[slot] = Int32(truncatingIfNeeded: names.count)
                return (true, names.count - 1)
            }
            if names[occupant - 1] == name { return (false, occupant - 1) }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        let capacity = max(16, slots.count * 2)
        mask = capacity - 1
        slots = [Int32](repeating: 0, count: capacity)
        for (position, name) in names.enumerated() {
            var slot = nameHash(name) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: position + 1)
        }
    }
}

/// Whether any two of the names are equal. Most lists (fields, arguments, values) are short,
/// and comparing pairs of short strings beats hashing them; long lists use a `NameIndex`.
func hasDuplicateNames<Names: Collection>(_ names: Names) -> Bool where Names.Element == String {
    let count = names.count
    if count < 2 { return false }
    let array = Array(names)
    return NameIndex(count: count) { array[$0] }.hasDuplicates
}

/// Keeps the first element of each name.
func firstOfEachName<Element>(_ elements: [Element], name: (Element) -> String) -> [Element] {
    let index = NameIndex(count: elements.count) { name(elements[$0]) }
    guard index.hasDuplicates else { return elements }
    var seen = NameSet(minimumCapacity: elements.count)
    return elements.filter { seen.insert(name($0)).inserted }
}
