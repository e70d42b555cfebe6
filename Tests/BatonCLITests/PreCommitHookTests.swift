import BatonCLI
import BatonTestSupport
import Foundation
import XCTest

/// Issue 13's observation 6: the pre-commit hook definition checks the whole project on every
/// commit, and the README's plain git hook checks the staged snapshot with a `baton` found on PATH.
final class PreCommitHookTests: XCTestCase {
    static let root = CheckEndToEndTests.packageRoot

    /// The `baton-check` entry of `.pre-commit-hooks.yaml`, as `key: value` pairs.
    func hookDefinition() throws -> [String: String] {
        let text = try String(
            contentsOf: Self.root.appendingPathComponent(".pre-commit-hooks.yaml"), encoding: .utf8)
        var entry: [String: String] = [:]
        var inHook = false
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("- id:") {
                inHook = trimmed == "- id: baton-check"
                continue
            }
            guard inHook, let colon = trimmed.firstIndex(of: ":") else { continue }
            entry[String(trimmed[..<colon])] = trimmed[trimmed.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        return entry
    }

    func testHookDefinitionChecksTheWholeProjectOnEveryCommit() throws {
        let hook = try hookDefinition()
        XCTAssertEqual(hook["entry"], "scripts/pre-commit-check.sh")
        XCTAssertEqual(hook["language"], "script")
        XCTAssertEqual(hook["pass_filenames"], "false", "a schema-only commit must check every document")
        XCTAssertEqual(hook["always_run"], "true", "a commit touching no document must still be checked")
        XCTAssertNil(hook["files"], "no file filter: any commit can break the project")
    }

    /// The README's hook script (the `sh` block after the `baton-pre-commit-hook` marker).
    func readmeHook() throws -> String {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = try XCTUnwrap(readme.range(of: "<!-- baton-pre-commit-hook -->\n```sh\n"), "README marker")
        let rest = readme[marker.upperBound...]
        let end = try XCTUnwrap(rest.range(of: "```\n"))
        return String(rest[..<end.lowerBound])
    }

    func git(_ arguments: [String], in directory: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=Baton", "-c", "user.email=baton@example.com"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "git \(arguments.joined(separator: " "))")
    }

    /// Runs the hook in `directory` with `path` as PATH.
    func runHook(_ script: String, in directory: String, path: String) throws -> (Int32, String) {
        let hook = directory + "/.git/hooks/pre-commit"
        try script.write(toFile: hook, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [hook]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ["PATH": path, "TMPDIR": NSTemporaryDirectory()]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }

    func testReadmeHookChecksTheStagedSnapshot() throws {
        try Unavailable.require(FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "git is not installed")
        let baton = try BatonProcess.executable()
        let script = try readmeHook()
        let scratch = try Scratch()
        try scratch.write("schema.graphqls", "type Query { me: User }\ntype User { id: ID! name: String }\n")
        try scratch.write("baton.json", #"{"schema": "schema.graphqls"}"#)
        try scratch.write("UserName.graphql", "fragment UserName on User { name }\n")
        try scratch.write("Me.graphql", "query Me { me { id ...UserName } }\n")
        try git(["init", "-q"], in: scratch.path)
        try git(["add", "."], in: scratch.path)
        try git(["commit", "-q", "-m", "start"], in: scratch.path)
        let path = baton.deletingLastPathComponent().path + ":/usr/bin:/bin"

        let (clean, cleanErrors) = try runHook(script, in: scratch.path, path: path)
        XCTAssertEqual(clean, 0, cleanErrors)

        // Removing the fragment Me spreads breaks Me, though no remaining document changed.
        try git(["rm", "-q", "UserName.graphql"], in: scratch.path)
        let (removed, removedErrors) = try runHook(script, in: scratch.path, path: path)
        XCTAssertEqual(removed, 1, removedErrors)
        XCTAssertTrue(removedErrors.contains("Unknown fragment \"UserName\""), removedErrors)
        try git(["reset", "-q", "--hard"], in: scratch.path)

        // A broken schema is staged while the working tree has it fixed: the commit is what counts.
        try scratch.write("schema.graphqls", "type Query { me: User }\ntype User { id: ID! }\n")
        try git(["add", "schema.graphqls"], in: scratch.path)
        try scratch.write("schema.graphqls", "type Query { me: User }\ntype User { id: ID! name: String }\n")
        let (staged, stagedErrors) = try runHook(script, in: scratch.path, path: path)
        XCTAssertEqual(staged, 1, stagedErrors)
        XCTAssertTrue(stagedErrors.contains("UserName.graphql:1:29"), stagedErrors)

        // Without baton on PATH the hook says how to get one.
        let (missing, missingErrors) = try runHook(script, in: scratch.path, path: "/usr/bin:/bin")
        XCTAssertEqual(missing, 2, missingErrors)
        XCTAssertTrue(missingErrors.contains("scripts/install.sh"), missingErrors)
    }

    /// The hook's script: `baton check` with the `baton` on PATH when there is one; a build only when
    /// there is none. (Fake `baton` and `swift` programs record how they were called.)
    func testHookScriptUsesBatonOnPathAndBuildsOnlyWithoutOne() throws {
        let scratch = try Scratch()
        let log = scratch.path + "/calls.log"
        try scratch.write("bin/baton", "#!/bin/sh\necho \"path baton $*\" >> \(log)\n")
        try scratch.write(
            "tools/swift",
            """
            #!/bin/sh
            echo "swift $*" >> \(log)
            case "$*" in *--show-bin-path*) echo \(scratch.path)/built ;; esac
            """)
        try scratch.write("built/baton", "#!/bin/sh\necho \"built baton $*\" >> \(log)\n")
        for program in ["bin/baton", "tools/swift", "built/baton"] {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o755], ofItemAtPath: scratch.path + "/" + program)
        }
        let script = Self.root.appendingPathComponent("scripts/pre-commit-check.sh").path
        func run(path: String) throws -> (Int32, String, String) {
            try? FileManager.default.removeItem(atPath: log)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [script]
            process.environment = ["PATH": path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "", stderr)
        }
        let (onPath, onPathCalls, onPathErrors) = try run(
            path: scratch.path + "/bin:" + scratch.path + "/tools:/usr/bin:/bin")
        XCTAssertEqual(onPath, 0)
        XCTAssertEqual(onPathCalls, "path baton check\n")
        XCTAssertEqual(onPathErrors, "")
        let (built, builtCalls, builtErrors) = try run(path: scratch.path + "/tools:/usr/bin:/bin")
        XCTAssertEqual(built, 0)
        // A build says so before it starts, with how long it takes, and how long it took.
        XCTAssertTrue(builtErrors.hasPrefix("baton-check: no baton on PATH, so building one"), builtErrors)
        XCTAssertTrue(builtErrors.contains("a few minutes (3.3 min measured on 2 busy cores)"), builtErrors)
        XCTAssertTrue(builtErrors.contains("baton-check: built baton in "), builtErrors)
        let lines = builtCalls.split(separator: "\n")
        XCTAssertEqual(
            lines.first, "swift build -c release --product baton --package-path \(Self.root.standardizedFileURL.path)")
        XCTAssertEqual(lines.last, "built baton check")
    }

    /// The README's pre-commit snippet pins `rev:` to a commit (a tag may not be fetched, or may not
    /// survive; `scripts/release.sh` keeps the pin current) named as this version's, and so does the
    /// snippet in `.pre-commit-hooks.yaml`; every other place a version is written names this one: each
    /// `rev:` and SwiftPM `from:` in the docs that names a number, and Releasing.md's current release.
    func testReadmeNamesTheReleaseTagOfThisVersion() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let pinned = try XCTUnwrap(Self.pinnedRevision(readme), "README's snippet has no `rev: <sha>  # Baton X.Y.Z`")
        XCTAssertEqual(pinned.version, BatonCLI.version, "README's rev is not named as \(BatonCLI.version)'s")
        let hooks = try String(contentsOf: Self.root.appendingPathComponent(".pre-commit-hooks.yaml"), encoding: .utf8)
        XCTAssertEqual(Self.pinnedRevision(hooks)?.commit, pinned.commit, ".pre-commit-hooks.yaml's snippet")
        XCTAssertEqual(Self.pinnedRevision(hooks)?.version, BatonCLI.version)
        let releasing = try String(contentsOf: Self.root.appendingPathComponent("Docs/Releasing.md"), encoding: .utf8)
        XCTAssertTrue(releasing.contains("The current release is `v\(BatonCLI.version)`"), "Docs/Releasing.md")
        for file in ["README.md", ".pre-commit-hooks.yaml", "Docs/BuildIntegration.md", "Docs/Releasing.md"] {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                if let range = line.range(of: "rev: v") {
                    let named = line[range.upperBound...].prefix { $0.isNumber || $0 == "." }
                    XCTAssertTrue(named == BatonCLI.version || named.isEmpty, "\(file): \(line)")
                }
                if let range = line.range(of: "from: \"") {
                    let named = line[range.upperBound...].prefix { $0.isNumber || $0 == "." }
                    XCTAssertTrue(named == BatonCLI.version || named.isEmpty, "\(file): \(line)")
                }
            }
        }
    }

    /// `rev: <40 hex digits>  # Baton X.Y.Z` in a snippet: the commit and the version it is named as.
    static func pinnedRevision(_ text: String) -> (commit: String, version: String)? {
        for line in text.split(separator: "\n") {
            guard let range = line.range(of: "rev: ") else { continue }
            let parts = line[range.upperBound...].split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 4, parts[0].count == 40, parts[0].allSatisfy(\.isHexDigit), parts[1] == "#",
                parts[2] == "Baton"
            else { continue }
            return (String(parts[0]), String(parts[3]))
        }
        return nil
    }

    /// The snippet works as written: its pinned commit exists in this repository (pre-commit fetches
    /// it from the repository the snippet names) and holds the hook. Skips, saying why, outside a git
    /// checkout or in a shallow one that lacks the commit.
    func testReadmeSnippetRevisionResolvesInTheRepository() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let pinned = try XCTUnwrap(Self.pinnedRevision(readme))
        func git(_ arguments: [String]) throws -> (Int32, String) {
            let run = try Subprocess.run("/usr/bin/env", ["git", "-C", Self.root.path] + arguments, in: Self.root.path)
            return (run.status, run.output)
        }
        guard (try? git(["rev-parse", "--is-inside-work-tree"]))?.0 == 0 else {
            throw XCTSkip(
                "\(Self.root.path) is not a git checkout (or git is missing): cannot resolve \(pinned.commit)")
        }
        let (status, _) = try git(["cat-file", "-e", "\(pinned.commit)^{commit}"])
        if status != 0, try git(["rev-parse", "--is-shallow-repository"]).1.hasPrefix("true") {
            throw XCTSkip("a shallow clone lacks \(pinned.commit); fetch the history to check the snippet's rev")
        }
        XCTAssertEqual(status, 0, "README's pre-commit rev \(pinned.commit) is not a commit of this repository")
        let (hooks, text) = try git(["show", "\(pinned.commit):.pre-commit-hooks.yaml"])
        XCTAssertEqual(hooks, 0, "\(pinned.commit) has no .pre-commit-hooks.yaml")
        XCTAssertTrue(text.contains("- id: baton-check"), text)
    }
}
