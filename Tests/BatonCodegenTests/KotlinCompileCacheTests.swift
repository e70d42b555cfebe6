import Foundation
import XCTest

/// `KotlinCompileCache` compiles once per key, keys by every input and source text, and keeps nothing of a failed
/// compilation.
final class KotlinCompileCacheTests: XCTestCase {
    struct Broken: Error {}

    func testCompilesOncePerKeyAndNeverKeepsAFailure() throws {
        let label = "cache-test-\(UUID().uuidString)"
        var runs = 0
        let compile: (URL) throws -> Void = { folder in
            runs += 1
            try Data("classes \(runs)".utf8).write(to: folder.appendingPathComponent("out"))
        }
        let files = [(path: "a/A.kt", contents: "class A")]
        let first = try KotlinCompileCache.folder(label, files: files, inputs: ["kotlinc"], compile: compile)
        let again = try KotlinCompileCache.folder(label, files: files, inputs: ["kotlinc"], compile: compile)
        XCTAssertEqual(first.path, again.path)
        XCTAssertEqual(runs, 1)
        XCTAssertEqual(try String(contentsOf: first.appendingPathComponent("out"), encoding: .utf8), "classes 1")
        // Another text, another path, or another compiler is another compilation.
        let edited = try KotlinCompileCache.folder(
            label, files: [(path: "a/A.kt", contents: "class A {}")], inputs: ["kotlinc"], compile: compile)
        let moved = try KotlinCompileCache.folder(
            label, files: [(path: "b/A.kt", contents: "class A")], inputs: ["kotlinc"], compile: compile)
        let other = try KotlinCompileCache.folder(label, files: files, inputs: ["kotlinc-current"], compile: compile)
        XCTAssertEqual(Set([first, edited, moved, other].map(\.standardizedFileURL.path)).count, 4)
        XCTAssertEqual(runs, 4)
        // A failure throws, leaves no folder, and the next call compiles again.
        let failing = [(path: "a/B.kt", contents: "class B")]
        XCTAssertThrowsError(
            try KotlinCompileCache.folder(label, files: failing, inputs: [], compile: { _ in throw Broken() }))
        let retried = try KotlinCompileCache.folder(label, files: failing, inputs: [], compile: compile)
        XCTAssertEqual(runs, 5)
        for folder in [first, edited, moved, other, retried] { try? FileManager.default.removeItem(at: folder) }
    }
}
