/// Which names a set may hold, answered without hashing: a bit per (length, first byte, last byte) of the names
/// added. A name whose bit is clear is certainly not in the set, so the set need not be asked; a name whose bit is
/// set may be, and the set decides. A generator asks the same few sets (keywords, module type names) about every
/// member of every lens, and almost every member's name (`id`, `title`, `createdAt`) shares no bit with a keyword
/// or a type name, so the answer is usually a shift and a mask instead of a string's hash.
///
/// The filter only says "certainly not"; every rule still decides on the set (`IdentifierRules`, `NameScope`), so a
/// name is never treated differently for having been filtered.
package struct NameFilter: Sendable, Equatable {
    /// 32 lengths (modulo 32) × 64 first bytes × 64 last bytes (each modulo 64), one bit each.
    private var words: [UInt64]
    private static let wordCount = (32 * 64 * 64) / 64

    /// A filter that holds nothing.
    package init() { words = [] }

    /// A filter holding every name of `names`.
    package init<Names: Sequence>(_ names: Names) where Names.Element == String {
        words = []
        for name in names { insert(name) }
    }

    /// Adds `name`: `mayContain(name)` is true from now on.
    package mutating func insert(_ name: String) {
        if words.isEmpty { words = [UInt64](repeating: 0, count: Self.wordCount) }
        let bit = Self.bit(name)
        words[bit >> 6] |= 1 << UInt64(bit & 63)
    }

    /// False when `name` is certainly not one of the names added; true when it may be.
    @inline(__always)
    package func mayContain(_ name: String) -> Bool {
        guard !words.isEmpty else { return false }
        let bit = Self.bit(name)
        return words[bit >> 6] & (1 << UInt64(bit & 63)) != 0
    }

    /// The name's bit: its UTF-8 length, first and last bytes.
    @inline(__always)
    private static func bit(_ name: String) -> Int {
        // Read from the name's bytes in place (a small name's are copied out of it), not through `utf8.last`, whose
        // index arithmetic costs more than the rest of the filter.
        let read: Int? = name.utf8.withContiguousStorageIfAvailable { bytes in
            guard let first = bytes.first, let last = bytes.last else { return 0 }
            return (bytes.count & 31) << 12 | Int(first & 63) << 6 | Int(last & 63)
        }
        if let read { return read }
        let utf8 = name.utf8
        let count = utf8.count
        guard count > 0, let first = utf8.first, let last = utf8.last else { return 0 }
        return (count & 31) << 12 | Int(first & 63) << 6 | Int(last & 63)
    }
}

/// A set of names shared by many scopes (every module-level type name), with its `NameFilter`, made once: a scope
/// asks the filter first and hashes a name only when the filter cannot rule it out.
package struct FilteredNames: Sendable {
    package private(set) var names: Set<String>
    package private(set) var filter: NameFilter

    package init<Names: Sequence>(_ names: Names) where Names.Element == String {
        self.names = Set(names)
        filter = NameFilter(self.names)
    }

    package var isEmpty: Bool { names.isEmpty }

    /// Whether `name` is one of the names: the filter first, the set only when the filter cannot rule it out.
    @inline(__always)
    package func contains(_ name: String) -> Bool { filter.mayContain(name) && names.contains(name) }

    package mutating func insert(_ name: String) {
        names.insert(name)
        filter.insert(name)
    }

    package mutating func reserveCapacity(_ count: Int) { names.reserveCapacity(count) }
}
