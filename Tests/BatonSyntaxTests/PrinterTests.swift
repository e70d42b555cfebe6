import BatonDiagnostics
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
}
