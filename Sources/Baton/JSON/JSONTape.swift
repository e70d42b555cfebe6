import Foundation

/// A response body read into a flat tape of tokens instead of a tree of `JSONValue`s: the input to the
/// byte-level normalizer (`TapeNormalizer`).
///
/// One pass over the bytes checks the JSON and records, per value, its kind and where it is: a string or number
/// as a byte range of the body, an object or array as its member or item count. Every entry knows the index of
/// the entry after it (after the whole container for an object or array), so the normalizer can step over values
/// it does not select. An object's entries are its members, each a key entry followed by the value's entries.
/// No string is decoded while reading: a key is compared with a field's response key byte by byte, and only the
/// values the store keeps become `String`s.
///
/// The tape accepts exactly the texts `JSONParser` accepts; on any error the caller parses the body again with
/// `JSONParser`, which reports it (the error path is rare, so the tape does not track messages). A repeated member
/// name marks the earlier key dead, so lookups see the last value, as `JSONParser` keeps it.
struct JSONTape {
    enum Kind: UInt8 {
        case null, `true`, `false`, number, string, object, array
        /// A member key; `deadKey` is an earlier key that a repeated member name replaced.
        case key, deadKey
    }

    struct Entry {
        var kind: Kind
        /// For strings and keys: `escaped` when the text has a backslash escape, `nonASCII` when it has a byte ≥ 0x80.
        var flags: UInt8
        /// Strings, keys and numbers: the byte range (without quotes). Objects and arrays: `start` is the member or
        /// item count.
        var start: Int32
        var end: Int32
        /// The index of the entry after this value (after the whole container for an object or array).
        var next: Int32
    }

    static let escaped: UInt8 = 1
    static let nonASCII: UInt8 = 2

    var entries: [Entry] = []

    /// Reads `bytes` into a tape; nil when the text is not JSON (or too large for the tape's 32-bit offsets).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONTape? {
        guard bytes.count < Int(Int32.max) else { return nil }
        var builder = Builder(bytes: bytes)
        builder.tape.entries.reserveCapacity(bytes.count / 6 + 16)
        builder.skipWhitespace()
        guard builder.value(depth: 0) else { return nil }
        builder.skipWhitespace()
        guard builder.position == bytes.count else { return nil }
        return builder.tape
    }

    private struct Builder {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        var tape = JSONTape()
        /// The key entries of the objects being read (shared by every nesting level), to find repeated names.
        var keys: [Int32] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            keys.reserveCapacity(64)
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        mutating func append(_ kind: Kind, flags: UInt8 = 0, start: Int, end: Int) {
            let index = tape.entries.count
            tape.entries.append(
                Entry(kind: kind, flags: flags, start: Int32(start), end: Int32(end), next: Int32(index + 1)))
        }

        mutating func value(depth: Int) -> Bool {
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "{"): return object(depth: depth + 1)
            case UInt8(ascii: "["): return array(depth: depth + 1)
            case UInt8(ascii: "\""): return string(.string)
            case UInt8(ascii: "t"): return word("true", .true)
            case UInt8(ascii: "f"): return word("false", .false)
            case UInt8(ascii: "n"): return word("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return false
            }
        }

        mutating func word(_ word: StaticString, _ kind: Kind) -> Bool {
            let count = word.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            let start = word.utf8Start
            for index in 0..<count where bytes[position + index] != start[index] { return false }
            append(kind, start: position, end: position + count)
            position += count
            return true
        }

        mutating func object(depth: Int) -> Bool {
            if depth > JSONParser.maximumDepth { return false }
            let index = tape.entries.count
            append(.object, start: 0, end: 0)
            position += 1
            skipWhitespace()
            var count = 0
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                tape.entries[index].next = Int32(tape.entries.count)
                return true
            }
            let base = keys.count
            defer { keys.removeSubrange(base...) }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return false }
                let key = Int32(tape.entries.count)
                guard string(.key) else { return false }
                // A repeated name: the earlier key goes dead, so lookups find this member (the last value).
                if keys.count > base, let repeated = earlierKey(sameAs: key, from: base) {
                    // At most one earlier key is live with this name: each repeat kills the one before it.
                    tape.entries[Int(repeated)].kind = .deadKey
                }
                keys.append(key)
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return false }
                position += 1
                skipWhitespace()
                guard value(depth: depth) else { return false }
                count += 1
                skipWhitespace()
                guard position < bytes.count else { return false }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    tape.entries[index].start = Int32(count)
                    tape.entries[index].next = Int32(tape.entries.count)
                    return true
                } else {
                    return false
                }
            }
        }

        /// The live key among `keys[base...]` with the same text as `key`. Lengths and bytes are compared first;
        /// a key with escapes or non-ASCII bytes compares as a `String` (canonical equivalence).
        func earlierKey(sameAs key: Int32, from base: Int) -> Int32? {
            let entry = tape.entries[Int(key)]
            let length = entry.end - entry.start
            for index in base..<keys.count {
                let earlier = keys[index]
                let other = tape.entries[Int(earlier)]
                guard other.kind == .key else { continue }
                if entry.flags | other.flags == 0 {
                    guard other.end - other.start == length else { continue }
                    if length == 0 { return earlier }
                    guard let base = bytes.baseAddress else { continue }
                    if memcmp(base + Int(entry.start), base + Int(other.start), Int(length)) == 0 { return earlier }
                } else {
                    let same = tape.entries.withUnsafeBufferPointer { entries in
                        View(entries: entries, bytes: bytes).sameText(earlier, key)
                    }
                    if same { return earlier }
                }
            }
            return nil
        }

        mutating func array(depth: Int) -> Bool {
            if depth > JSONParser.maximumDepth { return false }
            let index = tape.entries.count
            append(.array, start: 0, end: 0)
            position += 1
            skipWhitespace()
            var count = 0
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                position += 1
                tape.entries[index].next = Int32(tape.entries.count)
                return true
            }
            while true {
                skipWhitespace()
                guard value(depth: depth) else { return false }
                count += 1
                skipWhitespace()
                guard position < bytes.count else { return false }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                } else if bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    tape.entries[index].start = Int32(count)
                    tape.entries[index].next = Int32(tape.entries.count)
                    return true
                } else {
                    return false
                }
            }
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        mutating func number() -> Bool {
            let start = position
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count else { return false }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else if isDigit(bytes[position]) {
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            } else {
                return false
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                guard position < bytes.count, isDigit(bytes[position]) else { return false }
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
                {
                    position += 1
                }
                guard position < bytes.count, isDigit(bytes[position]) else { return false }
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
            }
            append(.number, start: start, end: position)
            return true
        }

        /// Checks a string as `JSONParser` reads it (escapes, `\u` hex digits, no control characters) and records
        /// its byte range without decoding it.
        mutating func string(_ kind: Kind) -> Bool {
            position += 1
            let start = position
            var flags: UInt8 = 0
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    append(kind, flags: flags, start: start, end: position)
                    position += 1
                    return true
                }
                if byte < 0x20 { return false }
                if byte >= 0x80 { flags |= JSONTape.nonASCII }
                position += 1
                guard byte == UInt8(ascii: "\\") else { continue }
                flags |= JSONTape.escaped
                guard position < bytes.count else { return false }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"):
                    guard hex4() else { return false }
                    // JSONParser reads a following `\u` as the low half of a surrogate pair, and checks it.
                    let code = hexValue(at: position - 4)
                    if (0xD800...0xDBFF).contains(code), position + 1 < bytes.count,
                        bytes[position] == UInt8(ascii: "\\"),
                        bytes[position + 1] == UInt8(ascii: "u")
                    {
                        position += 2
                        guard hex4() else { return false }
                    }
                default:
                    return false
                }
            }
            return false
        }

        mutating func hex4() -> Bool {
            guard position + 4 <= bytes.count else { return false }
            for _ in 0..<4 {
                switch bytes[position] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                    UInt8(ascii: "A")...UInt8(ascii: "F"):
                    position += 1
                default: return false
                }
            }
            return true
        }

        func hexValue(at start: Int) -> UInt32 {
            var value: UInt32 = 0
            for offset in 0..<4 {
                let byte = bytes[start + offset]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                default: digit = UInt32(byte - UInt8(ascii: "A") + 10)
                }
                value = value * 16 + digit
            }
            return value
        }
    }

    // MARK: Reading the tape

    /// A non-owning view of a tape and its body, for reading without reference counting.
    struct View {
        let entries: UnsafeBufferPointer<Entry>
        let bytes: UnsafeBufferPointer<UInt8>

        /// The text of a string or key entry, decoded as `JSONParser` decodes it.
        func text(_ index: Int32) -> String {
            let entry = entries[Int(index)]
            if entry.flags & JSONTape.escaped == 0 {
                return String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
            }
            var reader = JSONParser.Reader(bytes: bytes, position: Int(entry.start) - 1)
            return (try? reader.parseString()) ?? ""
        }

        /// The literal text of a number entry.
        func numberText(_ index: Int32) -> String {
            let entry = entries[Int(index)]
            return String(
                decoding: UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
        }

        /// Whether two string or key entries have the same text (as `String` equality decides it).
        func sameText(_ a: Int32, _ b: Int32) -> Bool {
            let first = entries[Int(a)]
            let second = entries[Int(b)]
            if (first.flags | second.flags) != 0 { return text(a) == text(b) }
            return Self.equal(bytes, first.start, first.end, bytes, second.start, second.end)
        }

        /// Whether the key entry `key` names `name`, given as its UTF-8 bytes (`ascii`: the name is all ASCII).
        func key(_ key: Int32, is name: UnsafeBufferPointer<UInt8>, ascii: Bool, nameText: String)
            -> Bool
        {
            let entry = entries[Int(key)]
            // `String` equality is canonical equivalence, so a text with escapes or non-ASCII bytes compares as a String.
            if entry.flags != 0 || !ascii { return text(key) == nameText }
            return Self.equal(bytes, entry.start, entry.end, name, 0, Int32(name.count))
        }

        private static func equal(
            _ a: UnsafeBufferPointer<UInt8>, _ aStart: Int32, _ aEnd: Int32, _ b: UnsafeBufferPointer<UInt8>,
            _ bStart: Int32,
            _ bEnd: Int32
        ) -> Bool {
            let count = Int(aEnd - aStart)
            guard count == Int(bEnd - bStart) else { return false }
            guard count > 0, let aBase = a.baseAddress, let bBase = b.baseAddress else { return count == 0 }
            return memcmp(aBase + Int(aStart), bBase + Int(bStart), count) == 0
        }

        /// The value entry of the live member named `name` in the object at `object`, searching from the key entry
        /// `hint` (0: from the first member) to the end and then from the start; also returns the key entry after it.
        func member(
            of object: Int32, named name: UnsafeBufferPointer<UInt8>, ascii: Bool, nameText: String, from hint: Int32
        ) -> (value: Int32, nextKey: Int32)? {
            let container = entries[Int(object)]
            let count = Int(container.start)
            if count == 0 { return nil }
            let first = object + 1
            let end = container.next
            var key = hint > object && hint < end ? hint : first
            for _ in 0..<count {
                let nextKey = entries[Int(key + 1)].next
                if entries[Int(key)].kind == .key, self.key(key, is: name, ascii: ascii, nameText: nameText) {
                    return (key + 1, nextKey)
                }
                key = nextKey == end ? first : nextKey
            }
            return nil
        }

        /// The value entry of the live member named `name` (a short ASCII name such as `__typename`).
        func member(of object: Int32, named name: StaticString) -> Int32? {
            let nameBytes = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            let container = entries[Int(object)]
            var key = object + 1
            for _ in 0..<Int(container.start) {
                let entry = entries[Int(key)]
                if entry.kind == .key {
                    let matches =
                        entry.flags == 0
                        ? Self.equal(bytes, entry.start, entry.end, nameBytes, 0, Int32(nameBytes.count))
                        : text(key) == String(decoding: nameBytes, as: UTF8.self)
                    if matches { return key + 1 }
                }
                key = entries[Int(key + 1)].next
            }
            return nil
        }

        /// The string at `index`, when it is one.
        func stringValue(_ index: Int32?) -> String? {
            guard let index, entries[Int(index)].kind == .string else { return nil }
            return text(index)
        }

        /// The value at `index` as the `JSONValue` `JSONParser` would have built (a repeated member keeps its first
        /// position and its last value).
        func jsonValue(_ index: Int32) -> JSONValue {
            let entry = entries[Int(index)]
            switch entry.kind {
            case .null: return .null
            case .true: return .bool(true)
            case .false: return .bool(false)
            case .number: return .number(numberText(index))
            case .string, .key, .deadKey: return .string(text(index))
            case .array:
                var items: [JSONValue] = []
                items.reserveCapacity(Int(entry.start))
                var item = index + 1
                for _ in 0..<Int(entry.start) {
                    items.append(jsonValue(item))
                    item = entries[Int(item)].next
                }
                return .array(items)
            case .object:
                var object = JSONObject()
                var key = index + 1
                for _ in 0..<Int(entry.start) {
                    object[text(key)] = jsonValue(key + 1)
                    key = entries[Int(key + 1)].next
                }
                return .object(object)
            }
        }
    }
}
