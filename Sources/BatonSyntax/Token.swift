import BatonDiagnostics

/// The kinds of lexical token, after graphql-js's `TokenKind`. `description` is the text
/// graphql-js uses for the kind in its error messages.
package enum TokenKind: UInt8, Sendable {
    case startOfFile
    case endOfFile
    case bang
    case dollar
    case ampersand
    case parenLeft
    case parenRight
    case spread
    case colon
    case equals
    case at
    case bracketLeft
    case bracketRight
    case braceLeft
    case pipe
    case braceRight
    case name
    case int
    case float
    case string
    case blockString

    /// The kind as graphql-js prints it in messages: punctuators quoted, others by name.
    package var description: String {
        switch self {
        case .startOfFile: "<SOF>"
        case .endOfFile: "<EOF>"
        case .bang: "\"!\""
        case .dollar: "\"$\""
        case .ampersand: "\"&\""
        case .parenLeft: "\"(\""
        case .parenRight: "\")\""
        case .spread: "\"...\""
        case .colon: "\":\""
        case .equals: "\"=\""
        case .at: "\"@\""
        case .bracketLeft: "\"[\""
        case .bracketRight: "\"]\""
        case .braceLeft: "\"{\""
        case .pipe: "\"|\""
        case .braceRight: "\"}\""
        case .name: "Name"
        case .int: "Int"
        case .float: "Float"
        case .string: "String"
        case .blockString: "BlockString"
        }
    }

    /// True for tokens whose text graphql-js appends to their kind in messages (`Name "x"`).
    var hasValue: Bool {
        switch self {
        case .name, .int, .float, .string, .blockString: true
        default: false
        }
    }
}

/// One token: its kind and byte span. No text is copied; the parser makes Strings only for
/// the tokens a node keeps.
package struct Token: Sendable, Hashable {
    package var kind: TokenKind
    /// For strings and block strings: the literal contains an escape (`\n`, `\"""`), so its value
    /// is not simply its bytes.
    package var hasEscape: Bool
    package var start: Int
    package var end: Int

    package init(kind: TokenKind, start: Int, end: Int, hasEscape: Bool = false) {
        self.kind = kind
        self.hasEscape = hasEscape
        self.start = start
        self.end = end
    }

    package var span: Span { Span(start: start, end: end) }
}

/// A syntax error: graphql-js's message (without the `Syntax Error: ` prefix) and the byte
/// offset graphql-js reports it at.
package struct SyntaxError: Error, Sendable, Hashable {
    package var message: String
    package var span: Span

    package init(_ message: String, at offset: Int, length: Int = 0) {
        self.message = message
        self.span = Span(start: offset, end: offset + length)
    }

    package init(_ message: String, span: Span) {
        self.message = message
        self.span = span
    }

    /// The diagnostic for this error in `file`, with graphql-js's `Syntax Error: ` prefix.
    package func diagnostic(in file: SourceFile) -> Diagnostic {
        .error("Syntax Error: " + message, rule: "syntax", file: file, span: span)
    }
}
