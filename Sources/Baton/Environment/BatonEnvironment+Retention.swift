import Foundation

/// When the environment collects records nothing reaches, and how many recent operations it keeps reachable.
///
/// The store keeps what its roots reach: every attached handle's operation, every operation retained with
/// `retain`, and the last `bufferSize` operations fetched, mutated or released (Relay's release buffer), so data a
/// screen just left is still there when the user comes back. Everything else is collected: after a handle detaches
/// or a retention is released (`automatic`), or when the app calls `collectGarbage()`.
public struct GarbageCollection: Sendable, Hashable {
    /// How many recently used operations stay reachable after nothing holds them.
    public var bufferSize: Int
    /// Whether a collection runs (as a task) after a handle detaches or a retention is released.
    public var automatic: Bool

    public init(bufferSize: Int = 10, automatic: Bool = true) {
        self.bufferSize = max(0, bufferSize)
        self.automatic = automatic
    }

    /// Ten recent operations, collected after every release.
    public static let standard = GarbageCollection()
    /// Collected only when the app calls `collectGarbage()`.
    public static let manual = GarbageCollection(automatic: false)
}

/// The environment's retained and recent roots.
struct RetentionState {
    var retained: [Int: RetainedRoot] = [:]
    var nextRetention = 0
    /// The most recent last.
    var recent: [RetainedRoot] = []
    var collectionScheduled = false
}

/// An operation the store keeps reachable until `release()` (or until the value goes away).
public final class Retention: Sendable {
    let environment: BatonEnvironment
    let id: Int

    init(environment: BatonEnvironment, id: Int) {
        self.environment = environment
        self.id = id
    }

    deinit { environment.endRetention(id) }

    /// Stops keeping the operation (it joins the recent operations, then may be collected).
    public func release() { environment.endRetention(id) }
}

extension BatonEnvironment {
    /// Keeps an operation's data in the store, whatever handles are attached, until the retention is released.
    public func retain<Operation: GraphQLOperation>(_ operation: Operation) -> Retention {
        retain(RetainedRoot(operation))
    }

    /// Keeps what a root reaches (data committed with raw selections, say) until the retention is released.
    public func retain(_ root: RetainedRoot) -> Retention {
        let id = state.withLock { state in
            let id = state.retention.nextRetention
            state.retention.nextRetention += 1
            state.retention.retained[id] = root
            return id
        }
        return Retention(environment: self, id: id)
    }

    func endRetention(_ id: Int) {
        let root = state.withLock { $0.retention.retained.removeValue(forKey: id) }
        if let root { release(root) }
    }

    /// A root nothing holds any more: it joins the recent operations, and a collection is scheduled.
    func release(_ root: RetainedRoot) {
        keepRecent(root)
        if garbageCollection.automatic { scheduleCollection() }
    }

    /// Makes `root` the most recent operation (dropping the oldest past the buffer).
    func keepRecent(_ root: RetainedRoot) {
        let size = garbageCollection.bufferSize
        state.withLock { state in
            state.retention.recent.append(root)
            if state.retention.recent.count > size {
                state.retention.recent.removeFirst(state.retention.recent.count - size)
            }
        }
    }

    /// Every root the store keeps: attached handles' operations, retained operations, recent operations.
    var retainedRoots: [RetainedRoot] {
        let handles = attachedHandles.map(\.retainedRoot)
        return handles + state.withLock { Array($0.retention.retained.values) + $0.retention.recent }
    }

    /// Removes every record no root reaches (see `GarbageCollection`) and logs `collected {"records":N}`.
    /// Returns how many went.
    @discardableResult
    public func collectGarbage() -> Int {
        let removed = store.collectGarbage(keeping: retainedRoots)
        log.record(LogEvent("collected", JSONObject([("records", .number(String(removed)))])))
        return removed
    }

    /// Runs one collection soon (as a tracked task, so `settle()` waits for it); several releases in a row
    /// collect once.
    func scheduleCollection() {
        let schedule = state.withLock { state -> Bool in
            if state.retention.collectionScheduled { return false }
            state.retention.collectionScheduled = true
            return true
        }
        guard schedule else { return }
        track { [self] in
            state.withLock { $0.retention.collectionScheduled = false }
            collectGarbage()
        }
    }
}
