import BatonCLI
import BatonIR
import BatonTestSupport
import Foundation
import XCTest

/// `scripts/make-artifactbundle.sh` with the test build's `baton` (no release build): the bundle's
/// info.json, its binary and the Kotlin runtime beside it, the zip and its checksum, and the BatonBinary
/// package around it.
final class ArtifactBundleTests: XCTestCase {
    func testBundleOfTheBuiltBaton() throws {
        _ = try Unavailable.executable("python3", install: "apt-get install -y python3")
        let baton = try BatonProcess.executable()
        let scratch = try Scratch()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            TestPaths.repository.appendingPathComponent("scripts/make-artifactbundle.sh").path, "--output",
            scratch.path,
            "--baton", baton.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, printed)

        let bundle = URL(fileURLWithPath: scratch.path + "/baton.artifactbundle")
        let info = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("info.json")))
                as? [String: Any])
        XCTAssertEqual(info["schemaVersion"] as? String, "1.0")
        let artifact = try XCTUnwrap((info["artifacts"] as? [String: Any])?["baton"] as? [String: Any])
        XCTAssertEqual(artifact["type"] as? String, "executable")
        XCTAssertEqual(artifact["version"] as? String, BatonCLI.version)
        let variant = try XCTUnwrap((artifact["variants"] as? [[String: Any]])?.first)
        let path = try XCTUnwrap(variant["path"] as? String)
        let triples = try XCTUnwrap(variant["supportedTriples"] as? [String])
        #if os(Linux) && arch(x86_64)
            XCTAssertEqual(triples, ["x86_64-unknown-linux-gnu"])
        #endif
        let binary = bundle.appendingPathComponent(path)
        XCTAssertEqual(
            try BatonProcess.run(["--version"], in: scratch.path, executable: binary).stdout, BatonCLI.version + "\n")

        // The Kotlin runtime's files beside the binary, and the binary reads them (a line appended to the bundled
        // copy is in what it writes).
        let share = binary.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/baton/kotlin-runtime")
        let runtime = TestPaths.repository.appendingPathComponent("Kotlin/runtime/baton/runtime")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: share.path).sorted(),
            try FileManager.default.contentsOfDirectory(atPath: runtime.path).filter { $0.hasSuffix(".kt") }.sorted())
        let store = share.appendingPathComponent("Store.kt")
        try (try String(contentsOf: store, encoding: .utf8) + "// bundled\n").write(
            to: store, atomically: true, encoding: .utf8)
        try scratch.write(
            "project/baton.json", #"{"schema": "s.graphql", "output": {"kotlin": {"path": "out", "package": "app"}}}"#)
        try scratch.write("project/s.graphql", "type Query { hello: String }\n")
        try scratch.write("project/Hello.graphql", "query Hello { hello }\n")
        let generated = try BatonProcess.run(["gen"], in: scratch.path + "/project", executable: binary)
        XCTAssertEqual(generated.status, 0, "\(generated)")
        XCTAssertTrue(
            try String(contentsOfFile: scratch.path + "/project/out/baton/runtime/Store.kt", encoding: .utf8)
                .hasSuffix("// bundled\n"))

        // The zip and the checksum SwiftPM would compute (SHA-256 of the archive).
        let zip = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/baton.artifactbundle.zip"))
        var hasher = SHA256()
        hasher.update([UInt8](zip))
        XCTAssertTrue(printed.contains("checksum: " + SHA256.hex(hasher.finalize())), printed)
        // The package: both plugins, the bundle as the binary target named `baton` they run.
        let manifest = try String(contentsOfFile: scratch.path + "/BatonBinary/Package.swift", encoding: .utf8)
        XCTAssertTrue(manifest.contains(#".binaryTarget(name: "baton", path: "baton.artifactbundle")"#), manifest)
        for plugin in ["BatonPlugin", "BatonCommand"] {
            let copy = try String(
                contentsOfFile: scratch.path + "/BatonBinary/Plugins/\(plugin)/\(plugin).swift", encoding: .utf8)
            let source = try String(
                contentsOf: TestPaths.repository.appendingPathComponent("Plugins/\(plugin)/\(plugin).swift"),
                encoding: .utf8)
            XCTAssertEqual(copy, source)
        }
    }
}
