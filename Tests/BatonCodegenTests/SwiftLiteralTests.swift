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

/// A lens's lines written piece by piece (`SwiftLensTemplate.IndentedLines`) are the lines `addLines` writes of the
/// pieces joined: each line that is not empty indented, empty lines left empty, a line break at the end, whatever
/// the pieces hold (line breaks at their start, end or twice in a row, empty pieces, long and short strings).
final class SwiftIndentedLinesTests: XCTestCase {
    func testPiecesWriteTheLinesOfTheirJoinedText() {
        let fragments = [
            "", "a", " ", "\n", "\n\n", "x\n", "\ny", "[\n    ", ",\n]", "Baton.Selection.table(", "é\n🎉",
            String(repeating: "long ", count: 8),
        ]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<3000 {
            let count = Int.random(in: 1...6, using: &generator)
            let pieces = (0..<count).map { _ in fragments.randomElement(using: &generator)! }
            let indent = ["", "    ", "        "][round % 3]
            var expected = TextBuilder()
            expected.add("before\n")
            SwiftLensTemplate.addLines(pieces.joined(), indent: indent, to: &expected)
            var written = TextBuilder()
            written.add("before\n")
            guard !pieces.joined().isEmpty else { continue }  // `addLines` writes nothing for no text
            var lines = SwiftLensTemplate.IndentedLines(indent: indent)
            for piece in pieces { lines.add(piece, to: &written) }
            lines.endLine(to: &written)
            XCTAssertEqual(written.text, expected.text, "\(pieces)")
        }
    }
}
