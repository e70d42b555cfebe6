import BatonDiagnostics

/// The recursive-descent parser behind `Parser`, after graphql-js 16's `parser.js`.
///
/// It follows graphql-js production by production, so it consumes tokens in the same order and
/// stops at the same first error with the same message. Every node's span runs from its first
/// token to the last token it consumed. Recursion is bounded by `Parser.maximumDepth` (nested
/// selection sets, list and object values, list types), so no input can overflow the stack.
struct RecursiveDescentParser: ~Copyable {
    let lexer: Lexer
    /// The current token (graphql-js `lexer.token`).
    var token: Token
    /// A token read ahead of `token` by `lookahead()`, not yet current.
    var peeked: Token?
    /// The end of the last consumed token (graphql-js `lexer.lastToken.end`).
    var lastEnd = 0
    /// How many nesting levels are open.
    var depth = 0
    let maximumDepth: Int
    /// Stops the parse before the thread's stack runs out, whatever the depth limit. Made at
    /// the first deep nesting only: reading a thread's stack bounds can cost 100 µs.
    var stackGuard: StackGuard?
    /// Names made so far, so each distinct name is made once (`Parser.parse(_:names:)` lends a table kept
    /// across parses).
    var names = NameTable()
    /// The lists being gathered, each made at its size when complete (`ListStack`).
    var selectionStack = ListStack<Selection>()
    /// The response keys (`NameTable.lastIndex`) of the fields of the selection sets open, each set's above its
    /// parent's: what tells a set's keys apart (`SelectionSet.keysAreDistinct`).
    var keyStack = ListStack<UInt32>()
    /// The response key (`NameTable.lastIndex`) of the field `parseField` made last.
    var lastFieldKey: UInt32 = 0
    var argumentStack = ListStack<Argument>()
    var directiveStack = ListStack<Directive>()
    var fieldDefinitionStack = ListStack<FieldDefinition>()
    var inputValueStack = ListStack<InputValueDefinition>()
    var enumValueStack = ListStack<EnumValueDefinition>()
    /// False to leave descriptions' texts undecoded (`Parser.parse(_:decodingDescriptions:)`).
    var decodesDescriptions = true
    /// The depth from which the stack guard is consulted; shallower nesting always fits.
    static let stackCheckDepth = 32

    /// A parser positioned on the start-of-file token; call `advance()` to read the first token.
    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.lexer = Lexer(bytes: bytes)
        self.token = Token(kind: .startOfFile, start: 0, end: 0)
        self.maximumDepth = maximumDepth
    }

    // MARK: - Tokens

    mutating func advance() throws(SyntaxError) {
        lastEnd = token.end
        if let next = peeked {
            token = next
            peeked = nil
        } else if token.kind != .endOfFile {
            token = try lexer.next(from: token.end)
        }
    }

    /// The token after the current one, read without consuming the current one.
    mutating func lookahead() throws(SyntaxError) -> Token {
        if token.kind == .endOfFile { return token }
        if let next = peeked { return next }
        let next = try lexer.next(from: token.end)
        peeked = next
        return next
    }

    @inline(__always)
    func peek(_ kind: TokenKind) -> Bool { token.kind == kind }

    @discardableResult
    mutating func expect(_ kind: TokenKind) throws(SyntaxError) -> Token {
        let current = token
        guard current.kind == kind else {
            throw SyntaxError("Expected \(kind.description), found \(describe(current)).", span: current.span)
        }
        try advance()
        return current
    }

    mutating func expectOptional(_ kind: TokenKind) throws(SyntaxError) -> Bool {
        guard token.kind == kind else { return false }
        try advance()
        return true
    }

    func isKeyword(_ candidate: Token, _ word: StaticString) -> Bool {
        candidate.kind == .name && lexer.tokenText(candidate, equals: word)
    }

    mutating func expectKeyword(_ word: StaticString) throws(SyntaxError) {
        guard isKeyword(token, word) else {
            throw SyntaxError("Expected \"\(word)\", found \(describe(token)).", span: token.span)
        }
        try advance()
    }

    mutating func expectOptionalKeyword(_ word: StaticString) throws(SyntaxError) -> Bool {
        guard isKeyword(token, word) else { return false }
        try advance()
        return true
    }

    /// graphql-js `getTokenDesc`: the kind, then the value in quotes for tokens that have one.
    func describe(_ described: Token) -> String {
        let kind = described.kind.description
        guard described.kind.hasValue else { return kind }
        return kind + " \"" + lexer.stringValue(of: described) + "\""
    }

    /// True when graphql-js's value of the token (`token.value`: a name's or number's text, a string's value;
    /// none for punctuators) is `word`; a name's text is compared in place, not made.
    func tokenValue(of candidate: Token, equals word: StaticString) -> Bool {
        switch candidate.kind {
        case .name, .int, .float: lexer.tokenText(candidate, equals: word)
        case .string, .blockString: lexer.stringValue(of: candidate) == word.description
        default: false
        }
    }

    func unexpected(_ at: Token? = nil) -> SyntaxError {
        let culprit = at ?? token
        return SyntaxError("Unexpected \(describe(culprit)).", span: culprit.span)
    }

    @inline(__always)
    func span(from start: Token) -> Span { Span(start: start.start, end: lastEnd) }

    /// Opens one nesting level at the current token, failing past the maximum depth.
    mutating func enterNesting() throws(SyntaxError) {
        depth += 1
        if depth > maximumDepth {
            throw SyntaxError(
                "Document is nested too deeply: more than \(maximumDepth) levels of selection sets, lists or objects.",
                span: token.span)
        }
        if depth >= Self.stackCheckDepth && !checkStack() {
            throw SyntaxError(
                "Document is nested too deeply: \(depth) levels of selection sets, lists or objects exhaust this thread's stack.",
                span: token.span)
        }
    }

    /// True while the stack has room for more nesting.
    mutating func checkStack() -> Bool {
        if stackGuard == nil { stackGuard = StackGuard() }
        return stackGuard?.hasRoom() ?? true
    }

    // MARK: - Document

    mutating func parseDocument() throws(SyntaxError) -> [Definition] {
        try advance()  // past <SOF>
        var definitions: [Definition] = []
        repeat {
            definitions.append(try parseDefinition())
        } while !(try expectOptional(.endOfFile))
        return definitions
    }

    mutating func parseDefinition() throws(SyntaxError) -> Definition {
        if peek(.braceLeft) { return .operation(try parseOperationDefinition()) }
        let hasDescription = peekDescription()
        let keyword = hasDescription ? try lookahead() : token
        if keyword.kind == .name {
            if isKeyword(keyword, "schema") { return .schema(try parseSchemaDefinition()) }
            if isKeyword(keyword, "scalar") { return .scalar(try parseScalarTypeDefinition()) }
            if isKeyword(keyword, "type") { return .object(try parseObjectTypeDefinition()) }
            if isKeyword(keyword, "interface") { return .interface(try parseInterfaceTypeDefinition()) }
            if isKeyword(keyword, "union") { return .union(try parseUnionTypeDefinition()) }
            if isKeyword(keyword, "enum") { return .enumType(try parseEnumTypeDefinition()) }
            if isKeyword(keyword, "input") { return .inputObject(try parseInputObjectTypeDefinition()) }
            if isKeyword(keyword, "directive") { return .directive(try parseDirectiveDefinition()) }
            if hasDescription {
                throw SyntaxError(
                    "Unexpected description, descriptions are supported only on type definitions.", span: token.span)
            }
            if isKeyword(keyword, "query") || isKeyword(keyword, "mutation") || isKeyword(keyword, "subscription") {
                return .operation(try parseOperationDefinition())
            }
            if isKeyword(keyword, "fragment") { return .fragment(try parseFragmentDefinition()) }
            if isKeyword(keyword, "extend") { return try parseTypeSystemExtension() }
        }
        throw unexpected(keyword)
    }

    // MARK: - Operations

    mutating func parseOperationDefinition() throws(SyntaxError) -> OperationDefinition {
        let start = token
        if peek(.braceLeft) {
            let selectionSet = try parseSelectionSet()
            return OperationDefinition(
                operation: .query, name: nil, variableDefinitions: [], directives: [], selectionSet: selectionSet,
                isShorthand: true, span: span(from: start))
        }
        let operation = try parseOperationType()
        let name = peek(.name) ? try parseName() : nil
        let variableDefinitions = try parseVariableDefinitions()
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return OperationDefinition(
            operation: operation, name: name, variableDefinitions: variableDefinitions, directives: directives,
            selectionSet: selectionSet, isShorthand: false, span: span(from: start))
    }

    mutating func parseOperationType() throws(SyntaxError) -> OperationType {
        let operationToken = try expect(.name)
        if lexer.tokenText(operationToken, equals: "query") { return .query }
        if lexer.tokenText(operationToken, equals: "mutation") { return .mutation }
        if lexer.tokenText(operationToken, equals: "subscription") { return .subscription }
        throw unexpected(operationToken)
    }

    mutating func parseVariableDefinitions() throws(SyntaxError) -> [VariableDefinition] {
        guard try expectOptional(.parenLeft) else { return [] }
        var definitions: [VariableDefinition] = []
        repeat {
            definitions.append(try parseVariableDefinition())
        } while !(try expectOptional(.parenRight))
        return definitions
    }

    mutating func parseVariableDefinition() throws(SyntaxError) -> VariableDefinition {
        let start = token
        let variable = try parseVariable()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? try parseValueLiteral(isConst: true) : nil
        let directives = try parseDirectives(isConst: true)
        return VariableDefinition(
            variable: variable, type: type, defaultValue: defaultValue, directives: directives,
            span: span(from: start))
    }

    mutating func parseVariable() throws(SyntaxError) -> Variable {
        let start = token
        try expect(.dollar)
        let name = try parseName()
        return Variable(name: name, span: span(from: start))
    }

    mutating func parseSelectionSet() throws(SyntaxError) -> SelectionSet {
        let start = token
        try enterNesting()
        try expect(.braceLeft)
        let first = selectionStack.count
        let firstKey = keyStack.count
        var summary = SelectionSet.Summary()
        // Fields only, each key met once (compared by number, up to `distinctKeysLimit` of them).
        var distinct = true
        repeat {
            if peek(.spread) {
                selectionStack.push(try parseFragment(&summary))
                distinct = false
            } else {
                selectionStack.push(.field(try parseField(&summary)))
                if distinct {
                    if keyStack.count - firstKey < SelectionSet.distinctKeysLimit,
                        !keyStack.contains(lastFieldKey, from: firstKey)
                    {
                        keyStack.push(lastFieldKey)
                    } else {
                        distinct = false
                    }
                }
            }
        } while !(try expectOptional(.braceRight))
        keyStack.drop(from: firstKey)
        depth -= 1
        return SelectionSet(
            selections: selectionStack.pop(from: first), span: span(from: start), summary: summary,
            keysAreDistinct: distinct)
    }

    /// A field, added to its set's `summary`.
    mutating func parseField(_ summary: inout SelectionSet.Summary) throws(SyntaxError) -> Field {
        let start = token
        let nameOrAlias = try parseName()
        // The response key: the alias if there is one, else the name, the first name either way.
        let key = names.lastIndex
        let alias: Name?
        let name: Name
        if try expectOptional(.colon) {
            alias = nameOrAlias
            name = try parseName()
        } else {
            alias = nil
            name = nameOrAlias
        }
        let arguments = try parseArguments(isConst: false)
        let directives = try parseDirectives(isConst: false)
        let selectionSet = peek(.braceLeft) ? try parseSelectionSet() : nil
        lastFieldKey = key
        summary.addField(
            hasAlias: alias != nil, hasArguments: !arguments.isEmpty, hasDirectives: !directives.isEmpty,
            selectionSet: selectionSet)
        return Field(
            alias: alias, name: name, arguments: arguments, directives: directives, selectionSet: selectionSet,
            span: span(from: start))
    }

    mutating func parseArguments(isConst: Bool) throws(SyntaxError) -> [Argument] {
        guard try expectOptional(.parenLeft) else { return [] }
        let first = argumentStack.count
        repeat {
            let start = token
            let name = try parseName()
            try expect(.colon)
            let value = try parseValueLiteral(isConst: isConst)
            argumentStack.push(Argument(name: name, value: value, span: span(from: start)))
        } while !(try expectOptional(.parenRight))
        return argumentStack.pop(from: first)
    }

    // MARK: - Fragments

    /// A fragment spread or an inline fragment, added to its set's `summary`.
    mutating func parseFragment(_ summary: inout SelectionSet.Summary) throws(SyntaxError) -> Selection {
        let start = token
        try expect(.spread)
        let hasTypeCondition = try expectOptionalKeyword("on")
        if !hasTypeCondition && peek(.name) {
            let name = try parseFragmentName()
            let directives = try parseDirectives(isConst: false)
            summary.addSpread(hasDirectives: !directives.isEmpty)
            return .fragmentSpread(FragmentSpread(name: name, directives: directives, span: span(from: start)))
        }
        let typeCondition = hasTypeCondition ? try parseNamedType() : nil
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        summary.addInlineFragment(hasDirectives: !directives.isEmpty, selectionSet: selectionSet)
        return .inlineFragment(
            InlineFragment(
                typeCondition: typeCondition, directives: directives, selectionSet: selectionSet,
                span: span(from: start)))
    }

    mutating func parseFragmentDefinition() throws(SyntaxError) -> FragmentDefinition {
        let start = token
        try expectKeyword("fragment")
        let name = try parseFragmentName()
        try expectKeyword("on")
        let typeCondition = try parseNamedType()
        let directives = try parseDirectives(isConst: false)
        let selectionSet = try parseSelectionSet()
        return FragmentDefinition(
            name: name, typeCondition: typeCondition, directives: directives, selectionSet: selectionSet,
            span: span(from: start))
    }

    mutating func parseFragmentName() throws(SyntaxError) -> Name {
        if tokenValue(of: token, equals: "on") { throw unexpected() }
        return try parseName()
    }

    // MARK: - Values

    mutating func parseValueLiteral(isConst: Bool) throws(SyntaxError) -> Value {
        let current = token
        switch current.kind {
        case .bracketLeft:
            try enterNesting()
            try advance()
            var values: [Value] = []
            while !(try expectOptional(.bracketRight)) {
                values.append(try parseValueLiteral(isConst: isConst))
            }
            depth -= 1
            return .list(values, span(from: current))
        case .braceLeft:
            try enterNesting()
            try advance()
            var fields: [ObjectField] = []
            while !(try expectOptional(.braceRight)) {
                let start = token
                let name = try parseName()
                try expect(.colon)
                let value = try parseValueLiteral(isConst: isConst)
                fields.append(ObjectField(name: name, value: value, span: span(from: start)))
            }
            depth -= 1
            return .object(fields, span(from: current))
        case .int:
            try advance()
            return .int(lexer.text(current.start, current.end), current.span)
        case .float:
            try advance()
            return .float(lexer.text(current.start, current.end), current.span)
        case .string, .blockString:
            return .string(try parseStringLiteral())
        case .name:
            try advance()
            if lexer.tokenText(current, equals: "true") { return .boolean(true, current.span) }
            if lexer.tokenText(current, equals: "false") { return .boolean(false, current.span) }
            if lexer.tokenText(current, equals: "null") { return .null(current.span) }
            return .enumValue(Name(names.name(lexer.bytes, current.start, current.end), span: current.span))
        case .dollar:
            if isConst {
                try advance()
                if token.kind == .name {
                    let name = lexer.text(token.start, token.end)
                    throw SyntaxError(
                        "Unexpected variable \"$\(name)\" in constant value.",
                        span: Span(start: current.start, end: token.end))
                }
                throw unexpected(current)
            }
            return .variable(try parseVariable())
        default:
            throw unexpected()
        }
    }

    mutating func parseStringLiteral() throws(SyntaxError) -> StringValue {
        let current = token
        try advance()
        return StringValue(
            value: lexer.stringValue(of: current), isBlock: current.kind == .blockString, span: current.span)
    }

    // MARK: - Directives

    mutating func parseDirectives(isConst: Bool) throws(SyntaxError) -> [Directive] {
        guard peek(.at) else { return [] }
        let first = directiveStack.count
        while peek(.at) {
            let start = token
            try advance()
            let name = try parseName()
            let arguments = try parseArguments(isConst: isConst)
            directiveStack.push(Directive(name: name, arguments: arguments, span: span(from: start)))
        }
        return directiveStack.pop(from: first)
    }

    // MARK: - Types

    mutating func parseTypeReference() throws(SyntaxError) -> TypeReference {
        let start = token
        var type: TypeReference
        if peek(.bracketLeft) {
            try enterNesting()
            try advance()
            let inner = try parseTypeReference()
            try expect(.bracketRight)
            depth -= 1
            type = .list(inner, span(from: start))
        } else {
            type = .named(try parseNamedType())
        }
        if try expectOptional(.bang) {
            type = .nonNull(type, span(from: start))
        }
        return type
    }

    mutating func parseNamedType() throws(SyntaxError) -> NamedType {
        NamedType(name: try parseName())
    }

    mutating func parseName() throws(SyntaxError) -> Name {
        let nameToken = try expect(.name)
        return Name(names.name(lexer.bytes, nameToken.start, nameToken.end), span: nameToken.span)
    }

    // MARK: - Type-system definitions

    func peekDescription() -> Bool { token.kind == .string || token.kind == .blockString }

    mutating func parseDescription() throws(SyntaxError) -> StringValue? {
        guard peekDescription() else { return nil }
        guard decodesDescriptions else {
            // The token is read (and checked) as ever; only its text is not made (decoding never fails).
            let current = token
            try advance()
            return StringValue(value: "", isBlock: current.kind == .blockString, span: current.span)
        }
        return try parseStringLiteral()
    }

    mutating func parseSchemaDefinition() throws(SyntaxError) -> SchemaDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("schema")
        let directives = try parseDirectives(isConst: true)
        try expect(.braceLeft)
        var operationTypes: [OperationTypeDefinition] = []
        repeat {
            operationTypes.append(try parseOperationTypeDefinition())
        } while !(try expectOptional(.braceRight))
        return SchemaDefinition(
            description: description, directives: directives, operationTypes: operationTypes, isExtension: false,
            span: span(from: start))
    }

    mutating func parseOperationTypeDefinition() throws(SyntaxError) -> OperationTypeDefinition {
        let start = token
        let operation = try parseOperationType()
        try expect(.colon)
        let type = try parseNamedType()
        return OperationTypeDefinition(operation: operation, type: type, span: span(from: start))
    }

    mutating func parseScalarTypeDefinition() throws(SyntaxError) -> ScalarTypeDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("scalar")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        return ScalarTypeDefinition(
            description: description, name: name, directives: directives, isExtension: false, span: span(from: start))
    }

    mutating func parseObjectTypeDefinition() throws(SyntaxError) -> ObjectTypeDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("type")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        return ObjectTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
            isExtension: false, span: span(from: start))
    }

    mutating func parseImplementsInterfaces() throws(SyntaxError) -> [NamedType] {
        guard try expectOptionalKeyword("implements") else { return [] }
        _ = try expectOptional(.ampersand)
        var types: [NamedType] = []
        repeat {
            types.append(try parseNamedType())
        } while try expectOptional(.ampersand)
        return types
    }

    mutating func parseFieldsDefinition() throws(SyntaxError) -> [FieldDefinition] {
        guard try expectOptional(.braceLeft) else { return [] }
        let first = fieldDefinitionStack.count
        repeat {
            let field = try parseFieldDefinition()
            fieldDefinitionStack.push(field)
        } while !(try expectOptional(.braceRight))
        return fieldDefinitionStack.pop(from: first)
    }

    mutating func parseFieldDefinition() throws(SyntaxError) -> FieldDefinition {
        let start = token
        let description = try parseDescription()
        let name = try parseName()
        let arguments = try parseArgumentDefinitions()
        try expect(.colon)
        let type = try parseTypeReference()
        let directives = try parseDirectives(isConst: true)
        return FieldDefinition(
            description: description, name: name, arguments: arguments, type: type, directives: directives,
            span: span(from: start))
    }

    mutating func parseArgumentDefinitions() throws(SyntaxError) -> [InputValueDefinition] {
        guard try expectOptional(.parenLeft) else { return [] }
        let first = inputValueStack.count
        repeat {
            let argument = try parseInputValueDefinition()
            inputValueStack.push(argument)
        } while !(try expectOptional(.parenRight))
        return inputValueStack.pop(from: first)
    }

    mutating func parseInputValueDefinition() throws(SyntaxError) -> InputValueDefinition {
        let start = token
        let description = try parseDescription()
        let name = try parseName()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? try parseValueLiteral(isConst: true) : nil
        let directives = try parseDirectives(isConst: true)
        return InputValueDefinition(
            description: description, name: name, type: type, defaultValue: defaultValue, directives: directives,
            span: span(from: start))
    }

    mutating func parseInterfaceTypeDefinition() throws(SyntaxError) -> InterfaceTypeDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("interface")
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseFieldsDefinition()
        return InterfaceTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
            isExtension: false, span: span(from: start))
    }

    mutating func parseUnionTypeDefinition() throws(SyntaxError) -> UnionTypeDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("union")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let types = try parseUnionMemberTypes()
        return UnionTypeDefinition(
            description: description, name: name, directives: directives, types: types, isExtension: false,
            span: span(from: start))
    }

    mutating func parseUnionMemberTypes() throws(SyntaxError) -> [NamedType] {
        guard try expectOptional(.equals) else { return [] }
        _ = try expectOptional(.pipe)
        var types: [NamedType] = []
        repeat {
            types.append(try parseNamedType())
        } while try expectOptional(.pipe)
        return types
    }

    mutating func parseEnumTypeDefinition() throws(SyntaxError) -> EnumTypeDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("enum")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let values = try parseEnumValuesDefinition()
        return EnumTypeDefinition(
            description: description, name: name, directives: directives, values: values, isExtension: false,
            span: span(from: start))
    }

    mutating func parseEnumValuesDefinition() throws(SyntaxError) -> [EnumValueDefinition] {
        guard try expectOptional(.braceLeft) else { return [] }
        let first = enumValueStack.count
        repeat {
            let start = token
            let description = try parseDescription()
            if tokenValue(of: token, equals: "true") || tokenValue(of: token, equals: "false")
                || tokenValue(of: token, equals: "null")
            {
                throw SyntaxError(
                    "\(describe(token)) is reserved and cannot be used for an enum value.", span: token.span)
            }
            let name = try parseName()
            let directives = try parseDirectives(isConst: true)
            enumValueStack.push(
                EnumValueDefinition(
                    description: description, name: name, directives: directives, span: span(from: start)))
        } while !(try expectOptional(.braceRight))
        return enumValueStack.pop(from: first)
    }

    mutating func parseInputObjectTypeDefinition() throws(SyntaxError) -> InputObjectTypeDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("input")
        let name = try parseName()
        let directives = try parseDirectives(isConst: true)
        let fields = try parseInputFieldsDefinition()
        return InputObjectTypeDefinition(
            description: description, name: name, directives: directives, fields: fields, isExtension: false,
            span: span(from: start))
    }

    mutating func parseInputFieldsDefinition() throws(SyntaxError) -> [InputValueDefinition] {
        guard try expectOptional(.braceLeft) else { return [] }
        let first = inputValueStack.count
        repeat {
            let field = try parseInputValueDefinition()
            inputValueStack.push(field)
        } while !(try expectOptional(.braceRight))
        return inputValueStack.pop(from: first)
    }

    mutating func parseDirectiveDefinition() throws(SyntaxError) -> DirectiveDefinition {
        let start = token
        let description = try parseDescription()
        try expectKeyword("directive")
        try expect(.at)
        let name = try parseName()
        let arguments = try parseArgumentDefinitions()
        let isRepeatable = try expectOptionalKeyword("repeatable")
        try expectKeyword("on")
        _ = try expectOptional(.pipe)
        var locations: [Name] = []
        repeat {
            let locationToken = token
            let location = try parseName()
            guard Self.directiveLocations.contains(location.value) else { throw unexpected(locationToken) }
            locations.append(location)
        } while try expectOptional(.pipe)
        return DirectiveDefinition(
            description: description, name: name, arguments: arguments, isRepeatable: isRepeatable,
            locations: locations, span: span(from: start))
    }

    /// graphql-js `DirectiveLocation`: the names a directive definition may list.
    static let directiveLocations: Set<String> = [
        "QUERY", "MUTATION", "SUBSCRIPTION", "FIELD", "FRAGMENT_DEFINITION", "FRAGMENT_SPREAD", "INLINE_FRAGMENT",
        "VARIABLE_DEFINITION", "SCHEMA", "SCALAR", "OBJECT", "FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INTERFACE",
        "UNION", "ENUM", "ENUM_VALUE", "INPUT_OBJECT", "INPUT_FIELD_DEFINITION",
    ]

    // MARK: - Extensions

    mutating func parseTypeSystemExtension() throws(SyntaxError) -> Definition {
        let keyword = try lookahead()
        if keyword.kind == .name {
            let start = token
            if isKeyword(keyword, "schema") {
                try advance()
                try advance()
                let directives = try parseDirectives(isConst: true)
                var operationTypes: [OperationTypeDefinition] = []
                if try expectOptional(.braceLeft) {
                    repeat {
                        operationTypes.append(try parseOperationTypeDefinition())
                    } while !(try expectOptional(.braceRight))
                }
                if directives.isEmpty && operationTypes.isEmpty { throw unexpected() }
                return .schema(
                    SchemaDefinition(
                        description: nil, directives: directives, operationTypes: operationTypes, isExtension: true,
                        span: span(from: start)))
            }
            if isKeyword(keyword, "scalar") {
                try advance()
                try advance()
                let name = try parseName()
                let directives = try parseDirectives(isConst: true)
                if directives.isEmpty { throw unexpected() }
                return .scalar(
                    ScalarTypeDefinition(
                        description: nil, name: name, directives: directives, isExtension: true, span: span(from: start)
                    ))
            }
            if isKeyword(keyword, "type") || isKeyword(keyword, "interface") {
                let isObject = isKeyword(keyword, "type")
                try advance()
                try advance()
                let name = try parseName()
                let interfaces = try parseImplementsInterfaces()
                let directives = try parseDirectives(isConst: true)
                let fields = try parseFieldsDefinition()
                if interfaces.isEmpty && directives.isEmpty && fields.isEmpty { throw unexpected() }
                if isObject {
                    return .object(
                        ObjectTypeDefinition(
                            description: nil, name: name, interfaces: interfaces, directives: directives,
                            fields: fields,
                            isExtension: true, span: span(from: start)))
                }
                return .interface(
                    InterfaceTypeDefinition(
                        description: nil, name: name, interfaces: interfaces, directives: directives, fields: fields,
                        isExtension: true, span: span(from: start)))
            }
            if isKeyword(keyword, "union") {
                try advance()
                try advance()
                let name = try parseName()
                let directives = try parseDirectives(isConst: true)
                let types = try parseUnionMemberTypes()
                if directives.isEmpty && types.isEmpty { throw unexpected() }
                return .union(
                    UnionTypeDefinition(
                        description: nil, name: name, directives: directives, types: types, isExtension: true,
                        span: span(from: start)))
            }
            if isKeyword(keyword, "enum") {
                try advance()
                try advance()
                let name = try parseName()
                let directives = try parseDirectives(isConst: true)
                let values = try parseEnumValuesDefinition()
                if directives.isEmpty && values.isEmpty { throw unexpected() }
                return .enumType(
                    EnumTypeDefinition(
                        description: nil, name: name, directives: directives, values: values, isExtension: true,
                        span: span(from: start)))
            }
            if isKeyword(keyword, "input") {
                try advance()
                try advance()
                let name = try parseName()
                let directives = try parseDirectives(isConst: true)
                let fields = try parseInputFieldsDefinition()
                if directives.isEmpty && fields.isEmpty { throw unexpected() }
                return .inputObject(
                    InputObjectTypeDefinition(
                        description: nil, name: name, directives: directives, fields: fields, isExtension: true,
                        span: span(from: start)))
            }
        }
        throw unexpected(keyword)
    }
}
