import BatonCLI
import Foundation
import XCTest

/// What every `baton` process loads before it does any work (Docs/Performance.md, "check, fifth
/// round"): on Linux, no Foundation at all. The whole of Foundation (ICU and its data) and
/// FoundationNetworking (libcurl and its libraries) cost megabytes of memory in every run, and its essentials
/// alone 3 MiB and milliseconds of start; the HTTP stack lives in `baton-fetch-schema`, beside `baton`, which
/// `baton fetch-schema` runs.
final class ProcessBaselineTests: XCTestCase {
    /// The shared libraries `ldd` lists for an executable, by file name.
    private func libraries(of executable: URL) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [executable.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            $0.split(separator: " ").first.map { String($0.trimmingCharacters(in: .whitespaces)) }
        }
    }

    func testBatonLoadsNeitherFoundationNorAnHTTPStack() throws {
        #if !os(Linux)
            throw XCTSkip("FoundationEssentials is a library of its own on Linux only")
        #else
            let baton = try BatonProcess.executable()
            let loaded = try libraries(of: baton)
            for library in [
                "libFoundationEssentials.so", "libFoundation.so", "libFoundationNetworking.so", "libcurl.so.4",
                "lib_FoundationICU.so",
            ] {
                XCTAssertFalse(loaded.contains(library), "baton loads \(library): \(loaded)")
            }
            let helper = baton.deletingLastPathComponent().appendingPathComponent("baton-fetch-schema")
            XCTAssertTrue(try libraries(of: helper).contains("libFoundationNetworking.so"))
        #endif
    }

    /// The process (`CommandContext.process()`) leaves what a one-shot command built for `exit` to take back
    /// instead of freeing it object by object; a test's context frees it as usual.
    func testTheProcessKeepsACommandsResultsUntilExitAndATestsContextFreesThem() {
        final class Result {}
        weak var kept: Result?
        weak var freed: Result?
        let test = CommandContext(
            standardOutput: OutputStream(capturingAsTerminal: false),
            standardError: OutputStream(capturingAsTerminal: false), workingDirectory: "/", environment: [:])
        XCTAssertFalse(test.keepsResultsUntilExit)
        do {
            let result = Result()
            freed = result
            XCTAssertFalse(test.keepUntilExit(result))
        }
        XCTAssertNil(freed)
        let process = CommandContext.process()
        XCTAssertTrue(process.keepsResultsUntilExit)
        do {
            let result = Result()
            kept = result
            XCTAssertTrue(process.keepUntilExit([result]))
        }
        XCTAssertNotNil(kept)
    }
}
