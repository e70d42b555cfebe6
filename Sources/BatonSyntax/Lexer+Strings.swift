/// Values of string tokens: escapes decoded, block strings split into lines and dedented as
/// the spec's `BlockStringValue()` (graphql-js `dedentBlockStringLines`) says.
///
/// The lexer has already checked every escape and every byte, so decoding cannot fail here.
extension Lexer {
    /// The value of a `.string` or `.blockString` token; for other tokens, their text.
    package func stringValue(of token: Token) -> String {
        switch token.kind {
        case .string:
            let contentStart = token.start + 1
            let contentEnd = max(contentStart, token.end - 1)
            if !token.hasEscape { return text(contentStart, contentEnd) }
            return decodeEscapes(contentStart, contentEnd)
        case .blockString:
            return blockStringValue(
                contentStart: token.start + 3, contentEnd: max(token.start + 3, token.end - 3),
                hasEscape: token.hasEscape)
        default:
            return text(token.start, token.end)
        }
    }

    /// The bytes `[start, end)` as a String.
    @inline(__always)
    package func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// True if the token's text is exactly `word` (ASCII).
    @inline(__always)
    package func tokenText(_ token: Token, equals word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard token.end - token.start == length else { return false }
        let pointer = word.utf8Start
        for offset in 0..<length where bytes[token.start + offset] != pointer[offset] {
            return false
        }
        return true
    }

    func decodeEscapes(_ start: Int, _ end: Int) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(end - start)
        var position = start
        while position < end {
            let code = bytes[position]
            guard code == 0x5C, position + 1 < end else {
                output.append(code)
                position += 1
                continue
            }
            switch bytes[position + 1] {
            case 0x22: output.append(0x22)
            case 0x5C: output.append(0x5C)
            case 0x2F: output.append(0x2F)
            case 0x62: output.append(0x08)
            case 0x66: output.append(0x0C)
            case 0x6E: output.append(0x0A)
            case 0x72: output.append(0x0D)
            case 0x74: output.append(0x09)
            case 0x75:
                if byte(position + 2) == 0x7B {
                    var point: UInt32 = 0
                    var index = position + 3
                    while index < end, bytes[index] != 0x7D {
                        point = (point << 4) | UInt32(max(0, hexDigitValue(Int(bytes[index]))))
                        index += 1
                    }
                    appendUTF8(point, to: &output)
                    position = index + 1
                } else {
                    let code = read16BitHexCode(at: position + 2)
                    if isLeadingSurrogate(code) {
                        let trailing = read16BitHexCode(at: position + 8)
                        let scalar = 0x10000 + ((code - 0xD800) << 10) + (trailing - 0xDC00)
                        appendUTF8(UInt32(truncatingIfNeeded: scalar), to: &output)
                        position += 12
                    } else {
                        appendUTF8(UInt32(truncatingIfNeeded: max(0, code)), to: &output)
                        position += 6
                    }
                }
                continue
            default:
                output.append(bytes[position + 1])
            }
            position += 2
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Lines of the block string (escaped triple quotes restored), dedented and joined with `\n`.
    func blockStringValue(contentStart: Int, contentEnd: Int, hasEscape: Bool) -> String {
        guard hasEscape else {
            return dedentBlockString(UnsafeBufferPointer(rebasing: bytes[contentStart..<contentEnd]))
        }
        var raw: [UInt8] = []
        raw.reserveCapacity(contentEnd - contentStart)
        var position = contentStart
        while position < contentEnd {
            if bytes[position] == 0x5C && position + 3 < contentEnd && bytes[position + 1] == 0x22
                && bytes[position + 2] == 0x22 && bytes[position + 3] == 0x22
            {
                raw.append(contentsOf: [0x22, 0x22, 0x22])
                position += 4
            } else {
                raw.append(bytes[position])
                position += 1
            }
        }
        return raw.withUnsafeBufferPointer { dedentBlockString($0) }
    }
}

/// The spec's `BlockStringValue()` (graphql-js `dedentBlockStringLines` joined with `\n`) on
/// raw block-string content: split into lines at CR, LF or CRLF; remove the common indentation
/// of all lines but the first; drop leading and trailing blank lines; join with LF.
package func dedentBlockString(_ raw: UnsafeBufferPointer<UInt8>) -> String {
    let count = raw.count
    /// The end of the line starting at `start` (its terminator or the end of the text).
    @inline(__always) func lineEnd(from start: Int) -> Int {
        var index = start
        while index + 8 <= count {
            let value = word(raw, index)
            if matches(value, lineFeeds) | matches(value, carriageReturns) != 0 { break }
            index += 8
        }
        while index < count {
            let byte = raw[index]
            if byte == 0x0A || byte == 0x0D { break }
            index += 1
        }
        return index
    }
    /// The start of the line after the terminator at `end`.
    @inline(__always) func nextLineStart(after end: Int) -> Int {
        end < count && raw[end] == 0x0D && end + 1 < count && raw[end + 1] == 0x0A ? end + 2 : end + 1
    }

    // Pass 1: the common indentation and the first and last non-blank lines.
    var commonIndent = Int.max
    var firstLine = -1
    var firstStart = 0
    var firstEnd = 0
    var lastEnd = 0
    var lineIndex = 0
    var start = 0
    while true {
        let end = lineEnd(from: start)
        var indent = 0
        while start + indent < end && (raw[start + indent] == 0x20 || raw[start + indent] == 0x09) { indent += 1 }
        if start + indent < end {
            if firstLine < 0 {
                firstLine = lineIndex
                firstStart = start
                firstEnd = end
            }
            lastEnd = end
            if lineIndex != 0 && indent < commonIndent { commonIndent = indent }
        }
        guard end < count else { break }
        start = nextLineStart(after: end)
        lineIndex += 1
    }
    guard firstLine >= 0 else { return "" }
    if lineIndex == 0 { return String(decoding: raw, as: UTF8.self) }
    if lastEnd == firstEnd {
        // One non-blank line (the usual description): it is the value, less the common
        // indentation, which is its own unless it is the first line.
        let from = firstLine == 0 ? firstStart : min(firstStart + commonIndent, lastEnd)
        return String(decoding: UnsafeBufferPointer(rebasing: raw[from..<lastEnd]), as: UTF8.self)
    }

    // Pass 2: the lines from the first to the last non-blank one, dedented, joined with LF.
    var output: [UInt8] = []
    output.reserveCapacity(lastEnd - firstStart)
    lineIndex = firstLine
    start = firstStart
    while start <= lastEnd {
        let end = lineEnd(from: start)
        let from = lineIndex == 0 ? start : min(start + commonIndent, end)
        if lineIndex != firstLine { output.append(0x0A) }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: raw[from..<end]))
        guard end < lastEnd else { break }
        start = nextLineStart(after: end)
        lineIndex += 1
    }
    return String(decoding: output, as: UTF8.self)
}

/// Appends the UTF-8 encoding of a scalar value (already known to be valid).
func appendUTF8(_ value: UInt32, to output: inout [UInt8]) {
    switch value {
    case 0..<0x80:
        output.append(UInt8(value))
    case 0x80..<0x800:
        output.append(UInt8(0xC0 | (value >> 6)))
        output.append(UInt8(0x80 | (value & 0x3F)))
    case 0x800..<0x10000:
        output.append(UInt8(0xE0 | (value >> 12)))
        output.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
        output.append(UInt8(0x80 | (value & 0x3F)))
    case 0x10000...0x10FFFF:
        output.append(UInt8(0xF0 | (value >> 18)))
        output.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
        output.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
        output.append(UInt8(0x80 | (value & 0x3F)))
    default:
        output.append(contentsOf: [0xEF, 0xBF, 0xBD])
    }
}
