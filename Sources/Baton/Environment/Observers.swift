/// The callbacks a handle calls after it changes: one bookkeeping for `Handle`, `Pagination` and
/// `SubscriptionHandle`. Callbacks run in the order they were added, outside the lock (a callback may read
/// the handle, or add and remove observers).
final class Observers: Sendable {
    private struct Entries {
        var callbacks: [(id: Int, callback: @Sendable () -> Void)] = []
        var nextID = 0
    }

    private let entries = Locked(Entries())

    /// Adds `callback`; returns the token `remove` takes.
    func add(_ callback: @escaping @Sendable () -> Void) -> Int {
        entries.withLock { entries in
            defer { entries.nextID += 1 }
            entries.callbacks.append((entries.nextID, callback))
            return entries.nextID
        }
    }

    /// Removes the callback `add` returned `id` for; an unknown or removed token is ignored.
    func remove(_ id: Int) {
        entries.withLock { entries in entries.callbacks.removeAll { $0.id == id } }
    }

    /// Calls every callback added and not removed when the call starts.
    func notify() {
        for entry in entries.withLock({ $0.callbacks }) { entry.callback() }
    }

    var count: Int { entries.withLock { $0.callbacks.count } }
}
