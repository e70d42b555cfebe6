import BatonTestSupport
import Foundation
import XCTest

/// `baton check --watch` and `gen --watch` as a process: a report per change on stderr, running on
/// after errors, stopped by a signal; machine formats refused.
final class WatchEndToEndTests: XCTestCase {
    /// A running `baton … --watch`, its stderr collected.
    final class Watching: @unchecked Sendable {
        let process = Process()
        private let lock = NSLock()
        private var collected = Data()

        init(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws {
            process.executableURL = try BatonProcess.executable()
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            var env = ProcessInfo.processInfo.environment
            for (key, value) in environment { env[key] = value }
            process.environment = env
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self else { return }
                self.lock.lock()
                self.collected.append(data)
                self.lock.unlock()
            }
            try process.run()
        }

        var text: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: collected, as: UTF8.self)
        }

        /// Waits until stderr has `count` lines containing `needle`.
        func waitFor(_ needle: String, count: Int = 1, seconds: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if text.components(separatedBy: needle).count - 1 >= count { return true }
                usleep(20_000)
            }
            return false
        }

        func stop() {
            if process.isRunning { process.interrupt() }
            process.waitUntilExit()
        }
    }

    func project() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("schema.graphqls", "type Query { hello: String }\n")
        try scratch.write(
            "baton.json", #"{"schema": "schema.graphqls", "output": {"swift": {"path": "Generated"}}}"#)
        try scratch.write("Q.graphql", "query Q { hello }\n")
        return scratch
    }

    func testCheckWatchReportsEachChange() throws {
        for polling in ["0", "1"] {
            let scratch = try project()
            let watch = try Watching(
                ["check", "--watch"], in: scratch.path, environment: ["BATON_WATCH_POLL": polling])
            defer { watch.stop() }
            XCTAssertTrue(watch.waitFor("Ctrl-C stops."), watch.text)
            XCTAssertTrue(watch.text.contains(polling == "1" ? "(polling)" : "(inotify)") || !isLinux, watch.text)
            try scratch.write("Q.graphql", "query Q { helo }\n")
            XCTAssertTrue(watch.waitFor("Q.graphql: 1 error"), watch.text)
            XCTAssertTrue(watch.text.contains(#"Q.graphql:1:11: error: Cannot query field "helo""#), watch.text)
            try scratch.write("Q.graphql", "query Q { hello }\n")
            XCTAssertTrue(watch.waitFor("Q.graphql: no problems in 1 document"), watch.text)
            XCTAssertTrue(watch.process.isRunning)
        }
    }

    /// A warning the last report printed is not printed again when a later save reaches its
    /// document; the report line says how many were left out. Errors are always printed.
    func testWarningsAlreadyShownAreNotRepeated() throws {
        let scratch = try Scratch()
        try scratch.write("schema.graphqls", "type Query { hello: String old: String @deprecated(reason: \"No.\") }\n")
        try scratch.write("baton.json", #"{"schema": "schema.graphqls"}"#)
        try scratch.write("F.graphql", "fragment F on Query { old }\n")
        try scratch.write("Q.graphql", "query Q { ...F hello }\n")
        let watch = try Watching(["check", "--watch"], in: scratch.path)
        defer { watch.stop() }
        XCTAssertTrue(watch.waitFor("Ctrl-C stops."), watch.text)
        XCTAssertEqual(watch.text.components(separatedBy: "[deprecated-usage]").count - 1, 1, watch.text)
        try scratch.write("Q.graphql", "query Q { ...F helo }\n")
        XCTAssertTrue(watch.waitFor("Q.graphql: 1 error, 1 warning (1 warning as before, not repeated)"), watch.text)
        XCTAssertEqual(watch.text.components(separatedBy: "[deprecated-usage]").count - 1, 1, watch.text)
        try scratch.write("Q.graphql", "query Q { ...F hello }\n")
        XCTAssertTrue(watch.waitFor("Q.graphql: 1 warning (1 warning as before, not repeated)"), watch.text)
        XCTAssertEqual(watch.text.components(separatedBy: "[deprecated-usage]").count - 1, 1, watch.text)
    }

    func testGenWatchRewritesTheGeneratedFile() throws {
        let scratch = try project()
        let watch = try Watching(["gen", "--watch"], in: scratch.path)
        defer { watch.stop() }
        XCTAssertTrue(watch.waitFor("Ctrl-C stops."), watch.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.path + "/Generated/Q.graphql.swift"))
        try scratch.write("R.graphql", "query R { hello }\n")
        XCTAssertTrue(watch.waitFor("R.graphql: no problems in 2 documents, 1 file written"), watch.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.path + "/Generated/R.graphql.swift"))
        // Its own writes are no change: no further report.
        usleep(300_000)
        XCTAssertEqual(watch.text.components(separatedBy: "] ").count - 1, 2, watch.text)
    }

    func testMachineFormatsAreRefused() throws {
        let scratch = try project()
        let run = try BatonProcess.run(["check", "--watch", "--format", "json"], in: scratch.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(
            run.stderr, "Error: --watch prints a report per change; use it with --format text or pretty, not json.\n")
        let gen = try BatonProcess.run(["gen", "--watch", "--check"], in: scratch.path)
        XCTAssertEqual(gen.status, 2)
        XCTAssertEqual(gen.stderr, "Error: --watch writes files; leave out --check.\n")
    }

    var isLinux: Bool {
        #if os(Linux)
            return true
        #else
            return false
        #endif
    }
}
