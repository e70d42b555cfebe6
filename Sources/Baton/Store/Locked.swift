import Foundation

/// A value behind a lock.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18 and the package supports macOS 13 / iOS 16, so Baton uses
/// `NSLock`; the class is `@unchecked Sendable` because every access to `value` goes through `withLock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
