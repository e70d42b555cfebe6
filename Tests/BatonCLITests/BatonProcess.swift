import Foundation
import XCTest

/// Runs the built `baton` executable, capturing stdout, stderr and the exit status.
enum BatonProcess {
    /// The `baton` executable in the build products folder next to the test bundle.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        for bundle in [Bundle.main] + Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("baton"))
            candidates.append(bundle.bundleURL.appendingPathComponent("baton"))
        }
        candidates.append(CheckEndToEndTests.packageRoot.appendingPathComponent(".build/debug/baton"))
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw XCTSkip("the baton executable is not built next to the tests; run `swift build` first")
    }

    struct Run: Equatable, CustomStringConvertible {
        var stdout: String
        var stderr: String
        var status: Int32
        var description: String { "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    static func run(
        _ arguments: [String], in directory: String, environment: [String: String] = [:], executable program: URL? = nil
    ) throws -> Run {
        let process = Process()
        process.executableURL = try program ?? executable()
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a large output cannot block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self),
            status: process.terminationStatus)
    }

}
