import BatonDiagnostics
import BatonTestSupport
import Foundation
import XCTest

@testable import BatonSyntax

/// The printer: graphql-js's output byte for byte, and parse(print(parse(x))) == parse(x).
final class PrinterTests: XCTestCase {
    func parse(_ text: String) -> Document? {
        Parser.parse(SourceFile(path: "test.graphql", text: text)).document
    }

    func testRoundTripsEveryCorpusFile() throws {
        for url in try CorpusTests.corpusFiles() {
            guard let document = Parser.parse(try CorpusTests.source(url)).document else {
                XCTFail("\(url.path) does not parse")
                continue
            }
            let printed = Printer.print(document)
            let reparsed = Parser.parse(SourceFile(path: "printed.graphql", text: printed))
            guard let again = reparsed.document else {
                XCTFail("\(url.path): printed text does not parse: \(reparsed.diagnostics.map(\.message))")
                continue
            }
            XCTAssertEqual(ASTDump.of(again), ASTDump.of(document), url.path)
            XCTAssertEqual(Printer.print(again), printed, "print is not idempotent on \(url.path)")
        }
    }

    func testPrintsEveryCorpusFileAsGraphQLJS() throws {
        let files = try CorpusTests.corpusFiles()
        let outcomes = try GraphQLJSPeer.run(files.map { GraphQLJSPeer.Request.print(path: $0.path) })
        XCTAssertEqual(outcomes.count, files.count)
        for (url, peer) in zip(files, outcomes) {
            guard let expected = peer.printed else {
                XCTFail("graphql-js did not print \(url.path): \(peer)")
                continue
            }
            guard let document = Parser.parse(try CorpusTests.source(url)).document else { continue }
            let printed = Printer.print(document)
            if printed != expected {
                let ours = printed.split(separator: "\n", omittingEmptySubsequences: false)
                let theirs = expected.split(separator: "\n", omittingEmptySubsequences: false)
                let line = Array(zip(ours, theirs)).firstIndex { $0 != $1 } ?? min(ours.count, theirs.count)
                XCTFail(
                    "\(url.path) line \(line + 1): ours \(line < ours.count ? String(ours[line]).debugDescription : "<end>") graphql-js \(line < theirs.count ? String(theirs[line]).debugDescription : "<end>")"
                )
            }
        }
    }

    /// Printing edge cases: long argument lists, multi-line argument definitions, block strings
    /// needing leading or trailing newlines, escaped triple quotes, control characters.
    static let printCases = [
        LocationTests.kitchenSink,
        "{ f(a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10, k: 11, l: 12, m: 13, n: 14) }",
        "{ f(a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10, k: 11, l: 12, mm: 1) }",
        "{ f(a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10, k: 11, l: \"é😀\") }",
        "{ f(a: {b: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]}) { g(x: 1) } }",
        "{ a { b(x: 1, y: \"\"\"\n  long\n  block\n\"\"\") } }",
        "type T { f(\"described\" a: Int, b: Int): Int g(a: Int, b: String = \"x\" @d): Int }",
        "directive @d(\"\"\"\nblock\n\"\"\" a: Int) on FIELD",
        "\"\"\"  leading space\"\"\" scalar A",
        "\"\"\"say \"hi\"\n\"\"\" scalar A",
        "\"\"\"trailing slash \\\n\"\"\" scalar A",
        "\"\"\"has \\\"\"\" triple\"\"\" scalar A",
        "\"\"\"ends with triple \\\"\"\"\"\"\" scalar A",
        "\"\"\"first\n  indented\n  lines\"\"\" scalar A",
        "\"\"\"a very long single line description that is longer than seventy characters in all\"\"\" scalar A",
        "\"control \\u0001 \\u007F \\u0085 \\t \\\" \\\\ chars\" scalar A",
        "query Q($a: Int = 1 @d, $b: [String!]! = [\"x\"]) @q { ... on T @d { a } ...F }",
        "query { a } query Q { b } mutation { c } subscription { d }",
        "fragment F on T @d { a }",
        "extend schema @d { query: Q }",
        "schema { query: Q }",
        "type T",
        "interface I implements J & K",
        "union U",
        "enum E",
        "input I",
        "{ a { b { c(x: \"\"\"\n  one\n\n  two\n\"\"\") @d(y: \"\"\"\nthree\n\"\"\") { ... @i(z: \"\"\"\nfour\n\"\"\") { e } ...F @s(w: \"\"\"\nfive\n\"\"\") } } } }",
        "{ a { b { c(a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10, k: 11, l: 12, m: 13) { d } } } }",
        String(repeating: "{ a ", count: 60) + "{ b(x: \"\"\"\nnested\n\"\"\") }" + String(repeating: " }", count: 60),
    ]

    /// The printer writes selection sets at their depth instead of re-indenting every enclosing
    /// block, so the parser's deepest document prints in time linear in its output.
    func testPrintsTheDeepestDocumentTheParserAccepts() throws {
        let depth = Parser.maximumDepth - 1
        let text =
            "query Q " + String(repeating: "{ a ", count: depth) + "{ b }" + String(repeating: " }", count: depth)
        let document = try XCTUnwrap(parse(text))
        let printed = Printer.print(document)
        let lines = printed.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 2 * depth + 3)
        XCTAssertEqual(lines[depth + 1], Substring(String(repeating: "  ", count: depth + 1) + "b"))
        XCTAssertEqual(ASTDump.of(try XCTUnwrap(parse(printed))), ASTDump.of(document))
    }

    /// Selections are written from a work list, not by recursion: the parser's deepest document prints, in the
    /// sent form too (`__typename` added to every field's set), on a thread whose stack is far too small for a
    /// frame per level.
    func testPrintsTheDeepestDocumentOnASmallStack() throws {
        let depth = Parser.maximumDepth - 1
        let text =
            "query Q " + String(repeating: "{ a(x: \"\"\"\none\ntwo\n\"\"\") ", count: depth) + "{ b }"
            + String(repeating: " }", count: depth)
        let document = try XCTUnwrap(parse(text))
        final class Printed: @unchecked Sendable { var text = "" }
        let printed = Printed()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            printed.text = Printer.print(document.definitions[0], form: PrintForm(typenameInFieldSets: true))
            done.signal()
        }
        thread.stackSize = 64 * 1024
        thread.start()
        done.wait()
        let lines = printed.text.split(separator: "\n", omittingEmptySubsequences: false)
        // `query Q {`, per level a field over four lines (its block string's two) and its `__typename`, `b`, the
        // braces.
        XCTAssertEqual(lines.count, 1 + 4 * depth + depth + 1 + depth + 1)
        XCTAssertEqual(lines.last, "}")
        XCTAssertEqual(lines[1 + 4 * depth], Substring(String(repeating: "  ", count: depth + 1) + "b"))
        XCTAssertEqual(lines[2 + 4 * depth], Substring(String(repeating: "  ", count: depth + 1) + "__typename"))
    }

    func testPrintsEdgeCasesAsGraphQLJS() throws {
        let outcomes = try GraphQLJSPeer.run(Self.printCases.map { GraphQLJSPeer.Request.print($0) })
        for (text, peer) in zip(Self.printCases, outcomes) {
            guard let document = parse(text) else {
                XCTFail("does not parse: \(text.debugDescription)")
                continue
            }
            XCTAssertEqual(Printer.print(document), peer.printed ?? "graphql-js: \(peer)", text.debugDescription)
            if let again = parse(Printer.print(document)) {
                XCTAssertEqual(ASTDump.of(again), ASTDump.of(document))
            } else {
                XCTFail("printed text does not parse: \(text.debugDescription)")
            }
        }
    }
}
