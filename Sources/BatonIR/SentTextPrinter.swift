import BatonSyntax

/// The sent text of one definition (`DocumentText.shallowText`) printed straight from the written definition into
/// one byte buffer: client-only directives left out, the client-only variables left out and `__typename` added as
/// it writes, without building the transformed copy (`DocumentText.sent`) and without `Printer`'s `String` pieces.
/// The bytes are those `Printer.print` gives the transformed definition (graphql-js's printer: the 80-column rule
/// for a field's arguments, block strings, escapes), which `SentTextPrinterTests` checks over the corpus.
///
/// Only for definitions nesting no deeper than `DocumentText.unguardedDepth` (the transform never asks the stack
/// there) and without declared record keys (`KeyFieldAdder` adds selections; those texts go through the
/// transform): selections recurse, values are written with a work list as `Printer` writes them.
struct SentTextPrinter {
    private(set) var bytes: [UInt8] = []

    /// The text `Printer.print` gives `DocumentText.sent` of `definition`.
    static func text(of definition: DocumentText.ShallowDefinition) -> String {
        var printer = SentTextPrinter()
        printer.bytes.reserveCapacity(2048)
        switch definition {
        case .operation(let operation, let clientOnly): printer.write(operation, leavingOut: clientOnly)
        case .fragment(let fragment): printer.write(fragment)
        }
        return String(decoding: printer.bytes, as: UTF8.self)
    }

    // MARK: Definitions

    /// `Printer.print(_: OperationDefinition)`: an anonymous query without variables or directives in short form.
    mutating func write(_ operation: OperationDefinition, leavingOut clientOnly: Set<String>) {
        let start = bytes.count
        append(operation.operation.rawValue)
        let kindEnd = bytes.count
        var variables = operation.variableDefinitions[...]
        if !clientOnly.isEmpty {
            variables = variables.filter { !clientOnly.contains($0.variable.name.value) }[...]
        }
        if operation.name != nil || !variables.isEmpty {
            bytes.append(0x20)
            if let name = operation.name { append(name.value) }
            if !variables.isEmpty {
                bytes.append(0x28)  // (
                var first = true
                for variable in variables {
                    if !first { append(", ") }
                    first = false
                    write(variable)
                }
                bytes.append(0x29)  // )
            }
        }
        if hasSent(operation.directives) {
            bytes.append(0x20)
            writeSent(operation.directives)
        }
        if operation.operation == .query && bytes.count == kindEnd {
            bytes.removeSubrange(start...)  // `query` alone prints as its selection set
        } else {
            bytes.append(0x20)
        }
        write(operation.selectionSet, addTypename: false, depth: 0)
    }

    /// `Printer.print(.fragment(_:))`.
    mutating func write(_ fragment: FragmentDefinition) {
        append("fragment ")
        append(fragment.name.value)
        append(" on ")
        append(fragment.typeCondition.name.value)
        bytes.append(0x20)
        if hasSent(fragment.directives) {
            writeSent(fragment.directives)
            bytes.append(0x20)
        }
        write(fragment.selectionSet, addTypename: false, depth: 0)
    }

    mutating func write(_ variable: VariableDefinition) {
        bytes.append(0x24)  // $
        append(variable.variable.name.value)
        append(": ")
        write(variable.type)
        if let value = variable.defaultValue {
            append(" = ")
            write(value)
        }
        if !variable.directives.isEmpty {
            bytes.append(0x20)
            write(variable.directives)
        }
    }

    // MARK: Selections

    /// `Printer.write(_: SelectionSet, depth:into:)` of the transformed set: `__typename` appended where
    /// `addTypename` and not selected unaliased (`DocumentText.selectsTypename`).
    mutating func write(_ set: SelectionSet, addTypename: Bool, depth: Int) {
        let addsTypename = addTypename && !DocumentText.selectsTypename(set.selections)
        guard !set.selections.isEmpty || addsTypename else { return }
        append("{\n")
        var first = true
        for selection in set.selections {
            if !first { bytes.append(0x0A) }
            first = false
            indentation(depth + 1)
            write(selection, depth: depth + 1)
        }
        if addsTypename {
            if !first { bytes.append(0x0A) }
            indentation(depth + 1)
            append("__typename")
        }
        bytes.append(0x0A)
        indentation(depth)
        bytes.append(0x7D)  // }
    }

    /// `Printer.write(_: Selection, depth:into:)` of the transformed selection.
    mutating func write(_ selection: Selection, depth: Int) {
        switch selection {
        case .field(let field):
            let start = bytes.count
            if let alias = field.alias {
                append(alias.value)
                append(": ")
            }
            append(field.name.value)
            if !field.arguments.isEmpty {
                let headEnd = bytes.count
                bytes.append(0x28)  // (
                var first = true
                for argument in field.arguments {
                    if !first { append(", ") }
                    first = false
                    write(argument)
                }
                bytes.append(0x29)  // )
                if utf16Count(from: start) > Printer.maximumLineLength {
                    // One argument a line, indented one level (graphql-js's `wrap("(\n", indent(…), "\n)")`).
                    bytes.removeSubrange(headEnd...)
                    append("(\n")
                    let argumentsStart = bytes.count
                    var first = true
                    for argument in field.arguments {
                        if !first { bytes.append(0x0A) }
                        first = false
                        write(argument)
                    }
                    append("  ", at: argumentsStart)
                    indentLines(from: argumentsStart + 2, levels: 1)
                    append("\n)")
                }
                indentLines(from: start, levels: depth)
            }
            writeSent(field.directives, depth: depth)
            if let set = field.selectionSet {
                // A field's set always prints: the transform gives an empty one `__typename`.
                bytes.append(0x20)
                write(set, addTypename: true, depth: depth)
            }
        case .fragmentSpread(let spread):
            append("...")
            append(spread.name.value)
            writeSent(spread.directives, depth: depth)
        case .inlineFragment(let inline):
            append("...")
            if let condition = inline.typeCondition {
                append(" on ")
                append(condition.name.value)
            }
            writeSent(inline.directives, depth: depth)
            if !inline.selectionSet.selections.isEmpty {
                bytes.append(0x20)
                write(inline.selectionSet, addTypename: false, depth: depth)
            }
        }
    }

    // MARK: Directives, arguments, values

    /// True when some directive is not client-only (`DocumentText.strip` keeps one).
    func hasSent(_ directives: [Directive]) -> Bool {
        directives.contains { !DocumentText.clientOnlyDirectives.contains($0.name.value) }
    }

    /// The directives `DocumentText.strip` keeps, separated by a space.
    mutating func writeSent(_ directives: [Directive]) {
        var first = true
        for directive in directives where !DocumentText.clientOnlyDirectives.contains(directive.name.value) {
            if !first { bytes.append(0x20) }
            first = false
            write(directive)
        }
    }

    /// A space and the directives `DocumentText.strip` keeps, their later lines (block strings) indented to `depth`
    /// (`Printer.appendIndented`); nothing when none is kept.
    mutating func writeSent(_ directives: [Directive], depth: Int) {
        guard hasSent(directives) else { return }
        bytes.append(0x20)
        let start = bytes.count
        writeSent(directives)
        indentLines(from: start, levels: depth)
    }

    /// Every directive (a variable's, which the transform keeps), separated by a space.
    mutating func write(_ directives: [Directive]) {
        var first = true
        for directive in directives {
            if !first { bytes.append(0x20) }
            first = false
            write(directive)
        }
    }

    mutating func write(_ directive: Directive) {
        bytes.append(0x40)  // @
        append(directive.name.value)
        guard !directive.arguments.isEmpty else { return }
        bytes.append(0x28)
        var first = true
        for argument in directive.arguments {
            if !first { append(", ") }
            first = false
            write(argument)
        }
        bytes.append(0x29)
    }

    mutating func write(_ argument: Argument) {
        append(argument.name.value)
        append(": ")
        write(argument.value)
    }

    /// `Printer.print(_: TypeReference)`, a loop as there.
    mutating func write(_ type: TypeReference) {
        var closing: [UInt8] = []
        var current = type
        while true {
            switch current {
            case .named(let named):
                append(named.name.value)
                bytes.append(contentsOf: closing.reversed())
                return
            case .list(let inner, _):
                bytes.append(0x5B)  // [
                closing.append(0x5D)  // ]
                current = inner
            case .nonNull(let inner, _):
                closing.append(0x21)  // !
                current = inner
            }
        }
    }

    /// `Printer.print(_: Value)`, with a work list as there: values nest as deep as the parser allows.
    mutating func write(_ value: Value) {
        switch value {
        case .list, .object: break
        default: return writeScalar(value)
        }
        enum Pending {
            case value(Value)
            case text(StaticString)
            case fieldName(String, first: Bool)
        }
        var pending: [Pending] = [.value(value)]
        while let next = pending.popLast() {
            switch next {
            case .text(let text): append(text)
            case .fieldName(let name, let first):
                if !first { append(", ") }
                append(name)
                append(": ")
            case .value(.list(let values, _)):
                bytes.append(0x5B)
                pending.append(.text("]"))
                for (index, item) in values.enumerated().reversed() {
                    pending.append(.value(item))
                    if index > 0 { pending.append(.text(", ")) }
                }
            case .value(.object(let fields, _)):
                bytes.append(0x7B)
                pending.append(.text("}"))
                for (index, field) in fields.enumerated().reversed() {
                    pending.append(.value(field.value))
                    pending.append(.fieldName(field.name.value, first: index == 0))
                }
            case .value(let scalar): writeScalar(scalar)
            }
        }
    }

    /// A value that is not a list or an object.
    mutating func writeScalar(_ value: Value) {
        switch value {
        case .variable(let variable):
            bytes.append(0x24)
            append(variable.name.value)
        case .int(let text, _), .float(let text, _): append(text)
        case .string(let string): write(string)
        case .boolean(let flag, _): append(flag ? "true" : "false")
        case .null: append("null")
        case .enumValue(let name): append(name.value)
        case .list, .object: write(value)
        }
    }

    /// `Printer.print(_: StringValue)`: a plain string without anything to escape is copied between quotes; other
    /// strings go through `printString` and `printBlockString` themselves.
    mutating func write(_ string: StringValue) {
        if !string.isBlock && !string.value.utf8.contains(where: Self.mayBeEscaped) {
            bytes.append(0x22)
            append(string.value)
            bytes.append(0x22)
        } else {
            append(Printer.print(string))
        }
    }

    /// A byte that `printString` may escape: a control character, `"`, `\`, DEL, or the lead byte of U+0080–U+009F.
    static func mayBeEscaped(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xC2
    }

    // MARK: Bytes

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ text: StaticString, at index: Int) {
        text.withUTF8Buffer { bytes.insert(contentsOf: $0, at: index) }
    }

    mutating func indentation(_ depth: Int) {
        for _ in 0..<depth { append("  ") }
    }

    /// The length of the bytes written since `start` in UTF-16 code units, as JavaScript's `length` counts
    /// (`Printer`'s 80-column rule): one a scalar, two for a scalar past U+FFFF (a four-byte sequence).
    func utf16Count(from start: Int) -> Int {
        var count = 0
        for byte in bytes[start...] where byte & 0xC0 != 0x80 {
            count += byte >= 0xF0 ? 2 : 1
        }
        return count
    }

    /// `levels` of indentation after each line feed written since `start` (`Printer.appendIndented`, `indent`).
    mutating func indentLines(from start: Int, levels: Int) {
        guard levels > 0, bytes[start...].contains(0x0A) else { return }
        let written = Array(bytes[start...])
        bytes.removeSubrange(start...)
        for byte in written {
            bytes.append(byte)
            if byte == 0x0A { indentation(levels) }
        }
    }
}
