import BatonTestSupport
import BatonWatch
import Foundation
import XCTest

/// `FileWatcher` on each backend this system has (inotify on Linux, kqueue on macOS) and on polling:
/// one test per file event, each expecting the changed paths in one batch.
final class FileWatcherTests: XCTestCase {
    /// The backends to test here: the system's, and polling.
    var backends: [Bool] { [false, true] }

    /// A scratch folder with a file, watched; `event` changes it; the batch reported.
    func changes(polling: Bool, timeout: Int32 = 3000, _ event: (Scratch) throws -> Void)
        throws -> (Set<String>, Scratch, FileWatcher.Backend)
    {
        let scratch = try Scratch()
        try scratch.write("Queries/A.graphql", "query A { a }\n")
        try scratch.write("Generated/A.swift", "// generated\n")
        let watcher = FileWatcher(
            folders: [scratch.path], ignoring: [scratch.path + "/Generated"], forcePolling: polling, quiet: 60,
            pollInterval: 50)
        if !polling {
            #if os(Linux)
                XCTAssertEqual(watcher.backend, .inotify)
            #elseif canImport(Darwin)
                XCTAssertEqual(watcher.backend, .kqueue)
            #endif
        }
        // Polling compares modification times: let the clock move past the setup's writes.
        usleep(20_000)
        try event(scratch)
        return (watcher.nextChanges(timeout: timeout), scratch, watcher.backend)
    }

    func testAWrittenFile() throws {
        for polling in backends {
            let (changed, scratch, backend) = try changes(polling: polling) {
                try $0.write("Queries/A.graphql", "query A { a b }\n")
            }
            XCTAssertTrue(changed.contains(scratch.path + "/Queries/A.graphql"), "\(backend): \(changed)")
        }
    }

    func testAFileWrittenInPieces() throws {
        for polling in backends {
            let (changed, scratch, backend) = try changes(polling: polling) { scratch in
                let handle = try XCTUnwrap(FileHandle(forWritingAtPath: scratch.path + "/Queries/A.graphql"))
                handle.write(Data("query A { ".utf8))
                usleep(20_000)
                handle.write(Data("b }\n".utf8))
                try handle.close()
            }
            XCTAssertTrue(changed.contains(scratch.path + "/Queries/A.graphql"), "\(backend): \(changed)")
        }
    }

    func testACreatedFile() throws {
        for polling in backends {
            let (changed, scratch, backend) = try changes(polling: polling) {
                try $0.write("Queries/B.graphql", "query B { b }\n")
            }
            XCTAssertTrue(changed.contains(scratch.path + "/Queries/B.graphql"), "\(backend): \(changed)")
        }
    }

    func testADeletedFile() throws {
        for polling in backends {
            let (changed, scratch, backend) = try changes(polling: polling) {
                try FileManager.default.removeItem(atPath: $0.path + "/Queries/A.graphql")
            }
            XCTAssertTrue(changed.contains(scratch.path + "/Queries/A.graphql"), "\(backend): \(changed)")
        }
    }

    func testARenamedFile() throws {
        for polling in backends {
            let (changed, scratch, backend) = try changes(polling: polling) {
                try FileManager.default.moveItem(
                    atPath: $0.path + "/Queries/A.graphql", toPath: $0.path + "/Queries/Z.graphql")
            }
            XCTAssertTrue(
                changed.isSuperset(of: [scratch.path + "/Queries/A.graphql", scratch.path + "/Queries/Z.graphql"]),
                "\(backend): \(changed)")
        }
    }

    func testANewFolderWithFiles() throws {
        for polling in backends {
            let (changed, scratch, backend) = try changes(polling: polling) { scratch in
                try scratch.write("Queries/New/Deeper/C.graphql", "query C { c }\n")
            }
            XCTAssertTrue(changed.contains(scratch.path + "/Queries/New/Deeper/C.graphql"), "\(backend): \(changed)")
        }
    }

    func testAFileInANewFolderAfterItsFirstBatch() throws {
        // The new folder is watched from its first event on: a later file in it is seen.
        for polling in backends {
            let scratch = try Scratch()
            try scratch.write("Queries/A.graphql", "query A { a }\n")
            let watcher = FileWatcher(folders: [scratch.path], forcePolling: polling, quiet: 60, pollInterval: 50)
            try FileManager.default.createDirectory(
                atPath: scratch.path + "/Queries/Later", withIntermediateDirectories: true)
            XCTAssertTrue(
                watcher.nextChanges(timeout: 3000).contains(scratch.path + "/Queries/Later"), "\(watcher.backend)")
            try scratch.write("Queries/Later/D.graphql", "query D { d }\n")
            XCTAssertTrue(
                watcher.nextChanges(timeout: 3000).contains(scratch.path + "/Queries/Later/D.graphql"),
                "\(watcher.backend)")
        }
    }

    func testIgnoredFoldersAndQuietTimes() throws {
        for polling in backends {
            let (changed, _, backend) = try changes(polling: polling, timeout: 400) {
                try $0.write("Generated/A.swift", "// generated again\n")
                try $0.write("Generated/B.swift", "// new\n")
            }
            XCTAssertEqual(changed, [], "\(backend)")
        }
    }
}
