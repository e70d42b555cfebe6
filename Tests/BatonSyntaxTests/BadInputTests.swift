import BatonDiagnostics
import Foundation
import XCTest

@testable import BatonSyntax

/// Hostile input: each case gets one located diagnostic; none crashes, hangs or overflows.
final class BadInputTests: XCTestCase {
    func parse(_ bytes: [UInt8]) -> ParseResult {
        Parser.parse(SourceFile(path: "bad.graphql", bytes: bytes))
    }

    /// Runs `body` on a thread with a 512 KiB stack (the size of secondary threads on Apple
    /// platforms), so the depth limit is checked where stacks are smallest.
    func onSmallStack(_ body: @escaping @Sendable () -> Void) {
        let done = expectation(description: "parsed on a small stack")
        let thread = Thread {
            body()
            done.fulfill()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        wait(for: [done], timeout: 120)
    }

    func testHundredThousandNestedSelectionSets() {
        let depth = 100_000
        let text = String(repeating: "{ a ", count: depth) + String(repeating: "}", count: depth)
        let result = parse(Array(text.utf8))
        XCTAssertNil(result.document)
        XCTAssertEqual(
            result.diagnostics.first?.message,
            "Syntax Error: Document is nested too deeply: more than \(Parser.maximumDepth) levels of selection sets, lists or objects."
        )
        // The first `{` past the limit: columns 1, 5, 9, …
        XCTAssertEqual(result.diagnostics.first?.location?.column, Parser.maximumDepth * 4 + 1)
    }

    func testHundredThousandNestedListsObjectsAndTypes() {
        let depth = 100_000
        let lists = "{ a(x: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + ") }"
        // The selection set is the first level, so the last `[` allowed is one earlier.
        XCTAssertEqual(parse(Array(lists.utf8)).diagnostics.first?.location?.column, 8 + Parser.maximumDepth - 1)
        let objects = "{ a(x: " + String(repeating: "{a: ", count: depth) + String(repeating: "}", count: depth) + ") }"
        XCTAssertEqual(
            parse(Array(objects.utf8)).diagnostics.first?.location?.column, 8 + (Parser.maximumDepth - 1) * 4)
        let types =
            "query($v: " + String(repeating: "[", count: depth) + "Int" + String(repeating: "]", count: depth)
            + ") { a }"
        XCTAssertEqual(parse(Array(types.utf8)).diagnostics.first?.location?.column, 11 + Parser.maximumDepth)
        let fragments = String(repeating: "{ ... on A ", count: depth) + String(repeating: "}", count: depth)
        XCTAssertEqual(parse(Array(fragments.utf8)).diagnostics.first?.location?.column, Parser.maximumDepth * 11 + 1)
    }

    func testMaximumDepthParsesOnTheTestThread() {
        let depth = Parser.maximumDepth
        let fields = String(repeating: "{ a ", count: depth) + String(repeating: "}", count: depth)
        XCTAssertNotNil(parse(Array(fields.utf8)).document)
        let fragments =
            String(repeating: "{ ... on A ", count: depth - 1) + "{ a " + String(repeating: "}", count: depth)
        let fragmentsResult = parse(Array(fragments.utf8))
        XCTAssertNotNil(fragmentsResult.document, "\(fragmentsResult.diagnostics.map(\.message))")
        let values =
            "{ a(x: " + String(repeating: "[{a: ", count: depth / 2 - 1) + "1"
            + String(repeating: "}]", count: depth / 2 - 1) + ") }"
        let valuesResult = parse(Array(values.utf8))
        XCTAssertNotNil(valuesResult.document, "\(valuesResult.diagnostics.map(\.message))")
    }

    /// On a small stack the parser stops early, with a diagnostic, before the stack runs out.
    func testDeepNestingOnASmallStackIsADiagnostic() {
        onSmallStack {
            for text in [
                String(repeating: "{ a ", count: 100_000) + String(repeating: "}", count: 100_000),
                "{ a(x: " + String(repeating: "[", count: 100_000) + ") }",
                "{ a(x: " + String(repeating: "{a: ", count: 100_000) + ") }",
                "query($v: " + String(repeating: "[", count: 100_000) + ") { a }",
            ] {
                let result = Parser.parse(SourceFile(path: "deep.graphql", text: text))
                XCTAssertNil(result.document)
                XCTAssertTrue(
                    result.diagnostics.first?.message.hasPrefix("Syntax Error: Document is nested too deeply") ?? false,
                    "\(result.diagnostics.map(\.message))")
            }
        }
    }

    func outcome(_ bytes: [UInt8]) -> String { SyntaxErrorTests.outcome(bytes: bytes) }

    func testInvalidUTF8IsALocatedDiagnostic() {
        let invalid = "Syntax Error: Invalid character: 0xFF is not valid UTF-8."
        XCTAssertEqual(outcome(Array("{ a } ".utf8) + [0xFF]), "1:7: " + invalid)
        XCTAssertEqual(outcome(Array("{ a(x: \"é\") ".utf8) + [0xFF]), "1:13: " + invalid)
        XCTAssertEqual(outcome(Array("{\n  a".utf8) + [0xFF] + Array(" }".utf8)), "2:4: " + invalid)
        // Overlong encodings, encoded surrogates, truncated sequences, stray continuation bytes.
        XCTAssertEqual(
            outcome([0x7B, 0xC0, 0xAF]), "1:2: Syntax Error: Invalid character: 0xC0 is not valid UTF-8.")
        XCTAssertEqual(
            outcome([0x7B, 0xED, 0xA0, 0x80]), "1:2: Syntax Error: Invalid character: 0xED is not valid UTF-8.")
        XCTAssertEqual(
            outcome([0x7B, 0xF0, 0x9F, 0x98]), "1:2: Syntax Error: Invalid character: 0xF0 is not valid UTF-8.")
        XCTAssertEqual(
            outcome([0x7B, 0x80]), "1:2: Syntax Error: Invalid character: 0x80 is not valid UTF-8.")
        XCTAssertEqual(
            outcome([0x7B, 0xF4, 0x90, 0x80, 0x80]), "1:2: Syntax Error: Invalid character: 0xF4 is not valid UTF-8.")
        // Inside strings, block strings and comments.
        XCTAssertEqual(
            outcome(Array("{ a(x: \"ab".utf8) + [0xFE] + Array("\") }".utf8)),
            "1:11: Syntax Error: Invalid character within String: 0xFE is not valid UTF-8.")
        XCTAssertEqual(
            outcome(Array("{ a(x: \"\"\"\n ab".utf8) + [0xC3, 0x28] + Array("\"\"\") }".utf8)),
            "2:4: Syntax Error: Invalid character within String: 0xC3 is not valid UTF-8.")
        XCTAssertEqual(
            outcome(Array("# comment ".utf8) + [0xFF] + Array("\n{ a }".utf8)),
            "1:11: Syntax Error: Invalid character: 0xFF is not valid UTF-8.")
    }

    func testColumnsAfterIllFormedUTF8CountAsNodeDecodesThem() {
        // node decodes each maximal ill-formed subpart to one U+FFFD (one UTF-16 code unit).
        let file = SourceFile(
            path: "x", bytes: [0xFF, 0x78, 0xF0, 0x9F, 0x98, 0x78, 0xE0, 0x80, 0x78, 0xF0, 0x9F, 0x98, 0x80, 0x78])
        XCTAssertEqual(file.localLocation(of: 1).column, 2)
        XCTAssertEqual(file.localLocation(of: 5).column, 4)
        XCTAssertEqual(file.localLocation(of: 8).column, 7)
        XCTAssertEqual(file.localLocation(of: 13).column, 10)
    }

    func testUnterminatedStringsAreLocatedDiagnostics() {
        XCTAssertEqual(SyntaxErrorTests.outcome("{ a(x: \"abc"), "1:12: Syntax Error: Unterminated string.")
        XCTAssertEqual(SyntaxErrorTests.outcome("{ a(x: \"abc\n\") }"), "1:12: Syntax Error: Unterminated string.")
        XCTAssertEqual(
            SyntaxErrorTests.outcome("\"\"\"\n  block\n  string \\\"\"\""), "3:14: Syntax Error: Unterminated string.")
        XCTAssertEqual(SyntaxErrorTests.outcome("\"\"\"\"\""), "1:6: Syntax Error: Unterminated string.")
    }

    func testLoneSurrogateEscapesAreLocatedDiagnostics() {
        XCTAssertEqual(
            SyntaxErrorTests.outcome("{ a(x: \"\\uD800\") }"),
            "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\uD800\".")
        XCTAssertEqual(
            SyntaxErrorTests.outcome("{ a(x: \"ok \\uDFFF\") }"),
            "1:12: Syntax Error: Invalid Unicode escape sequence: \"\\uDFFF\".")
        XCTAssertEqual(
            SyntaxErrorTests.outcome("{ a(x: \"\\uD83D\\uD83D\") }"),
            "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\uD83D\".")
        XCTAssertEqual(
            SyntaxErrorTests.outcome("{ a(x: \"\\u{DC00}\") }"),
            "1:9: Syntax Error: Invalid Unicode escape sequence: \"\\u{DC00}\".")
    }

    /// The `sdl` fuzz target's finding: a string ending in a backslash at the end of the file (19 bytes) was
    /// reported with the span 18..20, past the file's end. Every escape error's span now ends inside the file.
    func testEscapeCutOffByTheEndOfTheFileIsLocatedInsideTheFile() {
        let inputs = [#""Foun\\\\[\\\\\\\\\"#, #""\"#, #""\u"#, #""\u12"#, #""\u{1F"#, #"{ a(x: "\q"#]
        for input in inputs {
            let bytes = Array(input.utf8)
            let diagnostic = parse(bytes).diagnostics.first
            XCTAssertNotNil(diagnostic, input)
            guard let span = diagnostic?.range?.span else { continue }
            XCTAssertLessThanOrEqual(span.end, bytes.count, "\(input): \(diagnostic?.message ?? "")")
            XCTAssertLessThanOrEqual(span.start, span.end, input)
        }
        let finding = Array(#""Foun\\\\[\\\\\\\\\"#.utf8)
        XCTAssertEqual(finding.count, 19)
        XCTAssertEqual(parse(finding).diagnostics.first?.range?.span, Span(start: 18, end: 19))
    }

    /// A 50 MB document, built in memory: 1 MB block-string descriptions and comment lines,
    /// then many small definitions; an error at the very end is reported at its line and
    /// column. A 5 MB comment and a 5 MB unterminated string are located too.
    func testFiftyMegabyteDocument() {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(51_000_000)
        let line = [UInt8](repeating: 0x61, count: 1_000_000) + [0x0A]
        for index in 0..<15 {
            bytes.append(contentsOf: Array("\"\"\"\n".utf8) + line + Array("\"\"\"\nscalar S\(index)\n# ".utf8) + line)
        }
        let type = Array("type T { field(argument: [String!] = [\"value\"]): Int @deprecated }\n".utf8)
        let copies = (50_000_000 - bytes.count) / type.count + 1
        for _ in 0..<copies { bytes.append(contentsOf: type) }
        bytes.append(contentsOf: Array("type U { f: }".utf8))
        XCTAssertGreaterThan(bytes.count, 50_000_000)
        XCTAssertEqual(
            SyntaxErrorTests.outcome(bytes: bytes),
            "\(15 * 5 + copies + 1):13: Syntax Error: Expected Name, found \"}\".")

        let comment = Array("# ".utf8) + [UInt8](repeating: 0x61, count: 5_000_000) + Array("\n{ a } ?".utf8)
        XCTAssertEqual(SyntaxErrorTests.outcome(bytes: comment), "2:7: Syntax Error: Unexpected character: \"?\".")
        let string = Array("{ a(x: \"".utf8) + [UInt8](repeating: 0x61, count: 5_000_000)
        XCTAssertEqual(SyntaxErrorTests.outcome(bytes: string), "1:5000009: Syntax Error: Unterminated string.")
    }
}
