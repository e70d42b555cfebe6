import BatonCodegen

/// Swift string literals for arbitrary text (document text, enum values, names in static data).
enum SwiftLiteral {
    /// A single-line string literal: `"…"` with `\`, `"`, and control characters escaped.
    static func string(_ text: String) -> String {
        if allPlain(text) { return "\"" + text + "\"" }
        var out = "\""
        for scalar in text.unicodeScalars {
            out += escaped(scalar, quote: true)
        }
        return out + "\""
    }

    /// Appends `string(text)` to `builder`.
    static func string(_ text: String, into builder: inout TextBuilder) {
        guard allPlain(text) else { return builder.add(string(text)) }
        builder.add(UInt8(ascii: "\""))
        builder.add(text)
        builder.add(UInt8(ascii: "\""))
    }

    /// Whether `string(text)` writes `text` as it is between its quotes.
    static func isPlain(_ text: String) -> Bool { allPlain(text) }

    /// Whether every byte of `text` is written as itself (`isPlain`).
    private static func allPlain(_ text: String) -> Bool {
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where !isPlain(byte) { return false }
            return true
        }
        return plain ?? text.utf8.allSatisfy(isPlain)
    }

    /// A multi-line string literal (`"""` on their own lines) for text with line breaks; a single-line literal
    /// otherwise. Interpolate it into a `Template` where the literal starts a line, so its lines share that
    /// line's indentation, which the closing delimiter then strips.
    static func multiline(_ text: String) -> Template {
        guard text.utf8.contains(UInt8(ascii: "\n")) else { return Template(string(text)) }
        if isPlainMultiline(text) { return Template(multilineOpening + text + multilineClosing) }
        var lines: [String] = []
        var current = ""
        var quotes = 0
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                lines.append(current)
                current = ""
                quotes = 0
                continue
            }
            if scalar == "\"" {
                quotes += 1
                // A third quote in a row would close the literal: escape it.
                if quotes == 3 {
                    current += "\\\""
                    quotes = 0
                } else {
                    current += "\""
                }
                continue
            }
            quotes = 0
            current += escaped(scalar, quote: false)
        }
        lines.append(current)
        // A trailing space before the line break would be invisible in review; keep it with an escape.
        lines = lines.map { line in
            if line.hasSuffix(" ") { return String(line.dropLast()) + "\\u{20}" }
            return line
        }
        return Template((["\"\"\""] + lines + ["\"\"\""]).joined(separator: "\n"))
    }

    /// What `multiline` writes before and after a text it writes as it is (`writesAsItIs`).
    static let multilineOpening = "\"\"\"\n"
    static let multilineClosing = "\n\"\"\""

    /// Whether `multiline(text)` is `text` as it is between `multilineOpening` and `multilineClosing`: a text with
    /// line breaks, each line plain.
    static func writesAsItIs(multiline text: String) -> Bool {
        text.utf8.contains(UInt8(ascii: "\n")) && isPlainMultiline(text)
    }

    /// A byte written as itself in any literal: printable ASCII other than `\\` and `"`.
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "\"")
    }

    /// Whether `multiline` would write `text`'s lines unchanged: plain bytes and line breaks, no line
    /// ending in a space.
    private static func isPlainMultiline(_ text: String) -> Bool {
        func check(_ bytes: some Sequence<UInt8>) -> Bool {
            var previous: UInt8 = 0
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    if previous == UInt8(ascii: " ") { return false }
                } else if !isPlain(byte) {
                    return false
                }
                previous = byte
            }
            return previous != UInt8(ascii: " ")
        }
        return text.utf8.withContiguousStorageIfAvailable(check) ?? check(text.utf8)
    }

    private static func escaped(_ scalar: Unicode.Scalar, quote: Bool) -> String {
        switch scalar {
        case "\\": return "\\\\"
        case "\"" where quote: return "\\\""
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029
            {
                return "\\u{" + String(scalar.value, radix: 16) + "}"
            }
            return String(scalar)
        }
    }
}
