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
        var scanner = Scan(lexer: Lexer(bytes: bytes))
        return scanner.run()
    }

    /// The walk over one document's tokens.
    private struct Scan {
        let lexer: Lexer
        var token = Token(kind: .startOfFile, start: 0, end: 0)
        var keys: [String] = []
        var joinsAll = false

        init(lexer: Lexer) { self.lexer = lexer }

        /// The next token; nil on a lexer error.
        mutating func advance() -> Bool {
            guard let next = try? lexer.next(from: token.end) else { return false }
            token = next
            return true
        }

        func isName(_ word: String) -> Bool {
            token.kind == .name && lexer.text(token.start, token.end) == word
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
                let word = lexer.text(token.start, token.end)
                switch word {
                case "query", "mutation", "subscription":
                    guard advance() else { return false }
                    if token.kind == .name {
                        keys.append("name:" + lexer.text(token.start, token.end))
                    } else {
                        joinsAll = true
                    }
                case "fragment":
                    guard advance(), token.kind == .name, !isName("on") else { return false }
                    keys.append("name:" + lexer.text(token.start, token.end))
                default:
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
                    if token.kind == .name, !isName("on") { keys.append("name:" + lexer.text(token.start, token.end)) }
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
            let key: String?
            switch lexer.text(token.start, token.end) {
            case "defer", "stream": key = "label"
            case "refetchable": key = "queryName"
            default: key = nil
            }
            guard advance() else { return false }
            guard token.kind == .parenLeft else { return true }
            // The arguments: `name: value` pairs directly inside these parentheses.
            var nesting = 0
            var argument: String? = nil
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
                    let name = lexer.text(token.start, token.end)
                    guard advance() else { return false }
                    guard token.kind == .colon else { return false }
                    argument = name
                    continue
                case .dollar:
                    guard advance(), token.kind == .name else { return false }  // a variable
                case .string, .blockString:
                    if nesting == 0, let key, argument == key {
                        keys.append((key == "label" ? "label:" : "name:") + lexer.stringValue(of: token))
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
