import BatonDiagnostics
import XCTest

final class SourceFileTests: XCTestCase {
    func testSpansAreTwoThirtyTwoBitOffsetsThatClamp() {
        XCTAssertEqual(MemoryLayout<Span>.size, 8)
        var span = Span(start: 3, end: 10)
        XCTAssertEqual([span.start, span.end], [3, 10])
        span.end = 20
        XCTAssertEqual(span, Span(start: 3, end: 20))
        XCTAssertEqual(Span(start: 1, end: 2).through(Span(start: 5, end: 9)), Span(start: 1, end: 9))
        // Out of range offsets clamp instead of trapping.
        let clamped = Span(start: -5, end: Span.maximumOffset + 10)
        XCTAssertEqual([clamped.start, clamped.end], [0, Span.maximumOffset])
    }

    func testLinesEndAtLFCRLFAndLoneCR() {
        let file = SourceFile(path: "a.graphql", text: "a\nb\r\nc\rd")
        XCTAssertEqual(file.lineStarts, [0, 2, 5, 7])
        let d = file.localLocation(of: 7)
        XCTAssertEqual([d.line, d.column], [4, 1])
    }

    func testColumnsCountUTF16CodeUnits() {
        // "é" is one UTF-16 unit (two bytes); "😀" is two units (four bytes).
        let file = SourceFile(path: "a.graphql", text: "é😀x")
        let x = file.localLocation(of: 6)
        XCTAssertEqual([x.line, x.column], [1, 4])
    }

    func testEmbeddedOffsetsMapToTheHost() {
        let host = SourceFile(path: "Screen.swift", text: "let q = \"\"\"\n    query { a }\n    \"\"\"\n")
        // The extracted text "query { a }" starts at host offset 16 (after four spaces).
        let embedded = SourceFile(
            path: "Screen.swift", bytes: Array("query { a }".utf8), host: host,
            segments: [SourceSegment(offset: 0, hostOffset: 16)])
        let (file, location) = embedded.resolve(8)
        XCTAssertTrue(file === host)
        XCTAssertEqual([location.line, location.column], [2, 13])
    }

    /// What `reread` is asked and what it answers, for a released file's tests.
    private final class Disk: @unchecked Sendable {
        var contents: [UInt8]?
        var reads = 0
        init(_ text: String) { contents = Array(text.utf8) }
        func read() -> [UInt8]? {
            reads += 1
            return contents
        }
    }

    func testReleasedBytesAreReadAgainOnceWhenTheFileIsUnchanged() {
        let text = "type Query {\n  ok: Boolean\n  é: Int\n}\n"
        let disk = Disk(text)
        let file = SourceFile(path: "schema.graphql", bytes: Array(text.utf8)) { disk.read() }
        let before = SourceFile(path: "schema.graphql", text: text)
        XCTAssertEqual(file.bytes, before.bytes)
        XCTAssertEqual(disk.reads, 0, "held bytes are not read again")
        file.releaseBytes()
        XCTAssertEqual(disk.reads, 0, "released bytes are read only when asked for")
        let location = file.localLocation(of: 31)
        XCTAssertEqual(location, before.localLocation(of: 31))
        XCTAssertEqual([location.line, location.column], [3, 4])
        XCTAssertEqual(file.bytes, before.bytes)
        XCTAssertEqual(disk.reads, 1, "read again once, then kept")
        XCTAssertFalse(file.isStale)
        let diagnostic = Diagnostic.error("x", rule: "schema", file: file, span: Span(start: 15, end: 17))
        let expected = Diagnostic.error("x", rule: "schema", file: before, span: Span(start: 15, end: 17))
        XCTAssertEqual(PrettyRenderer(color: false).render(diagnostic), PrettyRenderer(color: false).render(expected))
    }

    func testReleasedBytesOfAChangedFileAreNotUsed() {
        let text = "type Query {\n  ok: Boolean\n}\n"
        // The same length, another text: only the digest tells them apart.
        for changed in [Optional("type Query {\n  no: Boolean\n}\n"), nil] {
            let disk = Disk(text)
            let file = SourceFile(path: "schema.graphql", bytes: Array(text.utf8)) { disk.read() }
            file.releaseBytes()
            disk.contents = changed.map { Array($0.utf8) }  // edited, or deleted
            XCTAssertEqual(file.bytes, [], "neither the new text nor nothing read is taken for the old")
            XCTAssertTrue(file.isStale)
            let location = file.localLocation(of: 15)
            XCTAssertEqual([location.line, location.column, location.offset], [0, 0, 15], "no line, no column")
            let diagnostic = Diagnostic.error("x", rule: "schema", file: file, span: Span(start: 15, end: 17))
            XCTAssertEqual(PrettyRenderer(color: false).render(diagnostic), "schema.graphql:0:0: error: x [schema]\n")
            XCTAssertEqual(disk.reads, 1)
        }
    }
}

final class JSONParserTests: XCTestCase {
    func testParsesValuesWithSpansAndKeepsNumberText() throws {
        let value = try JSONParser.parse(Array(#"{"a": [1.50, true, null], "b": "x\u00e9\ud83d\ude00"}"#.utf8)).get()
        guard case .array(let items, let span)? = value["a"] else { return XCTFail("no array") }
        XCTAssertEqual(span, Span(start: 6, end: 24))
        guard case .number(let text, _) = items[0] else { return XCTFail("no number") }
        XCTAssertEqual(text, "1.50")
        XCTAssertEqual(value["b"]?.stringValue, "xé😀")
    }

    func testReportsErrorsWithOffsets() {
        let cases: [(String, Int)] = [
            (#"{"a": }"#, 6), (#"{"a" 1}"#, 5), ("[1,]", 3), ("01", 1), (#""abc"#, 0), (#""\ud800""#, 1), ("{} x", 3),
            ("", 0),
        ]
        for (text, offset) in cases {
            switch JSONParser.parse(Array(text.utf8)) {
            case .success: XCTFail("\(text) parsed")
            case .failure(let error): XCTAssertEqual(error.offset, offset, "\(text): \(error.message)")
            }
        }
    }

    func testDeepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 100_000)
        guard case .failure(let error) = JSONParser.parse(Array(text.utf8)) else { return XCTFail("parsed") }
        XCTAssertTrue(error.message.contains("nested deeper"))
    }
}

final class TextRendererTests: XCTestCase {
    func testRendersPathLineColumnSeverityMessageAndRule() {
        let file = SourceFile(path: "q.graphql", text: "query {\n  nope\n}\n")
        let diagnostic = Diagnostic.error(
            "Cannot query field \"nope\" on type \"Query\".", rule: "fields-on-correct-type", file: file,
            span: Span(start: 10, end: 14))
        XCTAssertEqual(
            TextRenderer.render(diagnostic),
            "q.graphql:2:3: error: Cannot query field \"nope\" on type \"Query\". [fields-on-correct-type]\n")
    }

}
