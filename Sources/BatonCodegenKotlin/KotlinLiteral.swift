import BatonSyntax

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
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "$": out += "\\$"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029
                {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A GraphQL value from a document as the runtime's JSON-like Kotlin value: `Variable("id")` for a
    /// variable, `JsonNumber("12")` for a number (kept as written), strings, enum values as their text,
    /// `listOf(…)` and `mapOf(…)`.
    package static func value(_ value: Value) -> String {
        switch value {
        case .variable(let variable): "Variable(\(string(variable.name.value)))"
        case .int(let text, _), .float(let text, _): "JsonNumber(\(string(text)))"
        case .string(let string): self.string(string.value)
        case .boolean(let flag, _): flag ? "true" : "false"
        case .null: "null"
        case .enumValue(let name): string(name.value)
        case .list(let items, _):
            items.isEmpty ? "emptyList<Any?>()" : "listOf(" + items.map { self.value($0) }.joined(separator: ", ") + ")"
        case .object(let fields, _):
            fields.isEmpty
                ? "emptyMap<String, Any?>()"
                : "mapOf("
                    + fields.map { string($0.name.value) + " to " + self.value($0.value) }.joined(separator: ", ") + ")"
        }
    }
}
