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
            "Syntax Error: Document is nested too deeply: more than 2000 levels of selection sets, lists or objects.")
        // The 2,001st `{`: columns 1, 5, 9, …
        XCTAssertEqual(result.diagnostics.first?.location?.column, 2000 * 4 + 1)
    }

    func testHundredThousandNestedListsObjectsAndTypes() {
        let depth = 100_000
        let lists = "{ a(x: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + ") }"
        // The selection set is the first level, so the 2,000th `[` is one too many.
        XCTAssertEqual(parse(Array(lists.utf8)).diagnostics.first?.location?.column, 8 + 1999)
        let objects = "{ a(x: " + String(repeating: "{a: ", count: depth) + String(repeating: "}", count: depth) + ") }"
        XCTAssertEqual(parse(Array(objects.utf8)).diagnostics.first?.location?.column, 8 + 1999 * 4)
        let types = "query($v: " + String(repeating: "[", count: depth) + "Int" + String(repeating: "]", count: depth)
            + ") { a }"
        XCTAssertEqual(parse(Array(types.utf8)).diagnostics.first?.location?.column, 11 + 2000)
        let fragments = String(repeating: "{ ... on A ", count: depth) + String(repeating: "}", count: depth)
        XCTAssertEqual(parse(Array(fragments.utf8)).diagnostics.first?.location?.column, 2000 * 11 + 1)
    }

    func testMaximumDepthParsesOnTheTestThread() {
        let depth = Parser.maximumDepth
        let fields = String(repeating: "{ a ", count: depth) + String(repeating: "}", count: depth)
        XCTAssertNotNil(parse(Array(fields.utf8)).document)
        let fragments = String(repeating: "{ ... on A ", count: depth - 1) + "{ a " + String(repeating: "}", count: depth)
        let fragmentsResult = parse(Array(fragments.utf8))
        XCTAssertNotNil(fragmentsResult.document, "\(fragmentsResult.diagnostics.map(\.message))")
        let values = "{ a(x: " + String(repeating: "[{a: ", count: depth / 2 - 1) + "1"
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
}
