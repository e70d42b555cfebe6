import BatonTestSupport
import Foundation
import XCTest

@testable import BatonCodegen

/// An output folder that does not exist yet is written whole into a hidden folder beside it and
/// renamed into place once (`FileWriter.write`, cold runs); a failure at any step leaves no output
/// folder and nothing hidden beside it.
final class NewFolderWriterTests: XCTestCase {
    var scratch: Scratch!
    var folder: String { scratch.path }
    let manager = FileManager.default

    override func setUpWithError() throws { scratch = try Scratch() }
    override func tearDown() { scratch = nil }

    func file(_ path: String, _ body: String, header: Bool = true) -> GeneratedFile {
        GeneratedFile(path: path) { Array(((header ? FileWriter.header + "\n\n" : "") + body + "\n").utf8) }
    }

    /// Everything under `path`, relative, sorted (folders end in `/`).
    func tree(_ path: String) throws -> [String] {
        guard let walker = manager.enumerator(atPath: path) else { return [] }
        var entries: [String] = []
        while let entry = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = manager.fileExists(atPath: path + "/" + entry, isDirectory: &isFolder)
            entries.append(entry + (isFolder.boolValue ? "/" : ""))
        }
        return entries.sorted()
    }

    func testANewFolderIsWrittenWholeAndMatchesTheOrdinaryPath() throws {
        let files = (0..<40).map { file("Sub\($0 % 3)/Deep/F\($0).swift", "let f\($0) = \($0)") } + [
            file("Top.swift", "let top = 1")
        ]
        let fresh = FileWriter(root: folder + "/Generated/Swift", managedExtensions: ["swift"])
        let report = try fresh.write(files, workers: 2)
        XCTAssertEqual(report.unchanged, 0)
        XCTAssertEqual(report.changes.map(\.path), files.map(\.path).sorted())
        XCTAssertEqual(Set(report.changes.map(\.change)), [.create])
        XCTAssertEqual(try tree(folder + "/Generated").filter { $0.hasPrefix(".") }, [], "no staging folder left")

        // The same files written into a folder that exists (one staged file and rename each) give the same tree.
        try manager.createDirectory(atPath: folder + "/Existing", withIntermediateDirectories: true)
        let ordinary = try FileWriter(root: folder + "/Existing", managedExtensions: ["swift"]).write(files, workers: 2)
        XCTAssertEqual(ordinary, report)
        XCTAssertEqual(try tree(folder + "/Generated/Swift"), try tree(folder + "/Existing"))
        for path in files.map(\.path) {
            XCTAssertEqual(
                manager.contents(atPath: folder + "/Generated/Swift/" + path),
                manager.contents(atPath: folder + "/Existing/" + path), path)
        }
        XCTAssertEqual(
            manager.contents(atPath: folder + "/Generated/Swift/Sub1/Deep/F7.swift").map { String(decoding: $0, as: UTF8.self) },
            FileWriter.header + "\n\nlet f7 = 7\n")

        // A second run finds the folder and changes nothing.
        let again = try fresh.write(files, workers: 2)
        XCTAssertFalse(again.hasChanges)
        XCTAssertEqual(again.unchanged, files.count)
    }

    func testAFileThatFailsMidWriteLeavesNoFolder() throws {
        var files = (0..<30).map { file("Sub\($0 % 2)/F\($0).swift", "let f\($0) = \($0)") }
        files.insert(file("Sub0/Bad.swift", "let bad = 1", header: false), at: 11)
        let writer = FileWriter(root: folder + "/out", managedExtensions: ["swift"])
        XCTAssertThrowsError(try writer.write(files, workers: 2)) { error in
            XCTAssertEqual(error as? FileWriterError, .missingHeader("Sub0/Bad.swift"))
        }
        XCTAssertFalse(manager.fileExists(atPath: folder + "/out"), "no output folder, not even half of one")
        XCTAssertEqual(try tree(folder), [], "the hidden folder beside it is removed with what was written into it")
    }

    func testAFolderMadeMeanwhileIsNotReplaced() throws {
        // Another process makes the output folder, with a file of its own, while this run renders: the
        // rename into place fails, the other process's folder stays as it made it, the staged tree goes.
        let out = folder + "/out"
        let manager = manager
        var files = (0..<20).map { file("F\($0).swift", "let f\($0) = \($0)") }
        files[19] = GeneratedFile(path: "F19.swift") {
            try? manager.createDirectory(atPath: out, withIntermediateDirectories: false)
            _ = manager.createFile(atPath: out + "/Theirs.txt", contents: Data("theirs\n".utf8))
            return Array((FileWriter.header + "\n\nlet f19 = 19\n").utf8)
        }
        let writer = FileWriter(root: out, managedExtensions: ["swift"])
        XCTAssertThrowsError(try writer.write(files, workers: 2)) { error in
            guard case .io(let path, _)? = error as? FileWriterError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, out)
        }
        XCTAssertEqual(try tree(folder), ["out/", "out/Theirs.txt"])
    }

    func testAnOutputFolderUnderAPlainFileIsNamedInTheError() throws {
        // `blocker` is a file: the hidden folder beside `blocker/Gen` cannot be made, and the error names the
        // configured output folder, not the hidden one; nothing is left behind.
        _ = manager.createFile(atPath: folder + "/blocker", contents: Data("x\n".utf8))
        let out = folder + "/blocker/Gen"
        let writer = FileWriter(root: out, managedExtensions: ["swift"])
        XCTAssertThrowsError(try writer.write([file("A.swift", "let a = 1")], workers: 1)) { error in
            guard case .io(let path, _)? = error as? FileWriterError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, out)
        }
        XCTAssertEqual(try tree(folder), ["blocker"])
    }

    func testAFileWhosePathIsAnotherFilesFolderIsRefusedBeforeAnythingIsMade() throws {
        let files = [file("A.swift", "let a = 1"), file("A.swift/B.swift", "let b = 1")]
        let writer = FileWriter(root: folder + "/out", managedExtensions: ["swift"])
        XCTAssertThrowsError(try writer.write(files, workers: 1)) { error in
            XCTAssertEqual(error as? FileWriterError, .notARegularFile("A.swift"))
        }
        XCTAssertEqual(try tree(folder), [])
    }

    func testStagingLeftByAnInterruptedRunIsReplaced() throws {
        let leftover = folder + "/.out.baton-staging-\(ProcessInfo.processInfo.processIdentifier)"
        try manager.createDirectory(atPath: leftover + "/Old/Deeper", withIntermediateDirectories: true)
        _ = manager.createFile(atPath: leftover + "/Old/Deeper/Stale.swift", contents: Data("x\n".utf8))
        let writer = FileWriter(root: folder + "/out", managedExtensions: ["swift"])
        _ = try writer.write([file("New.swift", "let n = 1")], workers: 1)
        XCTAssertEqual(try tree(folder), ["out/", "out/New.swift"])
    }
}
