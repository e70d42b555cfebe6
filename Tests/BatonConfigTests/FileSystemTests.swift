import BatonFiles
import Foundation
import XCTest

@testable import BatonConfig

/// Reading files and listing folders: the byte-exact contents whatever the size, and kinds that
/// agree with `stat`.
final class FileSystemTests: XCTestCase {
    func testReadsEveryByteWhateverTheSize() throws {
        let scratch = try ScratchDirectory()
        // Around the sizes the reader special-cases: empty, its one spare byte, its 4 KiB start
        // for files that report no size, and a file larger than one read.
        for size in [0, 1, 2, 4095, 4096, 4097, 65_536, 300_001] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let path = scratch.path + "/file-\(size)"
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            guard case .success(let read) = FileSystem.readFile(path) else { return XCTFail("\(size): not read") }
            XCTAssertEqual(read, bytes, "\(size) bytes")
        }
    }

    func testReadingAFolderOrNothingFailsWithTheReason() throws {
        let scratch = try ScratchDirectory()
        guard case .failure(let folder) = FileSystem.readFile(scratch.path) else { return XCTFail("read a folder") }
        XCTAssertEqual(folder.reason, "Is a directory")
        guard case .failure(let missing) = FileSystem.readFile(scratch.path + "/missing") else {
            return XCTFail("read a missing file")
        }
        XCTAssertEqual(missing.reason, "No such file or directory")
    }

    func testEntriesAreSortedByBytesAndTypedLikeStat() throws {
        let scratch = try ScratchDirectory()
        for file in ["b.graphql", "a/x.gql", "B.graphql", "é.graphql", "e.graphql"] { try scratch.write(file, "") }
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: "a")
        guard case .success(let entries) = FileSystem.entries(of: scratch.path) else { return XCTFail("not listed") }
        XCTAssertEqual(entries.map(\.name), ["B.graphql", "a", "b.graphql", "e.graphql", "link", "é.graphql"])
        for entry in entries {
            // A typed entry agrees with stat; a link is left to the caller (nil), which follows it.
            let stat = FileSystem.kind(of: scratch.path + "/" + entry.name)
            if entry.name == "link" {
                XCTAssertNil(entry.kind)
                XCTAssertEqual(stat, .directory)
            } else {
                XCTAssertEqual(entry.kind, stat, entry.name)
            }
        }
        guard case .success(let names) = FileSystem.contentsOfDirectory(scratch.path) else { return XCTFail() }
        XCTAssertEqual(names, entries.map(\.name))
    }

    func testByteOrderIsUTF8Order() {
        let names = ["b", "a", "", "ab", "é", "e", "Z", "a/b", "a-b", "日本", "a\u{301}"]
        XCTAssertEqual(names.sorted(by: Path.precedes), names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        XCTAssertFalse(Path.precedes("a", "a"))
    }

    func testPathHelpersOnBytesAgreeWithTheGeneralRules() {
        // (GlobPatternTests.testPathHelpers has the plain cases.)
        XCTAssertEqual(Path.pathExtension("/a/b.graphql"), "graphql")
        XCTAssertEqual(Path.pathExtension(".gql"), "")
        XCTAssertEqual(Path.pathExtension("a.b/c"), "")
        XCTAssertEqual(Path.pathExtension("/a/file."), "")
        XCTAssertEqual(Path.pathExtension("/a/x.tar.GZ"), "gz")
        XCTAssertEqual(Path.pathExtension("/a/x.ÉTÉ"), "été")
        XCTAssertEqual(Path.pathExtension("/a/.."), "")
        XCTAssertEqual(Path.relative("/a/b/c", to: "/a/b"), "c")
        XCTAssertEqual(Path.relative("/a/bc", to: "/a/b"), "../bc")
        XCTAssertEqual(Path.relative("/a/b", to: "/a/b"), ".")
        XCTAssertEqual(Path.relative("/a/b", to: "/"), "a/b")
        XCTAssertEqual(Path.display("/p/q/Documents/000/a.graphql", from: "/p/q"), "Documents/000/a.graphql")
    }

    func testTheSuffixShortcutMatchesLikeTheGeneralMatcher() {
        // `…/**/*.graphql` is answered on bytes; the general segment matcher must agree.
        let pattern = GlobPattern("Documents/**/*.graphql", base: "/p")
        XCTAssertNotNil(pattern.recursiveSuffix)
        XCTAssertNil(GlobPattern("Documents/**/a*.graphql", base: "/p").recursiveSuffix)
        XCTAssertNil(GlobPattern("Documents/**/*.graph?l", base: "/p").recursiveSuffix)
        for path in [
            "/p/Documents/a.graphql", "/p/Documents/000/a.graphql", "/p/Documents/x/y/.graphql",
            "/p/Documents/a.graphqlx", "/p/Documents/a.gql", "/p/Documents", "/p/Other/a.graphql",
            "/p/Documents/é.graphql", "/p/Documents/a.graphql/b", "/p/Documents/.graphql", "/p/Documentsa.graphql",
        ] {
            let general: Bool
            if Path.isInside(path, directory: pattern.root), path != pattern.root {
                let relative = String(path.dropFirst(pattern.root.count + 1))
                general = GlobPattern.match(pattern.segments, relative.split(separator: "/"))
            } else {
                general = false
            }
            XCTAssertEqual(pattern.matches(path), general, path)
        }
    }
}
