import BatonFiles
import Foundation
import XCTest

/// `Path.sortByBytes` orders as the names' UTF-8 bytes do (`Path.precedes`), whatever the names share, and
/// `Path.pathExtension` reads a path's extension as it always did.
final class PathOrderTests: XCTestCase {
    func testSortByBytesIsTheOrderOfTheBytes() {
        // Names sharing their first sixteen bytes and more, prefixes of one another, short ones, bytes above ASCII
        // (the Kelvin sign, a decomposed `é`), names of one another's first sixteen bytes.
        let stems = [
            "AppProblemDismissByKey_", "AppProblemDismissByKex", "AppProblemDismis", "AppProblemDismi", "A", "",
            "a", "Z_", "\u{212A}elvin", "Kelvin", "e\u{301}t\u{E9}", "\u{E9}t\u{E9}", "0123456789abcdef",
            "0123456789abcdeg", "0123456789abcdef0",
        ]
        var names: [String] = []
        for stem in stems {
            for suffix in ["", "1", "10", "2", ".graphql", "_6.graphql", "_79.graphql"] { names.append(stem + suffix) }
        }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            var list = names.shuffled(using: &generator)
            if round % 2 == 1 { list = Array(list.prefix(round)) }
            let expected = list.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var sorted = list
            Path.sortByBytes(&sorted, name: { $0 })
            XCTAssertEqual(sorted, expected, "round \(round)")
            XCTAssertTrue(zip(sorted, sorted.dropFirst()).allSatisfy { !Path.precedes($1, $0) })
        }
        // By a name taken from each item.
        var items = [(name: "b", n: 1), (name: "a", n: 2), (name: "ab", n: 3)]
        Path.sortByBytes(&items, name: \.name)
        XCTAssertEqual(items.map(\.n), [2, 3, 1])
    }

    func testAFoldersEntriesComeInTheOrderOfTheirBytes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-order-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let names = (0..<300).map { "AppProblemDismissByKey_\($0 * 7919 % 1000).graphql" } + ["a", "B", "\u{E9}"]
        for name in names { XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/" + name, contents: nil)) }
        let listed = try FileSystem.contentsOfDirectory(folder).get()
        XCTAssertEqual(listed, Set(names).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// `Path.child` spells what joining the folder, a `/` and the name spelt (no second `/` after the root).
    func testAChildIsItsFolderASlashAndItsName() {
        for folder in ["/", "/a", "/a/b c", "/\u{E9}t\u{E9}/e\u{301}", "/x/" + String(repeating: "long", count: 40)] {
            for name in ["a", "b.graphql", "\u{212A}", " ", "e\u{301}.gql", String(repeating: "n", count: 300)] {
                let expected = folder == "/" ? "/" + name : folder + "/" + name
                let child = Path.child(folder, name)
                XCTAssertEqual(child, expected)
                XCTAssertTrue(child.utf8.elementsEqual(expected.utf8), "\(folder) \(name)")
            }
        }
    }

    func testPathExtension() {
        let cases: [(String, String)] = [
            ("/a/b.GraphQL", "graphql"), ("/a/.gql", ""), (".gitignore", ""), ("", ""), ("a", ""), ("a.", ""),
            ("a.b", "b"), ("/a.b/c", ""), ("/a.b/c.d", "d"), ("x.tar.GZ", "gz"), ("/x/y/z.swift", "swift"),
            ("/x/..", ""), ("/x/a..b", "b"), ("/\u{E9}.\u{C9}XT", "\u{E9}xt"), ("/a/b.gRAPHQL", "graphql"), ("/", ""),
            (".", ""), ("a/.", ""), ("..a", "a"),
        ]
        for (path, expected) in cases { XCTAssertEqual(Path.pathExtension(path), expected, path) }
    }
}
