/// Prints an AST as GraphQL text, byte for byte as graphql-js 16's `print` does.
///
/// Each node prints as graphql-js's `printDocASTReducer` prints it: the same separators, the
/// same `block`/`wrap`/`indent` helpers, the same 80-column rule for wrapping a field's
/// arguments (counted in UTF-16 code units, as JavaScript's `length`), block strings through
/// `printBlockString` and other strings through `printString`. Comments and the source's
/// layout are not kept, as in graphql-js.
///
/// Every text is written by one byte writer (`PrintWriter`); these functions are its entry points.
package enum Printer {
    /// The document as graphql-js prints it: definitions separated by a blank line, no final newline.
    package static func print(_ document: Document) -> String {
        text { writer in
            var first = true
            for definition in document.definitions {
                if !first { writer.append("\n\n") }
                first = false
                writer.write(definition)
            }
        }
    }

    /// One definition.
    package static func print(_ definition: Definition) -> String { text { $0.write(definition) } }

    /// One definition as `form` changes it (`PrintForm`: what an operation's sent text leaves out and adds).
    package static func print(_ definition: Definition, form: PrintForm) -> String {
        var writer = PrintWriter(form: form)
        writer.bytes.reserveCapacity(2048)
        writer.write(definition)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// An operation; an anonymous query without variables or directives prints in short form.
    package static func print(_ node: OperationDefinition) -> String { text { $0.write(node) } }
    package static func print(_ node: VariableDefinition) -> String { text { $0.write(node) } }
    package static func print(_ node: SelectionSet) -> String { text { $0.write(node, depth: 0, addsTypename: false) } }
    package static func print(_ selection: Selection) -> String { text { $0.write(selection, depth: 0) } }
    package static func print(_ node: Argument) -> String { text { $0.write(node) } }
    package static func print(_ node: Directive) -> String { text { $0.write(node) } }
    /// A value literal: `[1, 2]`, `{a: "b"}`, `$v`, `ENUM`.
    package static func print(_ value: Value) -> String { text { $0.write(value) } }
    package static func print(_ string: StringValue) -> String { text { $0.write(string) } }
    /// A type reference: `[String!]!`.
    package static func print(_ type: TypeReference) -> String { text { $0.write(type) } }
    package static func print(_ node: OperationTypeDefinition) -> String { text { $0.write(node) } }
    package static func print(_ node: FieldDefinition) -> String { text { $0.write(node) } }
    package static func print(_ node: InputValueDefinition) -> String { text { $0.write(node) } }
    package static func print(_ node: EnumValueDefinition) -> String { text { $0.write(node) } }

    /// graphql-js's column past which a field's arguments print one a line.
    package static let maximumLineLength = 80

    /// True when `selections` select `__typename` unaliased (`PrintForm.typenameInFieldSets` then adds none).
    package static func selectsTypename(_ selections: [Selection]) -> Bool {
        selections.contains { selection in
            if case .field(let field) = selection { return field.alias == nil && field.name.value == "__typename" }
            return false
        }
    }

    private static func text(_ body: (inout PrintWriter) -> Void) -> String {
        var writer = PrintWriter(form: PrintForm())
        body(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// What a printed text leaves out of the written nodes and adds to them: nothing by default. An operation's sent
/// text (`DocumentText`) leaves out client-only directives and variables and adds `__typename` to field sets.
package struct PrintForm: Sendable {
    /// Directives left out where selections, fragments and operations have them (a variable's are kept).
    package var leftOutDirectives: Set<String> = []
    /// The operation's variable definitions left out, by name.
    package var leftOutVariables: Set<String> = []
    /// `__typename` added last to every field's selection set that does not select it unaliased
    /// (`Printer.selectsTypename`); an empty one then prints.
    package var typenameInFieldSets = false

    package init(
        leftOutDirectives: Set<String> = [], leftOutVariables: Set<String> = [], typenameInFieldSets: Bool = false
    ) {
        self.leftOutDirectives = leftOutDirectives
        self.leftOutVariables = leftOutVariables
        self.typenameInFieldSets = typenameInFieldSets
    }

    func keeps(_ directive: Directive) -> Bool {
        leftOutDirectives.isEmpty || !leftOutDirectives.contains(directive.name.value)
    }
}

/// graphql-js's print format written as UTF-8 into one buffer: the one place it is spelled.
///
/// graphql-js prints every node to a string and re-indents a block's items as it joins them; this writer writes
/// each node once, at its place, and indents what a node wrote after its line feeds (`indentLines`) only where a
/// node's own text can span lines (arguments wrapped at 80 columns, block strings, a type's block). Selections and
/// values are written with work lists, not recursion: they nest as deep as the parser allows
/// (`Parser.maximumDepth`), more than a small thread's stack holds. What is left recursive (definitions, a field's
/// arguments and directives) nests a fixed few levels.
package struct PrintWriter {
    package var bytes: [UInt8] = []
    let form: PrintForm

    package init(form: PrintForm = PrintForm()) { self.form = form }

    // MARK: Definitions

    mutating func write(_ definition: Definition) {
        switch definition {
        case .operation(let node): write(node)
        case .fragment(let node):
            append("fragment ")
            append(node.name.value)
            append(" on ")
            append(node.typeCondition.name.value)
            bytes.append(0x20)
            if writeDirectives(node.directives, kept: true) { bytes.append(0x20) }
            write(node.selectionSet, depth: 0, addsTypename: false)
        case .schema(let node):
            if !node.isExtension { writeDescription(node.description) }
            var parts = Parts()
            parts.next(&self)
            append(node.isExtension ? "extend schema" : "schema")
            parts.next(&self)
            writeDirectives(node.directives)
            parts.next(&self)
            writeBlock(node.operationTypes) { $0.write($1) }
            parts.end(&self)
        case .scalar(let node):
            var parts = heading(node.description, node.isExtension, "scalar", node.name, node.directives)
            parts.end(&self)
        case .object(let node):
            var parts = heading(
                node.description, node.isExtension, "type", node.name, implements: node.interfaces, node.directives)
            parts.next(&self)
            writeBlock(node.fields) { $0.write($1) }
            parts.end(&self)
        case .interface(let node):
            var parts = heading(
                node.description, node.isExtension, "interface", node.name, implements: node.interfaces,
                node.directives)
            parts.next(&self)
            writeBlock(node.fields) { $0.write($1) }
            parts.end(&self)
        case .union(let node):
            var parts = heading(node.description, node.isExtension, "union", node.name, node.directives)
            parts.next(&self)
            if !node.types.isEmpty {
                append("= ")
                writeNames(node.types, separator: " | ")
            }
            parts.end(&self)
        case .enumType(let node):
            var parts = heading(node.description, node.isExtension, "enum", node.name, node.directives)
            parts.next(&self)
            writeBlock(node.values) { $0.write($1) }
            parts.end(&self)
        case .inputObject(let node):
            var parts = heading(node.description, node.isExtension, "input", node.name, node.directives)
            parts.next(&self)
            writeBlock(node.fields) { $0.write($1) }
            parts.end(&self)
        case .directive(let node):
            writeDescription(node.description)
            append("directive @")
            append(node.name.value)
            writeArgumentDefinitions(node.arguments)
            if node.isRepeatable { append(" repeatable") }
            append(" on ")
            writeEach(node.locations, separatedBy: " | ") { $0.append($1.value) }
        }
    }

    /// The description (not an extension's), then the first parts of a type's definition: `extend KIND` or `KIND`,
    /// the name, `implements A & B` (an object's or an interface's) and the directives, each after a space where
    /// it prints; the parts joined so far.
    private mutating func heading(
        _ description: StringValue?, _ isExtension: Bool, _ kind: StaticString, _ name: Name,
        implements interfaces: [NamedType] = [], _ directives: [Directive]
    ) -> Parts {
        if !isExtension { writeDescription(description) }
        var parts = Parts()
        parts.next(&self)
        if isExtension { append("extend ") }
        append(kind)
        parts.next(&self)
        append(name.value)
        parts.next(&self)
        if !interfaces.isEmpty {
            append("implements ")
            writeNames(interfaces, separator: " & ")
        }
        parts.next(&self)
        writeDirectives(directives)
        return parts
    }

    mutating func write(_ operation: OperationDefinition) {
        let start = bytes.count
        append(operation.operation.rawValue)
        let kindEnd = bytes.count
        var variables = operation.variableDefinitions[...]
        if !form.leftOutVariables.isEmpty {
            variables = variables.filter { !form.leftOutVariables.contains($0.variable.name.value) }[...]
        }
        if operation.name != nil || !variables.isEmpty {
            bytes.append(0x20)
            if let name = operation.name { append(name.value) }
            if !variables.isEmpty {
                bytes.append(0x28)  // (
                writeEach(variables, separatedBy: ", ") { $0.write($1) }
                bytes.append(0x29)  // )
            }
        }
        if hasKept(operation.directives) {
            bytes.append(0x20)
            writeDirectives(operation.directives, kept: true)
        }
        if operation.operation == .query && bytes.count == kindEnd {
            bytes.removeSubrange(start...)  // `query` alone prints as its selection set
        } else {
            bytes.append(0x20)
        }
        write(operation.selectionSet, depth: 0, addsTypename: false)
    }

    mutating func write(_ variable: VariableDefinition) {
        bytes.append(0x24)  // $
        writeValueDefinition(variable.variable.name, variable.type, variable.defaultValue, variable.directives)
    }

    /// `name: Type`, ` = default` and ` @directives` where there are: a variable's or an input value's definition.
    private mutating func writeValueDefinition(
        _ name: Name, _ type: TypeReference, _ defaultValue: Value?, _ directives: [Directive]
    ) {
        append(name.value)
        append(": ")
        write(type)
        if let defaultValue {
            append(" = ")
            write(defaultValue)
        }
        writeTrailingDirectives(directives)
    }

    /// A space and the directives, where there are.
    private mutating func writeTrailingDirectives(_ directives: [Directive]) {
        guard !directives.isEmpty else { return }
        bytes.append(0x20)
        writeDirectives(directives)
    }

    mutating func write(_ node: OperationTypeDefinition) {
        append(node.operation.rawValue)
        append(": ")
        append(node.type.name.value)
    }

    mutating func write(_ node: FieldDefinition) {
        writeDescription(node.description)
        append(node.name.value)
        writeArgumentDefinitions(node.arguments)
        append(": ")
        write(node.type)
        writeTrailingDirectives(node.directives)
    }

    mutating func write(_ node: InputValueDefinition) {
        writeDescription(node.description)
        writeValueDefinition(node.name, node.type, node.defaultValue, node.directives)
    }

    mutating func write(_ node: EnumValueDefinition) {
        writeDescription(node.description)
        append(node.name.value)
        writeTrailingDirectives(node.directives)
    }

    /// graphql-js's `wrap('', description, '\n')`.
    private mutating func writeDescription(_ description: StringValue?) {
        guard let description else { return }
        write(description)
        bytes.append(0x0A)
    }

    /// Argument definitions on one line, or one per line when any of them spans several lines.
    private mutating func writeArgumentDefinitions(_ arguments: [InputValueDefinition]) {
        guard !arguments.isEmpty else { return }
        let open = bytes.count
        bytes.append(0x28)  // (
        writeEach(arguments, separatedBy: ", ") { $0.write($1) }
        if bytes[open...].contains(0x0A) {
            bytes.removeSubrange(open...)
            append("(\n  ")
            let start = bytes.count
            writeEach(arguments, separatedBy: "\n") { $0.write($1) }
            indentLines(from: start, levels: 1)
            append("\n)")
        } else {
            bytes.append(0x29)  // )
        }
    }

    /// graphql-js's `block`: `{`, the items one a line indented one level, `}`; nothing for no items.
    private mutating func writeBlock<Item>(_ items: [Item], _ write: (inout PrintWriter, Item) -> Void) {
        guard !items.isEmpty else { return }
        append("{\n  ")
        let start = bytes.count
        writeEach(items, separatedBy: "\n", write)
        indentLines(from: start, levels: 1)
        append("\n}")
    }

    private mutating func writeNames(_ names: [NamedType], separator: StaticString) {
        writeEach(names, separatedBy: separator) { $0.append($1.name.value) }
    }

    /// The items, `separator` between each two.
    private mutating func writeEach<Items: Sequence>(
        _ items: Items, separatedBy separator: StaticString, _ write: (inout PrintWriter, Items.Element) -> Void
    ) {
        var first = true
        for item in items {
            if !first { append(separator) }
            first = false
            write(&self, item)
        }
    }

    /// graphql-js's `join` of parts some of which may print nothing: each part after the first that printed
    /// something is preceded by a space.
    private struct Parts {
        var partStart = -1
        var anyWritten = false

        /// Ends the part written since the last call (if any) and starts the next one.
        mutating func next(_ writer: inout PrintWriter) {
            end(&writer)
            if anyWritten { writer.bytes.append(0x20) }
            partStart = writer.bytes.count
        }

        /// Ends the last part: its separator taken back when it printed nothing.
        mutating func end(_ writer: inout PrintWriter) {
            guard partStart >= 0 else { return }
            if writer.bytes.count == partStart {
                if anyWritten { writer.bytes.removeLast() }
            } else {
                anyWritten = true
            }
            partStart = -1
        }
    }

    // MARK: Selections

    /// `{`, the selections one per line indented one level deeper than `depth`, `}`; nothing for an empty set
    /// (graphql-js's `block` of no items). Where `addsTypename`, `__typename` is appended unless selected
    /// unaliased. Nested sets are written from a work list, each at its depth: the text graphql-js gives by
    /// re-indenting every enclosing block, in work linear in the output.
    mutating func write(_ set: SelectionSet, depth: Int, addsTypename: Bool) {
        guard let root = open(set, depth: depth, addsTypename: addsTypename) else { return }
        var frames: [OpenSet] = [root]
        while let top = frames.last {
            guard top.next < top.selections.count else {
                if top.addsTypename {
                    if !top.selections.isEmpty { bytes.append(0x0A) }
                    indentation(top.depth + 1)
                    append("__typename")
                }
                bytes.append(0x0A)
                indentation(top.depth)
                bytes.append(0x7D)  // }
                frames.removeLast()
                continue
            }
            frames[frames.count - 1].next += 1
            if top.next > 0 { bytes.append(0x0A) }
            indentation(top.depth + 1)
            if let child = writeHead(top.selections[top.next], depth: top.depth + 1),
                let nested = open(child.set, depth: top.depth + 1, addsTypename: child.addsTypename)
            {
                frames.append(nested)
            }
        }
    }

    /// One selection whose first line starts at indentation `depth`, with what it selects.
    mutating func write(_ selection: Selection, depth: Int) {
        if let child = writeHead(selection, depth: depth) {
            write(child.set, depth: depth, addsTypename: child.addsTypename)
        }
    }

    /// A set being written: its selections, the next to write, its depth.
    private struct OpenSet {
        let selections: [Selection]
        var next = 0
        let depth: Int
        let addsTypename: Bool
    }

    /// Writes `{` and a line feed and returns the set to write, or nil when it prints nothing.
    private mutating func open(_ set: SelectionSet, depth: Int, addsTypename: Bool) -> OpenSet? {
        let adds = addsTypename && !Printer.selectsTypename(set.selections)
        guard !set.selections.isEmpty || adds else { return nil }
        append("{\n")
        return OpenSet(selections: set.selections, depth: depth, addsTypename: adds)
    }

    /// A selection up to its selection set, whose later lines (multi-line arguments, block strings) are indented
    /// to `depth`; and, when it prints one, a space and the set to write next.
    private mutating func writeHead(_ selection: Selection, depth: Int) -> (set: SelectionSet, addsTypename: Bool)? {
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
                writeEach(field.arguments, separatedBy: ", ") { $0.write($1) }
                bytes.append(0x29)  // )
                if utf16Count(from: start) > Printer.maximumLineLength {
                    // One argument a line, indented one level (graphql-js's `wrap("(\n", indent(…), "\n)")`).
                    bytes.removeSubrange(headEnd...)
                    append("(\n  ")
                    let argumentsStart = bytes.count
                    writeEach(field.arguments, separatedBy: "\n") { $0.write($1) }
                    indentLines(from: argumentsStart, levels: 1)
                    append("\n)")
                }
                indentLines(from: start, levels: depth)
            }
            writeDirectives(field.directives, depth: depth)
            guard let set = field.selectionSet else { return nil }
            if form.typenameInFieldSets || !set.selections.isEmpty {
                bytes.append(0x20)
                return (set, form.typenameInFieldSets)
            }
            return nil
        case .fragmentSpread(let spread):
            append("...")
            append(spread.name.value)
            writeDirectives(spread.directives, depth: depth)
            return nil
        case .inlineFragment(let inline):
            append("...")
            if let condition = inline.typeCondition {
                append(" on ")
                append(condition.name.value)
            }
            writeDirectives(inline.directives, depth: depth)
            guard !inline.selectionSet.selections.isEmpty else { return nil }
            bytes.append(0x20)
            return (inline.selectionSet, false)
        }
    }

    // MARK: Directives, arguments, values

    /// True when some directive is kept (`PrintForm.leftOutDirectives`).
    private func hasKept(_ directives: [Directive]) -> Bool {
        directives.contains { form.keeps($0) }
    }

    /// The directives (only those the form keeps, where `kept`), separated by a space; true when one was written.
    @discardableResult
    private mutating func writeDirectives(_ directives: [Directive], kept: Bool = false) -> Bool {
        var first = true
        for directive in directives where !kept || form.keeps(directive) {
            if !first { bytes.append(0x20) }
            first = false
            write(directive)
        }
        return !first
    }

    /// A space and the kept directives of a selection, their later lines (block strings) indented to `depth`;
    /// nothing when none is kept.
    private mutating func writeDirectives(_ directives: [Directive], depth: Int) {
        guard hasKept(directives) else { return }
        bytes.append(0x20)
        let start = bytes.count
        writeDirectives(directives, kept: true)
        indentLines(from: start, levels: depth)
    }

    mutating func write(_ directive: Directive) {
        bytes.append(0x40)  // @
        append(directive.name.value)
        guard !directive.arguments.isEmpty else { return }
        bytes.append(0x28)
        writeEach(directive.arguments, separatedBy: ", ") { $0.write($1) }
        bytes.append(0x29)
    }

    mutating func write(_ argument: Argument) {
        append(argument.name.value)
        append(": ")
        write(argument.value)
    }

    /// `[String!]!`, with a loop: list types nest as deep as the parser allows.
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

    /// A value, with a work list for lists and objects: values nest as deep as the parser allows.
    package mutating func write(_ value: Value) { write(value, orderingFields: nil) }

    /// A value whose objects' fields are written in the order `orderingFields` gives them (graphql-js's
    /// `sortValueNode`), or as written.
    package mutating func write(_ value: Value, orderingFields: (([ObjectField]) -> [ObjectField])?) {
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
                let ordered = orderingFields?(fields) ?? fields
                for (index, field) in ordered.enumerated().reversed() {
                    pending.append(.value(field.value))
                    pending.append(.fieldName(field.name.value, first: index == 0))
                }
            case .value(let scalar): writeScalar(scalar)
            }
        }
    }

    /// A value that is not a list or an object.
    private mutating func writeScalar(_ value: Value) {
        switch value {
        case .variable(let variable):
            bytes.append(0x24)
            append(variable.name.value)
        case .int(let text, _), .float(let text, _): append(text)
        case .string(let string): write(string)
        case .boolean(let flag, _): append(flag ? "true" : "false")
        case .null: append("null")
        case .enumValue(let name): append(name.value)
        case .list, .object: write(value, orderingFields: nil)
        }
    }

    mutating func write(_ string: StringValue) {
        var value = string.value
        value.withUTF8 { string.isBlock ? writeBlockString($0) : writeString($0) }
    }

    /// graphql-js `printString`: a `"…"` literal, escaping control characters (U+0000–U+001F, U+007F–U+009F),
    /// `"` and `\`. Runs without an escape are copied.
    mutating func writeString(_ value: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x22)
        var copied = 0
        var index = 0
        while index < value.count {
            let byte = value[index]
            // U+0080–U+009F are 0xC2 0x80–0x9F in UTF-8.
            let isC1 = byte == 0xC2 && index + 1 < value.count && value[index + 1] < 0xA0
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || isC1 else {
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[copied..<index]))
            switch byte {
            case 0x08: append("\\b")
            case 0x09: append("\\t")
            case 0x0A: append("\\n")
            case 0x0C: append("\\f")
            case 0x0D: append("\\r")
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            default:
                let code = isC1 ? value[index + 1] : byte
                append("\\u00")
                bytes.append(Self.hexDigit(code >> 4))
                bytes.append(Self.hexDigit(code & 0x0F))
            }
            index += isC1 ? 2 : 1
            copied = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[copied...]))
        bytes.append(0x22)
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x37 + nibble }

    /// graphql-js `printBlockString`: a `"""…"""` literal whose value, read back through the spec's dedent
    /// algorithm, is `value`.
    mutating func writeBlockString(_ raw: UnsafeBufferPointer<UInt8>) {
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
        var lines = 1
        var allLaterLinesBlankOrIndented = true
        index = 0
        while index < escaped.count {
            let byte = escaped[index]
            if byte == 0x0A || byte == 0x0D {
                index += (byte == 0x0D && index + 1 < escaped.count && escaped[index + 1] == 0x0A) ? 2 : 1
                lines += 1
                let next = index < escaped.count ? escaped[index] : 0x0A
                if !(next == 0x0A || next == 0x0D || next == 0x20 || next == 0x09) {
                    allLaterLinesBlankOrIndented = false
                }
            } else {
                index += 1
            }
        }
        let isSingleLine = lines == 1
        let forceLeadingNewLine = lines > 1 && allLaterLinesBlankOrIndented
        let hasTrailingTripleQuotes = escaped.count >= 4 && escaped.suffix(4).elementsEqual([0x5C, 0x22, 0x22, 0x22])
        let hasTrailingQuote = raw.last == 0x22 && !hasTrailingTripleQuotes
        let hasTrailingSlash = raw.last == 0x5C
        let forceTrailingNewline = hasTrailingQuote || hasTrailingSlash
        let printAsMultipleLines =
            !isSingleLine || Self.utf16Count(raw[...]) > 70 || forceTrailingNewline || forceLeadingNewLine
            || hasTrailingTripleQuotes
        let skipLeadingNewLine = isSingleLine && (raw.first == 0x20 || raw.first == 0x09)
        append("\"\"\"")
        if (printAsMultipleLines && !skipLeadingNewLine) || forceLeadingNewLine { bytes.append(0x0A) }
        bytes.append(contentsOf: escaped)
        if printAsMultipleLines || forceTrailingNewline { bytes.append(0x0A) }
        append("\"\"\"")
    }

    // MARK: Bytes

    package mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    package mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func indentation(_ depth: Int) {
        for _ in 0..<depth {
            bytes.append(0x20)
            bytes.append(0x20)
        }
    }

    /// The length of the bytes written since `start` in UTF-16 code units, as JavaScript's `length` counts
    /// (the 80-column rule).
    private func utf16Count(from start: Int) -> Int { Self.utf16Count(bytes[start...]) }

    /// UTF-16 code units of UTF-8 `text`: one a scalar, two for a scalar past U+FFFF (a four-byte sequence).
    static func utf16Count<Bytes: Collection<UInt8>>(_ text: Bytes) -> Int {
        var count = 0
        for byte in text where byte & 0xC0 != 0x80 {
            count += byte >= 0xF0 ? 2 : 1
        }
        return count
    }

    /// `levels` of indentation (two spaces each) after each line feed written since `start` (graphql-js's
    /// `indent`, and the re-indenting of enclosing blocks), moved in place from the end.
    private mutating func indentLines(from start: Int, levels: Int) {
        guard levels > 0 else { return }
        var feeds = 0
        for byte in bytes[start...] where byte == 0x0A { feeds += 1 }
        guard feeds > 0 else { return }
        let width = 2 * levels
        var source = bytes.count - 1
        bytes.append(contentsOf: repeatElement(0x20, count: feeds * width))
        var target = bytes.count - 1
        // Each byte moves right by the indentation of the line feeds before it; done once every feed is moved.
        while target > source {
            let byte = bytes[source]
            if byte == 0x0A {
                for offset in 0..<width { bytes[target - offset] = 0x20 }
                target -= width
            }
            bytes[target] = byte
            source -= 1
            target -= 1
        }
    }
}

/// graphql-js `printString`: a `"…"` literal, escaping control characters, `"` and `\`.
package func printString(_ value: String) -> String {
    var writer = PrintWriter()
    var value = value
    value.withUTF8 { writer.writeString($0) }
    return String(decoding: writer.bytes, as: UTF8.self)
}

/// graphql-js `printBlockString`: a `"""…"""` literal whose value, read back through the
/// spec's dedent algorithm, is `value`.
package func printBlockString(_ value: String) -> String {
    var writer = PrintWriter()
    var value = value
    value.withUTF8 { writer.writeBlockString($0) }
    return String(decoding: writer.bytes, as: UTF8.self)
}
