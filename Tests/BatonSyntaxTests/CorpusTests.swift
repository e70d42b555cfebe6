import BatonDiagnostics
import BatonTestSupport
import Foundation
import XCTest

@testable import BatonSyntax

/// The parser and printer on every GraphQL file of the shared corpus.
final class CorpusTests: XCTestCase {
    /// The corpus: `../shared/corpus` beside the repository, `$BATON_SHARED/corpus` or `$BATON_CORPUS`.
    static var corpusDirectory: URL { TestPaths.corpus }

    /// Every `.graphql`, `.graphqls` and `.gql` file of the corpus, sorted; skips when absent.
    static func corpusFiles() throws -> [URL] {
        let root = corpusDirectory
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw Unavailable.error("no corpus at \(root.path)")
        }
        var files: [URL] = []
        for case let url as URL in enumerator where ["graphql", "graphqls", "gql"].contains(url.pathExtension) {
            files.append(url)
        }
        if files.isEmpty { throw Unavailable.error("no corpus at \(root.path)") }
        return files.sorted { $0.path < $1.path }
    }

    static func source(_ url: URL) throws -> SourceFile {
        SourceFile(path: url.path, bytes: Array(try Data(contentsOf: url)))
    }

    func testEveryCorpusFileParses() throws {
        for url in try Self.corpusFiles() {
            let result = Parser.parse(try Self.source(url))
            XCTAssertNotNil(result.document, "\(url.path): \(result.diagnostics.map(\.message))")
        }
    }
}
