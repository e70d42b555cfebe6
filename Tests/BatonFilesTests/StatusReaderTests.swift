import BatonFiles
import Foundation
import XCTest

/// `FileSystem.StatusReader` (each path looked up relative to its folder's open descriptor) answers what
/// `FileSystem.status(of:followingLinks:)` answers for the same path, whatever is there and in whatever order
/// the paths come, and sees a file changed after its folder was opened.
final class StatusReaderTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-status-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder + "/a/b", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/c", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func status(_ reader: FileSystem.StatusReader, _ path: String, followingLinks: Bool) -> FileSystem.Status? {
        var path = path
        return path.withUTF8 { reader.status(ofBytes: $0, followingLinks: followingLinks) }
    }

    func testAnswersAsStatusOfTheWholePath() throws {
        for (name, size) in [("a/one", 1), ("a/two", 22), ("a/b/three", 333), ("c/four", 4444), ("five", 5)] {
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(count: size)))
        }
        try FileManager.default.createSymbolicLink(atPath: folder + "/a/link", withDestinationPath: folder + "/c/four")
        try FileManager.default.createSymbolicLink(atPath: folder + "/linked", withDestinationPath: folder + "/a")
        let names = [
            "a/one", "a/two", "a/b/three", "a/one", "a/missing", "a/link", "a/b", "c/four", "five", "missing/one",
            "five/one", "a/", "linked/two", "linked/link", "a/b/../two", "a/./one", "c/four", "a/b/three",
        ]
        let paths = names.map { folder + "/" + $0 } + ["/", "/tmp", "relative-missing"]
        for followingLinks in [false, true] {
            let reader = FileSystem.StatusReader()
            // Twice over, so that folders are asked again after others.
            for path in paths + paths.reversed() {
                XCTAssertEqual(
                    status(reader, path, followingLinks: followingLinks),
                    FileSystem.status(of: path, followingLinks: followingLinks), "\(path) \(followingLinks)")
            }
        }
        XCTAssertEqual(status(FileSystem.StatusReader(), folder + "/a/b/three", followingLinks: false)?.size, 333)
    }

    func testSeesAFileChangedOrRemovedAfterItsFolderWasOpened() throws {
        let path = folder + "/a/one"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(count: 1)))
        let reader = FileSystem.StatusReader()
        let first = try XCTUnwrap(status(reader, path, followingLinks: false))
        // Replaced by another file (another inode, another size), in the folder still open.
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/a/new", contents: Data(count: 7)))
        XCTAssertEqual(rename(folder + "/a/new", path), 0)
        let second = try XCTUnwrap(status(reader, path, followingLinks: false))
        XCTAssertNotEqual(first.inode, second.inode)
        XCTAssertEqual(second.size, 7)
        try FileManager.default.removeItem(atPath: path)
        XCTAssertNil(status(reader, path, followingLinks: false))
    }
}
