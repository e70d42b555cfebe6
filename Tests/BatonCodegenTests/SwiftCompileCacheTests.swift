import BatonTestSupport
import Foundation
import XCTest

/// `SwiftCompiler`'s cache (`cachedFolder`, `typecheckOnce`, `buildAndRun`): a swiftc pass is kept by what went into
/// it, so only the same compiler, arguments and file names and contents take it; any change compiles again.
final class SwiftCompileCacheTests: XCTestCase {
    private var folders: [URL] = []

    override func tearDown() {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
    }

    /// `text` written as `name` in a new temporary folder.
    private func file(_ name: String, _ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-cache-case-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        folders.append(folder)
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testAPassIsKeptByNameContentsAndArgumentsOnly() throws {
        _ = try Unavailable.executable("swiftc", install: "install a Swift 6 toolchain")
        // A text of its own per run, so the first check below is never a hit from an earlier process.
        let marker = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let good = "let value\(marker) = 1\n#if BROKEN\nlet broken: Int = \"no\"\n#endif\n"
        let arguments = ["-typecheck", "-swift-version", "6", "-module-name", "Cached"]
        let first = try file("A.swift", good)
        try SwiftCompiler.typecheckOnce("baton-cache-test", arguments: arguments, files: [first])

        // The same name and text in another folder: the pass is taken, nothing is compiled.
        let again = try file("A.swift", good)
        let kept = try SwiftCompiler.cachedFolder(
            "baton-cache-test", inputs: [again], byName: true, extra: arguments, expecting: ["passed"]
        ) { _ in XCTFail("compiled again") }
        XCTAssertTrue(FileManager.default.fileExists(atPath: kept.appendingPathComponent("passed").path))

        // Another text, another argument, another name: each compiled (and the broken ones fail).
        let broken = try file("A.swift", good.replacingOccurrences(of: "= 1", with: ": Int = \"one\""))
        XCTAssertThrowsError(try SwiftCompiler.typecheckOnce("baton-cache-test", arguments: arguments, files: [broken]))
        XCTAssertThrowsError(
            try SwiftCompiler.typecheckOnce("baton-cache-test", arguments: arguments + ["-DBROKEN"], files: [first]))
        var compiled = false
        _ = try SwiftCompiler.cachedFolder(
            "baton-cache-test", inputs: [try file("B.swift", good)], byName: true, extra: arguments,
            expecting: ["passed"]
        ) { building in
            compiled = true
            try Data().write(to: building.appendingPathComponent("passed"))
        }
        XCTAssertTrue(compiled, "a file of another name is another input")
    }

    /// A build of the same key under way in another process (here `flock(1)` holding the key's lock, then leaving the
    /// finished folder) is waited for and taken, not built beside it: what `.ci/run`'s warm-up lane relies on.
    func testABuildUnderWayInAnotherProcessIsWaitedForNotBuiltAgain() throws {
        let flock = try Unavailable.executable("flock", install: "install util-linux")
        let input = try file("C.swift", "let value\(UUID().uuidString.prefix(8)) = 1\n")
        let key = SwiftCompiler.cacheKey("baton-cache-test", inputs: [input])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(key)
        let started = folder.appendingPathExtension("started")
        folders += [folder, started, folder.appendingPathExtension("lock")]
        let other = Process()
        other.executableURL = URL(fileURLWithPath: flock)
        other.arguments = [
            folder.appendingPathExtension("lock").path, "-c",
            "touch '\(started.path)'; sleep 1; mkdir -p '\(folder.path)'; echo built > '\(folder.path)/passed'",
        ]
        try other.run()
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: started.path), Date() < deadline { usleep(10_000) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: started.path), "the other process never took the lock")
        let waited = Date()
        let taken = try SwiftCompiler.cachedFolder("baton-cache-test", inputs: [input], expecting: ["passed"]) { _ in
            XCTFail("built beside the other process")
        }
        XCTAssertGreaterThan(Date().timeIntervalSince(waited), 0.5, "the other process's lock was not waited for")
        XCTAssertEqual(taken.path, folder.path)
        XCTAssertEqual(try String(contentsOf: taken.appendingPathComponent("passed"), encoding: .utf8), "built\n")
        other.waitUntilExit()
        XCTAssertEqual(other.terminationStatus, 0)
    }
}
