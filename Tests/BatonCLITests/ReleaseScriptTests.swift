import BatonTestSupport
import Foundation
import XCTest

/// `scripts/release.sh` in a scratch repository laid out like Baton's (the files it reads and
/// writes): its checks refuse a release that is not ready, and a release tags HEAD and pins the
/// pre-commit snippets to that commit. `--no-bundle`: no release build.
final class ReleaseScriptTests: XCTestCase {
    func sh(_ arguments: [String], in directory: String) throws -> (Int32, String) {
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": directory, "GIT_AUTHOR_NAME": "Baton", "GIT_AUTHOR_EMAIL": "b@example.com",
            "GIT_COMMITTER_NAME": "Baton", "GIT_COMMITTER_EMAIL": "b@example.com",
        ]
        let run = try Subprocess.run("/usr/bin/env", arguments, in: directory, environment: environment)
        return (run.status, run.output)
    }

    func testReleaseTagsHeadAndPinsTheSnippets() throws {
        try Unavailable.require(FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is not installed")
        let scratch = try Scratch()
        let script = try String(
            contentsOf: TestPaths.repository.appendingPathComponent("scripts/release.sh"), encoding: .utf8)
        try scratch.write("scripts/release.sh", script)
        try scratch.write("Sources/BatonCLI/BatonCLI.swift", "    package static let version = \"9.9.9\"\n")
        try scratch.write("CHANGELOG.md", "# Changelog\n\n## 9.9.8\n")
        try scratch.write("README.md", "```yaml\n  - repo: x\n    rev: 0000000  # Baton 9.9.8\n```\n")
        try scratch.write(".pre-commit-hooks.yaml", "#     rev: 0000000  # Baton 9.9.8\n- id: baton-check\n")
        _ = try sh(["git", "init", "-q"], in: scratch.path)
        _ = try sh(["git", "add", "."], in: scratch.path)
        _ = try sh(["git", "commit", "-qm", "start"], in: scratch.path)

        let (refused, why) = try sh(["sh", "scripts/release.sh", "9.9.9", "--no-bundle"], in: scratch.path)
        XCTAssertEqual(refused, 1, why)
        XCTAssertTrue(why.contains("CHANGELOG.md has no \"## 9.9.9\" section"), why)

        try scratch.write("CHANGELOG.md", "# Changelog\n\n## 9.9.9\n\n## 9.9.8\n")
        _ = try sh(["git", "commit", "-qam", "Release 9.9.9"], in: scratch.path)
        let head = try sh(["git", "rev-parse", "HEAD"], in: scratch.path).1.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let (dry, dryText) = try sh(["sh", "scripts/release.sh", "9.9.9", "--dry-run"], in: scratch.path)
        XCTAssertEqual(dry, 0, dryText)
        XCTAssertTrue(dryText.contains("ready: would tag \(head) v9.9.9"), dryText)
        let (status, text) = try sh(["sh", "scripts/release.sh", "9.9.9", "--no-bundle"], in: scratch.path)
        XCTAssertEqual(status, 0, text)
        XCTAssertEqual(
            try sh(["git", "rev-parse", "v9.9.9^{commit}"], in: scratch.path).1, head + "\n", "the tag is on HEAD")
        let readme = try String(contentsOfFile: scratch.path + "/README.md", encoding: .utf8)
        XCTAssertTrue(readme.contains("    rev: \(head)  # Baton 9.9.9\n"), readme)
        let hooks = try String(contentsOfFile: scratch.path + "/.pre-commit-hooks.yaml", encoding: .utf8)
        XCTAssertTrue(hooks.hasPrefix("#     rev: \(head)  # Baton 9.9.9\n"), hooks)
        XCTAssertEqual(try sh(["git", "status", "--porcelain"], in: scratch.path).1, "", "the pin is committed")
        let (again, againText) = try sh(["sh", "scripts/release.sh", "9.9.9", "--no-bundle"], in: scratch.path)
        XCTAssertEqual(again, 1, againText)
        XCTAssertTrue(againText.contains("the tag v9.9.9 exists already"), againText)
    }
}
