import BatonIR
import BatonTestSupport
import Foundation

/// A Kotlin compilation kept on disk, keyed by everything that goes into it (the compiler, its classpath, every
/// source's path and text), so another test process compiling the same sources takes it instead of compiling again.
///
/// kotlinc is the slowest peer the suite runs (about a minute for kotlinc 1.3, more for the current compiler, on two
/// cores). `.ci/run` starts one process that compiles both Kotlin builds while `swift test` runs the tests that need
/// no JVM, and `swift test`'s Kotlin tests then find them done; a lock file per key makes a second process wait for
/// the first rather than compile the same thing beside it (`FileLock`). Only a successful compilation is kept (a failed one is
/// compiled again, and reported, by whoever asks next), marked complete last, so a process killed mid-compile
/// leaves nothing that could be taken for a result.
enum KotlinCompileCache {
    struct LockError: Error, CustomStringConvertible {
        var description: String
    }

    /// The folder holding the compilation labelled `label` of `files` with `inputs` (compiler identity, classpath,
    /// options): compiled into it by `compile` when no complete one is there.
    static func folder(
        _ label: String, files: [(path: String, contents: String)], inputs: [String], compile: (URL) throws -> Void
    ) throws -> URL {
        var hasher = SHA256()
        for text in inputs + files.flatMap({ [$0.path, $0.contents] }) {
            hasher.update(text.utf8)
            hasher.update([0])
        }
        let key = label + "-" + String(SHA256.hex(hasher.finalize()).prefix(24))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("baton-kotlin-cache")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let folder = root.appendingPathComponent(key)
        let complete = folder.appendingPathComponent(".complete")
        return try FileLock.withLock(root.appendingPathComponent(key + ".lock")) {
            if FileManager.default.fileExists(atPath: complete.path) { return folder }
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            do {
                try compile(folder)
            } catch {
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
            guard FileManager.default.createFile(atPath: complete.path, contents: Data()) else {
                throw LockError(description: "cannot mark \(folder.path) complete")
            }
            return folder
        }
    }
}
