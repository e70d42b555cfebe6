import BatonSyntax

/// A document's links (`DocumentLinks`) read from its tokens, without building its AST: `check`'s
/// first pass over a project (`StreamingCheck`) only needs to know which documents share names.
///
/// Decisions, made once here:
/// - **Exact or nothing.** The tokens are the parser's own (`Lexer`: comments, strings and block
///   strings, their values decoded as the parser decodes them), and for a document the parser
///   accepts the result equals `DocumentLinks.of` of its AST (`DocumentLinkScannerTests` holds the
///   two together on every corpus document and fixture). Whatever the scanner does not follow, it
///   does not guess: nil, and the caller parses. That is an error of the lexer, a top-level
///   definition that is not an operation or a fragment (a schema among the documents), a
///   description, unbalanced brackets, nesting deeper than `depthLimit`, or an empty document.
/// - **A syntax error it does not see** (`query { a(b: ) }`) makes links the parser would not give:
///   the second pass, which parses, compares and regroups (`StreamingCheck.validate`), so a wrong
///   guess costs time, never a diagnostic.
package enum DocumentLinkScanner {
    /// Deeper than this, the scanner gives up (the parser reports what is too deep).
    static let depthLimit = 256

    /// The links of the document in `bytes`, or nil when the parser must tell (see above).
    package static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> DocumentLinks? {
        var scanner = Scan(bytes: bytes)
        return scanner.run()
    }

    /// The walk over one document's tokens.
    private struct Scan {
        let bytes: UnsafeBufferPointer<UInt8>
        let lexer: Lexer
        var token = Token(kind: .startOfFile, start: 0, end: 0)
        var keys: [String] = []
        var joinsAll = false

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            self.lexer = Lexer(bytes: bytes)
        }

        /// The next token; nil on a lexer error.
        mutating func advance() -> Bool {
            guard let next = try? lexer.next(from: token.end) else { return false }
            token = next
            return true
        }

        /// True when the current token is the name `word` (compared in place, no `String` made).
        func isName(_ word: StaticString) -> Bool {
            token.kind == .name && lexer.tokenText(token, equals: word)
        }

        /// `"name:"` and the current token's text, made in one allocation.
        func nameKey() -> String {
            let start = token.start
            let length = token.end - start
            let prefix: StaticString = "name:"
            let prefixLength = prefix.utf8CodeUnitCount
            return String(unsafeUninitializedCapacity: prefixLength + length) { buffer in
                let base = buffer.baseAddress.unsafelyUnwrapped
                base.initialize(from: prefix.utf8Start, count: prefixLength)
                (base + prefixLength).initialize(from: bytes.baseAddress.unsafelyUnwrapped + start, count: length)
                return prefixLength + length
            }
        }

        mutating func run() -> DocumentLinks? {
            guard advance(), token.kind != .endOfFile else { return nil }
            while token.kind != .endOfFile {
                guard definition() else { return nil }
            }
            return DocumentLinks(keys: DocumentLinks.sortedWithoutRepeats(keys), joinsAll: joinsAll)
        }

        /// One operation or fragment, from its first token to the token after its closing brace.
        mutating func definition() -> Bool {
            switch token.kind {
            case .braceLeft:
                joinsAll = true  // an anonymous query
            case .name:
                if isName("query") || isName("mutation") || isName("subscription") {
                    guard advance() else { return false }
                    if token.kind == .name {
                        keys.append(nameKey())
                    } else {
                        joinsAll = true
                    }
                } else if isName("fragment") {
                    guard advance(), token.kind == .name, !isName("on") else { return false }
                    keys.append(nameKey())
                } else {
                    return false  // a type-system definition: the parser tells
                }
            default:
                return false
            }
            // The header (variables, type condition, directives) up to the selection set, then the
            // selection set to its closing brace.
            var parens = 0
            var braces = 0
            while true {
                switch token.kind {
                case .endOfFile:
                    return false
                case .parenLeft, .bracketLeft:
                    parens += 1
                    guard parens <= depthLimit else { return false }
                case .parenRight, .bracketRight:
                    parens -= 1
                    guard parens >= 0 else { return false }
                case .braceLeft:
                    // Inside parentheses or brackets a brace is an object value; else a selection set.
                    if parens > 0 {
                        parens += 1
                    } else {
                        braces += 1
                    }
                    guard parens <= depthLimit, braces <= depthLimit else { return false }
                case .braceRight:
                    if parens > 0 {
                        parens -= 1
                    } else {
                        braces -= 1
                        guard braces >= 0 else { return false }
                        if braces == 0 { return advance() }
                    }
                case .spread where parens == 0:
                    guard advance() else { return false }
                    if token.kind == .name, !isName("on") { keys.append(nameKey()) }
                    continue
                case .at:
                    guard advance() else { return false }
                    guard directive() else { return false }
                    continue
                default:
                    break
                }
                guard advance() else { return false }
            }
        }

        /// After `@`: the directive's name and arguments; a `label` of `@defer`/`@stream` or a
        /// `queryName` of `@refetchable` given as a string is a key. Stops at the token after it.
        mutating func directive() -> Bool {
            guard token.kind == .name else { return false }
            // The argument whose string value is a key, and the key's prefix.
            let key: (argument: StaticString, prefix: String)?
            if isName("defer") || isName("stream") {
                key = ("label", "label:")
            } else if isName("refetchable") {
                key = ("queryName", "name:")
            } else {
                key = nil
            }
            guard advance() else { return false }
            guard token.kind == .parenLeft else { return true }
            // The arguments: `name: value` pairs directly inside these parentheses.
            var nesting = 0
            // The name token of the argument whose value comes next.
            var argument: Token? = nil
            while true {
                guard advance() else { return false }
                switch token.kind {
                case .endOfFile:
                    return false
                case .parenLeft, .bracketLeft, .braceLeft:
                    nesting += 1
                    guard nesting <= depthLimit else { return false }
                case .bracketRight, .braceRight:
                    nesting -= 1
                    guard nesting >= 0 else { return false }
                case .parenRight:
                    if nesting == 0 { return advance() }
                    nesting -= 1
                case .name where nesting == 0 && argument == nil:
                    let name = token
                    guard advance() else { return false }
                    guard token.kind == .colon else { return false }
                    argument = name
                    continue
                case .dollar:
                    guard advance(), token.kind == .name else { return false }  // a variable
                case .string, .blockString:
                    if nesting == 0, let key, let argument, lexer.tokenText(argument, equals: key.argument) {
                        keys.append(key.prefix + lexer.stringValue(of: token))
                    }
                default:
                    break
                }
                // The value of the argument named last is this token and what it opens.
                if nesting == 0 { argument = nil }
            }
        }
    }
}
