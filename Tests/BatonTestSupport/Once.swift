import Foundation

/// A value computed once per test process and shared by every test that asks (a compilation, a peer's run):
/// the first caller computes it under the lock, later callers wait for it and get the same value, or the same
/// error (a failed build fails every test that needs it, without compiling again).
package final class Once<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, any Error>?

    package init() {}

    /// The value, computed by `compute` on the first call.
    package func get(_ compute: () throws -> Value) throws -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let result { return try result.get() }
        let computed = Result { try compute() }
        result = computed
        return try computed.get()
    }
}
