import BatonDiagnostics
import BatonSyntax

/// Prints input values and type references exactly as graphql-js's `print` does, for messages
/// ("found {a: 1}") and for comparing field arguments.
package enum ValuePrinter {
    /// `print(value)`.
    package static func print(_ value: Value) -> String {
        var out = ""
        write(value, sortedFields: false, into: &out)
        return out
    }

    /// `print(sortValueNode(value))`: object fields sorted by name (natural order), recursively.
    package static func printSorted(_ value: Value) -> String {
        var out = ""
        write(value, sortedFields: true, into: &out)
        return out
    }

    /// graphql-js's `stringifyArguments`: the arguments printed as one object, fields sorted.
    package static func canonicalArguments(_ arguments: [Argument]) -> String {
        if arguments.isEmpty { return "{}" }
        var out = "{"
        let sorted = arguments.count > 1 ? stableSorted(arguments, by: { $0.name.value }) : arguments
        for (index, argument) in sorted.enumerated() {
            if index > 0 { out += ", " }
            out += argument.name.value
            out += ": "
            write(argument.value, sortedFields: true, into: &out)
        }
        out += "}"
        return out
    }

    /// `print(typeNode)`: `[User!]!`.
    package static func print(_ type: TypeReference) -> String {
        switch type {
        case .named(let named): named.name.value
        case .list(let inner, _): "[" + print(inner) + "]"
        case .nonNull(let inner, _): print(inner) + "!"
        }
    }

    private static func stableSorted<T>(_ items: [T], by key: (T) -> String) -> [T] {
        // JS's Array.prototype.sort is stable; keep equal names in source order.
        items.enumerated().sorted { lhs, rhs in
            let order = Suggestions.naturalCompare(key(lhs.element), key(rhs.element))
            return order != 0 ? order < 0 : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Text still to write: a value, or punctuation after one. Values nest as deep as the
    /// parser allows, more than a small thread's stack holds, so they are written with a work
    /// list rather than recursion.
    private enum Pending {
        case value(Value)
        case text(String)
    }

    private static func write(_ value: Value, sortedFields: Bool, into out: inout String) {
        var pending: [Pending] = [.value(value)]
        while let next = pending.popLast() {
            guard case .value(let value) = next else {
                if case .text(let text) = next { out += text }
                continue
            }
            switch value {
            case .variable(let variable):
                out += "$"
                out += variable.name.value
            case .int(let text, _), .float(let text, _):
                out += text
            case .string(let string):
                out += string.isBlock ? printBlockString(string.value) : printString(string.value)
            case .boolean(let flag, _):
                out += flag ? "true" : "false"
            case .null:
                out += "null"
            case .enumValue(let name):
                out += name.value
            case .list(let values, _):
                out += "["
                pending.append(.text("]"))
                for (index, item) in values.enumerated().reversed() {
                    pending.append(.value(item))
                    if index > 0 { pending.append(.text(", ")) }
                }
            case .object(let fields, _):
                out += "{"
                let ordered = sortedFields && fields.count > 1 ? stableSorted(fields, by: { $0.name.value }) : fields
                pending.append(.text("}"))
                for (index, field) in ordered.enumerated().reversed() {
                    pending.append(.value(field.value))
                    pending.append(.text((index > 0 ? ", " : "") + field.name.value + ": "))
                }
            }
        }
    }

    /// graphql-js's `printString`: control characters, `"` and `\` escaped.
    package static func printString(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            let code = scalar.value
            switch code {
            case 0x08: out += "\\b"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x0C: out += "\\f"
            case 0x0D: out += "\\r"
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x00...0x1F, 0x7F...0x9F:
                let hex = String(code, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }

    /// graphql-js's `printBlockString` (without `minimize`).
    package static func printBlockString(_ value: String) -> String {
        let escaped = escapeTripleQuotes(value)
        let lines = splitLines(escaped)
        let isSingleLine = lines.count == 1
        let forceLeadingNewLine =
            lines.count > 1 && lines.dropFirst().allSatisfy { $0.isEmpty || isWhiteSpace($0.utf16.first) }
        let hasTrailingTripleQuotes = escaped.hasSuffix("\\\"\"\"")
        let hasTrailingQuote = value.hasSuffix("\"") && !hasTrailingTripleQuotes
        let hasTrailingSlash = value.hasSuffix("\\")
        let forceTrailingNewline = hasTrailingQuote || hasTrailingSlash
        let printAsMultipleLines =
            !isSingleLine || value.utf16.count > 70 || forceTrailingNewline || forceLeadingNewLine
            || hasTrailingTripleQuotes
        var result = ""
        let skipLeadingNewLine = isSingleLine && isWhiteSpace(value.utf16.first)
        if (printAsMultipleLines && !skipLeadingNewLine) || forceLeadingNewLine { result += "\n" }
        result += escaped
        if printAsMultipleLines || forceTrailingNewline { result += "\n" }
        return "\"\"\"" + result + "\"\"\""
    }

    /// `value.replace(/"""/g, '\\"""')`.
    private static func escapeTripleQuotes(_ value: String) -> String {
        let bytes = Array(value.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + 2 < bytes.count && bytes[index] == 0x22 && bytes[index + 1] == 0x22 && bytes[index + 2] == 0x22 {
                out.append(contentsOf: [0x5C, 0x22, 0x22, 0x22])
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isWhiteSpace(_ code: UInt16?) -> Bool { code == 0x09 || code == 0x20 }

    /// Splits on `\r\n`, `\n` or `\r`, as `split(/\r\n|[\n\r]/g)`.
    private static func splitLines(_ text: String) -> [String] {
        var lines: [String] = []
        var current: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D || byte == 0x0A {
                lines.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
                if byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A { index += 1 }
            } else {
                current.append(byte)
            }
            index += 1
        }
        lines.append(String(decoding: current, as: UTF8.self))
        return lines
    }
}
