import Foundation
import XCTest

/// What a test does when something it needs (a peer, the corpus, a tool) is missing: locally it
/// skips with the reason; in CI (`CI` set) it fails, because a test that CI skips proves nothing.
package enum Unavailable {
    /// Whether the tests run in CI.
    package static var inCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !value.isEmpty && value != "0" && value.lowercased() != "false"
    }

    /// The error to throw from a test: an `XCTSkip` locally, a failure in CI.
    package static func error(_ reason: String) -> any Error {
        inCI ? Missing(reason: reason) : XCTSkip(reason)
    }

    /// Throws `error(reason)` unless `available`.
    package static func require(_ available: Bool, _ reason: @autoclosure () -> String) throws {
        if !available { throw error(reason()) }
    }

    /// The corpus folder, or the error to throw when it is absent.
    package static func corpus() throws -> URL {
        let corpus = TestPaths.corpus
        try require(
            FileManager.default.fileExists(atPath: corpus.path),
            "no corpus at \(corpus.path) (set BATON_SHARED or BATON_CORPUS to run this test)")
        return corpus
    }

    /// An executable found on PATH, or the error to throw when there is none.
    package static func executable(_ name: String, install: String) throws -> String {
        if let found = onPath(name) { return found }
        throw error("\(name) is not on PATH; \(install)")
    }

    /// An executable found on PATH.
    package static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// A requirement missing in CI.
    package struct Missing: Error, CustomStringConvertible {
        package var reason: String
        package var description: String { "required in CI: \(reason)" }
    }
}
