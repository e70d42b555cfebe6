import BatonDiagnostics

/// How LSP positions count characters within a line: UTF-16 code units (the protocol's default) or UTF-8 bytes,
/// as negotiated in `initialize` (`general.positionEncodings` → `capabilities.positionEncoding`).
package enum PositionEncoding: String, Sendable {
    case utf16 = "utf-16"
    case utf8 = "utf-8"
}

/// An LSP position: a 0-based line and a 0-based character in the negotiated encoding.
package struct TextPosition: Sendable, Hashable {
    package var line: Int
    package var character: Int
    package init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    /// `{"line":…,"character":…}`.
    var json: String { "{\"line\":\(line),\"character\":\(character)}" }
}

/// Byte offsets in a file's text and LSP positions, both ways. Lines are `SourceFile`'s (after LF, CRLF or a
/// lone CR); columns count as `SourceFile.utf16Width` does (ill-formed UTF-8 is one U+FFFD per maximal subpart),
/// so a position here and a column `baton check` prints agree.
package enum TextPositions {
    /// The position of `offset` (clamped to the text) in `file` (not mapped to a host).
    package static func position(of offset: Int, in file: SourceFile, encoding: PositionEncoding) -> TextPosition {
        let location = file.localLocation(of: offset)
        switch encoding {
        case .utf16:
            return TextPosition(line: location.line - 1, character: location.column - 1)
        case .utf8:
            let starts = file.lineStarts
            let lineStart = starts[max(0, min(location.line - 1, starts.count - 1))]
            return TextPosition(line: location.line - 1, character: location.offset - lineStart)
        }
    }

    /// The position of `offset` in `file` as the editor shows it: for embedded GraphQL, in its Swift host.
    package static func hostPosition(of offset: Int, in file: SourceFile, encoding: PositionEncoding) -> (
        file: SourceFile, position: TextPosition
    ) {
        let (hostFile, location) = file.resolve(offset)
        return (hostFile, position(of: location.offset, in: hostFile, encoding: encoding))
    }

    /// The byte offset of `position` in `file`: a line past the end is the end of the text, a character past the
    /// end of its line is the line's end (its terminator excluded), and a position inside a character is that
    /// character's start.
    package static func offset(of position: TextPosition, in file: SourceFile, encoding: PositionEncoding) -> Int {
        let bytes = file.bytes
        let starts = file.lineStarts
        guard position.line >= 0 else { return 0 }
        guard position.line < starts.count else { return bytes.count }
        var lineEnd = position.line + 1 < starts.count ? starts[position.line + 1] : bytes.count
        while lineEnd > starts[position.line], bytes[lineEnd - 1] == 0x0A || bytes[lineEnd - 1] == 0x0D {
            lineEnd -= 1
        }
        var index = starts[position.line]
        var counted = 0
        let wanted = max(0, position.character)
        while index < lineEnd && counted < wanted {
            let (length, units) = SourceFile.utf16Width(bytes, at: index)
            let width = encoding == .utf16 ? units : length
            if counted + width > wanted { break }
            counted += width
            index += length
        }
        return min(index, lineEnd)
    }
}
