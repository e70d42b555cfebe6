import BatonCompiler
import BatonDiagnostics
import BatonSyntax
import BatonTestSupport
import BatonValidation
import Foundation
import XCTest

/// `check`'s first pass learns each file's links from its tokens (`DocumentLinkScanner`): for every
/// document the parser accepts, the scanner gives exactly `DocumentLinks.of` of its AST, or nil
/// (then the file is parsed); and the second pass, which parses, regroups when a file is not what
/// the first pass saw (`StreamingCheck`).
final class DocumentLinkScannerTests: XCTestCase {
    private func scan(_ text: String) -> DocumentLinks? {
        Array(text.utf8).withUnsafeBufferPointer(DocumentLinkScanner.scan)
    }

    private func parsedLinks(_ text: String) -> DocumentLinks? {
        let result = Parser.parse(SourceFile(path: "d.graphql", text: text))
        guard result.diagnostics.isEmpty, let document = result.document else { return nil }
        return DocumentLinks.of(document)
    }

    /// Scanned, the links of `text` are its AST's (or nil); returns whether it scanned.
    @discardableResult
    private func agrees(_ text: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        guard let scanned = scan(text) else { return false }
        if let parsed = parsedLinks(text) { XCTAssertEqual(scanned, parsed, name, file: file, line: line) }
        return true
    }

    func testTheTokensTellWhatTheASTTells() {
        let cases: [(String, DocumentLinks?)] = [
            (
                "query A { a ...F ... on T { ...G } ... @include(if: true) { b } }",
                DocumentLinks(keys: ["name:A", "name:F", "name:G"])
            ),
            ("{ a }", DocumentLinks(keys: [], joinsAll: true)),
            ("query ($v: Int = 1) { a(x: $v) }", DocumentLinks(keys: [], joinsAll: true)),
            ("mutation @m { a } fragment F on T { b }", DocumentLinks(keys: ["name:F"], joinsAll: true)),
            // Comments and strings hold no names; a block string's value is its dedented text.
            (
                "# ...Nope @defer(label: \"x\")\nquery B { a(s: \"...Nope\", t: \"\"\" ...Nor \"\"\") }",
                DocumentLinks(keys: ["name:B"])
            ),
            (
                "query C { ... @defer(label: \"one\") { a } ...F @defer(if: $v, label: \"\"\"\n  two\n\"\"\") }",
                DocumentLinks(keys: ["label:one", "label:two", "name:C", "name:F"])
            ),
            // An escape is decoded as the parser decodes it; `label` inside a value is no label.
            (
                "query D { ... @defer(label: \"a\\u0042\") { a } ... @stream(x: {label: \"no\"}, label: null) { b } }",
                DocumentLinks(keys: ["label:aB", "name:D"])
            ),
            (
                "fragment R on T @refetchable(queryName: \"Again\") { a }",
                DocumentLinks(keys: ["name:Again", "name:R"])
            ),
            ("query E($a: I = {a: [1, {b: \"}\"}]} @dir(label: \"x\")) { a }", DocumentLinks(keys: ["name:E"])),
            // A name met again and again is one key, in sorted order whatever the order met.
            (
                "query Z { ...F b { ...F ...A } ... @defer(label: \"l\") { ...A } } fragment F on T { ...A ...Z } fragment A on T { ... @defer(label: \"l\") { a } }",
                DocumentLinks(keys: ["label:l", "name:A", "name:F", "name:Z"])
            ),
            // What the scanner leaves to the parser.
            ("type Query { a: Int }", nil), ("\"described\" query F { a }", nil), ("", nil), ("query G { a ", nil),
            ("query H { a(s: \"unterminated) }", nil), ("fragment on on T { a }", nil), ("query I { a } }", nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(scan(text), expected, text)
            if let expected { XCTAssertEqual(parsedLinks(text), expected, "the AST's, for \(text)") }
        }
    }

    /// Every corpus document and validation fixture: where it scans, the AST agrees; and most scan.
    func testEveryCorpusDocumentAndFixtureScansAsItParses() throws {
        var texts: [(String, String)] = []
        let corpus = TestPaths.corpus.appendingPathComponent("documents")
        if let enumerator = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator where ["graphql", "gql"].contains(url.pathExtension) {
                texts.append((url.path, String(decoding: try Data(contentsOf: url), as: UTF8.self)))
            }
        }
        let corpusCount = texts.count
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        for suite in ["Fixtures", "BatonFixtures"] {
            let folder = tests.appendingPathComponent("BatonValidationTests").appendingPathComponent(suite)
            for name in FixtureRunner.suites(in: folder) {
                for fixture in FixtureRunner.cases(name, in: folder.appendingPathComponent(name)) {
                    for section in try fixture.sections(keepsPreamble: true) {
                        texts.append(("\(fixture) \(section.path)", section.text))
                    }
                }
            }
        }
        var scanned = 0
        var corpusScanned = 0
        for (index, (name, text)) in texts.enumerated() where agrees(text, name) {
            scanned += 1
            if index < corpusCount { corpusScanned += 1 }
        }
        if corpusCount == 0, ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail("no corpus at \(corpus.path)")
        } else if corpusCount == 0 {
            print("DocumentLinkScannerTests: no corpus at \(corpus.path) (set BATON_SHARED): the fixtures alone")
        }
        // Nearly every corpus document is an operation or a fragment the scanner follows.
        XCTAssertGreaterThanOrEqual(corpusScanned * 10, corpusCount * 9, "\(corpusScanned) of \(corpusCount)")
        // The fixtures are some 145 texts, the corpus some 190 more.
        XCTAssertGreaterThan(scanned, corpusCount == 0 ? 100 : 300)
    }

    /// A file rewritten between the passes, so that it now spreads a fragment of another batch (and
    /// another now has a syntax error the scanner does not see): the check regroups, and reports
    /// what the whole-project path reports of the files as they end.
    /// The second pass asks whether a file's documents have the links the first pass noted (`isLinks(of:)`),
    /// without making them: it must answer as comparing with `of`, merged, would, key by key.
    func testTheSecondPassComparesLinksAsMadeLinksCompare() throws {
        let texts = [
            "query A { a ...F ...F ... @defer(label: \"one\") { ...G } }",
            "fragment F on T @refetchable(queryName: \"Again\") { b ...G }",
            "fragment G on T { c ... @defer(label: \"\\u00e9t\\u00e9\") { d } ... @defer(label: \"e\\u0301\") { d } }",
            "{ anonymous }",
        ]
        let documents = try texts.map { try XCTUnwrap(Parser.parse(SourceFile(path: "d.graphql", text: $0)).document) }
        // Each document alone, and every run of them as the documents of one file (a Swift file's literals).
        for first in documents.indices {
            for last in first..<documents.count {
                let slice = Array(documents[first...last])
                let links = slice.map(DocumentLinks.of).reduce(DocumentLinks()) { $0.merging($1) }
                XCTAssertTrue(links.isLinks(of: slice), "\(first)...\(last)")
                // A key fewer, a key more, another key, or the other joinsAll: not the links.
                var others: [DocumentLinks] = [
                    DocumentLinks(keys: links.keys, joinsAll: !links.joinsAll),
                    DocumentLinks(keys: (links.keys + ["name:Zzz"]).sorted(), joinsAll: links.joinsAll),
                    DocumentLinks(keys: (links.keys + ["label:zzz"]).sorted(), joinsAll: links.joinsAll),
                ]
                for index in links.keys.indices {
                    var fewer = links.keys
                    fewer.remove(at: index)
                    others.append(DocumentLinks(keys: fewer, joinsAll: links.joinsAll))
                    var changed = links.keys
                    changed[index] += "x"
                    others.append(DocumentLinks(keys: changed.sorted(), joinsAll: links.joinsAll))
                }
                for other in others {
                    XCTAssertEqual(other.isLinks(of: slice), other == links, "\(first)...\(last): \(other.keys)")
                }
            }
        }
    }

    func testAFileRewrittenBetweenThePassesIsBatchedAgain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-passes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = folder.appendingPathComponent("schema.graphql").path
        try "type Query { a: Int, b: Int }".write(toFile: schema, atomically: true, encoding: .utf8)
        let before = [
            "A.graphql": "fragment F on Query { a }", "B.graphql": "query One { ...F }", "C.graphql": "query Two { b }",
            "D.graphql": "query Three { a }",
        ]
        let after = ["C.graphql": "query Two { ...F nope }", "D.graphql": "query Three { a(x: ) }"]
        @Sendable func write(_ files: [String: String]) {
            for (name, text) in files {
                try? text.write(toFile: folder.appendingPathComponent(name).path, atomically: true, encoding: .utf8)
            }
        }
        let documents = before.keys.sorted().map { folder.appendingPathComponent($0).path }
        func run(streamed: Bool) -> String {
            let project = ProjectInput(configuration: nil, schemaFiles: [schema], documentFiles: documents)
            var options = CompilationOptions(checksOnly: true)
            if streamed {
                write(before)
                options.streamsDocuments = true
                options.workers = 2
                options.batchBytes = 1
                options.betweenStreamingPasses = { write(after) }
            }
            let compilation = Compilation(
                project: project, workingDirectory: folder.path, targets: .none, options: options)
            compilation.run(upTo: .plan)
            return TextRenderer.render(compilation.diagnostics.sorted(by: Diagnostic.sortKey))
        }
        let streamed = run(streamed: true)
        let whole = run(streamed: false)
        XCTAssertEqual(streamed, whole)
        XCTAssertTrue(whole.contains("nope"), whole)
        XCTAssertTrue(whole.contains("Syntax Error"), whole)
        XCTAssertFalse(whole.contains("Unknown fragment"), whole)
    }
}
