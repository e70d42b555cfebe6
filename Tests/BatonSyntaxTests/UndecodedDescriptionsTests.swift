import BatonDiagnostics
import BatonTestSupport
import Foundation
import XCTest

@testable import BatonSyntax

/// `check` parses a schema without decoding its descriptions (`Parser.parse(_:decodingDescriptions:)`): the
/// document is the same but for the descriptions' values, which are empty, and so are the diagnostics.
final class UndecodedDescriptionsTests: XCTestCase {
    /// The dump of a document with every description's value left out (its kind and span kept).
    func dump(_ result: ParseResult) -> String {
        guard let document = result.document else { return "no document" }
        return ASTDump.of(document, spans: true).split(separator: "\n").map { line in
            guard let colon = line.range(of: "description"), line[colon.upperBound...].contains(": ") else {
                return String(line)
            }
            // `description[ block]: "…" [start,end)`: the value goes, the rest stays.
            let value = line.range(of: ": ")!
            let span = line.range(of: " [", options: .backwards)!
            return String(line[..<value.lowerBound] + line[span.lowerBound...])
        }.joined(separator: "\n")
    }

    func assertSameButDescriptions(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let source = SourceFile(path: "schema.graphql", text: text)
        let decoded = Parser.parse(source)
        let undecoded = Parser.parse(source, decodingDescriptions: false)
        XCTAssertEqual(dump(undecoded), dump(decoded), file: file, line: line)
        XCTAssertEqual(
            undecoded.diagnostics.map(\.message), decoded.diagnostics.map(\.message), file: file, line: line)
        if let document = undecoded.document {
            XCTAssertFalse(
                ASTDump.of(document).contains("description: \"a") || ASTDump.of(document).contains("block: \"a"),
                "no description text", file: file, line: line)
        }
    }

    func testDescriptionsAreLeftEmptyAndNothingElseChanges() {
        assertSameButDescriptions(
            #"""
            "a type"
            type T implements I @key(fields: "id") {
              """
              a field, """ escaped
              """
              f("an argument" a: Int = 1, "another" b: String = "a value"): String @deprecated(reason: "a reason")
            }
            """a schema""" schema { query: T }
            "an enum" enum E { "a value" A B }
            "an input" input In { "an input field" a: Int }
            "a directive" directive @d("an argument" a: Int) on FIELD
            "a scalar" scalar S
            "a union" union U = T
            "an interface" interface I { "a field" id: ID }
            query Q { f(b: "a string value") }
            """#)
        // Errors are the same: a description where none may be, an unterminated one, a bad escape.
        assertSameButDescriptions("\"a description\" query Q { f }")
        assertSameButDescriptions("\"a description\ntype T { f: Int }")
        assertSameButDescriptions(#""a \q description" type T { f: Int }"#)
        assertSameButDescriptions("\"\"\"an open description type T { f: Int }")
    }

    func testTheCorpusSchemasParseTheSameButDescriptions() throws {
        let schemas = try Unavailable.corpus().appendingPathComponent("schemas")
        var compared = 0
        for folder in try FileManager.default.contentsOfDirectory(atPath: schemas.path).sorted() {
            let files = try FileManager.default.contentsOfDirectory(atPath: schemas.appendingPathComponent(folder).path)
            for file in files.sorted() where file.hasSuffix(".graphql") || file.hasSuffix(".graphqls") {
                let data = try Data(contentsOf: schemas.appendingPathComponent(folder).appendingPathComponent(file))
                assertSameButDescriptions(String(decoding: data, as: UTF8.self))
                compared += 1
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 6)
    }
}
