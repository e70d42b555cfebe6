import Baton
import Foundation

/// Loads the seed's fixtures by path relative to this file (no test resources needed).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    static func response(_ name: String) throws -> GraphQLResponse { try GraphQLResponse(bytes: data(name)) }
}

extension GraphQLResponse {
    /// A response from inline JSON text, for tests.
    static func json(_ text: String) throws -> GraphQLResponse { try GraphQLResponse(bytes: Data(text.utf8)) }
}

/// A value behind a lock, for test callbacks that run on other tasks.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
