import BatonConfig
import BatonDiagnostics
import XCTest

final class SwiftDocumentExtractorTests: XCTestCase {
    /// Extracts from Swift text; returns the documents and rendered diagnostics.
    private func extract(_ swift: String, path: String = "Screen.swift") -> ([EmbeddedDocument], [String]) {
        let host = SourceFile(path: path, text: swift)
        let (documents, diagnostics) = SwiftDocumentExtractor.extract(from: host)
        return (documents, diagnostics.map { TextRenderer.render($0).trimmingCharacters(in: .newlines) })
    }

    /// The host line and column of the first occurrence of `needle` in an embedded document.
    private func location(of needle: String, in document: EmbeddedDocument) -> String {
        let text = document.source.text
        guard let range = text.range(of: needle) else { return "not found" }
        let offset = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
        let (file, location) = document.source.resolve(offset)
        return "\(file.path):\(location.line):\(location.column)"
    }

    func testSeedRepositoryScreen() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/GitHub/RepositoryScreen.swift").standardized
        let text = try String(contentsOf: url, encoding: .utf8)
        let (documents, diagnostics) = extract(text, path: "Examples/GitHub/RepositoryScreen.swift")
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(documents.map(\.attribute), ["Fragment", "Query"])
        XCTAssertEqual(
            documents[0].source.text,
            """
            fragment IssueRow_issue on Issue {
              number
              title
              author @required(action: LOG) { login }
            }
            """)
        XCTAssertTrue(
            documents[1].source.text.hasPrefix(
                "query RepositoryQuery($owner: String!, $name: String!) {\n  repository("))
        XCTAssertEqual(location(of: "fragment", in: documents[0]), "Examples/GitHub/RepositoryScreen.swift:6:5")
        XCTAssertEqual(location(of: "author", in: documents[0]), "Examples/GitHub/RepositoryScreen.swift:9:7")
        XCTAssertEqual(location(of: "LOG", in: documents[0]), "Examples/GitHub/RepositoryScreen.swift:9:32")
        XCTAssertEqual(location(of: "@catch", in: documents[1]), "Examples/GitHub/RepositoryScreen.swift:22:46")
        XCTAssertEqual(
            location(of: "...IssueRow_issue", in: documents[1]), "Examples/GitHub/RepositoryScreen.swift:26:22")
        // The end of the text maps to the closing delimiter.
        let end = documents[0].source.resolve(documents[0].source.bytes.count)
        XCTAssertEqual(end.location.line, 11)
        XCTAssertEqual(end.location.column, 5)
    }

    func testSingleLineLiteralWithEscapes() {
        let swift = #"@Query("query Q { a(s: \"x\\y\") \u{1F600} b }") var q: Q"#
        let (documents, diagnostics) = extract(swift)
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(documents.first?.source.text, #"query Q { a(s: "x\y") 😀 b }"#)
        guard let document = documents.first else { return }
        // "b" comes after the escapes: its host column counts them as written.
        XCTAssertEqual(location(of: " b }", in: document), "Screen.swift:1:43")
        XCTAssertEqual(location(of: "\"x", in: document), "Screen.swift:1:24")
        XCTAssertEqual(location(of: "😀", in: document), "Screen.swift:1:34")
    }

    func testEscapesNewlineAndTab() {
        let (documents, diagnostics) = extract(#"@Fragment("fragment F on T {\n\ta\n}")"#)
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(documents.first?.source.text, "fragment F on T {\n\ta\n}")
        guard let document = documents.first else { return }
        XCTAssertEqual(location(of: "a\n}", in: document), "Screen.swift:1:33")
    }

    func testMultilineIndentationStripping() {
        let swift = """
            struct S {
                @Query(\"\"\"
                  query Q {
                    a

                    b
                  }
                  \"\"\")
                var q: Q
            }
            """
        let (documents, diagnostics) = extract(swift)
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(documents.first?.source.text, "query Q {\n  a\n\n  b\n}")
        guard let document = documents.first else { return }
        XCTAssertEqual(location(of: "query", in: document), "Screen.swift:3:7")
        XCTAssertEqual(location(of: "b\n", in: document), "Screen.swift:6:9")
    }

    func testLineContinuation() {
        let swift = "@Query(\"\"\"\n  query Q { \\\n  a }\n  \"\"\")"
        let (documents, diagnostics) = extract(swift)
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(documents.first?.source.text, "query Q { a }")
        guard let document = documents.first else { return }
        XCTAssertEqual(location(of: "a }", in: document), "Screen.swift:3:3")
    }

    func testCRLFLineBreaks() {
        let swift = "@Query(\"\"\"\r\n  query Q {\r\n    a\r\n  }\r\n  \"\"\")\r\n"
        let (documents, diagnostics) = extract(swift)
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(documents.first?.source.text, "query Q {\n  a\n}")
        guard let document = documents.first else { return }
        XCTAssertEqual(location(of: "a\n", in: document), "Screen.swift:3:5")
    }

    func testRawStrings() {
        let swift = ##"""
            @Query(#"query Q { a(s: "\d") }"#)
            @Fragment(#"""
                fragment F on T { b(s: "\#t") }
                """#)
            """##
        let (documents, diagnostics) = extract(swift)
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(documents.map(\.source.text), [#"query Q { a(s: "\d") }"#, "fragment F on T { b(s: \"\t\") }"])
        guard documents.count == 2 else { return }
        XCTAssertEqual(location(of: "a(", in: documents[0]), "Screen.swift:1:20")
        XCTAssertEqual(location(of: "\")", in: documents[1]), "Screen.swift:3:32")
    }

    func testCommentsAndOtherStringsAreSkipped() {
        let swift = #"""
            // @Query("query Commented { a }")
            /* outer /* @Query("query Nested { a }") */ still comment @Query("query X { a }") */
            let s = "@Query(\"query InString { a }\")"
            let t = "\(f("@Query(")) and \(g(")"))"
            let r = #/"@Query("/#
            @Subscription("subscription S { a }") var s: S
            @Baton.Mutation(
                // the document:
                "mutation M { a }"
            ) var m: M
            @Query(sort: \.name) var items: [Item]
            """#
        let (documents, diagnostics) = extract(swift)
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(documents.map(\.source.text), ["subscription S { a }", "mutation M { a }"])
        XCTAssertEqual(documents.map(\.attribute), ["Subscription", "Mutation"])
    }

    func testInterpolationIsReported() {
        let swift =
            "@Query(\"\"\"\n  query Q { a(id: \\(id)) }\n  \"\"\")\nvar q: Q\n@Fragment(\"fragment F on T { a }\") var f: F"
        let (documents, diagnostics) = extract(swift)
        XCTAssertEqual(
            diagnostics,
            [
                "Screen.swift:2:19: error: String interpolation in a GraphQL literal: the document must be known when Baton checks it; pass values as variables. [syntax]"
            ])
        // Lexing goes on after the literal.
        XCTAssertEqual(documents.map(\.attribute), ["Fragment"])
    }

    func testUnterminatedLiterals() {
        XCTAssertEqual(
            extract("@Query(\"query Q { a }\nvar q: Q").1,
            ["Screen.swift:1:8: error: Unterminated string literal. [syntax]"])
        XCTAssertEqual(
            extract("struct S {\n  @Query(\"\"\"\n    query Q { a }\n").1,
            ["Screen.swift:2:10: error: Unterminated multi-line string literal. [syntax]"])
        XCTAssertEqual(
            extract("@Query(#\"query Q { a }\"").1,
            ["Screen.swift:1:8: error: Unterminated string literal. [syntax]"])
    }

    func testMalformedMultilineLiterals() {
        XCTAssertEqual(
            extract("@Query(\"\"\"query Q { a }\n\"\"\")").1,
            ["Screen.swift:1:11: error: Multi-line string literal content must begin on a new line. [syntax]"])
        XCTAssertEqual(
            extract("@Query(\"\"\"\n    query Q {\n  a }\n    \"\"\")").1,
            [
                "Screen.swift:3:3: error: Insufficient indentation of line in multi-line string literal. [syntax]\n  Screen.swift:4:5: note: Every line must start with the closing delimiter's indentation."
            ])
        XCTAssertEqual(
            extract("@Query(\"\"\"\n    query Q { a } \"\"\")").1,
            ["Screen.swift:2:19: error: Multi-line string literal closing delimiter must begin on a new line. [syntax]"]
        )
        XCTAssertEqual(
            extract(#"@Query("query Q { a(s: \q) }")"#).1,
            [#"Screen.swift:1:24: error: Invalid escape sequence in literal. [syntax]"#])
    }

    func testDeeplyNestedInterpolationsDoNotOverflow() {
        let depth = 100_000
        let swift =
            String(repeating: "\"\\(", count: depth) + String(repeating: ")\"", count: depth)
            + "\n@Query(\"query Q { a }\")"
        let (documents, _) = extract(swift)
        XCTAssertEqual(documents.map(\.source.text), ["query Q { a }"])
    }

    func testNonUTF8AndEmptyInput() {
        XCTAssertEqual(extract("").0.count, 0)
        let host = SourceFile(
            path: "Bad.swift", bytes: Array("@Query(\"query Q { ".utf8) + [0xFF, 0xFE] + Array(" }\")".utf8))
        let (documents, diagnostics) = SwiftDocumentExtractor.extract(from: host)
        XCTAssertEqual(diagnostics.count, 0)
        XCTAssertEqual(documents.first?.source.bytes.count, 14)
    }
}
