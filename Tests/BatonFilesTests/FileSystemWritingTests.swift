import BatonFiles
import Foundation
import XCTest

/// The file calls every layer shares (`BatonFiles`): answers as Foundation's, writes that are never seen
/// half-done and leave nothing behind on failure, and the system's reason when a call fails.
final class FileSystemWritingTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-files-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    private func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// A file's text is what `String(data:encoding: .utf8)` makes of it (a byte order mark left out, nil for
    /// bytes that are not UTF-8), and a folder's entries are `FileManager`'s.
    func testFilesAreReadAsFoundationReadsThem() throws {
        let contents: [[UInt8]] = [
            Array("package baton.runtime\nclass A\n".utf8), [0xEF, 0xBB, 0xBF, 0x61], [0xFF, 0x61], [],
            [0x61, 0x00, 0x62], Array("é \u{301} 😀".utf8), [0xEF, 0xBB], Array(repeating: 0x61, count: 200_000),
        ]
        for (index, bytes) in contents.enumerated() {
            let path = folder + "/f\(index).kt"
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            XCTAssertEqual(
                FileSystem.utf8Text(of: path), String(data: Data(bytes), encoding: .utf8), "\(bytes.prefix(8))")
        }
        XCTAssertNil(FileSystem.utf8Text(of: folder + "/missing.kt"))
        XCTAssertNil(FileSystem.utf8Text(of: folder + "/sub"))
        XCTAssertEqual(try FileSystem.listing(of: folder).get().map(\.name).sorted(), try names())
        guard case .failure(let missing) = FileSystem.listing(of: folder + "/missing") else {
            return XCTFail("listed a missing folder")
        }
        XCTAssertTrue(missing.isMissing)
    }

    /// `entryKind` and the listing's kinds do not follow a symbolic link; a link is one.
    func testKindsDoNotFollowSymbolicLinks() throws {
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/sub")
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/file", contents: Data("ab".utf8)))
        XCTAssertEqual(FileSystem.entryKind(of: folder + "/sub"), .directory)
        XCTAssertEqual(FileSystem.entryKind(of: folder + "/link"), .symbolicLink)
        XCTAssertEqual(FileSystem.entryKind(of: folder + "/file"), .file)
        XCTAssertNil(FileSystem.entryKind(of: folder + "/missing"))
        XCTAssertEqual(FileSystem.kind(of: folder + "/link"), .directory, "kind(of:) follows the link")
        let listed = try FileSystem.listing(of: folder).get()
        for entry in listed where entry.kind != nil {
            XCTAssertEqual(entry.kind, FileSystem.entryKind(of: folder + "/" + entry.name), entry.name)
        }
        XCTAssertEqual(try FileSystem.size(of: folder + "/file").get(), 2)
        XCTAssertEqual(
            try FileSystem.resolvingLinks(folder + "/link").get(), try FileSystem.resolvingLinks(folder + "/sub").get())
        guard case .failure(let error) = FileSystem.resolvingLinks(folder + "/missing") else {
            return XCTFail("resolved a missing path")
        }
        XCTAssertTrue(error.isMissing)
        XCTAssertEqual(error.description, "No such file or directory")
        XCTAssertEqual(try FileSystem.readFile(folder + "/file", followingLinks: false).get(), Array("ab".utf8))
        XCTAssertThrowsError(try FileSystem.readFile(folder + "/link", followingLinks: false).get())
    }

    /// A new file holds the bytes; one left at the path is replaced, a symbolic link there too (its target is
    /// never written through); a missing folder fails with nothing left behind.
    func testWriteNewNeverWritesThroughALink() throws {
        let bytes = Array(repeating: UInt8(ascii: "x"), count: 100_000)
        XCTAssertNoThrow(try FileSystem.writeNew(bytes, to: folder + "/new").get())
        XCTAssertEqual(contents(folder + "/new"), bytes)
        XCTAssertNoThrow(try FileSystem.writeNew([1, 2], to: folder + "/new", synchronized: true).get())
        XCTAssertEqual(contents(folder + "/new"), [1, 2])
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/target", contents: Data([7])))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/target")
        XCTAssertNoThrow(try FileSystem.writeNew([3], to: folder + "/link").get())
        XCTAssertEqual(contents(folder + "/target"), [7])
        XCTAssertEqual(FileSystem.entryKind(of: folder + "/link"), .file)
        guard case .failure(let error) = FileSystem.writeNew([1], to: folder + "/missing/new") else {
            return XCTFail("wrote into a missing folder")
        }
        XCTAssertTrue(error.isMissing)
        XCTAssertEqual(try names(), ["link", "new", "sub", "target"])
    }

    /// `replace` swaps a file's content whole and leaves no temporary file, on success or failure.
    func testReplaceLeavesNoTemporaryFile() throws {
        XCTAssertNoThrow(try FileSystem.replace(folder + "/a", with: [1]).get())
        XCTAssertNoThrow(try FileSystem.replace(folder + "/a", with: [2, 3]).get())
        XCTAssertEqual(contents(folder + "/a"), [2, 3])
        // A folder at the path: the rename fails, and the temporary file is removed.
        guard case .failure(let error) = FileSystem.replace(folder + "/sub", with: [4]) else {
            return XCTFail("replaced a folder")
        }
        XCTAssertFalse(error.description.isEmpty)
        XCTAssertEqual(try names(), ["a", "sub"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder + "/sub"), [])
    }

    /// `createNew` never overwrites: something already there is "File exists", and stays as it was.
    func testCreateNewNeverOverwrites() throws {
        XCTAssertNoThrow(try FileSystem.createNew(folder + "/c", [1]).get())
        guard case .failure(let failure) = FileSystem.createNew(folder + "/c", [2]) else {
            return XCTFail("overwrote a file")
        }
        XCTAssertEqual(failure, FileSystem.Failure(path: folder + "/c", reason: "File exists"))
        XCTAssertEqual(contents(folder + "/c"), [1])
        XCTAssertEqual(try names(), ["c", "sub"])
    }

    /// Folders, renames and the header check, each with the system's reason on failure.
    func testFoldersRenamesAndPrefixes() throws {
        XCTAssertNoThrow(try FileSystem.makeDirectory(folder + "/d").get())
        guard case .failure(let existing) = FileSystem.makeDirectory(folder + "/d") else {
            return XCTFail("made a folder twice")
        }
        XCTAssertTrue(existing.isExisting)
        XCTAssertEqual(existing, .existing)
        XCTAssertNoThrow(try FileSystem.writeNew(Array("// header\nrest".utf8), to: folder + "/d/f").get())
        XCTAssertTrue(FileSystem.begins(folder + "/d/f", with: Array("// header".utf8)))
        XCTAssertFalse(FileSystem.begins(folder + "/d/f", with: Array("// other".utf8)))
        XCTAssertFalse(FileSystem.begins(folder + "/d/f", with: Array("// header\nrest and more".utf8)))
        XCTAssertFalse(FileSystem.removeEmptyDirectory(folder + "/d"))
        XCTAssertNoThrow(try FileSystem.rename(folder + "/d/f", to: folder + "/g").get())
        guard case .failure(let missing) = FileSystem.rename(folder + "/d/f", to: folder + "/g") else {
            return XCTFail("renamed a missing file")
        }
        XCTAssertTrue(missing.isMissing)
        XCTAssertFalse(missing.crossesDevices)
        XCTAssertTrue(FileSystem.removeEmptyDirectory(folder + "/d"))
        XCTAssertNoThrow(try FileSystem.removeFile(folder + "/g").get())
        XCTAssertEqual(try names(), ["sub"])
    }
}
