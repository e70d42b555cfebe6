import Foundation

/// Where tests find the repository, the shared corpus and the peer tools.
///
/// The shared folder (`corpus/`, `tools/`) is `../shared` beside the repository, as CI checks it
/// out; `BATON_SHARED` names another (a worktree elsewhere), and `BATON_CORPUS` the corpus alone.
package enum TestPaths {
    /// The repository root (this file is `Tests/BatonTestSupport/TestPaths.swift`).
    package static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The shared folder holding the corpus and the peer tools.
    package static var shared: URL {
        if let path = ProcessInfo.processInfo.environment["BATON_SHARED"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return repository.deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// The shared corpus of real schemas and documents (read in place, never copied).
    package static var corpus: URL {
        if let path = ProcessInfo.processInfo.environment["BATON_CORPUS"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return shared.appendingPathComponent("corpus")
    }
}
