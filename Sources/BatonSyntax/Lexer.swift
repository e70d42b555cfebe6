/// The GraphQL lexer, after graphql-js 16's `lexer.js`, on UTF-8 bytes.
///
/// It reads one token at a time on demand (as graphql-js does), so the first error the parser
/// reports is the one graphql-js reports. Ignored tokens (whitespace, commas, BOMs, line
/// terminators and comments) are skipped. Offsets are byte offsets; graphql-js's UTF-16
/// columns are recovered from them by `SourceFile` when a diagnostic is printed.
///
/// The lexer never copies text: tokens are spans, and `Lexer+Strings.swift` turns string
/// tokens into values only when a node needs them.
package struct Lexer {
    /// The text being read. Valid for the lifetime of the lexer (the caller holds it).
    let bytes: UnsafeBufferPointer<UInt8>

    package init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The byte at `index`, or -1 past the end (graphql-js's `NaN`).
    @inline(__always)
    func byte(_ index: Int) -> Int {
        index < bytes.count ? Int(bytes[index]) : -1
    }

    /// The next significant token starting at or after `position`.
    package func next(from start: Int) throws(SyntaxError) -> Token {
        let count = bytes.count
        var position = start
        while position < count {
            let code = bytes[position]
            switch code {
            case 0x0A, 0x20:  // LF, space: then a line's indentation, eight spaces at a time
                position = skipSpaces(from: position + 1)
                continue
            case 0x09, 0x2C, 0x0D:  // tab, comma, CR (CRLF is this and LF)
                position += 1
                continue
            case 0x23:  // # comment: up to a line terminator or a character that is not valid
                position = skipComment(from: position + 1)
                continue
            case 0x21: return Token(kind: .bang, start: position, end: position + 1)
            case 0x24: return Token(kind: .dollar, start: position, end: position + 1)
            case 0x26: return Token(kind: .ampersand, start: position, end: position + 1)
            case 0x28: return Token(kind: .parenLeft, start: position, end: position + 1)
            case 0x29: return Token(kind: .parenRight, start: position, end: position + 1)
            case 0x2E:
                if byte(position + 1) == 0x2E && byte(position + 2) == 0x2E {
                    return Token(kind: .spread, start: position, end: position + 3)
                }
            case 0x3A: return Token(kind: .colon, start: position, end: position + 1)
            case 0x3D: return Token(kind: .equals, start: position, end: position + 1)
            case 0x40: return Token(kind: .at, start: position, end: position + 1)
            case 0x5B: return Token(kind: .bracketLeft, start: position, end: position + 1)
            case 0x5D: return Token(kind: .bracketRight, start: position, end: position + 1)
            case 0x7B: return Token(kind: .braceLeft, start: position, end: position + 1)
            case 0x7C: return Token(kind: .pipe, start: position, end: position + 1)
            case 0x7D: return Token(kind: .braceRight, start: position, end: position + 1)
            case 0x22:
                if byte(position + 1) == 0x22 && byte(position + 2) == 0x22 {
                    return try readBlockString(from: position)
                }
                return try readString(from: position)
            case 0x30...0x39, 0x2D:
                return try readNumber(from: position)
            case 0x41...0x5A, 0x61...0x7A, 0x5F:
                return readName(from: position)
            case 0xEF:
                // U+FEFF, the byte order mark, is ignored anywhere (as graphql-js does).
                if byte(position + 1) == 0xBB && byte(position + 2) == 0xBF {
                    position += 3
                    continue
                }
            default:
                break
            }
            throw unexpectedCharacter(at: position)
        }
        return Token(kind: .endOfFile, start: count, end: count)
    }

    /// The first index at or after `start` that is not a space (0x20), read a word at a time: the
    /// indentation of a document's lines is most of its ignored bytes.
    @inline(__always)
    func skipSpaces(from start: Int) -> Int {
        var position = start
        let count = bytes.count
        while position + 8 <= count {
            // A space's byte is zero here; the first other byte's lowest set bit counts the spaces before it.
            let others = UInt64(littleEndian: word(bytes, position)) ^ spaceBytes
            if others != 0 { return position + others.trailingZeroBitCount &>> 3 }
            position += 8
        }
        while position < count && bytes[position] == 0x20 { position += 1 }
        return position
    }

    /// The error for a character that starts no token.
    func unexpectedCharacter(at position: Int) -> SyntaxError {
        let code = bytes[position]
        if code == 0x27 {
            return SyntaxError(
                "Unexpected single quote character ('), did you mean to use a double quote (\")?", at: position,
                length: 1)
        }
        guard let scalar = decodeScalar(at: position) else {
            return SyntaxError("Invalid character: \(invalidByteDescription(at: position)).", at: position, length: 1)
        }
        return SyntaxError(
            "Unexpected character: \(describeCodePoint(at: position)).", at: position, length: scalar.length)
    }

    /// The end of a comment whose text starts at `position`: the first line terminator, the end
    /// of the text, or the first byte that is not valid UTF-8 (which the caller then reports).
    func skipComment(from start: Int) -> Int {
        var position = start
        let count = bytes.count
        while position < count {
            position = skipPlainWords(bytes, from: position, stopAtLineBreaks: true)
            guard position < count else { break }
            let code = bytes[position]
            if code == 0x0A || code == 0x0D { break }
            if code < 0x80 {
                position += 1
            } else if let scalar = decodeScalar(at: position) {
                position += scalar.length
            } else {
                break
            }
        }
        return position
    }

    // MARK: - Names and numbers

    func readName(from start: Int) -> Token {
        var position = start + 1
        let count = bytes.count
        // Eight bytes at a time while eight are left; the first byte that is not `[A-Za-z0-9_]` ends the name.
        while position + 8 <= count {
            let others = nonNameBytes(UInt64(littleEndian: word(bytes, position)))
            if others != 0 {
                return Token(kind: .name, start: start, end: position + others.trailingZeroBitCount &>> 3)
            }
            position += 8
        }
        while position < count && isNameContinueByte(bytes[position]) { position += 1 }
        return Token(kind: .name, start: start, end: position)
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, not followed by `.` or a name start.
    func readNumber(from start: Int) throws(SyntaxError) -> Token {
        var position = start
        var code = byte(position)
        var isFloat = false
        if code == 0x2D {
            position += 1
            code = byte(position)
        }
        if code == 0x30 {
            position += 1
            code = byte(position)
            if isDigit(code) {
                throw SyntaxError(
                    "Invalid number, unexpected digit after 0: \(describeCodePoint(at: position)).", at: position,
                    length: 1)
            }
        } else {
            position = try readDigits(from: position)
            code = byte(position)
        }
        if code == 0x2E {
            isFloat = true
            position = try readDigits(from: position + 1)
            code = byte(position)
        }
        if code == 0x45 || code == 0x65 {
            isFloat = true
            position += 1
            code = byte(position)
            if code == 0x2B || code == 0x2D {
                position += 1
            }
            position = try readDigits(from: position)
            code = byte(position)
        }
        if code == 0x2E || isNameStart(code) {
            throw SyntaxError(
                "Invalid number, expected digit but got: \(describeCodePoint(at: position)).", at: position, length: 1)
        }
        return Token(kind: isFloat ? .float : .int, start: start, end: position)
    }

    func readDigits(from start: Int) throws(SyntaxError) -> Int {
        guard isDigit(byte(start)) else {
            throw SyntaxError(
                "Invalid number, expected digit but got: \(describeCodePoint(at: start)).", at: start,
                length: start < bytes.count ? 1 : 0)
        }
        var position = start + 1
        while isDigit(byte(position)) { position += 1 }
        return position
    }

    // MARK: - Strings

    /// A `"…"` string. Escapes are checked here; `Lexer+Strings.swift` decodes them later.
    func readString(from start: Int) throws(SyntaxError) -> Token {
        var position = start + 1
        let count = bytes.count
        var hasEscape = false
        while position < count {
            position = skipPlainWords(bytes, from: position, stopAtLineBreaks: true)
            guard position < count else { break }
            let code = bytes[position]
            if code == 0x22 {
                return Token(kind: .string, start: start, end: position + 1, hasEscape: hasEscape)
            }
            if code == 0x5C {
                hasEscape = true
                position += try escapeLength(at: position)
                continue
            }
            if code == 0x0A || code == 0x0D { break }
            if code < 0x80 {
                position += 1
            } else if let scalar = decodeScalar(at: position) {
                position += scalar.length
            } else {
                throw SyntaxError(
                    "Invalid character within String: \(invalidByteDescription(at: position)).", at: position, length: 1
                )
            }
        }
        throw SyntaxError("Unterminated string.", at: position)
    }

    /// An error at `position` whose span covers `length` bytes but never runs past the end of the text: an escape
    /// sequence cut off by the end of the file (a string ending in a backslash) is reported up to the last byte, so
    /// every span lies inside its file (an editor cannot show a range past the document's end).
    func clampedError(_ message: String, at position: Int, length: Int) -> SyntaxError {
        SyntaxError(message, at: position, length: max(0, min(length, bytes.count - position)))
    }

    /// The byte length of the valid escape sequence at `position` (a backslash), or its error.
    func escapeLength(at position: Int) throws(SyntaxError) -> Int {
        let escaped = byte(position + 1)
        switch escaped {
        case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74:  // " \ / b f n r t
            return 2
        case 0x75:  // u
            if byte(position + 2) == 0x7B {
                return try variableWidthUnicodeEscapeLength(at: position)
            }
            return try fixedWidthUnicodeEscapeLength(at: position)
        default:
            throw clampedError(
                "Invalid character escape sequence: \"\(utf16Slice(from: position, units: 2))\".", at: position,
                length: 2)
        }
    }

    /// `\u{…}`: one to eight hex digits (twelve characters at most) naming a Unicode scalar value.
    func variableWidthUnicodeEscapeLength(at position: Int) throws(SyntaxError) -> Int {
        var point: Int32 = 0
        var size = 3
        while size < 12 {
            let code = byte(position + size)
            size += 1
            if code == 0x7D {
                if size < 5 || !isUnicodeScalarValue(Int(point)) { break }
                return size
            }
            // Arithmetic as graphql-js does it on 32-bit integers: a bad digit or an overflow
            // makes the point negative.
            point = (point &<< 4) | Int32(hexDigitValue(code))
            if point < 0 { break }
        }
        throw clampedError(
            "Invalid Unicode escape sequence: \"\(utf16Slice(from: position, units: size))\".", at: position,
            length: size)
    }

    /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`. A lone surrogate is an error.
    func fixedWidthUnicodeEscapeLength(at position: Int) throws(SyntaxError) -> Int {
        let code = read16BitHexCode(at: position + 2)
        if isUnicodeScalarValue(code) { return 6 }
        if isLeadingSurrogate(code) && byte(position + 6) == 0x5C && byte(position + 7) == 0x75 {
            if isTrailingSurrogate(read16BitHexCode(at: position + 8)) { return 12 }
        }
        throw clampedError(
            "Invalid Unicode escape sequence: \"\(utf16Slice(from: position, units: 6))\".", at: position, length: 6)
    }

    /// Four hex digits at `position` as a number, negative if any is not a hex digit.
    func read16BitHexCode(at position: Int) -> Int {
        (hexDigitValue(byte(position)) << 12) | (hexDigitValue(byte(position + 1)) << 8)
            | (hexDigitValue(byte(position + 2)) << 4) | hexDigitValue(byte(position + 3))
    }

    /// A `"""…"""` block string. Lines and indentation are processed later, on demand.
    func readBlockString(from start: Int) throws(SyntaxError) -> Token {
        var position = start + 3
        let count = bytes.count
        var hasEscape = false
        while position < count {
            position = skipPlainWords(bytes, from: position, stopAtLineBreaks: false)
            guard position < count else { break }
            let code = bytes[position]
            if code == 0x22 && byte(position + 1) == 0x22 && byte(position + 2) == 0x22 {
                return Token(kind: .blockString, start: start, end: position + 3, hasEscape: hasEscape)
            }
            if code == 0x5C && byte(position + 1) == 0x22 && byte(position + 2) == 0x22 && byte(position + 3) == 0x22 {
                hasEscape = true
                position += 4
                continue
            }
            if code < 0x80 {
                position += 1
            } else if let scalar = decodeScalar(at: position) {
                position += scalar.length
            } else {
                throw SyntaxError(
                    "Invalid character within String: \(invalidByteDescription(at: position)).", at: position, length: 1
                )
            }
        }
        throw SyntaxError("Unterminated string.", at: position)
    }

    // MARK: - Characters

    /// The Unicode scalar value encoded at `position` and its length in bytes, or nil if the
    /// bytes there are not well-formed UTF-8 (overlong forms, surrogates, values past U+10FFFF,
    /// truncated sequences and stray continuation bytes are all rejected).
    func decodeScalar(at position: Int) -> (value: UInt32, length: Int)? {
        decodeUTF8Scalar(bytes, at: position)
    }

    /// graphql-js's `printCodePointAt`: `<EOF>`, a quoted printable ASCII character, or `U+XXXX`.
    func describeCodePoint(at position: Int) -> String {
        guard position < bytes.count else { return "<EOF>" }
        guard let scalar = decodeScalar(at: position) else { return invalidByteDescription(at: position) }
        let value = scalar.value
        if value >= 0x20 && value <= 0x7E {
            if value == 0x22 { return "'\"'" }
            return "\"" + String(UnicodeScalar(UInt8(value))) + "\""
        }
        return codePointName(value)
    }

    /// How a byte that does not begin valid UTF-8 is named in messages.
    func invalidByteDescription(at position: Int) -> String {
        "0x" + hex(UInt32(bytes[position]), width: 2) + " is not valid UTF-8"
    }

    /// The text from `position` that graphql-js's `body.slice(position, position + units)`
    /// shows, where `units` counts UTF-16 code units; cut at the end of the text.
    func utf16Slice(from position: Int, units: Int) -> String {
        var index = position
        var taken = 0
        var scalars = String.UnicodeScalarView()
        while taken < units && index < bytes.count {
            if let scalar = decodeScalar(at: index) {
                scalars.append(UnicodeScalar(scalar.value) ?? "\u{FFFD}")
                index += scalar.length
                taken += scalar.value > 0xFFFF ? 2 : 1
            } else {
                scalars.append("\u{FFFD}")
                index += 1
                taken += 1
            }
        }
        return String(scalars)
    }
}

// MARK: - Scanning eight bytes at a time

/// Reads eight bytes at `index` (which must leave eight bytes in `bytes`).
@inline(__always)
func word(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt64 {
    UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped).loadUnaligned(fromByteOffset: index, as: UInt64.self)
}

/// A mask with the high bit set in each byte of `word` equal to `byte`'s copies in `pattern`
/// (`pattern` = byte × 0x0101010101010101); may have false positives only above a true one.
@inline(__always)
func matches(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
    let x = word ^ pattern
    return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
}

let spaceBytes: UInt64 = 0x2020_2020_2020_2020
let quotes: UInt64 = 0x2222_2222_2222_2222
let backslashes: UInt64 = 0x5C5C_5C5C_5C5C_5C5C
let lineFeeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
let carriageReturns: UInt64 = 0x0D0D_0D0D_0D0D_0D0D
let highBits: UInt64 = 0x8080_8080_8080_8080

/// The first index at or after `start` where eight bytes are not all plain (ASCII and none of
/// `"`, `\`, and, when `stopAtLineBreaks`, CR or LF); a byte there or after it needs a look.
@inline(__always)
func skipPlainWords(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, stopAtLineBreaks: Bool) -> Int {
    var index = start
    let count = bytes.count
    while index + 8 <= count {
        let value = word(bytes, index)
        var special = (value & highBits) | matches(value, quotes) | matches(value, backslashes)
        if stopAtLineBreaks { special |= matches(value, lineFeeds) | matches(value, carriageReturns) }
        if special != 0 { break }
        index += 8
    }
    return index
}

// MARK: - Character classes (graphql-js `characterClasses.js`)

@inline(__always)
func isDigit(_ code: Int) -> Bool { code >= 0x30 && code <= 0x39 }

@inline(__always)
func isNameStart(_ code: Int) -> Bool {
    (code >= 0x61 && code <= 0x7A) || (code >= 0x41 && code <= 0x5A) || code == 0x5F
}

@inline(__always)
func isNameContinue(_ code: Int) -> Bool { isNameStart(code) || isDigit(code) }

/// `[A-Za-z0-9_]` as one bit test: bit `b` of the 128-bit mask `(high, low)` is set for those bytes.
@inline(__always)
func isNameContinueByte(_ byte: UInt8) -> Bool {
    // Digits 0x30–0x39 in the low word; A–Z 0x41–0x5A, _ 0x5F, a–z 0x61–0x7A in the high word.
    let low: UInt64 = 0x03FF_0000_0000_0000
    let high: UInt64 = 0x07FF_FFFE_87FF_FFFE
    if byte < 64 { return (low >> UInt64(byte)) & 1 != 0 }
    if byte < 128 { return (high >> UInt64(byte - 64)) & 1 != 0 }
    return false
}

/// The high bit of each byte of `word` (little-endian: byte 0 lowest) that is not `[A-Za-z0-9_]`, exactly:
/// `isNameContinueByte` of eight bytes at once. Each byte is tested on its low seven bits (a set high bit is
/// not ASCII, so not a name byte), where adding a constant of at most 0x80 cannot carry into the next byte.
@inline(__always)
func nonNameBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    let seven = word & ~highBits
    // The high bit of each byte whose seven-bit value is in `low...high`.
    @inline(__always) func within(_ value: UInt64, _ low: UInt64, _ high: UInt64) -> UInt64 {
        (value &+ (0x80 - low) &* ones) & ~(value &+ (0x7F - high) &* ones) & highBits
    }
    // `| 0x20` maps A–Z onto a–z, and nothing else onto them.
    let letters = within(seven | (0x20 &* ones), 0x61, 0x7A)
    let names = ~word & (letters | within(seven, 0x30, 0x39) | within(seven, 0x5F, 0x5F))
    return ~names & highBits
}

func isUnicodeScalarValue(_ code: Int) -> Bool {
    (code >= 0 && code <= 0xD7FF) || (code >= 0xE000 && code <= 0x10FFFF)
}

func isLeadingSurrogate(_ code: Int) -> Bool { code >= 0xD800 && code <= 0xDBFF }

func isTrailingSurrogate(_ code: Int) -> Bool { code >= 0xDC00 && code <= 0xDFFF }

/// The value of a hex digit, or -1.
@inline(__always)
func hexDigitValue(_ code: Int) -> Int {
    switch code {
    case 0x30...0x39: code - 0x30
    case 0x41...0x46: code - 0x37
    case 0x61...0x66: code - 0x57
    default: -1
    }
}

/// `U+XXXX` (at least four upper-case hex digits).
func codePointName(_ value: UInt32) -> String { "U+" + hex(value, width: 4) }

func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Decodes one well-formed UTF-8 scalar at `position` (Unicode 15, table 3-7), or nil.
func decodeUTF8Scalar(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> (value: UInt32, length: Int)? {
    let count = bytes.count
    guard position < count else { return nil }
    let b0 = UInt32(bytes[position])
    if b0 < 0x80 { return (b0, 1) }
    @inline(__always) func continuation(_ offset: Int, _ low: UInt32 = 0x80, _ high: UInt32 = 0xBF) -> UInt32? {
        guard position + offset < count else { return nil }
        let byte = UInt32(bytes[position + offset])
        return byte >= low && byte <= high ? byte & 0x3F : nil
    }
    switch b0 {
    case 0xC2...0xDF:
        guard let c1 = continuation(1) else { return nil }
        return (((b0 & 0x1F) << 6) | c1, 2)
    case 0xE0...0xEF:
        let low: UInt32 = b0 == 0xE0 ? 0xA0 : 0x80
        let high: UInt32 = b0 == 0xED ? 0x9F : 0xBF
        guard let c1 = continuation(1, low, high), let c2 = continuation(2) else { return nil }
        return (((b0 & 0x0F) << 12) | (c1 << 6) | c2, 3)
    case 0xF0...0xF4:
        let low: UInt32 = b0 == 0xF0 ? 0x90 : 0x80
        let high: UInt32 = b0 == 0xF4 ? 0x8F : 0xBF
        guard let c1 = continuation(1, low, high), let c2 = continuation(2), let c3 = continuation(3) else {
            return nil
        }
        return (((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, 4)
    default:
        return nil
    }
}
