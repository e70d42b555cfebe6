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
        /// Members or items read so far.
        var count: Int32
        /// Objects: a filter of the lengths and bytes of the plain (unescaped ASCII) member names.
        var filter: UInt64
        var isObject: Bool
        /// Objects: whether a name has escapes or non-ASCII bytes (then names compare as Strings).
        var hasOddKeys: Bool
    }

    /// Past this many members an object finds repeated names with a dictionary.
    static let linearMembers: Int32 = 32

    let base: UnsafePointer<UInt8>
    let end: Int
    let maximumDepth: Int
    var position = 0

    var entries: UnsafeMutablePointer<Entry>
    var count = 0
    var capacity: Int
    /// The open containers, innermost last (`depth` of them).
    var frames: UnsafeMutablePointer<Frame>
    var frameCapacity: Int
    var depth = 0
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
        frameCapacity = 32
        frames = UnsafeMutablePointer<Frame>.allocate(capacity: frameCapacity)
    }

    /// Frees the frames, and the entries unless `finish` handed them to a tape.
    mutating func release() {
        if capacity > 0 { entries.deallocate() }
        capacity = 0
        frames.deallocate()
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
                if depth >= maximumDepth { return failed(JSONTape.Failure.tooDeep) }
                let entry = Int32(truncatingIfNeeded: count)
                append(isObject ? .object : .array, flags: 0, start: 0, end: 0)
                position += 1
                skipWhitespace()
                if position < end, base[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    entries[Int(entry)].next = Int32(truncatingIfNeeded: count)
                    break  // an empty container is a finished value
                }
                if depth == frameCapacity { growFrames() }
                frames[depth] = Frame(entry: entry, count: 0, filter: 0, isObject: isObject, hasOddKeys: false)
                depth += 1
                if isObject, readKey() { return true }
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
                guard depth > 0 else { return false }
                let top = frames + (depth - 1)
                top.pointee.count &+= 1
                skipWhitespace()
                guard position < end else { return failed("unexpected end of input") }
                let separator = base[position]
                let isObject = top.pointee.isObject
                if separator == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if isObject, readKey() { return true }
                    break  // the next value
                }
                guard separator == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    return failed(isObject ? "expected ',' or '}'" : "expected ',' or ']'")
                }
                position += 1
                let entry = Int(top.pointee.entry)
                entries[entry].start = top.pointee.count
                entries[entry].next = Int32(truncatingIfNeeded: count)
                if isObject, top.pointee.count > JSONTapeBuilder.linearMembers { names[depth] = nil }
                depth -= 1
            }
        }
    }

    private mutating func growFrames() { Self.double(&frames, capacity: &frameCapacity, keeping: depth) }

    /// Reads a member name and its colon, leaving `position` at the value. Returns true on an error.
    @inline(__always)
    private mutating func readKey() -> Bool {
        skipWhitespace()
        guard position < end, base[position] == UInt8(ascii: "\"") else { return failed("expected a member name") }
        let key = Int32(truncatingIfNeeded: count)
        if readString(.key) { return true }
        noteKey(key)
        skipWhitespace()
        guard position < end, base[position] == UInt8(ascii: ":") else { return failed("expected ':'") }
        position += 1
        skipWhitespace()
        return false
    }

    // MARK: Repeated names

    /// Checks the new key entry `key` of the innermost object against its earlier members; an earlier key with the
    /// same name goes dead. The earlier members are complete on the tape, so they are walked there.
    @inline(__always)
    private mutating func noteKey(_ key: Int32) {
        let top = frames + (depth - 1)
        let entry = entries[Int(key)]
        let members = top.pointee.count
        if members >= JSONTapeBuilder.linearMembers {
            noteKeyOfALargeObject(key, members: members, top: top)
            return
        }
        if entry.flags != 0 || top.pointee.hasOddKeys {
            // A name with escapes or non-ASCII bytes can equal a differently spelled one: compare as Strings.
            top.pointee.hasOddKeys = true
            let view = self.view
            forEachEarlierKey(of: top, before: key) { earlier in view.sameText(earlier, key) }
            return
        }
        let length = Int(entry.end &- entry.start)
        let first = length > 0 ? Int(base[Int(entry.start)]) : 0
        let last = length > 0 ? Int(base[Int(entry.end) - 1]) : 0
        let bit = UInt64(1) &<< UInt64((length &* 7 &+ first &* 3 &+ last) & 63)
        if top.pointee.filter & bit != 0 {
            let view = self.view
            let bytes = view.rawBytes(entry)
            forEachEarlierKey(of: top, before: key) { earlier in JSONTape.equal(view.rawBytes(view[earlier]), bytes) }
        }
        top.pointee.filter |= bit
    }

    /// Walks the live earlier keys of the object `frame` up to `key`; the first for which `same` holds goes dead.
    private func forEachEarlierKey(
        of frame: UnsafeMutablePointer<Frame>, before key: Int32, _ same: (Int32) -> Bool
    ) {
        var earlier = frame.pointee.entry + 1
        while earlier < key {
            if entries[Int(earlier)].kind == .key, same(earlier) {
                kill(earlier, in: frame)
                return
            }
            earlier = entries[Int(earlier) + 1].next
        }
    }

    /// Past the linear limit: the live names are indexed by text once, then looked up.
    private mutating func noteKeyOfALargeObject(_ key: Int32, members: Int32, top: UnsafeMutablePointer<Frame>) {
        if members == JSONTapeBuilder.linearMembers {
            var index: [String: Int32] = [:]
            index.reserveCapacity(Int(members) * 2)
            var earlier = top.pointee.entry + 1
            while earlier < key {
                if entries[Int(earlier)].kind == .key { index[view.text(earlier)] = earlier }
                earlier = entries[Int(earlier) + 1].next
            }
            names[depth] = index
        }
        let text = view.text(key)
        if let earlier = names[depth]?.updateValue(key, forKey: text) { kill(earlier, in: top) }
    }

    /// Marks `earlier` dead: at most one earlier key is live with a name, since each repeat kills the one before.
    private func kill(_ earlier: Int32, in frame: UnsafeMutablePointer<Frame>) {
        entries[Int(earlier)].kind = .deadKey
        entries[Int(frame.pointee.entry)].flags |= JSONTape.repeatedNames
    }

    private var view: JSONTape.View {
        JSONTape.View(entries: entries, count: count, bytes: UnsafeBufferPointer(start: base, count: end))
    }

    // MARK: Tokens

    @inline(__always)
    private mutating func append(_ kind: JSONTape.Kind, flags: UInt8, start: Int, end: Int) {
        if count == capacity { grow() }
        // The text is shorter than 2 GiB (checked before reading), so every offset and index fits.
        entries[count] = Entry(
            kind: kind, flags: flags, start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: end),
            next: Int32(truncatingIfNeeded: count &+ 1))
        count &+= 1
    }

    private mutating func grow() { Self.double(&entries, capacity: &capacity, keeping: count) }

    /// Moves the first `count` elements of `buffer` into one twice as large.
    private static func double<Element>(
        _ buffer: inout UnsafeMutablePointer<Element>, capacity: inout Int, keeping count: Int
    ) {
        let larger = capacity * 2
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        moved.moveInitialize(from: buffer, count: count)
        buffer.deallocate()
        buffer = moved
        capacity = larger
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < end {
            let byte = base[position]
            // Every byte a token starts with is above the space; whitespace is at or below it.
            if byte > 0x20 { return }
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
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
    @inline(__always)
    private mutating func readString(_ kind: JSONTape.Kind) -> Bool {
        var cursor = position + 1
        let start = cursor
        var high: UInt64 = 0
        let raw = UnsafeRawPointer(base)
        // Without escapes or control characters (nearly every string), eight bytes at a time to the closing quote.
        while cursor + 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: cursor, as: UInt64.self))
            let quote = word ^ 0x2222_2222_2222_2222
            let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
            let stops =
                ((quote &- 0x0101_0101_0101_0101) & ~quote) | ((backslash &- 0x0101_0101_0101_0101) & ~backslash)
                | ((word &- 0x2020_2020_2020_2020) & ~word)
            let found = stops & 0x8080_8080_8080_8080
            if found == 0 {
                high |= word
                cursor &+= 8
                continue
            }
            // The lowest flagged byte is the first stop (a borrow can only flag bytes above a true one).
            let plain = found.trailingZeroBitCount &>> 3
            high |= word & ((1 &<< UInt64(plain &* 8)) &- 1)
            cursor &+= plain
            if base[cursor] == UInt8(ascii: "\"") {
                append(
                    kind, flags: high & 0x8080_8080_8080_8080 != 0 ? JSONTape.nonASCII : 0, start: start, end: cursor)
                position = cursor &+ 1
                return false
            }
            break
        }
        position = cursor
        return readStringByBytes(kind, start: start, flags: high & 0x8080_8080_8080_8080 != 0 ? JSONTape.nonASCII : 0)
    }

    /// The rest of a string from `position`, a byte at a time: escapes, control characters, the last bytes.
    private mutating func readStringByBytes(_ kind: JSONTape.Kind, start: Int, flags initial: UInt8) -> Bool {
        var flags = initial
        while position < end {
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                append(kind, flags: flags, start: start, end: position)
                position += 1
                return false
            }
            if byte == UInt8(ascii: "\\") {
                position += 1
                flags |= JSONTape.escaped
                if readEscape() { return true }
                continue
            }
            if byte < 0x20 { return failed("control character in string") }
            if byte >= 0x80 { flags |= JSONTape.nonASCII }
            position += 1
        }
        return failed("unterminated string")
    }

    /// Checks the escape after a backslash (at `position`). Returns true on an error.
    private mutating func readEscape() -> Bool {
        guard position < end else { return failed("unterminated string") }
        let escape = base[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return false
        case UInt8(ascii: "u"):
            guard let code = readHex4() else { return true }
            // A `\u` after a high surrogate is read as the low half of the pair, and checked.
            if (0xD800...0xDBFF).contains(code), position + 1 < end, base[position] == UInt8(ascii: "\\"),
                base[position + 1] == UInt8(ascii: "u")
            {
                position += 2
                return readHex4() == nil
            }
            return false
        default:
            return failed("invalid escape")
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
