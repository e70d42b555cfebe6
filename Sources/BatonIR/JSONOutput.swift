import BatonDiagnostics

/// A JSON value to print, with object keys in the order given, so output is stable and reads in
/// the order the model is documented. (The model is `Codable`-free: we print JSON ourselves.)
package indirect enum JSONOutput: Sendable {
    case string(String)
    case number(Int)
    case bool(Bool)
    case null
    case array([JSONOutput])
    case object([(String, JSONOutput)])

    /// `.string(text)`, or `.null` when `text` is nil.
    package static func optional(_ text: String?) -> JSONOutput { text.map { .string($0) } ?? .null }

    /// Pretty-printed with two spaces of indent per level and a trailing newline.
    package func rendered() -> String {
        var output = ""
        write(to: &output, indent: 0)
        return output + "\n"
    }

    private func write(to output: inout String, indent: Int) {
        switch self {
        case .string(let text): output += JSONOutput.quoted(text)
        case .number(let number): output += String(number)
        case .bool(let flag): output += flag ? "true" : "false"
        case .null: output += "null"
        case .array(let items):
            if items.isEmpty {
                output += "[]"
                return
            }
            // Arrays of scalars stay on one line.
            if items.allSatisfy(\.isScalar) {
                output += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { output += ", " }
                    item.write(to: &output, indent: indent)
                }
                output += "]"
                return
            }
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += String(repeating: " ", count: indent + 2)
                item.write(to: &output, indent: indent + 2)
                output += index + 1 < items.count ? ",\n" : "\n"
            }
            output += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            if members.isEmpty {
                output += "{}"
                return
            }
            output += "{\n"
            for (index, member) in members.enumerated() {
                output += String(repeating: " ", count: indent + 2) + JSONOutput.quoted(member.0) + ": "
                member.1.write(to: &output, indent: indent + 2)
                output += index + 1 < members.count ? ",\n" : "\n"
            }
            output += String(repeating: " ", count: indent) + "}"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array, .object: false
        default: true
        }
    }

    /// A JSON string literal (RFC 8259 escapes; non-ASCII kept as is): the diagnostics renderers' escaping.
    package static func quoted(_ text: String) -> String { JSONText.quote(text) }
}
