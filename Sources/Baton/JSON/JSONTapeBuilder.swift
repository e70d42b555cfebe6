import Foundation

/// Reads JSON text into a `JSONTape`: one loop, an explicit stack of open containers, no recursion.
///
/// Accepts exactly RFC 8259 JSON (no trailing commas, no leading zeros, no control characters in strings,
/// `\u` escapes with four hex digits), nested at most `maximumDepth` containers, and reports the first error with
/// `JSONParser`'s message and byte offset. Strings are scanned eight bytes at a time. A repeated member name is
/// found with a 64-bit filter per object (and a dictionary once an object has many members), so a hostile object
/// with thousands of members costs linear time, not quadratic.
struct JSONTapeBuilder {
    typealias Entry = JSONTape.Entry

    /// An open object or array.
    struct Frame {
        /// Its entry on the tape.
        var entry: Int32
        var isObject: Bool
        /// Members or items read so far.
        var count: Int32
        /// Objects: where this object's keys start on `keys`, and a filter of the lengths and bytes of its plain
        /// (unescaped ASCII) keys; whether any key has escapes or non-ASCII bytes (then names compare as Strings).
        var keyBase: Int
        var filter: UInt64
        var hasOddKeys: Bool
    }

    /// Past this many members an object finds repeated names with a dictionary.
    static let linearMembers = 32

    let base: UnsafePointer<UInt8>
    let end: Int
    let maximumDepth: Int
    var position = 0

    var entries: UnsafeMutablePointer<Entry>
    var count = 0
    var capacity: Int
    var frames: [Frame] = []
    /// The key entries of the open objects (shared by every nesting level).
    var keys: [Int32] = []
    /// Member names by text, for open objects with many members, by depth.
    var names: [Int: [String: Int32]] = [:]
    var failure: JSONTape.Failure?

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        // An empty text has no base address; the empty static string's terminator stands in (never read).
        base = bytes.baseAddress ?? ("" as StaticString).utf8Start
        end = bytes.baseAddress == nil ? 0 : bytes.count
        self.maximumDepth = maximumDepth
        capacity = max(16, bytes.count / 8)
        entries = UnsafeMutablePointer<Entry>.allocate(capacity: capacity)
        frames.reserveCapacity(16)
        keys.reserveCapacity(64)
    }

    /// Frees the entries unless `finish` handed them to a tape.
    mutating func release() {
        if capacity > 0 { entries.deallocate() }
        capacity = 0
    }

    mutating func finish() -> JSONTape {
        let tape = JSONTape(entries: entries, count: count)
        capacity = 0
        return tape
    }

    // MARK: The loop

    /// Reads the whole text; nil when it is one JSON value, otherwise why not.
    mutating func run() -> JSONTape.Failure? {
        skipWhitespace()
        if readValues() { return failure }
        skipWhitespace()
        if position != end { return fail("unexpected text after the value") }
        return nil
    }

    /// Reads one value at `position` and, when it opens containers, everything up to the last one's close.
    /// Returns true on an error (in `failure`).
    private mutating func readValues() -> Bool {
        while true {
            // A value.
            guard position < end else { return failed("unexpected end of input") }
            let byte = base[position]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                if frames.count >= maximumDepth { return failed(JSONTape.Failure.tooDeep) }
                let entry = Int32(count)
                append(isObject ? .object : .array, flags: 0, start: 0, end: 0)
                position += 1
                skipWhitespace()
                if position < end, base[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    entries[Int(entry)].next = Int32(count)
                    break  // an empty container is a finished value
                }
                frames.append(
                    Frame(entry: entry, isObject: isObject, count: 0, keyBase: keys.count, filter: 0, hasOddKeys: false)
                )
                if isObject {
                    if readKey() { return true }
                }
                continue
            case UInt8(ascii: "\""):
                if readString(.string) { return true }
            case UInt8(ascii: "t"):
                if readWord("true", .true) { return true }
            case UInt8(ascii: "f"):
                if readWord("false", .false) { return true }
            case UInt8(ascii: "n"):
                if readWord("null", .null) { return true }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if readNumber() { return true }
            default:
                return failed("unexpected character")
            }
            // After a finished value: the separator or the close of the open container, repeatedly.
            while true {
                guard let top = frames.indices.last else { return false }
                frames[top].count += 1
                skipWhitespace()
                guard position < end else { return failed("unexpected end of input") }
                let separator = base[position]
                let isObject = frames[top].isObject
                if separator == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if isObject {
                        if readKey() { return true }
                    }
                    break  // the next value
                }
                guard separator == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    return failed(isObject ? "expected ',' or '}'" : "expected ',' or ']'")
                }
                position += 1
                let depth = frames.count
                let frame = frames.removeLast()
                entries[Int(frame.entry)].start = frame.count
                entries[Int(frame.entry)].next = Int32(count)
                if isObject {
                    keys.removeSubrange(frame.keyBase...)
                    if !names.isEmpty { names[depth] = nil }
                }
            }
        }
    }

    /// Reads a member name and its colon, leaving `position` at the value. Returns true on an error.
    private mutating func readKey() -> Bool {
        skipWhitespace()
        guard position < end, base[position] == UInt8(ascii: "\"") else { return failed("expected a member name") }
        let key = Int32(count)
        if readString(.key) { return true }
        noteKey(key)
        skipWhitespace()
        guard position < end, base[position] == UInt8(ascii: ":") else { return failed("expected ':'") }
        position += 1
        skipWhitespace()
        return false
    }

    // MARK: Repeated names

    /// Records the key entry `key` in the innermost object; an earlier key with the same name goes dead.
    private mutating func noteKey(_ key: Int32) {
        let top = frames.count - 1
        let entry = entries[Int(key)]
        let members = keys.count - frames[top].keyBase
        let depth = frames.count
        if members >= JSONTapeBuilder.linearMembers {
            if members == JSONTapeBuilder.linearMembers {
                // Past the linear limit: index the live names by text once, then look names up.
                var index: [String: Int32] = [:]
                index.reserveCapacity(members * 2)
                for earlier in keys[frames[top].keyBase...] where entries[Int(earlier)].kind == .key {
                    index[view.text(earlier)] = earlier
                }
                names[depth] = index
            }
            let text = view.text(key)
            if let earlier = names[depth]?.updateValue(key, forKey: text) { kill(earlier, in: top) }
            keys.append(key)
            return
        }
        let odd = entry.flags != 0
        if odd || frames[top].hasOddKeys {
            // A name with escapes or non-ASCII bytes can equal a differently spelled one: compare as Strings.
            frames[top].hasOddKeys = true
            for earlier in keys[frames[top].keyBase...] where entries[Int(earlier)].kind == .key {
                if view.sameText(earlier, key) {
                    kill(earlier, in: top)
                    break
                }
            }
        } else {
            let length = Int(entry.end - entry.start)
            let first = length > 0 ? Int(base[Int(entry.start)]) : 0
            let last = length > 0 ? Int(base[Int(entry.end) - 1]) : 0
            let bit = UInt64(1) << UInt64((length &* 7 &+ first &* 3 &+ last) & 63)
            if frames[top].filter & bit != 0 {
                let bytes = view.rawBytes(entry)
                for earlier in keys[frames[top].keyBase...] where entries[Int(earlier)].kind == .key {
                    if JSONTape.equal(view.rawBytes(entries[Int(earlier)]), bytes) {
                        kill(earlier, in: top)
                        break
                    }
                }
            }
            frames[top].filter |= bit
        }
        keys.append(key)
    }

    /// Marks `earlier` dead: at most one earlier key is live with a name, since each repeat kills the one before.
    private mutating func kill(_ earlier: Int32, in frame: Int) {
        entries[Int(earlier)].kind = .deadKey
        entries[Int(frames[frame].entry)].flags |= JSONTape.repeatedNames
    }

    private var view: JSONTape.View {
        JSONTape.View(entries: entries, count: count, bytes: UnsafeBufferPointer(start: base, count: end))
    }

    // MARK: Tokens

    @inline(__always)
    private mutating func append(_ kind: JSONTape.Kind, flags: UInt8, start: Int, end: Int) {
        if count == capacity { grow() }
        entries[count] = Entry(kind: kind, flags: flags, start: Int32(start), end: Int32(end), next: Int32(count + 1))
        count += 1
    }

    private mutating func grow() {
        let larger = capacity * 2
        let moved = UnsafeMutablePointer<Entry>.allocate(capacity: larger)
        moved.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = moved
        capacity = larger
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < end {
            switch base[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func fail(_ message: String) -> JSONTape.Failure {
        let failure = JSONTape.Failure(message: message, offset: position)
        self.failure = failure
        return failure
    }

    private mutating func failed(_ message: String) -> Bool {
        _ = fail(message)
        return true
    }

    private mutating func readWord(_ word: StaticString, _ kind: JSONTape.Kind) -> Bool {
        let length = word.utf8CodeUnitCount
        guard position + length <= end else { return failed("unexpected end of input") }
        let start = word.utf8Start
        for index in 0..<length where base[position + index] != start[index] {
            return failed("unexpected character")
        }
        append(kind, flags: 0, start: position, end: position + length)
        position += length
        return false
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The byte at `position`, or 0 past the end (no JSON token continues with a zero byte).
    @inline(__always)
    private func peek() -> UInt8 { position < end ? base[position] : 0 }

    private mutating func readNumber() -> Bool {
        let start = position
        if base[position] == UInt8(ascii: "-") { position += 1 }
        guard position < end else { return failed("unexpected end of input") }
        if base[position] == UInt8(ascii: "0") {
            position += 1
        } else if isDigit(base[position]) {
            while isDigit(peek()) { position += 1 }
        } else {
            return failed("expected a digit")
        }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard isDigit(peek()) else { return failed("expected a digit") }
            while isDigit(peek()) { position += 1 }
        }
        if peek() | 0x20 == UInt8(ascii: "e") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard isDigit(peek()) else { return failed("expected a digit") }
            while isDigit(peek()) { position += 1 }
        }
        append(.number, flags: 0, start: start, end: position)
        return false
    }

    /// Checks a string as `JSONParser` reads it (escapes, `\u` hex digits, no control characters) and records
    /// its byte range without decoding it. Eight bytes at a time while none is a quote, a backslash or a control
    /// character.
    private mutating func readString(_ kind: JSONTape.Kind) -> Bool {
        position += 1
        let start = position
        var flags: UInt8 = 0
        let raw = UnsafeRawPointer(base)
        while true {
            var high: UInt64 = 0
            while position + 8 <= end {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                let quote = word ^ 0x2222_2222_2222_2222
                let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
                let stops =
                    ((quote &- 0x0101_0101_0101_0101) & ~quote)
                    | ((backslash &- 0x0101_0101_0101_0101) & ~backslash)
                    | ((word &- 0x2020_2020_2020_2020) & ~word)
                if stops & 0x8080_8080_8080_8080 != 0 { break }
                high |= word
                position += 8
            }
            if high & 0x8080_8080_8080_8080 != 0 { flags |= JSONTape.nonASCII }
            // Byte by byte up to the next stop.
            guard position < end else { return failed("unterminated string") }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                append(kind, flags: flags, start: start, end: position)
                position += 1
                return false
            }
            if byte < 0x20 { return failed("control character in string") }
            if byte >= 0x80 { flags |= JSONTape.nonASCII }
            position += 1
            guard byte == UInt8(ascii: "\\") else { continue }
            flags |= JSONTape.escaped
            guard position < end else { return failed("unterminated string") }
            let escape = base[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                continue
            case UInt8(ascii: "u"):
                guard let code = readHex4() else { return true }
                // A `\u` after a high surrogate is read as the low half of the pair, and checked.
                if (0xD800...0xDBFF).contains(code), position + 1 < end, base[position] == UInt8(ascii: "\\"),
                    base[position + 1] == UInt8(ascii: "u")
                {
                    position += 2
                    guard readHex4() != nil else { return true }
                }
            default:
                return failed("invalid escape")
            }
        }
    }

    /// Four hex digits at `position`; nil (with the failure set) when they are not.
    private mutating func readHex4() -> UInt32? {
        guard position + 4 <= end else {
            _ = fail("unexpected end of input")
            return nil
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = base[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default:
                _ = fail("invalid \\u escape")
                return nil
            }
            value = value * 16 + digit
            position += 1
        }
        return value
    }
}
