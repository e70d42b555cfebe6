import BatonTestSupport
import Foundation
import XCTest

/// The Kotlin runtime is written once per run and folder (`output.kotlin.runtime`,
/// `--kotlin-runtime-out`), never once per project: run through the built `baton gen`.
final class KotlinRuntimePlacementTests: XCTestCase {
    static let schema = "type Query { hello: String }\n"

    /// A workspace of two Kotlin projects, `a` and `b`, each with `kotlin` settings `a` and `b`.
    func workspace(_ a: String, _ b: String) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("baton.json", #"{"projects": ["a", "b"]}"#)
        for (name, settings) in [("a", a), ("b", b)] {
            try scratch.write("\(name)/schema.graphql", Self.schema)
            try scratch.write("\(name)/Q.graphql", "query Hello\(name.uppercased()) { hello }\n")
            try scratch.write(
                "\(name)/baton.json",
                #"{"schema": "schema.graphql", "output": {"kotlin": {"path": "gen", "package": "app.\#(name)"\#(settings)}}}"#
            )
        }
        return scratch
    }

    /// Every runtime file under `scratch`, relative, sorted.
    func runtimeFolders(_ scratch: Scratch) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: scratch.path)
        var folders = Set<String>()
        while let next = enumerator?.nextObject() as? String {
            if next.hasSuffix("baton/runtime/Store.kt") { folders.insert(String(next.dropLast("/Store.kt".count))) }
        }
        return folders.sorted()
    }

    func gen(_ scratch: Scratch, _ extra: [String] = []) throws -> BatonProcess.Run {
        let run = try BatonProcess.run(["gen"] + extra, in: scratch.path)
        XCTAssertEqual(run.status, 0, "\(run)")
        return run
    }

    func testByDefaultEachProjectHasItsOwnBesideItsCode() throws {
        let scratch = try workspace("", "")
        _ = try gen(scratch)
        XCTAssertEqual(runtimeFolders(scratch), ["a/gen/baton/runtime", "b/gen/baton/runtime"])
    }

    func testProjectsNamingOneFolderShareOneCopy() throws {
        let scratch = try workspace(#", "runtime": "../shared""#, #", "runtime": "../shared""#)
        let run = try gen(scratch)
        XCTAssertEqual(runtimeFolders(scratch), ["shared/baton/runtime"])
        XCTAssertEqual(run.stdout.components(separatedBy: "baton/runtime/Store.kt").count - 1, 1, run.stdout)
        // Unchanged on a second run, and `--check` finds it up to date.
        XCTAssertTrue(try gen(scratch).stdout.isEmpty)
        XCTAssertEqual(try BatonProcess.run(["gen", "--check"], in: scratch.path).status, 0)
    }

    func testRuntimeInsideAnotherProjectsOutputJoinsThatOutput() throws {
        // `b` names `a`'s output folder: one copy there, which `a`'s writer keeps.
        let scratch = try workspace("", #", "runtime": "../a/gen""#)
        _ = try gen(scratch)
        XCTAssertEqual(runtimeFolders(scratch), ["a/gen/baton/runtime"])
        XCTAssertTrue(try gen(scratch).stdout.isEmpty)
    }

    func testKotlinRuntimeOutWritesOneCopyAndRemovesTheOthers() throws {
        let scratch = try workspace("", "")
        _ = try gen(scratch)
        let run = try gen(scratch, ["--kotlin-runtime-out", "android/core"])
        XCTAssertEqual(runtimeFolders(scratch), ["android/core/baton/runtime"])
        XCTAssertTrue(run.stdout.contains("removed a/gen/baton/runtime/Store.kt"), run.stdout)
        XCTAssertTrue(run.stdout.contains("created android/core/baton/runtime/Store.kt"), run.stdout)
    }

    func testFalseWritesNone() throws {
        let scratch = try workspace(#", "runtime": false"#, #", "runtime": false"#)
        _ = try gen(scratch)
        XCTAssertEqual(runtimeFolders(scratch), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.path + "/a/gen/HelloA.kt"))
    }
}
