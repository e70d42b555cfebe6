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
            return blockStringValue(contentStart: token.start + 3, contentEnd: max(token.start + 3, token.end - 3),
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
    func tokenText(_ token: Token, equals word: StaticString) -> Bool {
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
        var raw: [UInt8]
        if hasEscape {
            raw = []
            raw.reserveCapacity(contentEnd - contentStart)
            var position = contentStart
            while position < contentEnd {
                if bytes[position] == 0x5C && position + 3 < contentEnd
                    && byte(position + 1) == 0x22 && byte(position + 2) == 0x22 && byte(position + 3) == 0x22
                {
                    raw.append(contentsOf: [0x22, 0x22, 0x22])
                    position += 4
                } else {
                    raw.append(bytes[position])
                    position += 1
                }
            }
        } else {
            raw = Array(bytes[contentStart..<contentEnd])
        }
        return raw.withUnsafeBufferPointer { dedentBlockString($0) }
    }
}

/// The spec's `BlockStringValue()` on raw block-string content: split into lines at CR, LF or
/// CRLF; remove the common indentation of all lines but the first; drop leading and trailing
/// blank lines; join with LF.
package func dedentBlockString(_ raw: UnsafeBufferPointer<UInt8>) -> String {
    var lines: [Range<Int>] = []
    var lineStart = 0
    var index = 0
    let count = raw.count
    while index < count {
        let code = raw[index]
        if code == 0x0A || code == 0x0D {
            lines.append(lineStart..<index)
            index += (code == 0x0D && index + 1 < count && raw[index + 1] == 0x0A) ? 2 : 1
            lineStart = index
        } else {
            index += 1
        }
    }
    lines.append(lineStart..<count)

    var commonIndent = Int.max
    var firstNonEmpty: Int?
    var lastNonEmpty = -1
    for (lineIndex, line) in lines.enumerated() {
        var indent = 0
        while line.lowerBound + indent < line.upperBound {
            let code = raw[line.lowerBound + indent]
            if code != 0x20 && code != 0x09 { break }
            indent += 1
        }
        if indent == line.count { continue }
        if firstNonEmpty == nil { firstNonEmpty = lineIndex }
        lastNonEmpty = lineIndex
        if lineIndex != 0 && indent < commonIndent { commonIndent = indent }
    }
    guard let first = firstNonEmpty else { return "" }
    var output: [UInt8] = []
    output.reserveCapacity(count)
    for lineIndex in first...lastNonEmpty {
        var line = lines[lineIndex]
        if lineIndex != 0 {
            line = min(line.lowerBound + commonIndent, line.upperBound)..<line.upperBound
        }
        if lineIndex != first { output.append(0x0A) }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: raw[line]))
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
