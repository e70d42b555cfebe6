import XCTest

@testable import BatonCodegen
@testable import BatonCodegenSwift

/// String literals written into a `TextBuilder` are the ones `SwiftLiteral.string` returns, plain
/// or escaped, short (inline) or long strings alike.
final class SwiftLiteralTests: XCTestCase {
    static let texts = [
        "", "a", "login", "__typename", "String!", "[[Int]!]", "a\"b", "back\\slash", "line\nbreak", "tab\there",
        "trailing ", "émoji 🎉", "nul\u{0}", "del\u{7F}", "\u{2028}", String(repeating: "long name ", count: 20),
        String(repeating: "x", count: 15), String(repeating: "y", count: 16),
    ]

    func testStringIntoABuilderIsTheLiteral() {
        for text in Self.texts {
            var builder = TextBuilder()
            builder.add("= ")
            SwiftLiteral.string(text, into: &builder)
            builder.add(UInt8(ascii: ";"))
            XCTAssertEqual(builder.text, "= " + SwiftLiteral.string(text) + ";", text)
        }
        XCTAssertEqual(SwiftLiteral.string("a\"b"), #""a\"b""#)
        XCTAssertEqual(SwiftLiteral.string("login"), #""login""#)
    }

    func testMultilineLiteralsKeepTheirText() {
        XCTAssertEqual(SwiftLiteral.multiline("a\nb").text, "\"\"\"\na\nb\n\"\"\"")
        XCTAssertEqual(SwiftLiteral.multiline("a \nb").text, "\"\"\"\na\\u{20}\nb\n\"\"\"")
        XCTAssertEqual(SwiftLiteral.multiline("a\nb ").text, "\"\"\"\na\nb\\u{20}\n\"\"\"")
        XCTAssertEqual(SwiftLiteral.multiline("q\"\"\"\nx").text, "\"\"\"\nq\"\"\\\"\nx\n\"\"\"")
        XCTAssertEqual(SwiftLiteral.multiline("one line").text, "\"one line\"")
    }
}
