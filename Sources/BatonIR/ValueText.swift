import BatonSyntax

/// GraphQL text of input values and applied directives, for plate phrases, JSON and keys.
/// Prints as graphql-js's `print` does for values (block strings print as ordinary strings).
package enum ValueText {
    package static func print(_ value: Value) -> String {
        var output = ""
        write(value, to: &output, depth: 0)
        return output
    }

    /// `@name(arg: value, …)`, arguments in the order given.
    package static func directive(_ name: String, _ arguments: [(String, Value)]) -> String {
        if arguments.isEmpty { return "@" + name }
        return "@" + name + "(" + arguments.map { $0.0 + ": " + print($0.1) }.joined(separator: ", ") + ")"
    }

    /// Nesting deeper than this prints `…` (parsed values are depth-limited already).
    private static let maximumDepth = 512

    private static func write(_ value: Value, to output: inout String, depth: Int) {
        if depth > maximumDepth {
            output += "…"
            return
        }
        switch value {
        case .variable(let variable): output += "$" + variable.name.value
        case .int(let text, _), .float(let text, _): output += text
        case .string(let string): output += quoted(string.value)
        case .boolean(let flag, _): output += flag ? "true" : "false"
        case .null: output += "null"
        case .enumValue(let name): output += name.value
        case .list(let values, _):
            output += "["
            for (index, item) in values.enumerated() {
                if index > 0 { output += ", " }
                write(item, to: &output, depth: depth + 1)
            }
            output += "]"
        case .object(let fields, _):
            output += "{"
            for (index, field) in fields.enumerated() {
                if index > 0 { output += ", " }
                output += field.name.value + ": "
                write(field.value, to: &output, depth: depth + 1)
            }
            output += "}"
        }
    }

    /// A GraphQL string literal: `"`, `\` and control characters escaped.
    package static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    output += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }
}

extension Condition {
    /// The directive as it reads in a plate: `@include(if: $withOrigin)`, `@defer`.
    package var text: String {
        switch self {
        case .include(let value): ValueText.directive("include", [("if", value)])
        case .skip(let value): ValueText.directive("skip", [("if", value)])
        case .deferred(let label, let condition):
            ValueText.directive(
                "defer",
                (label.map { [("label", Value.string(StringValue(value: $0, isBlock: false, span: .zero)))] } ?? [])
                    + (condition.map { [("if", $0)] } ?? []))
        }
    }
}
