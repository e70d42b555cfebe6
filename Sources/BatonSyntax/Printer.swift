/// Prints an AST as GraphQL text, byte for byte as graphql-js 16's `print` does.
///
/// Each node prints as graphql-js's `printDocASTReducer` prints it: the same separators, the
/// same `block`/`wrap`/`indent` helpers, the same 80-column rule for wrapping a field's
/// arguments (counted in UTF-16 code units, as JavaScript's `length`), block strings through
/// `printBlockString` and other strings through `printString`. Comments and the source's
/// layout are not kept, as in graphql-js.
package enum Printer {
    /// The document as graphql-js prints it: definitions separated by a blank line, no final newline.
    package static func print(_ document: Document) -> String {
        join(document.definitions.map(print), "\n\n")
    }

    /// One definition.
    package static func print(_ definition: Definition) -> String {
        switch definition {
        case .operation(let node): return print(node)
        case .fragment(let node):
            return "fragment \(node.name.value) on \(node.typeCondition.name.value) "
                + wrap("", join(node.directives.map(print), " "), " ") + print(node.selectionSet)
        case .schema(let node):
            if node.isExtension {
                return join(
                    ["extend schema", join(node.directives.map(print), " "), block(node.operationTypes.map(print))], " "
                )
            }
            return description(node.description)
                + join(["schema", join(node.directives.map(print), " "), block(node.operationTypes.map(print))], " ")
        case .scalar(let node):
            return prefix(node.description, node.isExtension)
                + join(
                    [node.isExtension ? "extend scalar" : "scalar", node.name.value, directives(node.directives)], " ")
        case .object(let node):
            return prefix(node.description, node.isExtension)
                + join(
                    [
                        node.isExtension ? "extend type" : "type", node.name.value, implements(node.interfaces),
                        directives(node.directives), block(node.fields.map(print)),
                    ], " ")
        case .interface(let node):
            return prefix(node.description, node.isExtension)
                + join(
                    [
                        node.isExtension ? "extend interface" : "interface", node.name.value,
                        implements(node.interfaces), directives(node.directives), block(node.fields.map(print)),
                    ], " ")
        case .union(let node):
            return prefix(node.description, node.isExtension)
                + join(
                    [
                        node.isExtension ? "extend union" : "union", node.name.value, directives(node.directives),
                        wrap("= ", join(node.types.map(\.name.value), " | ")),
                    ], " ")
        case .enumType(let node):
            return prefix(node.description, node.isExtension)
                + join(
                    [
                        node.isExtension ? "extend enum" : "enum", node.name.value, directives(node.directives),
                        block(node.values.map(print)),
                    ], " ")
        case .inputObject(let node):
            return prefix(node.description, node.isExtension)
                + join(
                    [
                        node.isExtension ? "extend input" : "input", node.name.value, directives(node.directives),
                        block(node.fields.map(print)),
                    ], " ")
        case .directive(let node):
            return description(node.description) + "directive @" + node.name.value
                + argumentDefinitions(node.arguments) + (node.isRepeatable ? " repeatable" : "") + " on "
                + join(node.locations.map(\.value), " | ")
        }
    }

    /// An operation; an anonymous query without variables or directives prints in short form.
    package static func print(_ node: OperationDefinition) -> String {
        let variableDefinitions = wrap("(", join(node.variableDefinitions.map(print), ", "), ")")
        let head = join(
            [
                node.operation.rawValue, join([node.name?.value ?? "", variableDefinitions], ""),
                directives(node.directives),
            ],
            " ")
        return (head == "query" ? "" : head + " ") + print(node.selectionSet)
    }

    package static func print(_ node: VariableDefinition) -> String {
        "$" + node.variable.name.value + ": " + print(node.type) + wrap(" = ", node.defaultValue.map(print) ?? "")
            + wrap(" ", directives(node.directives))
    }

    package static func print(_ node: SelectionSet) -> String {
        var out = ""
        write(node, depth: 0, into: &out)
        return out
    }

    package static func print(_ selection: Selection) -> String {
        var out = ""
        write(selection, depth: 0, into: &out)
        return out
    }

    // Selection sets are written into one buffer at their depth rather than printed and then
    // re-indented by every enclosing block as graphql-js does: the text is the same, but the
    // work is linear in the output instead of growing with the square of the nesting depth.

    /// `{`, the selections one per line indented one level deeper than `depth`, `}`; nothing
    /// for an empty set (graphql-js's `block` of no items).
    static func write(_ node: SelectionSet, depth: Int, into out: inout String) {
        guard !node.selections.isEmpty else { return }
        out += "{\n"
        var first = true
        for selection in node.selections {
            if !first { out += "\n" }
            first = false
            appendIndentation(depth + 1, to: &out)
            write(selection, depth: depth + 1, into: &out)
        }
        out += "\n"
        appendIndentation(depth, to: &out)
        out += "}"
    }

    /// One selection whose first line starts at indentation `depth`: later lines of its own
    /// text (multi-line arguments, block strings) are indented to that depth.
    static func write(_ selection: Selection, depth: Int, into out: inout String) {
        switch selection {
        case .field(let field) where field.alias == nil && field.arguments.isEmpty && field.directives.isEmpty:
            // Most fields: the name, then the selection set (the general case below prints the same).
            out += field.name.value
            if let selectionSet = field.selectionSet, !selectionSet.selections.isEmpty {
                out += " "
                write(selectionSet, depth: depth, into: &out)
            }
        case .field(let field):
            let head = wrap("", field.alias?.value ?? "", ": ") + field.name.value
            var argumentsLine = head + wrap("(", join(field.arguments.map(print), ", "), ")")
            if argumentsLine.utf16.count > maximumLineLength {
                argumentsLine = head + wrap("(\n", indent(join(field.arguments.map(print), "\n")), "\n)")
            }
            appendIndented(argumentsLine, depth: depth, to: &out)
            let fieldDirectives = directives(field.directives)
            if !fieldDirectives.isEmpty {
                out += " "
                appendIndented(fieldDirectives, depth: depth, to: &out)
            }
            if let selectionSet = field.selectionSet, !selectionSet.selections.isEmpty {
                out += " "
                write(selectionSet, depth: depth, into: &out)
            }
        case .fragmentSpread(let spread):
            out += "..." + spread.name.value
            let spreadDirectives = directives(spread.directives)
            if !spreadDirectives.isEmpty {
                out += " "
                appendIndented(spreadDirectives, depth: depth, to: &out)
            }
        case .inlineFragment(let fragment):
            out += "..."
            if let condition = fragment.typeCondition { out += " on " + condition.name.value }
            let fragmentDirectives = directives(fragment.directives)
            if !fragmentDirectives.isEmpty {
                out += " "
                appendIndented(fragmentDirectives, depth: depth, to: &out)
            }
            if !fragment.selectionSet.selections.isEmpty {
                out += " "
                write(fragment.selectionSet, depth: depth, into: &out)
            }
        }
    }

    static func appendIndentation(_ depth: Int, to out: inout String) {
        if depth < indentations.count {
            out += indentations[depth]
        } else {
            out += String(repeating: "  ", count: depth)
        }
    }

    /// Two spaces per level, made once for the usual depths.
    private static let indentations: [String] = (0..<32).map { String(repeating: "  ", count: $0) }

    /// `text` with `depth` levels of indentation after each of its line feeds.
    static func appendIndented(_ text: String, depth: Int, to out: inout String) {
        guard depth > 0, text.utf8.contains(0x0A) else {
            out += text
            return
        }
        let indentation = String(repeating: "  ", count: depth)
        var first = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !first { out += "\n" + indentation }
            first = false
            out += line
        }
    }

    package static func print(_ node: Argument) -> String {
        node.name.value + ": " + print(node.value)
    }

    package static func print(_ node: Directive) -> String {
        "@" + node.name.value + wrap("(", join(node.arguments.map(print), ", "), ")")
    }

    /// A value literal: `[1, 2]`, `{a: "b"}`, `$v`, `ENUM`.
    ///
    /// Values nest as deep as the parser allows, more than a small thread's stack holds, so
    /// lists and objects are printed with a work list rather than recursion.
    package static func print(_ value: Value) -> String {
        enum Pending {
            case value(Value)
            case text(String)
        }
        var out = ""
        var pending: [Pending] = [.value(value)]
        while let next = pending.popLast() {
            switch next {
            case .text(let text): out += text
            case .value(.variable(let variable)): out += "$" + variable.name.value
            case .value(.int(let text, _)), .value(.float(let text, _)): out += text
            case .value(.string(let string)): out += print(string)
            case .value(.boolean(let flag, _)): out += flag ? "true" : "false"
            case .value(.null): out += "null"
            case .value(.enumValue(let name)): out += name.value
            case .value(.list(let values, _)):
                out += "["
                pending.append(.text("]"))
                for (index, item) in values.enumerated().reversed() {
                    pending.append(.value(item))
                    if index > 0 { pending.append(.text(", ")) }
                }
            case .value(.object(let fields, _)):
                out += "{"
                pending.append(.text("}"))
                for (index, field) in fields.enumerated().reversed() {
                    pending.append(.value(field.value))
                    pending.append(.text((index > 0 ? ", " : "") + field.name.value + ": "))
                }
            }
        }
        return out
    }

    package static func print(_ string: StringValue) -> String {
        string.isBlock ? printBlockString(string.value) : printString(string.value)
    }

    /// A type reference: `[String!]!`.
    package static func print(_ type: TypeReference) -> String {
        // A loop, not recursion: list types nest as deep as the parser allows.
        var opening = ""
        var closing: [String] = []
        var current = type
        while true {
            switch current {
            case .named(let named):
                return opening + named.name.value + closing.reversed().joined()
            case .list(let inner, _):
                opening += "["
                closing.append("]")
                current = inner
            case .nonNull(let inner, _):
                closing.append("!")
                current = inner
            }
        }
    }

    package static func print(_ node: OperationTypeDefinition) -> String {
        node.operation.rawValue + ": " + node.type.name.value
    }

    package static func print(_ node: FieldDefinition) -> String {
        description(node.description) + node.name.value + argumentDefinitions(node.arguments) + ": "
            + print(node.type) + wrap(" ", directives(node.directives))
    }

    package static func print(_ node: InputValueDefinition) -> String {
        description(node.description)
            + join(
                [
                    node.name.value + ": " + print(node.type), wrap("= ", node.defaultValue.map(print) ?? ""),
                    directives(node.directives),
                ], " ")
    }

    package static func print(_ node: EnumValueDefinition) -> String {
        description(node.description) + join([node.name.value, directives(node.directives)], " ")
    }

    // MARK: - graphql-js's helpers

    /// graphql-js's column past which a field's arguments print one a line.
    package static let maximumLineLength = 80

    static func prefix(_ description: StringValue?, _ isExtension: Bool) -> String {
        isExtension ? "" : self.description(description)
    }

    static func description(_ description: StringValue?) -> String {
        wrap("", description.map(print) ?? "", "\n")
    }

    static func directives(_ directives: [Directive]) -> String {
        join(directives.map(print), " ")
    }

    static func implements(_ interfaces: [NamedType]) -> String {
        wrap("implements ", join(interfaces.map(\.name.value), " & "))
    }

    /// Argument definitions on one line, or one per line when any of them spans several lines.
    static func argumentDefinitions(_ arguments: [InputValueDefinition]) -> String {
        let printed = arguments.map(print)
        if printed.contains(where: { $0.utf8.contains(0x0A) }) {
            return wrap("(\n", indent(join(printed, "\n")), "\n)")
        }
        return wrap("(", join(printed, ", "), ")")
    }

    /// The non-empty parts, separated.
    static func join(_ parts: [String], _ separator: String) -> String {
        var result = ""
        var first = true
        for part in parts where !part.isEmpty {
            if !first { result += separator }
            result += part
            first = false
        }
        return result
    }

    static func block(_ items: [String]) -> String {
        wrap("{\n", indent(join(items, "\n")), "\n}")
    }

    static func wrap(_ start: String, _ text: String, _ end: String = "") -> String {
        text.isEmpty ? "" : start + text + end
    }

    /// Two spaces before the text and after each of its line feeds.
    static func indent(_ text: String) -> String {
        guard !text.isEmpty else { return "" }
        var bytes: [UInt8] = [0x20, 0x20]
        bytes.reserveCapacity(text.utf8.count + 64)
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == 0x0A {
                bytes.append(0x20)
                bytes.append(0x20)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// graphql-js `printString`: a `"…"` literal, escaping control characters, `"` and `\`.
package func printString(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
        switch scalar.value {
        case 0x08: result += "\\b"
        case 0x09: result += "\\t"
        case 0x0A: result += "\\n"
        case 0x0C: result += "\\f"
        case 0x0D: result += "\\r"
        case 0x22: result += "\\\""
        case 0x5C: result += "\\\\"
        case 0x00...0x1F, 0x7F...0x9F: result += "\\u" + hex(scalar.value, width: 4)
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// graphql-js `printBlockString`: a `"""…"""` literal whose value, read back through the
/// spec's dedent algorithm, is `value`.
package func printBlockString(_ value: String) -> String {
    let raw = Array(value.utf8)
    // `"""` becomes `\"""`.
    var escaped: [UInt8] = []
    escaped.reserveCapacity(raw.count + 8)
    var index = 0
    while index < raw.count {
        if raw[index] == 0x22 && index + 2 < raw.count && raw[index + 1] == 0x22 && raw[index + 2] == 0x22 {
            escaped.append(contentsOf: [0x5C, 0x22, 0x22, 0x22])
            index += 3
        } else {
            escaped.append(raw[index])
            index += 1
        }
    }
    // Lines at CRLF, CR or LF.
    var lineStarts: [Int] = [0]
    var lineIsBlankOrIndented = true  // for lines after the first
    var allLaterLinesBlankOrIndented = true
    index = 0
    while index < escaped.count {
        let byte = escaped[index]
        if byte == 0x0A || byte == 0x0D {
            index += (byte == 0x0D && index + 1 < escaped.count && escaped[index + 1] == 0x0A) ? 2 : 1
            lineStarts.append(index)
            let next = index < escaped.count ? escaped[index] : 0x0A
            lineIsBlankOrIndented = next == 0x0A || next == 0x0D || next == 0x20 || next == 0x09
            if !lineIsBlankOrIndented { allLaterLinesBlankOrIndented = false }
        } else {
            index += 1
        }
    }
    let isSingleLine = lineStarts.count == 1
    let forceLeadingNewLine = lineStarts.count > 1 && allLaterLinesBlankOrIndented
    let hasTrailingTripleQuotes = escaped.count >= 4 && escaped.suffix(4).elementsEqual([0x5C, 0x22, 0x22, 0x22])
    let hasTrailingQuote = raw.last == 0x22 && !hasTrailingTripleQuotes
    let hasTrailingSlash = raw.last == 0x5C
    let forceTrailingNewline = hasTrailingQuote || hasTrailingSlash
    let printAsMultipleLines =
        !isSingleLine || value.utf16.count > 70 || forceTrailingNewline || forceLeadingNewLine
        || hasTrailingTripleQuotes
    let skipLeadingNewLine = isSingleLine && (raw.first == 0x20 || raw.first == 0x09)
    var result: [UInt8] = [0x22, 0x22, 0x22]
    if (printAsMultipleLines && !skipLeadingNewLine) || forceLeadingNewLine { result.append(0x0A) }
    result.append(contentsOf: escaped)
    if printAsMultipleLines || forceTrailingNewline { result.append(0x0A) }
    result.append(contentsOf: [0x22, 0x22, 0x22])
    return String(decoding: result, as: UTF8.self)
}
