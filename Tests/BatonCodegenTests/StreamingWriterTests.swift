import Foundation
import XCTest

@testable import BatonCodegen

/// The writer renders each deferred file once, as it writes it, stages what changed and moves it
/// into place only when every file is staged (`FileWriter.write`); `preflight` refuses what
/// `write` would refuse without rendering anything.
final class StreamingWriterTests: XCTestCase {
    var folder = ""
    let manager = FileManager.default

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "baton-streaming-" + UUID().uuidString
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? manager.removeItem(atPath: folder)
    }

    /// Counts renders, from any thread.
    final class Renders: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var total: Int { lock.withLock { count } }
    }

    func deferred(_ path: String, _ body: String, header: Bool = true, renders: Renders) -> GeneratedFile {
        GeneratedFile(path: path, definition: "o:" + path) {
            renders.add()
            return Array(((header ? FileWriter.header + "\n\n" : "") + body + "\n").utf8)
        }
    }

    func read(_ relative: String) -> String? {
        manager.contents(atPath: folder + "/out/" + relative).map { String(decoding: $0, as: UTF8.self) }
    }

    func hiddenEntries() throws -> [String] {
        try manager.contentsOfDirectory(atPath: folder + "/out").filter { $0.hasPrefix(".") }
    }

    func testEachDeferredFileIsRenderedOnceWhenWrittenAndNotBefore() throws {
        let renders = Renders()
        let files = (0..<40).map { deferred("Sub\($0 % 3)/F\($0).swift", "let f\($0) = \($0)", renders: renders) }
        let writer = FileWriter(root: folder + "/out", managedExtensions: ["swift"])
        try writer.preflight(files)
        XCTAssertEqual(renders.total, 0, "preflight renders nothing")
        XCTAssertFalse(manager.fileExists(atPath: folder + "/out"), "preflight creates nothing")

        let first = try writer.write(files, workers: 2)
        XCTAssertEqual(renders.total, 40, "each file rendered exactly once")
        XCTAssertEqual(first.changes.count, 40)
        XCTAssertEqual(Set(first.changes.map(\.change)), [.create])
        XCTAssertEqual(read("Sub1/F7.swift"), FileWriter.header + "\n\nlet f7 = 7\n")
        XCTAssertEqual(try hiddenEntries(), [], "no staging folder or temporary file is left")

        let date = try manager.attributesOfItem(atPath: folder + "/out/Sub0/F0.swift")[.modificationDate] as? Date
        let second = try writer.write(files, workers: 2)
        XCTAssertEqual(renders.total, 80)
        XCTAssertFalse(second.hasChanges)
        XCTAssertEqual(second.unchanged, 40)
        XCTAssertEqual(
            try manager.attributesOfItem(atPath: folder + "/out/Sub0/F0.swift")[.modificationDate] as? Date, date)

        // Check mode renders files that exist (to compare them) and writes nothing.
        let changed = files.enumerated().map { index, file in
            index == 5 ? deferred(file.path, "let changed = 1", renders: renders) : file
        }
        let check = try writer.write(changed, check: true, workers: 2)
        XCTAssertEqual(check.changes.map(\.path), [changed[5].path])
        XCTAssertEqual(check.changes.map(\.change), [.update])
        XCTAssertEqual(read(changed[5].path), FileWriter.header + "\n\nlet f5 = 5\n")
        XCTAssertEqual(try hiddenEntries(), [])
    }

    func testAFileThatFailsLeavesEveryFileAsItWas() throws {
        let renders = Renders()
        let writer = FileWriter(root: folder + "/out", managedExtensions: ["swift"])
        let old = (0..<20).map { deferred("F\($0).swift", "let old = \($0)", renders: renders) }
        _ = try writer.write(old, workers: 2)

        var new = (0..<20).map { deferred("F\($0).swift", "let new = \($0)", renders: renders) }
        new.append(deferred("Z/Late.swift", "let late = 1", header: false, renders: renders))
        XCTAssertThrowsError(try writer.write(new, workers: 2)) { error in
            XCTAssertEqual(error as? FileWriterError, .missingHeader("Z/Late.swift"))
        }
        for index in 0..<20 {
            XCTAssertEqual(read("F\(index).swift"), FileWriter.header + "\n\nlet old = \(index)\n")
        }
        XCTAssertFalse(manager.fileExists(atPath: folder + "/out/Z/Late.swift"))
        XCTAssertEqual(try hiddenEntries(), [], "the staging folder is removed")
    }

    func testPreflightRefusesWhatWriteWouldRefuseWithoutRendering() throws {
        let renders = Renders()
        let writer = FileWriter(root: folder + "/out", managedExtensions: ["swift"])
        try manager.createDirectory(atPath: folder + "/out/B.swift", withIntermediateDirectories: true)
        let files = [
            deferred("A.swift", "let a = 1", renders: renders), deferred("B.swift", "let b = 1", renders: renders),
        ]
        XCTAssertThrowsError(try writer.preflight(files)) { error in
            XCTAssertEqual(error as? FileWriterError, .notARegularFile("B.swift"))
        }
        XCTAssertThrowsError(try writer.preflight([files[0], files[0]])) { error in
            XCTAssertEqual(error as? FileWriterError, .duplicatePath("A.swift"))
        }
        XCTAssertThrowsError(try writer.write(files)) { error in
            XCTAssertEqual(error as? FileWriterError, .notARegularFile("B.swift"))
        }
        XCTAssertEqual(renders.total, 0)
        XCTAssertFalse(manager.fileExists(atPath: folder + "/out/A.swift"))
    }
    func testARunThatChangesNothingCreatesNothingInTheFolder() throws {
        let renders = Renders()
        let writer = FileWriter(root: folder + "/out", managedExtensions: ["swift"])
        let files = (0..<20).map { deferred("F\($0).swift", "let f\($0) = \($0)", renders: renders) }
        _ = try writer.write(files, workers: 2)
        // A build system watching the folder sees a change in its modification time.
        let past = Date(timeIntervalSinceReferenceDate: 0)
        try manager.setAttributes([.modificationDate: past], ofItemAtPath: folder + "/out")

        let again = try writer.write(files, workers: 2)
        XCTAssertFalse(again.hasChanges)
        XCTAssertEqual(try manager.attributesOfItem(atPath: folder + "/out")[.modificationDate] as? Date, past)
        XCTAssertEqual(try hiddenEntries(), [])

        // A run that does change a file still stages it and leaves no staging folder.
        var changed = files
        changed[3] = deferred("F3.swift", "let changed = 3", renders: renders)
        let report = try writer.write(changed, workers: 2)
        XCTAssertEqual(report.changes.map(\.path), ["F3.swift"])
        XCTAssertEqual(read("F3.swift"), FileWriter.header + "\n\nlet changed = 3\n")
        XCTAssertEqual(try hiddenEntries(), [])
    }

    func testAFailedMoveIntoPlaceLeavesNoStagingFolder() throws {
        let renders = Renders()
        let writer = FileWriter(root: folder + "/out", managedExtensions: ["swift"])
        try manager.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        let out = folder + "/out"
        let manager = manager
        var files = (0..<20).map { deferred("F\($0).swift", "let f\($0) = \($0)", renders: renders) }
        // Rendering the last file puts a folder where the first goes, after the writer looked:
        // every file is staged, then moving the first into place fails.
        files[19] = GeneratedFile(path: "F19.swift") {
            try? manager.createDirectory(atPath: out + "/F0.swift", withIntermediateDirectories: false)
            return Array((FileWriter.header + "\n\nlet f19 = 19\n").utf8)
        }
        XCTAssertThrowsError(try writer.write(files, workers: 2)) { error in
            guard case .io(let path, _)? = error as? FileWriterError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "F0.swift")
        }
        XCTAssertEqual(try hiddenEntries(), [], "the staging folder is removed")
    }

    /// `preflight` returns the stale files it found, sorted; `write` given them removes exactly those
    /// and does not list the folder again (a file made stale after the preflight stays).
    func testPreflightsStaleFilesAreTheOnesWriteRemoves() throws {
        let renders = Renders()
        let writer = FileWriter(root: folder + "/out", managedExtensions: ["swift"])
        let all = (0..<6).map { deferred("Sub\($0 % 2)/F\($0).swift", "let f\($0) = \($0)", renders: renders) }
        _ = try writer.write(all, workers: 1)
        try Data("let mine = 1\n".utf8).write(to: URL(fileURLWithPath: folder + "/out/Sub0/Mine.swift"))
        let kept = Array(all.prefix(3))
        let stale = try writer.preflight(kept)
        XCTAssertEqual(stale, ["Sub0/F4.swift", "Sub1/F3.swift", "Sub1/F5.swift"], "sorted; a file without the header is not ours")
        // Listed by a full walk, `write` without the list finds the same.
        let again = try writer.write(kept, check: true, workers: 1)
        XCTAssertEqual(again.changes.filter { $0.change == .remove }.map(\.path), stale)

        try Data((FileWriter.header + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/out/Sub1/Late.swift"))
        let report = try writer.write(kept, workers: 1, preflighted: true, stale: stale)
        XCTAssertEqual(report.changes.map(\.path), stale)
        XCTAssertEqual(Set(report.changes.map(\.change)), [.remove])
        for path in stale { XCTAssertNil(read(path), path) }
        XCTAssertNotNil(read("Sub1/Late.swift"), "made after the preflight: not listed, not removed")
        XCTAssertNotNil(read("Sub0/Mine.swift"))
        XCTAssertNotNil(read("Sub0/F0.swift"))
    }
}
