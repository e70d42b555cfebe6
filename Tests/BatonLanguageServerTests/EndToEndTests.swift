import BatonTestSupport
import Foundation
import XCTest

/// `baton lsp` under real clients: the pytest-lsp suite in `EndToEnd/` (pygls and lsprotocol, PyPI), and Neovim
/// headless (Debian's `neovim`) with `EndToEnd/neovim.lua`. Both run the built `baton`; `.ci/install.d/lsp.sh`
/// installs them. Missing, a test skips locally with the reason and fails in CI.
final class EndToEndTests: XCTestCase {
    static let folder = TestPaths.repository.appendingPathComponent("Tests/BatonLanguageServerTests/EndToEnd")

    /// The built `baton`, next to the test bundle or in `.build/debug`.
    static func baton() throws -> String {
        var candidates: [URL] = []
        for bundle in [Bundle.main] + Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("baton"))
        }
        candidates.append(TestPaths.repository.appendingPathComponent(".build/debug/baton"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Unavailable.error("the baton executable is not built next to the tests; run `swift build` first")
        }
        return found.path
    }

    struct Run {
        var status: Int32
        var output: String
    }

    /// Runs a program with stdout and stderr together, stopped after `timeout` seconds.
    static func run(_ arguments: [String], in directory: URL, environment: [String: String], timeout: Double) throws
        -> Run
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    func testPytestLSPSuite() throws {
        let baton = try Self.baton()
        let probe = try Self.run(
            ["python3", "-c", "import pytest, pytest_lsp"], in: Self.folder, environment: [:], timeout: 60)
        try Unavailable.require(
            probe.status == 0, "pytest-lsp is not installed (bash .ci/install.d/lsp.sh): \(probe.output)")
        let run = try Self.run(
            ["python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", Self.folder.path], in: Self.folder,
            environment: ["BATON_BINARY": baton], timeout: 300)
        XCTAssertEqual(run.status, 0, run.output)
    }

    func testNeovimHeadlessShowsChecksDiagnosticsAtTheirColumns() throws {
        let baton = try Self.baton()
        let nvim = try Unavailable.executable("nvim", install: "install Debian's neovim (bash .ci/install.d/lsp.sh)")
        let project = try ScratchProject()
        defer { project.remove() }
        let output = project.root + "/diagnostics.txt"
        let run = try Self.run(
            [nvim, "--headless", "--clean", "-c", "luafile " + Self.folder.appendingPathComponent("neovim.lua").path],
            in: URL(fileURLWithPath: project.root),
            environment: [
                "BATON_BINARY": baton, "BATON_PROJECT": project.root, "BATON_FILE": "Sources/Screen.swift",
                "BATON_OUTPUT": output,
            ], timeout: 120)
        let shown = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        XCTAssertEqual(run.status, 0, run.output)

        // What `baton check --format json` says of the same file, its UTF-16 columns turned into the byte
        // columns Neovim holds.
        let check = try Self.run(
            [baton, "check", "--format", "json"], in: URL(fileURLWithPath: project.root), environment: [:],
            timeout: 60)
        let report = try JSONSerialization.jsonObject(with: Data(check.output.utf8)) as? [String: Any]
        let lines = ScratchProject.swift.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let expected = (report?["diagnostics"] as? [[String: Any]] ?? []).compactMap { diagnostic -> String? in
            guard (diagnostic["file"] as? String) == "Sources/Screen.swift", let line = diagnostic["line"] as? Int,
                let column = diagnostic["column"] as? Int, let endLine = diagnostic["endLine"] as? Int,
                let endColumn = diagnostic["endColumn"] as? Int
            else { return nil }
            func bytes(_ line: Int, _ column: Int) -> Int {
                let text = lines[line - 1]
                let index = String.Index(utf16Offset: column - 1, in: text)
                return text.utf8.distance(from: text.startIndex, to: index)
            }
            return
                "\(line - 1):\(bytes(line, column)):\(endLine - 1):\(bytes(endLine, endColumn)):\(diagnostic["rule"] ?? ""):\(diagnostic["message"] ?? "")"
        }
        XCTAssertFalse(expected.isEmpty, check.output)
        XCTAssertEqual(shown.split(separator: "\n").map(String.init), expected, run.output)
        // The emoji and CJK text before the literal: byte column 62, UTF-16 column 54 (0-based).
        XCTAssertTrue(shown.hasPrefix("1:62:1:66:fields-on-correct-type:"), shown)
    }
}
