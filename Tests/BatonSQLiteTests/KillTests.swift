import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process killed (SIGKILL) at an arbitrary moment while it writes the cache reopens to the last step it wrote, or
/// the one it was writing when it died, never a torn record: `BatonSQLiteKillHelper write` writes steps (one store
/// batch each) until it is killed, `BatonSQLiteKillHelper verify` compares the cache with a replay of the steps.
final class KillTests: XCTestCase {
    /// The helper executable, built beside the test bundle.
    static var helper: URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle(for: KillTests.self).bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        return candidates.map { $0.appendingPathComponent("BatonSQLiteKillHelper") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    func testAKilledWriterReopensToTheLastStepItWrote() throws {
        guard let helper = Self.helper else {
            if ProcessInfo.processInfo.environment["CI"] != nil {
                return XCTFail("BatonSQLiteKillHelper was not built beside the tests")
            }
            throw XCTSkip("BatonSQLiteKillHelper was not built beside the tests (swift build builds it)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = directory.appendingPathComponent("cache.sqlite")
        // Kill moments (seconds after the first step), from the first batches to a steady stream; `BATON_KILL_SEED`
        // shifts them, to try other moments.
        let seed = Int(ProcessInfo.processInfo.environment["BATON_KILL_SEED"] ?? "") ?? 0
        let shift = Double(seed % 97) / 1000
        let moments = [0.01, 0.21, 0.07, 0.34, 0.13, 0.27].map { $0 + shift }
        var lastWritten = 0
        var killsMidWrite = 0
        for round in 0..<6 {
            let written = try writeUntilKilled(helper, cache, after: moments[round])
            XCTAssertGreaterThan(written.count, 0, "round \(round): the writer wrote nothing before the kill")
            let last = written.last ?? lastWritten
            XCTAssertEqual(written.first, lastWritten + 1, "round \(round): the writer resumed after the last step")
            let verdict = try run(helper, ["verify", cache.path])
            guard verdict.hasPrefix("consistent "), let step = Int(verdict.dropFirst("consistent ".count)) else {
                return XCTFail("round \(round): \(verdict)")
            }
            // The step it was writing when it died either committed or did not; nothing in between.
            XCTAssertTrue(step == last || step == last + 1, "round \(round): at step \(step), wrote \(last)")
            if step == last + 1 { killsMidWrite += 1 }
            lastWritten = step
        }
        FileHandle.standardError.write(
            Data("kill test: 6 kills, \(lastWritten) steps, \(killsMidWrite) kills after a commit's write\n".utf8))
    }

    /// Starts `write`, kills it with SIGKILL `seconds` after it reported its first step (so the kill lands while
    /// it writes, however slowly it starts), and returns the steps it reported.
    private func writeUntilKilled(_ helper: URL, _ cache: URL, after seconds: Double) throws -> [Int] {
        let process = Process()
        process.executableURL = helper
        process.arguments = ["write", cache.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var received = Data()
        let deadline = Date().addingTimeInterval(30)
        while !String(decoding: received, as: UTF8.self).contains("step "), Date() < deadline, process.isRunning {
            received += output.fileHandleForReading.availableData
        }
        Thread.sleep(forTimeInterval: seconds)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        received += output.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: received, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.hasPrefix("step ") ? Int(line.dropFirst(5)) : nil
        }
    }

    private func run(_ helper: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = helper
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
