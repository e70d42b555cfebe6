import Foundation

/// A scratch folder, removed when the test ends.
package final class Scratch {
    package let path: String

    package init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("baton-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.resolvingSymlinksInPath().path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    package func write(_ relativePath: String, _ text: String) throws {
        let url = URL(fileURLWithPath: path + "/" + relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
