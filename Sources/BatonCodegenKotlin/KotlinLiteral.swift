import BatonDeclarations

/// Kotlin source text for literal values: strings that cannot break out of their quotes or start a template.
package enum KotlinLiteral {
    /// `text` as a Kotlin string literal in double quotes.
    ///
    /// Backslashes, quotes and `$` (which would start a string template) are escaped, and so is every control
    /// character and line break (including U+2028 and U+2029), so the literal stays on one line.
    package static func string(_ text: String) -> String {
        // Printable ASCII other than `\\`, `"` and `$` is written as itself.
        let plain = text.utf8.allSatisfy {
            $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "$")
        }
        if plain { return "\"" + text + "\"" }
        return escaped(text)
    }

    /// `string(text)` for text that is not plain: written byte by byte (a document's text, with its line
    /// breaks and `$`s, is most of what is escaped). Valid UTF-8 only holds whole scalars, so a scalar
    /// is known by its first bytes: C1 controls (U+0080–U+009F) are `C2 80`–`C2 9F`, U+2028 and U+2029
    /// `E2 80 A8` and `E2 80 A9`.
    private static func escaped(_ text: String) -> String {
        let backslash = UInt8(ascii: "\\")
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(text.utf8.count + text.utf8.count / 8 + 2)
        func escape(_ value: UInt32) {
            out.append(backslash)
            out.append(UInt8(ascii: "u"))
            for shift in stride(from: 12, through: 0, by: -4) {
                out.append(hexDigits[Int((value >> UInt32(shift)) & 0xF)])
            }
        }
        func escape(_ byte: UInt8) {
            out.append(backslash)
            out.append(byte)
        }
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "$"): escape(byte)
            case UInt8(ascii: "\n"): escape(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): escape(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): escape(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F: escape(UInt32(byte))
            case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
                escape(UInt32(bytes[index + 1]))
                index += 2
                continue
            case 0xE2
            where index + 2 < bytes.count && bytes[index + 1] == 0x80 && (0xA8...0xA9).contains(bytes[index + 2]):
                escape(0x2000 + UInt32(bytes[index + 2]) - 0x80)
                index += 3
                continue
            default: out.append(byte)
            }
            index += 1
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// A GraphQL value from a document as the runtime's JSON-like Kotlin value: `Variable("id")` for a
    /// variable, `JsonNumber("12")` for a number (kept as written), strings, enum values as their text,
    /// `listOf(…)` and `mapOf(…)`.
    package static func value(_ value: WrittenValue) -> String {
        switch value {
        case .variable(let name): "Variable(\(string(name)))"
        case .int(let text), .float(let text): "JsonNumber(\(string(text)))"
        case .string(let text): self.string(text)
        case .boolean(let flag): flag ? "true" : "false"
        case .null: "null"
        case .enumValue(let name): string(name)
        case .list(let items):
            items.isEmpty ? "emptyList<Any?>()" : "listOf(" + items.map { self.value($0) }.joined(separator: ", ") + ")"
        case .object(let fields):
            fields.isEmpty
                ? "emptyMap<String, Any?>()"
                : "mapOf(" + fields.map { string($0.name) + " to " + self.value($0.value) }.joined(separator: ", ")
                    + ")"
        }
    }
}
