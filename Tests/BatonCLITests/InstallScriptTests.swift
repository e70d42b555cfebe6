import BatonTestSupport
import Foundation
import XCTest

/// `scripts/install.sh` on a machine with the Swift toolchain alone, as a new user runs it: from a
/// fresh folder, with a fresh HOME and PATH reduced to the toolchain and the system's basic tools.
/// The prerequisite check answers in seconds and builds nothing (`--check`); an install of the
/// already-built debug `baton` (`--baton`) lays out every file. No release build: CI's time is
/// spent once, on `swift build`.
final class InstallScriptTests: XCTestCase {
    static let script = TestPaths.repository.appendingPathComponent("scripts/install.sh").path

    /// Runs the installer with only `environment` (no inherited variables) in `directory`.
    func install(_ arguments: [String], in directory: String, environment: [String: String]) throws -> Subprocess {
        try Subprocess.run("/bin/sh", [Self.script] + arguments, in: directory, environment: environment)
    }

    /// A fresh folder and the environment of a stock machine: the toolchain's folder on PATH, then
    /// the system's basic tools (sh, sed, install), and a HOME of its own.
    func freshMachine() throws -> (Scratch, [String: String]) {
        let swift = try Unavailable.executable("swift", install: "install a Swift 6 toolchain")
        let toolchain = URL(fileURLWithPath: swift).resolvingSymlinksInPath().deletingLastPathComponent().path
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/home", withIntermediateDirectories: true)
        return (scratch, ["PATH": "\(toolchain):/usr/bin:/bin", "HOME": scratch.path + "/home"])
    }

    func testCheckSaysWhatItWouldDoWithinSecondsAndBuildsNothing() throws {
        let (scratch, environment) = try freshMachine()
        let run = try install(
            ["--check", "--prefix", scratch.path + "/prefix"], in: scratch.path, environment: environment)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertLessThan(run.seconds, 10, run.output)
        XCTAssertTrue(run.output.contains("install.sh: swift 6."), run.output)
        XCTAssertTrue(run.output.contains("install.sh: ready: would build baton (release"), run.output)
        #if os(Linux)
            // The helper never links libcurl's development library: the toolchain's shared
            // FoundationNetworking (which loads libcurl.so.4), or none at all, said why.
            XCTAssertTrue(
                run.output.contains("baton-fetch-schema (dynamic)")
                    || run.output.contains("optional: baton-fetch-schema will not be built: FoundationNetworking needs"),
                run.output)
        #endif
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/prefix"), "--check created the prefix")
    }

    func testAMissingToolchainIsNamedAtOnceAndNothingIsInstalled() throws {
        let (scratch, environment) = try freshMachine()
        var without = environment
        without["SWIFT"] = scratch.path + "/no-toolchain/swift"
        let run = try install(["--prefix", scratch.path + "/prefix"], in: scratch.path, environment: without)
        XCTAssertEqual(run.status, 3, run.output)
        XCTAssertLessThan(run.seconds, 10, run.output)
        XCTAssertTrue(run.output.contains("install.sh: missing: swift"), run.output)
        XCTAssertTrue(run.output.contains("https://swift.org/install"), run.output)
        XCTAssertTrue(run.output.hasSuffix("install.sh: nothing was built or installed.\n"), run.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/prefix"))
    }

    /// The built `baton` (and the helper beside it) installed with the installer's own logic.
    func testInstallsABuiltBatonWithEveryFile() throws {
        let (scratch, environment) = try freshMachine()
        let built = try BatonProcess.executable()
        let run = try install(
            ["--prefix", scratch.path + "/prefix", "--baton", built.path], in: scratch.path, environment: environment)
        XCTAssertEqual(run.status, 0, run.output)
        let prefix = scratch.path + "/prefix"
        for file in [
            "bin/baton", "share/baton/baton.schema.json", "share/baton/kotlin-runtime/Store.kt",
            "share/baton/kotlin-testing/DataBuilders.kt",
        ] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) missing: \(run.output)")
        }
        if FileManager.default.isExecutableFile(atPath: built.deletingLastPathComponent().path + "/baton-fetch-schema")
        {
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: prefix + "/bin/baton-fetch-schema"), run.output)
        }
        XCTAssertTrue(run.output.contains("installed 0.") && run.output.contains("/prefix/bin/baton\n"), run.output)
        XCTAssertTrue(run.output.contains("is not on PATH; add it"), run.output)
    }

    /// The installer's whole path with a stand-in `swift` (SWIFT) whose `baton` build succeeds and whose
    /// `baton-fetch-schema` build fails, as it did without libcurl's headers: baton and its files are
    /// installed, the helper's failure is a note, and the exit status is 0. The calls show the link
    /// modes: baton with --static-swift-stdlib on Linux, the helper without it.
    func testBatonIsInstalledWhenTheOptionalHelperFailsToBuild() throws {
        let (scratch, environment) = try freshMachine()
        let toolchain = scratch.path + "/toolchain/usr"
        for file in ["lib/swift_static/linux/libswiftCore.a", "lib/swift/linux/libFoundationNetworking.so"] {
            try scratch.write("toolchain/usr/" + file, "")
        }
        let log = scratch.path + "/calls.log"
        try scratch.write(
            "fake/swift",
            """
            #!/bin/sh
            echo "swift $*" >> \(log)
            case "$*" in
              --version) echo "Swift version 6.1 (stand-in)" ;;
              -print-target-info) echo '  "runtimeResourcePath": "\(toolchain)/lib/swift"' ;;
              *--show-bin-path*) echo \(scratch.path)/built ;;
              *"--product baton-fetch-schema"*) echo "ld.gold: error: cannot find -lcurl" >&2; exit 1 ;;
              *"--product baton "*|*"--product baton") mkdir -p \(scratch.path)/built
                printf '#!/bin/sh\\necho 0.1.0\\n' > \(scratch.path)/built/baton; chmod +x \(scratch.path)/built/baton ;;
            esac
            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path + "/fake/swift")
        var stock = environment
        stock["SWIFT"] = scratch.path + "/fake/swift"
        let run = try install(["--prefix", scratch.path + "/prefix"], in: scratch.path, environment: stock)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: scratch.path + "/prefix/bin/baton"), run.output)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: scratch.path + "/prefix/share/baton/kotlin-runtime/Store.kt"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/prefix/bin/baton-fetch-schema"))
        XCTAssertTrue(run.output.contains("installed 0.1.0 to \(scratch.path)/prefix/bin/baton\n"), run.output)
        // (A machine without the runtime libcurl is told so before the build, and no helper is tried.)
        let helperTried = !run.output.contains("optional: baton-fetch-schema will not be built")
        if helperTried {
            XCTAssertTrue(
                run.output.contains("optional: baton-fetch-schema did not build; baton is installed"), run.output)
        }
        let calls = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(calls.contains("swift build -c release --product baton"), calls)
        #if os(Linux)
            guard helperTried else { return }
            XCTAssertTrue(calls.contains("swift build -c release --product baton --static-swift-stdlib\n"), calls)
            XCTAssertTrue(calls.contains("swift build -c release --product baton-fetch-schema\n"), calls)
        #endif
    }
}
