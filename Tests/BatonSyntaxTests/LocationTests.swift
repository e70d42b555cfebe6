import BatonDiagnostics
import BatonTestSupport
import XCTest

@testable import BatonSyntax

/// Spans and values of every node, checked against graphql-js's `loc` and values, on a
/// document using every production of the grammar and on the whole corpus.
final class LocationTests: XCTestCase {
    /// Every production of the GraphQL grammar, with non-ASCII text, CRLF, CR, a BOM,
    /// commas, comments, escapes and block strings on the way.
    static let kitchenSink = """
        \u{FEFF}# Executable definitions
        query Q($id: ID! = "1", $list: [[Int!]]! = [[1, 2], [3]] @dir(a: 1), $obj: In = {a: {b: [null, true, false, ENUM, 1.5e-3, -0, "é\\u00e9\\u{1F600}\\uD83D\\uDE00"]}}) @q {
          alias: field(arg: $id, other: "x", block: \"\"\"
              indented
                more
            \"\"\") @include(if: true) @skip(if: false) {
            ...Frag @d
            ... on T { a }
            ... @d { b }
            ... { c }
          }
          nom: name(x: "日本"), other
        }
        {
          shorthand
        }\r
        mutation M { do(x: {}) }\r\n subscription S @s(list: []) { s }
        fragment Frag on T @f(x: ENUM) { x }
        query { q }

        # Type-system definitions
        "schema description"
        schema @s { query: Q mutation: M, subscription: S }
        \"\"\"
          Block description 😀
        \"\"\"
        scalar Date @specifiedBy(url: "https://example.com")
        type T implements & I & J @o {
          "field description" f("arg description" a: Int = 1 @d, b: [String!]! = ["x"]): String! @deprecated(reason: "no")
          g: [T]
        }
        interface I implements J { f: String }
        interface J { f: String }
        union U @u = | A | B
        union V = A
        enum E @e { "value" A @d, B C }
        input In @i { a: In = {a: null}, "d" b: Int! @x }
        directive @d(a: Int = 1, "b" b: [In!]) repeatable on FIELD | QUERY | FRAGMENT_SPREAD
        directive @e on | ENUM_VALUE
        "\\"quoted\\" \\t description" directive @x on INPUT_FIELD_DEFINITION | ARGUMENT_DEFINITION

        # Extensions
        extend schema @s
        extend schema { query: Q }
        extend scalar Date @d
        extend type T implements K
        extend type T @d
        extend type T { h: Int }
        extend interface I implements K
        extend interface I @d
        extend interface I { h: Int }
        extend union U @d
        extend union U = C
        extend enum E @d
        extend enum E { D }
        extend input In @d
        extend input In { c: Int }
        """

    /// Block strings and escapes: dedent, blank lines, escaped quotes, CRLF inside.
    static let strings = [
        "{ f(a: \"\"\"\"\"\") }",
        "{ f(a: \"\"\"  \n  \n  \"\"\") }",
        "{ f(a: \"\"\"\n    a\n      b\n    c\n\"\"\") }",
        "{ f(a: \"\"\"first\n    second\n\t  third\"\"\") }",
        "{ f(a: \"\"\"\r\n  crlf\r\n  lines\r  cr\r\n\"\"\") }",
        "{ f(a: \"\"\"escaped \\\"\"\" quotes \\\"\"\"\"\"\") }",
        "{ f(a: \"\"\"a \\\\\"\"\" b\"\"\") }",
        "{ f(a: \"\"\"  \\n is not an escape \\u0041 \"\"\") }",
        "{ f(a: \"\"\"\n\n   é😀\n\n\"\"\") }",
        "{ f(a: \"\\\"\\\\\\/\\b\\f\\n\\r\\t\") }",
        "{ f(a: \"\\u0000\\u001F\\u007f\\u00E9\\uFFFF\\u{0}\\u{10FFFF}\\u{00000041}\") }",
        "{ f(a: \"\\uD83D\\uDE00 \\uDBFF\\uDFFF\") }",
        "{ f(a: \"tab\there \u{7} bell\") }",
        "{ f(a: \"\") }",
    ]

    func compareWithGraphQLJS(_ texts: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let outcomes = try GraphQLJSPeer.run(texts.map { GraphQLJSPeer.Request.nodes($0) })
        for (text, peer) in zip(texts, outcomes) {
            guard let expected = peer.nodes else {
                XCTFail("graphql-js: \(peer) for \(text.debugDescription)", file: file, line: line)
                continue
            }
            let result = Parser.parse(SourceFile(path: "test.graphql", text: text))
            guard let document = result.document else {
                XCTFail("\(result.diagnostics.map(\.message)) for \(text.debugDescription)", file: file, line: line)
                continue
            }
            assertSameNodes(NodeList.of(document), expected.sorted(), text.debugDescription, file: file, line: line)
        }
    }

    func assertSameNodes(
        _ ours: [String], _ theirs: [String], _ context: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard ours != theirs else { return }
        let missing = Set(theirs).subtracting(ours).sorted().prefix(5)
        let extra = Set(ours).subtracting(theirs).sorted().prefix(5)
        XCTFail("\(context): graphql-js only: \(missing); Baton only: \(extra)", file: file, line: line)
    }

    func testKitchenSinkParses() {
        let result = Parser.parse(SourceFile(path: "kitchen-sink.graphql", text: Self.kitchenSink))
        XCTAssertEqual(result.diagnostics.map(\.message), [])
        XCTAssertEqual(result.document?.definitions.count, 33)
    }

    func testKitchenSinkSpansMatchGraphQLJS() throws {
        try compareWithGraphQLJS([Self.kitchenSink])
    }

    func testStringValuesMatchGraphQLJS() throws {
        try compareWithGraphQLJS(Self.strings)
    }

    func testCorpusSpansMatchGraphQLJS() throws {
        let files = try CorpusTests.corpusFiles()
        let outcomes = try GraphQLJSPeer.run(files.map { GraphQLJSPeer.Request.nodes(path: $0.path) })
        for (url, peer) in zip(files, outcomes) {
            guard let expected = peer.nodes, let document = Parser.parse(try CorpusTests.source(url)).document else {
                XCTFail("\(url.path): \(peer)")
                continue
            }
            assertSameNodes(NodeList.of(document), expected.sorted(), url.path)
        }
    }

    func testBlockStringValues() {
        func value(_ literal: String) -> String? {
            guard case .string(let string)? = Parser.parseValue(literal) else { return nil }
            return string.value
        }
        XCTAssertEqual(value("\"\"\"\n    a\n      b\n    c\n\"\"\""), "a\n  b\nc")
        XCTAssertEqual(value("\"\"\"  first\n    second\"\"\""), "  first\nsecond")
        XCTAssertEqual(value("\"\"\"\r\n  x\r  y\r\n\"\"\""), "x\ny")
        XCTAssertEqual(value("\"\"\"a\\\"\"\"b\"\"\""), "a\"\"\"b")
        XCTAssertEqual(value("\"\"\"   \n\n  \"\"\""), "")
        XCTAssertEqual(value("\"\\u00e9\\u{1F600}\\uD83D\\uDE00\""), "é😀😀")
        XCTAssertEqual(value("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""), "\"\\/\u{8}\u{C}\n\r\t")
    }
}
