import BatonDiagnostics

/// One GraphQL document found in a Swift source: the text of the string literal given to
/// `@Query(…)`, `@Fragment(…)`, `@Mutation(…)` or `@Subscription(…)`.
package struct EmbeddedDocument: Sendable {
    /// The attribute's name (`Query`, `Fragment`, …).
    package var attribute: String
    /// The literal's value as an embedded source whose offsets map into the `.swift` file.
    package var source: SourceFile
    /// The span of the whole literal (delimiters included) in the `.swift` file.
    package var literalSpan: Span
}

/// Finds GraphQL in Swift sources with a small Swift lexer.
///
/// The lexer knows just enough Swift to never mistake text for code: comments (`//`, nested
/// `/* */`), string literals of every form (single-line, multi-line, raw with any number of
/// `#`, interpolations holding further strings), extended regex literals (`#/…/#`) and
/// backquoted identifiers. The literal given to a Baton attribute is decoded as Swift does:
/// escapes (`\n \t \r \0 \" \' \\ \u{…}`), a multi-line literal's indentation stripped by the
/// closing delimiter's, line continuations, raw strings' `\#` escapes. Each run of decoded
/// text maps back to its bytes in the `.swift` file, so diagnostics point into the Swift file.
///
/// An interpolation in a GraphQL literal cannot be checked (its text is known only at run
/// time) and is reported; so is a literal that is not terminated.
package enum SwiftDocumentExtractor {
    /// The attributes whose literal is a GraphQL document.
    package static let attributeNames: Set<String> = ["Query", "Fragment", "Mutation", "Subscription"]

    /// The rule id of extraction problems (they are syntax errors in the embedded document).
    package static let rule = "syntax"

    /// Every GraphQL literal in `host`, in source order, and the problems found.
    package static func extract(from host: SourceFile) -> (documents: [EmbeddedDocument], diagnostics: [Diagnostic]) {
        var scanner = SwiftScanner(host: host)
        scanner.run()
        return (scanner.documents, scanner.diagnostics)
    }
}

/// Byte constants.
private enum Byte {
    static let quote = UInt8(ascii: "\"")
    static let hash = UInt8(ascii: "#")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let star = UInt8(ascii: "*")
    static let at = UInt8(ascii: "@")
    static let openParen = UInt8(ascii: "(")
    static let closeParen = UInt8(ascii: ")")
    static let backtick = UInt8(ascii: "`")
    static let dot = UInt8(ascii: ".")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
}

/// The lexer state: a stack of what we are inside (code, or a string whose interpolation
/// holds code), so nesting never uses the call stack.
private struct SwiftScanner {
    enum Mode {
        /// Code; `parenDepth` counts open parentheses inside an interpolation (-1 at top level).
        case code(parenDepth: Int)
        /// A string literal with `hashes` `#` around it.
        case string(hashes: Int, multiline: Bool)
    }

    let host: SourceFile
    let bytes: [UInt8]
    var index = 0
    var stack: [Mode] = [.code(parenDepth: -1)]
    var documents: [EmbeddedDocument] = []
    var diagnostics: [Diagnostic] = []

    init(host: SourceFile) {
        self.host = host
        self.bytes = host.bytes
    }

    func byte(_ offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func run() {
        while index < bytes.count {
            let before = index
            switch stack.last {
            case .code(let depth)?: scanCode(parenDepth: depth)
            case .string(let hashes, let multiline)?: scanString(hashes: hashes, multiline: multiline)
            case nil: return
            }
            // Every step consumes at least one byte or changes the mode stack.
            if index == before && stack.isEmpty { return }
        }
    }

    // MARK: Code

    mutating func scanCode(parenDepth: Int) {
        let current = bytes[index]
        switch current {
        case Byte.slash where byte(index + 1) == Byte.slash:
            while index < bytes.count && bytes[index] != Byte.newline && bytes[index] != Byte.carriageReturn {
                index += 1
            }
        case Byte.slash where byte(index + 1) == Byte.star:
            skipBlockComment()
        case Byte.quote, Byte.hash:
            guard let opening = stringOpening(at: index) else {
                if current == Byte.hash, let end = extendedRegexEnd(at: index) {
                    index = end
                } else {
                    index += 1
                }
                return
            }
            index = opening.contentStart
            stack.append(.string(hashes: opening.hashes, multiline: opening.multiline))
        case Byte.openParen:
            if parenDepth >= 0 { replaceTop(.code(parenDepth: parenDepth + 1)) }
            index += 1
        case Byte.closeParen:
            index += 1
            if parenDepth == 0 {
                stack.removeLast()  // back into the string this interpolation belongs to
            } else if parenDepth > 0 {
                replaceTop(.code(parenDepth: parenDepth - 1))
            }
        case Byte.backtick:
            index += 1
            while index < bytes.count && bytes[index] != Byte.backtick && bytes[index] != Byte.newline { index += 1 }
            if index < bytes.count && bytes[index] == Byte.backtick { index += 1 }
        case Byte.at:
            index += 1
            attribute()
        default:
            if isIdentifierByte(current) {
                while index < bytes.count && isIdentifierByte(bytes[index]) { index += 1 }
            } else {
                index += 1
            }
        }
    }

    mutating func replaceTop(_ mode: Mode) {
        stack.removeLast()
        stack.append(mode)
    }

    /// Skips `/* … */` with nesting, as Swift comments nest.
    mutating func skipBlockComment() {
        var depth = 0
        while index < bytes.count {
            if bytes[index] == Byte.slash && byte(index + 1) == Byte.star {
                depth += 1
                index += 2
            } else if bytes[index] == Byte.star && byte(index + 1) == Byte.slash {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                index += 1
            }
        }
    }

    /// Skips whitespace and comments.
    mutating func skipTrivia() {
        while index < bytes.count {
            let current = bytes[index]
            if current == Byte.space || current == Byte.tab || current == Byte.newline || current == Byte.carriageReturn
            {
                index += 1
            } else if current == Byte.slash && byte(index + 1) == Byte.slash {
                while index < bytes.count && bytes[index] != Byte.newline && bytes[index] != Byte.carriageReturn {
                    index += 1
                }
            } else if current == Byte.slash && byte(index + 1) == Byte.star {
                skipBlockComment()
            } else {
                return
            }
        }
    }

    /// After `@`: reads the attribute name (optionally `Baton.`-qualified); for a Baton
    /// attribute whose first argument is a string literal, extracts the document.
    mutating func attribute() {
        var name = identifier()
        if name == "Baton" && byte(index) == Byte.dot {
            index += 1
            name = identifier()
        }
        guard let name, SwiftDocumentExtractor.attributeNames.contains(name) else { return }
        let afterName = index
        skipTrivia()
        guard byte(index) == Byte.openParen else {
            index = afterName
            return
        }
        index += 1
        skipTrivia()
        guard let opening = stringOpening(at: index) else { return }
        let literalStart = index
        switch decodeLiteral(opening, start: literalStart) {
        case .document(let text, let segments, let end):
            let source = SourceFile(path: host.path, bytes: text, host: host, segments: segments)
            documents.append(
                EmbeddedDocument(attribute: name, source: source, literalSpan: Span(start: literalStart, end: end)))
            index = end
        case .failed(let resumeAt):
            // The problem is reported; lex the literal as an ordinary string from here on,
            // unless there is nothing sensible left to lex.
            if let resumeAt {
                index = resumeAt
            } else {
                index = opening.contentStart
                stack.append(.string(hashes: opening.hashes, multiline: opening.multiline))
            }
        }
    }

    mutating func identifier() -> String? {
        let start = index
        while index < bytes.count && isIdentifierByte(bytes[index]) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x5F
            || byte >= 0x80
    }

    /// A string literal's opening at `offset`: `#…#` then `"` or `"""`.
    struct Opening {
        var hashes: Int
        var multiline: Bool
        /// The first byte after the opening delimiter.
        var contentStart: Int
        /// The span of the opening delimiter.
        var delimiter: Span
    }

    func stringOpening(at offset: Int) -> Opening? {
        var cursor = offset
        while cursor < bytes.count && bytes[cursor] == Byte.hash { cursor += 1 }
        guard byte(cursor) == Byte.quote else { return nil }
        let hashes = cursor - offset
        if byte(cursor + 1) == Byte.quote && byte(cursor + 2) == Byte.quote {
            return Opening(
                hashes: hashes, multiline: true, contentStart: cursor + 3,
                delimiter: Span(start: offset, end: cursor + 3))
        }
        return Opening(
            hashes: hashes, multiline: false, contentStart: cursor + 1, delimiter: Span(start: offset, end: cursor + 1))
    }

    /// The end of an extended regex literal `#/…/#` starting at `offset`, if there is one.
    func extendedRegexEnd(at offset: Int) -> Int? {
        var cursor = offset
        while cursor < bytes.count && bytes[cursor] == Byte.hash { cursor += 1 }
        let hashes = cursor - offset
        guard hashes > 0, byte(cursor) == Byte.slash else { return nil }
        cursor += 1
        while cursor < bytes.count {
            if bytes[cursor] == Byte.slash && hasHashes(at: cursor + 1, count: hashes) { return cursor + 1 + hashes }
            cursor += 1
        }
        return nil
    }

    func hasHashes(at offset: Int, count: Int) -> Bool {
        guard offset + count <= bytes.count else { return false }
        for position in offset..<offset + count where bytes[position] != Byte.hash { return false }
        return true
    }

    /// Whether a string's closing delimiter starts at `offset`.
    func isClosing(at offset: Int, hashes: Int, multiline: Bool) -> Bool {
        guard byte(offset) == Byte.quote else { return false }
        if multiline {
            guard byte(offset + 1) == Byte.quote, byte(offset + 2) == Byte.quote else { return false }
            return hasHashes(at: offset + 3, count: hashes)
        }
        return hasHashes(at: offset + 1, count: hashes)
    }

    func closingLength(hashes: Int, multiline: Bool) -> Int { (multiline ? 3 : 1) + hashes }

    // MARK: Ordinary strings

    mutating func scanString(hashes: Int, multiline: Bool) {
        let current = bytes[index]
        if current == Byte.backslash && hasHashes(at: index + 1, count: hashes) {
            let after = index + 1 + hashes
            if byte(after) == Byte.openParen {
                index = after + 1
                stack.append(.code(parenDepth: 0))
            } else {
                index = min(after + 1, bytes.count)
            }
            return
        }
        if isClosing(at: index, hashes: hashes, multiline: multiline) {
            index += closingLength(hashes: hashes, multiline: multiline)
            stack.removeLast()
            return
        }
        if !multiline && (current == Byte.newline || current == Byte.carriageReturn) {
            // An unterminated single-line string: the Swift compiler reports it; go on as code.
            stack.removeLast()
            return
        }
        index += 1
    }

    // MARK: The GraphQL literal

    enum Decoded {
        case document(text: [UInt8], segments: [SourceSegment], end: Int)
        /// Reported. `resumeAt`: where to continue lexing as code, or nil to lex the literal
        /// as an ordinary string from its content start.
        case failed(resumeAt: Int?)
    }

    /// Decoded text with the map back to the host, built one piece at a time.
    struct Builder {
        var text: [UInt8] = []
        var segments: [SourceSegment] = []

        /// Appends `count` bytes copied from the host at `hostOffset`.
        mutating func copy(_ bytes: [UInt8], from hostOffset: Int, count: Int) {
            guard count > 0 else { return }
            if let last = segments.last, last.hostOffset + (text.count - last.offset) == hostOffset {
                // The run continues.
            } else {
                segments.append(SourceSegment(offset: text.count, hostOffset: hostOffset))
            }
            text.append(contentsOf: bytes[hostOffset..<hostOffset + count])
        }

        /// Appends decoded bytes (an escape's value) that map to the escape at `hostOffset`.
        mutating func emit(_ decoded: [UInt8], at hostOffset: Int) {
            guard !decoded.isEmpty else { return }
            segments.append(SourceSegment(offset: text.count, hostOffset: hostOffset))
            text.append(contentsOf: decoded)
        }
    }

    mutating func report(_ message: String, _ span: Span, notes: [DiagnosticNote] = []) {
        // An escape or interpolation cut off by the end of the file spans only what is there.
        let count = host.bytes.count
        let span = Span(start: min(span.start, count), end: min(max(span.end, span.start), count))
        diagnostics.append(
            Diagnostic(
                .error, sentence(message), rule: SwiftDocumentExtractor.rule,
                range: SourceRange(file: host, span: span), notes: notes))
    }

    mutating func decodeLiteral(_ opening: Opening, start: Int) -> Decoded {
        opening.multiline ? decodeMultiline(opening) : decodeSingleLine(opening)
    }

    /// Decodes an escape at `offset` (the backslash) of a string with `hashes`; returns the
    /// decoded bytes and the offset after the escape, or reports and returns nil.
    enum Escape {
        case value([UInt8], next: Int)
        case interpolation
        case invalid
    }

    mutating func escape(at offset: Int, hashes: Int) -> Escape {
        let after = offset + 1 + hashes
        guard let kind = byte(after) else { return .invalid }
        switch kind {
        case UInt8(ascii: "n"): return .value([Byte.newline], next: after + 1)
        case UInt8(ascii: "t"): return .value([Byte.tab], next: after + 1)
        case UInt8(ascii: "r"): return .value([Byte.carriageReturn], next: after + 1)
        case UInt8(ascii: "0"): return .value([0], next: after + 1)
        case Byte.quote, UInt8(ascii: "'"), Byte.backslash: return .value([kind], next: after + 1)
        case Byte.openParen: return .interpolation
        case UInt8(ascii: "u"):
            guard byte(after + 1) == Byte.openBrace else { return .invalid }
            var cursor = after + 2
            var value: UInt32 = 0
            var digits = 0
            while let digit = byte(cursor), let number = hexValue(digit) {
                value = value &* 16 &+ number
                digits += 1
                cursor += 1
                if digits > 8 { return .invalid }
            }
            guard digits > 0, byte(cursor) == Byte.closeBrace, let scalar = Unicode.Scalar(value) else {
                return .invalid
            }
            return .value(Array(String(Character(scalar)).utf8), next: cursor + 1)
        default:
            return .invalid
        }
    }

    func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    mutating func decodeSingleLine(_ opening: Opening) -> Decoded {
        var builder = Builder()
        var cursor = opening.contentStart
        var runStart = cursor
        while true {
            guard let current = byte(cursor), current != Byte.newline, current != Byte.carriageReturn else {
                report("unterminated string literal", opening.delimiter)
                return .failed(resumeAt: cursor)
            }
            if isClosing(at: cursor, hashes: opening.hashes, multiline: false) {
                builder.copy(bytes, from: runStart, count: cursor - runStart)
                let end = cursor + closingLength(hashes: opening.hashes, multiline: false)
                builder.segments.append(SourceSegment(offset: builder.text.count, hostOffset: cursor))
                return .document(text: builder.text, segments: builder.segments, end: end)
            }
            if current == Byte.backslash && hasHashes(at: cursor + 1, count: opening.hashes) {
                builder.copy(bytes, from: runStart, count: cursor - runStart)
                switch escape(at: cursor, hashes: opening.hashes) {
                case .value(let decoded, let next):
                    builder.emit(decoded, at: cursor)
                    cursor = next
                    runStart = cursor
                    continue
                case .interpolation:
                    reportInterpolation(at: cursor, hashes: opening.hashes)
                    return .failed(resumeAt: nil)
                case .invalid:
                    report("invalid escape sequence in literal", Span(start: cursor, end: cursor + 2 + opening.hashes))
                    return .failed(resumeAt: nil)
                }
            }
            cursor += 1
        }
    }

    mutating func reportInterpolation(at offset: Int, hashes: Int) {
        report(
            "string interpolation in a GraphQL literal: the document must be known when Baton checks it; pass values as variables",
            Span(start: offset, end: offset + 2 + hashes))
    }

    /// The end of the line starting at or containing `offset`: the offset of its line break
    /// (or the end of the text).
    func lineEnd(from offset: Int) -> Int {
        var cursor = offset
        while cursor < bytes.count && bytes[cursor] != Byte.newline && bytes[cursor] != Byte.carriageReturn {
            cursor += 1
        }
        return cursor
    }

    /// The offset after the line break at `offset` (which must be one).
    func afterLineBreak(_ offset: Int) -> Int {
        if bytes[offset] == Byte.carriageReturn && byte(offset + 1) == Byte.newline { return offset + 2 }
        return offset + 1
    }

    mutating func decodeMultiline(_ opening: Opening) -> Decoded {
        let hashes = opening.hashes
        // The opening delimiter ends its line.
        let firstLineEnd = lineEnd(from: opening.contentStart)
        for position in opening.contentStart..<firstLineEnd
        where bytes[position] != Byte.space && bytes[position] != Byte.tab {
            report(
                "multi-line string literal content must begin on a new line", Span(start: position, end: position + 1))
            return .failed(resumeAt: nil)
        }
        guard firstLineEnd < bytes.count else {
            report("unterminated multi-line string literal", opening.delimiter)
            return .failed(resumeAt: bytes.count)
        }
        let contentStart = afterLineBreak(firstLineEnd)

        // Pass 1: find the closing delimiter (escaped quotes are not one), noting any
        // interpolation or bad escape on the way.
        var cursor = contentStart
        var closing: Int?
        while cursor < bytes.count {
            if isClosing(at: cursor, hashes: hashes, multiline: true) {
                closing = cursor
                break
            }
            if bytes[cursor] == Byte.backslash && hasHashes(at: cursor + 1, count: hashes) {
                let after = cursor + 1 + hashes
                if byte(after) == Byte.openParen {
                    reportInterpolation(at: cursor, hashes: hashes)
                    return .failed(resumeAt: nil)
                }
                cursor = min(after + 1, bytes.count)
                continue
            }
            cursor += 1
        }
        guard let closing else {
            report("unterminated multi-line string literal", opening.delimiter)
            return .failed(resumeAt: bytes.count)
        }
        let end = closing + closingLength(hashes: hashes, multiline: true)

        // The closing delimiter's line holds only its indentation.
        var closingLineStart = closing
        while closingLineStart > contentStart && bytes[closingLineStart - 1] != Byte.newline
            && bytes[closingLineStart - 1] != Byte.carriageReturn
        {
            closingLineStart -= 1
        }
        if closingLineStart < contentStart { closingLineStart = contentStart }
        for position in closingLineStart..<closing where bytes[position] != Byte.space && bytes[position] != Byte.tab {
            report(
                "multi-line string literal closing delimiter must begin on a new line", Span(start: closing, end: end))
            return .failed(resumeAt: end)
        }
        let indentation = Array(bytes[closingLineStart..<closing])

        // Pass 2: decode line by line up to the closing line.
        var builder = Builder()
        var lineStart = contentStart
        var pendingBreak: Int?  // the line break before the current line, emitted once the line is kept
        while lineStart < closingLineStart {
            let lineEnd = lineEnd(from: lineStart)
            if let pendingBreak {
                builder.emit([Byte.newline], at: pendingBreak)
            }
            // Strip the indentation.
            var contentFrom = lineStart
            let lineLength = lineEnd - lineStart
            if lineLength > 0 {
                var matched = 0
                while matched < indentation.count && lineStart + matched < lineEnd
                    && bytes[lineStart + matched] == indentation[matched]
                {
                    matched += 1
                }
                // As in Swift, only an empty line may have less indentation.
                if matched < indentation.count {
                    report(
                        "insufficient indentation of line in multi-line string literal",
                        Span(start: lineStart + matched, end: lineStart + matched + 1),
                        notes: [
                            DiagnosticNote(
                                message: "Every line must start with the closing delimiter's indentation.",
                                range: SourceRange(file: host, span: Span(start: closing, end: end)))
                        ])
                    return .failed(resumeAt: end)
                }
                contentFrom = lineStart + matched
            }
            // Decode the rest of the line.
            var position = contentFrom
            var runStart = position
            var continued = false
            while position < lineEnd {
                if bytes[position] == Byte.backslash && hasHashes(at: position + 1, count: hashes) {
                    builder.copy(bytes, from: runStart, count: position - runStart)
                    let after = position + 1 + hashes
                    // A line continuation: the backslash, optional spaces, then the line break.
                    if (after..<lineEnd).allSatisfy({ bytes[$0] == Byte.space || bytes[$0] == Byte.tab }) {
                        continued = true
                        position = lineEnd
                        runStart = lineEnd
                        break
                    }
                    switch escape(at: position, hashes: hashes) {
                    case .value(let decoded, let next):
                        builder.emit(decoded, at: position)
                        position = next
                        runStart = next
                    case .interpolation:
                        reportInterpolation(at: position, hashes: hashes)
                        return .failed(resumeAt: end)
                    case .invalid:
                        report(
                            "invalid escape sequence in literal", Span(start: position, end: min(after + 1, lineEnd)))
                        return .failed(resumeAt: end)
                    }
                    continue
                }
                position += 1
            }
            builder.copy(bytes, from: runStart, count: max(0, lineEnd - runStart))
            // The line break: kept unless continued; the last one before the closing line is
            // not part of the value.
            let nextLine = lineEnd < bytes.count ? afterLineBreak(lineEnd) : lineEnd
            pendingBreak = continued ? nil : lineEnd
            if nextLine <= lineStart { break }  // no progress: cannot happen, but never loop
            lineStart = nextLine
        }
        // The offset just after the text maps to the closing delimiter.
        builder.segments.append(SourceSegment(offset: builder.text.count, hostOffset: closing))
        return .document(text: builder.text, segments: builder.segments, end: end)
    }
}
