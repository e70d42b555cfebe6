import BatonDiagnostics
import BatonTestSupport
import XCTest

@testable import BatonSyntax

/// `Parser.parseValue` and `Parser.parseType` (used for introspection default values and type
/// names), against graphql-js's `parseValue`, `parseConstValue` and `parseType`.
final class ParserEntryPointTests: XCTestCase {
    static let values = [
        "1", "-1.5e3", "\"s\"", "\"\"\"block\"\"\"", "true", "null", "ENUM", "[1, [2]]", "{a: {b: [null]}}", "$v",
        "{a: $v}", "", "1 2", "{a}", "[1", "01", "\"\\uD800\"", "@", "# only a comment",
    ]
    static let types = ["Int", "Int!", "[Int]", "[[Int!]!]!", "", "[Int", "Int!!", "[]", "1", "Int Int", "[Int]!x"]

    func outcome(_ diagnostics: [Diagnostic]) -> String {
        guard let diagnostic = diagnostics.first, let location = diagnostic.location else { return "ok" }
        return "\(location.line):\(location.column): \(diagnostic.message)"
    }

    func testParseValueAndParseTypeMatchGraphQLJS() throws {
        var requests = Self.values.map { GraphQLJSPeer.Request(text: $0, path: nil, mode: "parseValue") }
        requests += Self.values.map { GraphQLJSPeer.Request(text: $0, path: nil, mode: "parseConstValue") }
        requests += Self.types.map { GraphQLJSPeer.Request(text: $0, path: nil, mode: "parseType") }
        let outcomes = try GraphQLJSPeer.run(requests)
        var ours = Self.values.map { outcome(Parser.parseValue(SourceFile(path: "v", text: $0)).diagnostics) }
        ours += Self.values.map {
            outcome(Parser.parseValue(SourceFile(path: "v", text: $0), constant: true).diagnostics)
        }
        ours += Self.types.map { outcome(Parser.parseType(SourceFile(path: "t", text: $0)).diagnostics) }
        for (index, peer) in outcomes.enumerated() {
            let expected = peer.ok ? "ok" : "\(peer.line ?? 0):\(peer.column ?? 0): \(peer.message ?? "")"
            XCTAssertEqual(ours[index], expected, "\(requests[index].mode) \(requests[index].text ?? "")")
        }
    }

    func testParseValueResults() {
        XCTAssertEqual(
            Parser.parseValue("{a: [1, 2.5, \"x\", ENUM, null, true]}").map { ASTDump.of($0) },
            """
            object
              field
                name: a
                list
                  int 1
                  float 2.5
                  string "x"
                  enum ENUM
                  null
                  boolean true
            """)
        XCTAssertNil(Parser.parseValue("$v", constant: true))
        XCTAssertNotNil(Parser.parseValue("$v"))
        XCTAssertEqual(Parser.parseType("[[Int!]]!").map { Printer.print($0) }, "[[Int!]]!")
        XCTAssertEqual(Parser.parseType("[[Int!]]!")?.namedType.name.value, "Int")
        XCTAssertNil(Parser.parseType("[Int"))
    }
}
