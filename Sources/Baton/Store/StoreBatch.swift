import Foundation

/// What one batch did to the store's records, for a persistence layer (`BatonSQLite`): the records a commit or
/// an invalidation wrote (each as it is after the batch), the keys a garbage collection removed, or every record
/// when the store was replaced.
///
/// Batches reach the observer in the order the store applied them, from inside the store's lock, so an observer
/// must only hand the batch on (to a queue of its own) and never call back into the store. The persistence API is
/// `@_spi(Persistence)`: public for `BatonSQLite` (`@_spi(Persistence) import Baton`), not part of what apps see;
/// the runtime uses no `package` access, since tests and apps compile it on its own.
@_spi(Persistence) public enum StoreBatch: Sendable {
    /// These records, as they are now.
    case records([(key: RecordKey, record: Record)])
    /// These records are gone (a garbage collection removed them); every other record is as it was.
    case removed([RecordKey])
    /// The store now holds exactly these records (an image was loaded, or the store was cleared).
    case replaced([RecordKey: Record])
}

extension Store {
    /// Replaces every record with `records` and, in the same step, starts (or with nil stops) handing each later
    /// batch to `observer`: a persistence layer loads what it kept and then hears of every change after it.
    @_spi(Persistence) public func replaceRecords(
        _ records: [RecordKey: Record], thenObserveBatches observer: (@Sendable (StoreBatch) -> Void)?
    ) {
        state.withLock { state in
            Store.replace(&state, with: records)
            state.batchObserver = observer
        }
    }
}

extension Store {
    /// Stops handing batches to the observer `replaceRecords(_:thenObserveBatches:)` set.
    @_spi(Persistence) public func stopObservingBatches() {
        state.withLock { $0.batchObserver = nil }
    }
}
