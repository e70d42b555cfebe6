import BatonDeclarations
import BatonDiagnostics

/// The text of a generated Kotlin plan, as the runtime's `PlanTable` parses it (its documentation describes the
/// format): parts separated by `|`, list items by `,`, alternatives and entries by `;`, a key field's type by `:`,
/// and a `\` before any of these (and before itself) making it plain, `\n` a line break. Names and strings from a
/// schema or document go through `part` or `item`, so no text can end a part early or start a line; the whole
/// text then goes into Kotlin string literals through `KotlinLiteral`.
enum PlanText {
    /// `text` as a part that is not cut further (a name, a type, a value): `\`, `|` and line breaks escaped.
    static func part(_ text: String) -> String { escaped(text, items: false) }

    /// `text` as a list item or an entry's piece: also `,`, `;` and `:` escaped.
    static func item(_ text: String) -> String { escaped(text, items: true) }

    private static func escaped(_ text: String, items: Bool) -> String {
        let special = text.utf8.contains { byte in
            byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "\n")
                || (items && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":")))
        }
        guard special else { return text }
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "\n": result += "\\n"
            case "\\", "|": result += "\\" + String(character)
            case ",", ";", ":":
                if items { result += "\\" }
                result.unicodeScalars.append(character)
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// A GraphQL value from a document as the plan writes it (`KotlinLiteral.value`'s values): JSON with
    /// `{"$":"name"}` for a variable (no GraphQL name is `$`) and numbers as written, enum values as their text.
    static func value(_ value: WrittenValue) -> String {
        switch value {
        case .variable(let name): #"{"$":"# + JSONText.quote(name) + "}"
        case .int(let text), .float(let text): text
        case .string(let text), .enumValue(let text): JSONText.quote(text)
        case .boolean(let flag): flag ? "true" : "false"
        case .null: "null"
        case .list(let items): "[" + items.map { self.value($0) }.joined(separator: ",") + "]"
        case .object(let fields):
            "{" + fields.map { JSONText.quote($0.name) + ":" + self.value($0.value) }.joined(separator: ",") + "}"
        }
    }
}
