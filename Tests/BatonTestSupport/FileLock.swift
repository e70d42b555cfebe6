import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock across processes: a `flock` on a file. The suite's on-disk caches (`KotlinCompileCache`,
/// `SwiftCompiler.cachedFolder`) hold one per key while they build, so a second process that asks for the same build
/// (`.ci/run`'s warm-up lane beside `swift test`) waits for the first one's result instead of building it again.
package enum FileLock {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Runs `body` holding an exclusive `flock` on `file` (created if missing).
    package static func withLock<T>(_ file: URL, _ body: () throws -> T) throws -> T {
        let descriptor = open(file.path, O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else { throw Failure(description: "cannot open \(file.path): errno \(errno)") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Failure(description: "cannot lock \(file.path): errno \(errno)") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
