import BatonTestSupport
import Foundation
import XCTest

/// Where `baton gen --lang kotlin` finds the Kotlin runtime's files, their one copy in the repository
/// (`KotlinRuntimeFiles`): beside an installed binary (`PREFIX/share/baton/kotlin-runtime`, as
/// `scripts/install.sh` and the artifact bundle lay it out, also through a symbolic link), in the folder
/// `BATON_KOTLIN_RUNTIME` names, else in the source tree the binary was built from (every other test
/// runs that way). Not found, or from another version, `gen` stops at the Kotlin setting and writes
/// nothing; Swift is generated without them.
final class KotlinRuntimeLocationTests: XCTestCase {
    static let runtime = TestPaths.repository.appendingPathComponent("Kotlin/runtime/baton/runtime")

    /// A project generating both languages, and the built `baton` installed by `scripts/install.sh` into a
    /// prefix, with `marker` appended to the installed copy of the runtime's `Store.kt`.
    private func installed(marker: String?) throws -> (Scratch, URL) {
        let scratch = try Scratch()
        try scratch.write(
            "project/baton.json",
            #"{"schema": "schema.graphql", "output": {"swift": {"path": "out/swift"}, "kotlin": {"path": "out/kotlin", "package": "app"}}}"#
        )
        try scratch.write("project/schema.graphql", "type Query { hello: String }\n")
        try scratch.write("project/Hello.graphql", "query Hello { hello }\n")
        // Installed as a team installs it: scripts/install.sh, with the built baton (no release build).
        let install = Process()
        install.executableURL = URL(fileURLWithPath: "/bin/sh")
        install.arguments = [
            TestPaths.repository.appendingPathComponent("scripts/install.sh").path, "--prefix",
            scratch.path + "/prefix",
            "--baton", try BatonProcess.executable().path,
        ]
        let output = Pipe()
        install.standardOutput = output
        install.standardError = output
        try install.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        install.waitUntilExit()
        XCTAssertEqual(install.terminationStatus, 0, printed)
        let binary = URL(fileURLWithPath: scratch.path + "/prefix/bin/baton")
        let share = URL(fileURLWithPath: scratch.path + "/prefix/share/baton/kotlin-runtime")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: share.path).sorted(),
            try FileManager.default.contentsOfDirectory(atPath: Self.runtime.path).filter { $0.hasSuffix(".kt") }
                .sorted())
        if let marker {
            let store = share.appendingPathComponent("Store.kt")
            try (try String(contentsOf: store, encoding: .utf8) + marker).write(
                to: store, atomically: true, encoding: .utf8)
        }
        return (scratch, binary)
    }

    func testTheInstalledCopyBesideTheBinaryIsWritten() throws {
        let marker = "// the installed copy\n"
        let (scratch, binary) = try installed(marker: marker)
        let run = try BatonProcess.run(
            ["gen", "--lang", "kotlin"], in: scratch.path + "/project", executable: binary)
        XCTAssertEqual(run.status, 0, "\(run)")
        let store = try String(
            contentsOfFile: scratch.path + "/project/out/kotlin/baton/runtime/Store.kt", encoding: .utf8)
        XCTAssertTrue(store.hasSuffix(marker), "the runtime was not the one beside the binary")

        // The installed runtime changes while the binary does not: the next run writes it again (the
        // generation manifest hashes the runtime's text).
        let installedStore = scratch.path + "/prefix/share/baton/kotlin-runtime/Store.kt"
        try (try String(contentsOfFile: installedStore, encoding: .utf8) + "// again\n").write(
            toFile: installedStore, atomically: true, encoding: .utf8)
        let again = try BatonProcess.run(
            ["gen", "--lang", "kotlin"], in: scratch.path + "/project", executable: binary)
        XCTAssertEqual(again.status, 0, "\(again)")
        XCTAssertTrue(
            try String(contentsOfFile: scratch.path + "/project/out/kotlin/baton/runtime/Store.kt", encoding: .utf8)
                .hasSuffix(marker + "// again\n"), "the changed runtime was not written")

        // Through a symbolic link to the binary (a package manager's `bin` folder): the link's folder has no
        // `share`, the binary's has.
        try FileManager.default.createDirectory(
            atPath: scratch.path + "/links/bin", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path + "/links/bin/baton", withDestinationPath: binary.path)
        try FileManager.default.removeItem(atPath: scratch.path + "/project/out")
        let linked = try BatonProcess.run(
            ["gen", "--lang", "kotlin"], in: scratch.path + "/project",
            executable: URL(fileURLWithPath: scratch.path + "/links/bin/baton"))
        XCTAssertEqual(linked.status, 0, "\(linked)")
        XCTAssertTrue(
            try String(contentsOfFile: scratch.path + "/project/out/kotlin/baton/runtime/Store.kt", encoding: .utf8)
                .hasSuffix(marker + "// again\n"))
    }

    func testNotFoundStopsKotlinAndNotSwift() throws {
        let (scratch, binary) = try installed(marker: "")
        let missing = scratch.path + "/nowhere"
        let run = try BatonProcess.run(
            ["gen"], in: scratch.path + "/project", environment: ["BATON_KOTLIN_RUNTIME": missing],
            executable: binary)
        XCTAssertEqual(run.status, 2, "\(run)")
        XCTAssertTrue(
            run.stderr.contains("baton.json:1:") && run.stderr.contains("the Kotlin runtime's files were not found")
                && run.stderr.contains(missing) && run.stderr.contains("scripts/install.sh"), "\(run)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/project/out"), "gen wrote files")
        // Swift needs no Kotlin runtime.
        let swift = try BatonProcess.run(
            ["gen", "--lang", "swift"], in: scratch.path + "/project", environment: ["BATON_KOTLIN_RUNTIME": missing],
            executable: binary)
        XCTAssertEqual(swift.status, 0, "\(swift)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.path + "/project/out/swift/Hello.graphql.swift"))
    }

    func testARuntimeOfAnotherVersionIsRefused() throws {
        let (scratch, binary) = try installed(marker: "class NotInThisVersion\n")
        let run = try BatonProcess.run(
            ["gen", "--lang", "kotlin"], in: scratch.path + "/project", executable: binary)
        XCTAssertEqual(run.status, 2, "\(run)")
        XCTAssertTrue(
            run.stderr.contains("is not the one this baton was built with")
                && run.stderr.contains("declared but not known: NotInThisVersion"), "\(run)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/project/out"))
    }
}
