import BatonDiagnostics
import BatonTestSupport
import XCTest

@testable import BatonSyntax

/// Syntax errors: one case per error class of graphql-js's lexer and parser, checked against
/// the expected message and location and, where node is present, against graphql-js itself.
final class SyntaxErrorTests: XCTestCase {
    /// Parses `text` and returns `line:column: message` of its one diagnostic, or "ok".
    static func outcome(_ text: String) -> String {
        outcome(bytes: Array(text.utf8))
    }

    static func outcome(bytes: [UInt8]) -> String {
        let result = Parser.parse(SourceFile(path: "test.graphql", bytes: bytes))
        guard let diagnostic = result.diagnostics.first else {
            return result.document == nil ? "no document and no diagnostic" : "ok"
        }
        XCTAssertNil(result.document)
        XCTAssertEqual(result.diagnostics.count, 1)
        XCTAssertEqual(diagnostic.rule, "syntax")
        let location = diagnostic.location ?? SourceLocation(line: 0, column: 0, offset: 0)
        return "\(location.line):\(location.column): \(diagnostic.message)"
    }

    /// Malformed inputs, one or more per error class, with graphql-js 16.6.0's report.
    static let cases: [(String, String)] = [
        // Lexer: characters.
        ("\u{0007}", "1:1: Syntax Error: Unexpected character: U+0007."),
        ("{ a\u{0007} }", "1:4: Syntax Error: Unexpected character: U+0007."),
        ("?", "1:1: Syntax Error: Unexpected character: \"?\"."),
        ("{ a }\n  ~", "2:3: Syntax Error: Unexpected character: \"~\"."),
        ("é", "1:1: Syntax Error: Unexpected character: U+00E9."),
        ("{ 😀 }", "1:3: Syntax Error: Unexpected character: U+1F600."),
        ("{ a } \u{7F}", "1:7: Syntax Error: Unexpected character: U+007F."),
        ("'a'", "1:1: Syntax Error: Unexpected single quote character ('), did you mean to use a double quote (\")?"),
        ("..", "1:1: Syntax Error: Unexpected character: \".\"."),
        ("{ a(x: .5) }", "1:8: Syntax Error: Unexpected character: \".\"."),
        ("\u{FEFF}{ a(x: 1.) }", "1:11: Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ a } \u{FEFF} ?", "1:9: Syntax Error: Unexpected character: \"?\"."),
        // Lexer: numbers.
        ("{ a(x: 01) }", "1:9: Syntax Error: Invalid number, unexpected digit after 0: \"1\"."),
        ("{ a(x: 1.) }", "1:10: Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ a(x: 1e) }", "1:10: Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ a(x: 1e+) }", "1:11: Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ a(x: 0x1) }", "1:9: Syntax Error: Invalid number, expected digit but got: \"x\"."),
        ("{ a(x: 1a) }", "1:9: Syntax Error: Invalid number, expected digit but got: \"a\"."),
        ("{ a(x: 1.2.3) }", "1:11: Syntax Error: Invalid number, expected digit but got: \".\"."),
        ("{ a(x: 1.2e3_) }", "1:13: Syntax Error: Invalid number, expected digit but got: \"_\"."),
        ("{ a(x: -) }", "1:9: Syntax Error: Invalid number, expected digit but got: \")\"."),
        ("{ a(x: --1) }", "1:9: Syntax Error: Invalid number, expected digit but got: \"-\"."),
        ("{ a(x: 1.e1) }", "1:10: Syntax Error: Invalid number, expected digit but got: \"e\"."),
        ("-", "1:2: Syntax Error: Invalid number, expected digit but got: <EOF>."),
        ("{ a(x: 1.é) }", "1:10: Syntax Error: Invalid number, expected digit but got: U+00E9."),
        ("{ a(x: 00) }", "1:9: Syntax Error: Invalid number, unexpected digit after 0: \"0\"."),
        // Lexer: strings.
        ("{ a(x: \"abc) }", "1:15: Syntax Error: Unterminated string."),
        ("{ a(x: \"abc\n\") }", "1:12: Syntax Error: Unterminated string."),
        ("{ a(x: \"abc\r\") }", "1:12: Syntax Error: Unterminated string."),
        ("{ a(x: \"\"\"abc) }", "1:17: Syntax Error: Unterminated string."),
        ("{ a(x: \"\"\"abc\n  \\\"\"\") }", "2:10: Syntax Error: Unterminated string."),
        ("{ a(x: \"\\x\") }", "1:9: Syntax Error: Invalid character escape sequence: \"\\x\"."),
        ("{ a(x: \"\\", "1:9: Syntax Error: Invalid character escape sequence: \"\\\"."),
        ("{ a(x: \"\\é\") }", "1:9: Syntax Error: Invalid character escape sequence: \"\\é\"."),
        ("{ a(x: \"\\u12\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\u12\")\"."),
        ("{ a(x: \"\\uXYZW\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\uXYZW\"."),
        ("{ a(x: \"\\uD800\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\uD800\"."),
        ("{ a(x: \"\\uDE00\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\uDE00\"."),
        ("{ a(x: \"\\uD83D\\u0041\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\uD83D\"."),
        ("{ a(x: \"\\uD83Dabc\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\uD83D\"."),
        ("{ a(x: \"\\u{D800}\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\u{D800}\"."),
        ("{ a(x: \"\\u{110000}\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\u{110000}\"."),
        ("{ a(x: \"\\u{}\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\u{}\"."),
        ("{ a(x: \"\\u{1F600\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\u{1F600\"\"."),
        ("{ a(x: \"\\u{000000001}\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\u{000000001\"."),
        ("{ a(x: \"\\u{FFFFFFFF}\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\u{FFFFFFFF\"."),
        ("{ a(x: \"\\u{é}\") }", "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\u{é\"."),
        // Parser: expected tokens and keywords.
        ("{", "1:2: Syntax Error: Expected Name, found <EOF>."),
        ("{ }", "1:3: Syntax Error: Expected Name, found \"}\"."),
        ("", "1:1: Syntax Error: Unexpected <EOF>."),
        ("   # only a comment\n", "2:1: Syntax Error: Unexpected <EOF>."),
        ("x", "1:1: Syntax Error: Unexpected Name \"x\"."),
        ("{ a } x", "1:7: Syntax Error: Unexpected Name \"x\"."),
        ("query", "1:6: Syntax Error: Expected \"{\", found <EOF>."),
        ("query Q (", "1:10: Syntax Error: Expected \"$\", found <EOF>."),
        ("query Q ($a) { a }", "1:12: Syntax Error: Expected \":\", found \")\"."),
        ("query Q ($a: ) { a }", "1:14: Syntax Error: Expected Name, found \")\"."),
        ("query Q ($a: Int = $b) { a }", "1:20: Syntax Error: Unexpected variable \"$b\" in constant value."),
        ("query Q ($a: Int = $) { a }", "1:20: Syntax Error: Unexpected \"$\"."),
        ("query Q ($a: [Int) { a }", "1:18: Syntax Error: Expected \"]\", found \")\"."),
        ("query Q @dir(a: ) { a }", "1:17: Syntax Error: Unexpected \")\"."),
        ("query Q { a(b) }", "1:14: Syntax Error: Expected \":\", found \")\"."),
        ("query Q { a(: 1) }", "1:13: Syntax Error: Expected Name, found \":\"."),
        ("query Q { a() }", "1:13: Syntax Error: Expected Name, found \")\"."),
        ("{ a(x: [1, 2) }", "1:13: Syntax Error: Unexpected \")\"."),
        ("{ a(x: {b}) }", "1:10: Syntax Error: Expected \":\", found \"}\"."),
        ("{ a(x: {b: $c}) }", "1:12: ok-variable"),
        ("{ a: }", "1:6: Syntax Error: Expected Name, found \"}\"."),
        ("{ ... }", "1:7: Syntax Error: Expected \"{\", found \"}\"."),
        ("{ ...on }", "1:9: Syntax Error: Expected Name, found \"}\"."),
        ("{ ... on A }", "1:12: Syntax Error: Expected \"{\", found \"}\"."),
        ("{ ...A @ }", "1:10: Syntax Error: Expected Name, found \"}\"."),
        ("mutation", "1:9: Syntax Error: Expected \"{\", found <EOF>."),
        ("subscriptions { a }", "1:1: Syntax Error: Unexpected Name \"subscriptions\"."),
        ("fragment on on T { a }", "1:10: Syntax Error: Unexpected Name \"on\"."),
        ("fragment F T { a }", "1:12: Syntax Error: Expected \"on\", found Name \"T\"."),
        ("fragment F on { a }", "1:15: Syntax Error: Expected Name, found \"{\"."),
        ("fragment F on T", "1:16: Syntax Error: Expected \"{\", found <EOF>."),
        ("fragment \"on\" on T { a }", "1:10: Syntax Error: Unexpected String \"on\"."),
        ("{ a } \"desc\"", "1:13: Syntax Error: Unexpected <EOF>."),
        (
            "\"desc\" query { a }",
            "1:1: Syntax Error: Unexpected description, descriptions are supported only on type definitions."
        ),
        (
            "\"desc\" extend type A @d",
            "1:1: Syntax Error: Unexpected description, descriptions are supported only on type definitions."
        ),
        ("\"desc\" { a }", "1:8: Syntax Error: Unexpected \"{\"."),
        ("\"\"\"multi\n  line\"\"\" 1", "2:11: Syntax Error: Unexpected Int \"1\"."),
        ("\"a\\nb\" \"c\"", "1:8: Syntax Error: Unexpected String \"c\"."),
        ("{ a } 1.5", "1:7: Syntax Error: Unexpected Float \"1.5\"."),
        ("{ a } \"\"\"  x\n   y\"\"\"  !", "2:10: Syntax Error: Unexpected \"!\"."),
        (
            "{ a } \"\"\"  x\n   y\"\"\" z",
            "1:7: Syntax Error: Unexpected description, descriptions are supported only on type definitions."
        ),
        ("\"\"\"  x\n   y\"\"\" \"\"\"b\"\"\"", "2:9: Syntax Error: Unexpected BlockString \"b\"."),
        // Parser: type system.
        ("type", "1:5: Syntax Error: Expected Name, found <EOF>."),
        ("type A {}", "1:9: Syntax Error: Expected Name, found \"}\"."),
        ("type A { f }", "1:12: Syntax Error: Expected \":\", found \"}\"."),
        ("type A { f: }", "1:13: Syntax Error: Expected Name, found \"}\"."),
        ("type A { f(): Int }", "1:12: Syntax Error: Expected Name, found \")\"."),
        ("type A { f(a: Int = $v): Int }", "1:21: Syntax Error: Unexpected variable \"$v\" in constant value."),
        ("type A implements { f: Int }", "1:19: Syntax Error: Expected Name, found \"{\"."),
        ("type A implements B & { f: Int }", "1:23: Syntax Error: Expected Name, found \"{\"."),
        ("type A implements B, C { f: Int }", "1:22: Syntax Error: Unexpected Name \"C\"."),
        ("type A @d(a: $v) { f: Int }", "1:14: Syntax Error: Unexpected variable \"$v\" in constant value."),
        ("schema { }", "1:10: Syntax Error: Expected Name, found \"}\"."),
        ("schema { query }", "1:16: Syntax Error: Expected \":\", found \"}\"."),
        ("schema { queries: Q }", "1:10: Syntax Error: Unexpected Name \"queries\"."),
        ("schema @d", "1:10: Syntax Error: Expected \"{\", found <EOF>."),
        ("scalar", "1:7: Syntax Error: Expected Name, found <EOF>."),
        ("union U = ", "1:11: Syntax Error: Expected Name, found <EOF>."),
        ("union U = | | A", "1:13: Syntax Error: Expected Name, found \"|\"."),
        ("union U = A | ", "1:15: Syntax Error: Expected Name, found <EOF>."),
        ("enum E { true }", "1:10: Syntax Error: Name \"true\" is reserved and cannot be used for an enum value."),
        ("enum E { A, false }", "1:13: Syntax Error: Name \"false\" is reserved and cannot be used for an enum value."),
        ("enum E { null }", "1:10: Syntax Error: Name \"null\" is reserved and cannot be used for an enum value."),
        (
            "enum E { \"d\" null }",
            "1:14: Syntax Error: Name \"null\" is reserved and cannot be used for an enum value."
        ),
        ("enum E { }", "1:10: Syntax Error: Expected Name, found \"}\"."),
        ("enum E { 1 }", "1:10: Syntax Error: Expected Name, found Int \"1\"."),
        ("input I { a }", "1:13: Syntax Error: Expected \":\", found \"}\"."),
        ("input I { a: Int = }", "1:20: Syntax Error: Unexpected \"}\"."),
        ("directive @d on", "1:16: Syntax Error: Expected Name, found <EOF>."),
        ("directive @d on FOO", "1:17: Syntax Error: Unexpected Name \"FOO\"."),
        ("directive @d on FIELD |", "1:24: Syntax Error: Expected Name, found <EOF>."),
        ("directive d on FIELD", "1:11: Syntax Error: Expected \"@\", found Name \"d\"."),
        ("directive @d", "1:13: Syntax Error: Expected \"on\", found <EOF>."),
        ("directive @d repeatable", "1:24: Syntax Error: Expected \"on\", found <EOF>."),
        ("directive @d(a) on FIELD", "1:15: Syntax Error: Expected \":\", found \")\"."),
        ("extend", "1:7: Syntax Error: Unexpected <EOF>."),
        ("extend query", "1:8: Syntax Error: Unexpected Name \"query\"."),
        ("extend schema", "1:14: Syntax Error: Unexpected <EOF>."),
        ("extend schema { }", "1:17: Syntax Error: Expected Name, found \"}\"."),
        ("extend scalar S", "1:16: Syntax Error: Unexpected <EOF>."),
        ("extend type T", "1:14: Syntax Error: Unexpected <EOF>."),
        ("extend type T { }", "1:17: Syntax Error: Expected Name, found \"}\"."),
        ("extend interface I", "1:19: Syntax Error: Unexpected <EOF>."),
        ("extend union U", "1:15: Syntax Error: Unexpected <EOF>."),
        ("extend enum E", "1:14: Syntax Error: Unexpected <EOF>."),
        ("extend input I", "1:15: Syntax Error: Unexpected <EOF>."),
        ("extend input I {}", "1:17: Syntax Error: Expected Name, found \"}\"."),
        ("extend type T { a: Int } extend", "1:32: Syntax Error: Unexpected <EOF>."),
        ("\"d\" scalar", "1:11: Syntax Error: Expected Name, found <EOF>."),
        // Locations after CR, CRLF and non-ASCII text (columns in UTF-16 code units).
        ("{\r\n  a\r\n  ?", "3:3: Syntax Error: Unexpected character: \"?\"."),
        ("{\r  a\r  ?", "3:3: Syntax Error: Unexpected character: \"?\"."),
        ("{\n\r  a ?", "3:5: Syntax Error: Unexpected character: \"?\"."),
        ("{ a(x: \"é😀\") ?", "1:15: Syntax Error: Unexpected character: \"?\"."),
        ("# é😀\n{ a(x: \"日本\") ?", "2:14: Syntax Error: Unexpected character: \"?\"."),
        ("{ a(x: \"\"\"é\n😀\"\"\") ?", "2:8: Syntax Error: Unexpected character: \"?\"."),
    ]

    func testErrorClassesMatchExpectedReports() {
        for (input, expected) in Self.cases where !expected.hasSuffix("ok-variable") {
            XCTAssertEqual(Self.outcome(input), expected, "input: \(input.debugDescription)")
        }
        XCTAssertEqual(Self.outcome("{ a(x: {b: $c}) }"), "ok")
    }

    func testErrorClassesMatchGraphQLJS() throws {
        let inputs = Self.cases.map(\.0)
        let outcomes = try GraphQLJSPeer.run(inputs.map(GraphQLJSPeer.Request.parse))
        XCTAssertEqual(outcomes.count, inputs.count)
        for (input, peer) in zip(inputs, outcomes) {
            let expected = peer.ok ? "ok" : "\(peer.line ?? 0):\(peer.column ?? 0): \(peer.message ?? peer.crash ?? "")"
            XCTAssertEqual(Self.outcome(input), expected, "input: \(input.debugDescription)")
        }
    }
}
