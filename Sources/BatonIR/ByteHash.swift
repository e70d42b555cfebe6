/// A hash of bytes in place (64-bit FNV-1a), for the tables that look up names, keys or paths by their bytes
/// without making a `String` of each (a large project's tens of thousands): equal bytes hash the same, different
/// ones may too, so a hash only narrows a search, which compares whole.
package enum ByteHash {
    /// `bytes` hashed.
    package static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// `text`'s UTF-8 bytes hashed, as `of` hashes them in place.
    package static func of(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { of($0) }
    }

    /// ASCII bytes hashed with `A`–`Z` folded to lower case (names equal ignoring ASCII case hash the same); nil
    /// when a byte is not ASCII.
    package static func folded(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            hash ^= UInt64(lowered(byte))
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// `text`'s UTF-8 bytes hashed as `folded` hashes them.
    package static func folded(_ text: String) -> UInt64? {
        var text = text
        return text.withUTF8 { folded($0) }
    }

    /// True when two ASCII strings are equal with `A`–`Z` folded to lower case.
    package static func equalFolded(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lowered($0) == lowered($1) }
    }

    /// An ASCII byte with `A`–`Z` lower-cased.
    private static func lowered(_ byte: UInt8) -> UInt8 { byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }
}
