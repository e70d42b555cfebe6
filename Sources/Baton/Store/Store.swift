import Foundation

/// What a commit did: the slots whose content changed, and errors that named no slot.
public struct CommitResult: Sendable, Hashable {
    /// The slots whose content changed, each once, in the order the commit wrote them. A commit lists them as it
    /// merges (no hashing per slot); `changed` is the same slots as a set, built when read.
    public internal(set) var changedSlots: [SlotID]
    public var unattachedErrors: [GraphQLError]

    /// The changed slots as a set. Built from `changedSlots` each time it is read: read it once (or count and
    /// iterate `changedSlots`).
    public var changed: Set<SlotID> {
        get { Set(changedSlots) }
        set { changedSlots = Array(newValue) }
    }

    init(changedSlots: [SlotID], unattachedErrors: [GraphQLError]) {
        self.changedSlots = changedSlots
        self.unattachedErrors = unattachedErrors
    }

    init(changed: Set<SlotID>, unattachedErrors: [GraphQLError]) {
        self.init(changedSlots: Array(changed), unattachedErrors: unattachedErrors)
    }

    /// The changed slots sorted and space-separated, as Plate 3 prints them.
    public var changedDescription: String { changedSlots.sorted().map(\.description).joined(separator: " ") }

    /// Equal when the same slots changed, in any order, with the same unattached errors.
    public static func == (lhs: CommitResult, rhs: CommitResult) -> Bool {
        lhs.changedSlots.count == rhs.changedSlots.count && lhs.unattachedErrors == rhs.unattachedErrors
            && lhs.changed == rhs.changed
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(changed)
        hasher.combine(unattachedErrors)
    }
}

/// An immutable view of the store's records at one moment. Lenses read through snapshots without locking.
public struct StoreSnapshot: Sendable {
    public let records: [RecordKey: Record]
    /// The records optimistic updates wrote (what `Lens.isOptimistic` reads); empty without any in flight.
    public let optimisticRecords: Set<RecordKey>

    public init(records: [RecordKey: Record] = [:], optimisticRecords: Set<RecordKey> = []) {
        self.records = records
        self.optimisticRecords = optimisticRecords
    }

    public subscript(key: RecordKey) -> Record? { records[key] }
}

/// The normalized store: records keyed by data ID, committed in batches, read through snapshots.
///
/// Safe to commit and read from several tasks: the records live behind one lock, a commit normalizes outside
/// it and merges inside it, and subscribers are notified after the lock is released, once per batch.
public final class Store: Sendable {
    struct State {
        /// What reads see: the server's records, with the optimistic layers in flight over them.
        var records: [RecordKey: Record] = [:]
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
        /// Hears of every batch, in order (a persistence layer; see `StoreBatch`).
        var batchObserver: (@Sendable (StoreBatch) -> Void)?
        /// Every connection record made (a superset: `@deleteRecord` removes edges from each that still exists).
        var connections = Set<RecordKey>()
        /// The edge indexes of `records`' connections (`ConnectionWrites.EdgeIndex`), so a page merges in time
        /// proportional to the page; emptied whenever `records` changes other than by a batch applied to it.
        var edgeIndexes: [RecordKey: ConnectionWrites.EdgeIndex] = [:]
        /// Optimistic updates (Store+Optimistic.swift): the server's records apart while layers are in flight.
        var optimistic = OptimisticState()
    }

    struct Subscriber {
        var slots: Set<SlotID>
        var callback: @Sendable (Set<SlotID>) -> Void
    }

    let state = Locked(State())
    /// The clock that stamps records' ages.
    public let clock: @Sendable () -> Date

    public init(clock: @escaping @Sendable () -> Date = { Date() }) { self.clock = clock }

    /// A consistent view of every record now.
    /// Live subscriptions (handles that have not detached), for leak checks.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    public func snapshot() -> StoreSnapshot {
        state.withLock { StoreSnapshot(records: $0.records, optimisticRecords: $0.optimistic.records) }
    }

    /// The record under `key`, if any.
    public func record(_ key: RecordKey) -> Record? { state.withLock { $0.records[key] } }

    /// Commits a server response for an operation: normalizes `data` by its selections, attaches `errors` to
    /// slots, and notifies subscribers of changed slots once. A response with errors and no data changes nothing
    /// and throws `ResponseError.requestFailed`. The tree is committed as the body it spells (written out as JSON
    /// and read back), so it is held to what a body may be: nested at most `JSONParser.maximumDepth` levels from
    /// the body's root, numbers that are JSON numbers; otherwise `ResponseError.malformed`, and nothing changes.
    @discardableResult
    public func commit(
        _ response: GraphQLResponse, selections: [Selection], variables: [String: JSONValue] = [:],
        rootKey: RecordKey = "Query", rootTypename: String = "Query"
    ) throws(ResponseError) -> CommitResult {
        let write = try Store.normalize(
            response, rootKey: rootKey, rootTypename: rootTypename, selections: selections, variables: variables)
        return merge(write)
    }

    /// Commits the response of a generated operation.
    @discardableResult
    public func commit<Operation: GraphQLOperation>(_ response: GraphQLResponse, for operation: Operation)
        throws(ResponseError)
        -> CommitResult
    {
        try commit(
            response, selections: Operation.Data.selections, variables: operation.resolvedVariables,
            rootKey: Operation.rootTypename, rootTypename: Operation.rootTypename)
    }

    /// Commits a response body straight from its bytes, as `commit(GraphQLResponse(bytes:), …)` does but without
    /// building a `JSONValue` tree: the body is read into a flat token tape and normalized from it (see
    /// `TapeNormalizer`). A body that is not a GraphQL response (or nests deeper than `JSONParser.maximumDepth`)
    /// throws `ResponseError.malformed` (the same error `GraphQLResponse(bytes:)` gives); errors and no data throw
    /// `ResponseError.requestFailed`. Either way nothing changes.
    @discardableResult
    public func commit(
        bytes: Data, selections: [Selection], variables: [String: JSONValue] = [:], rootKey: RecordKey = "Query",
        rootTypename: String = "Query"
    ) throws(ResponseError) -> CommitResult {
        let write = try Store.normalize(
            bytes: bytes, rootKey: rootKey, rootTypename: rootTypename, selections: selections, variables: variables)
        return merge(write)
    }

    /// Commits the response body of a generated operation straight from its bytes.
    @discardableResult
    public func commit<Operation: GraphQLOperation>(bytes: Data, for operation: Operation) throws(ResponseError)
        -> CommitResult
    {
        try commit(
            bytes: bytes, selections: Operation.Data.selections, variables: operation.resolvedVariables,
            rootKey: Operation.rootTypename, rootTypename: Operation.rootTypename)
    }

    /// `commitDeferringNotifications` from a response body's bytes; the server batch replaces the optimistic layer
    /// `layer` (if any) in the same batch.
    func commitDeferringNotifications<Operation: GraphQLOperation>(
        bytes: Data, for operation: Operation, replacing layer: OptimisticLayerID? = nil
    ) throws(ResponseError) -> (CommitResult, () -> Void) {
        let write = try Store.normalize(
            bytes: bytes, rootKey: Operation.rootTypename, rootTypename: Operation.rootTypename,
            selections: Operation.Data.selections, variables: operation.resolvedVariables)
        return mergeDeferringNotifications(write, replacingLayer: layer)
    }

    static func normalize(
        bytes: Data, rootKey: RecordKey, rootTypename: String, selections: [Selection], variables: [String: JSONValue],
        writtenFromTree: Bool = false
    ) throws(ResponseError) -> NormalizedWrite {
        let result: Result<NormalizedWrite, ResponseError> = bytes.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            switch TapeNormalizer.read(buffer) {
            case .malformed(let reason, let tooDeep):
                guard writtenFromTree else { return .failure(.malformed(reason)) }
                // Offsets into text the caller never saw would not help: say what is wrong with the tree.
                return .failure(
                    .malformed(
                        tooDeep
                            ? "the response nests more than \(JSONParser.maximumDepth) levels"
                            : "the response written out as JSON is not JSON (\(reason)); is a number's text not a number?"
                    ))
            case .requestFailed(let errors):
                return .failure(.requestFailed(errors))
            case .response(let tape, let data, let errors):
                return .success(
                    TapeNormalizer.normalize(
                        tape: tape, data: data, errors: errors, bytes: buffer, rootKey: rootKey,
                        rootTypename: rootTypename, selections: selections, variables: variables))
            }
        }
        return try result.get()
    }

    /// Normalizes a response tree as the body it spells: `{"data":…,"errors":[…]}` written out and read back, so
    /// a tree and a body take one path and agree by construction.
    static func normalize(
        _ response: GraphQLResponse, rootKey: RecordKey, rootTypename: String, selections: [Selection],
        variables: [String: JSONValue]
    ) throws(ResponseError) -> NormalizedWrite {
        guard let data = response.data else { throw .requestFailed(response.errors) }
        var body = JSONObject()
        body["data"] = .object(data)
        if !response.errors.isEmpty { body["errors"] = .array(response.errors.map(\.json)) }
        var text: [UInt8] = []
        JSONWriter.write(.object(body), to: &text, sortKeys: false)
        return try normalize(
            bytes: Data(text), rootKey: rootKey, rootTypename: rootTypename, selections: selections,
            variables: variables, writtenFromTree: true)
    }

    func merge(_ write: consuming NormalizedWrite) -> CommitResult {
        let (result, deliver) = mergeDeferringNotifications(write)
        deliver()
        return result
    }

    func mergeDeferringNotifications(
        _ normalized: consuming NormalizedWrite, replacingLayer layer: OptimisticLayerID? = nil
    ) -> (CommitResult, () -> Void) {
        var write = normalized
        let now = clock().timeIntervalSince1970
        var changed: [SlotID] = []
        changed.reserveCapacity(write.slotCount)
        let notify: [(@Sendable (Set<SlotID>) -> Void, Set<SlotID>)] = state.withLock { state in
            if state.optimistic.layers.isEmpty {
                Store.apply(
                    &write, to: &state.records, connections: &state.connections, edgeIndexes: &state.edgeIndexes,
                    now: now, changed: &changed, observer: state.batchObserver)
                return Store.notifications(state, changed)
            }
            let rebased = Store.rebase(&state, server: write, removing: layer, adding: nil, now: now)
            changed = Array(rebased)
            return Store.notifications(state, rebased)
        }
        return (
            CommitResult(changedSlots: changed, unattachedErrors: write.unattachedErrors),
            { for (callback, slots) in notify { callback(slots) } }
        )
    }

    /// The subscribers to call for a batch that changed `changed` (each slot once), with the slots each watches.
    /// A subscriber watching at least as many slots as changed has each changed slot looked up in its set; the set
    /// of changed slots is built only for one watching fewer (then its slots are looked up in it), and only once.
    static func notifications(_ state: State, _ changed: [SlotID]) -> [(
        @Sendable (Set<SlotID>) -> Void, Set<SlotID>
    )] {
        if changed.isEmpty || state.subscribers.isEmpty { return [] }
        var changedSet: Set<SlotID>?
        return state.subscribers.values.compactMap { subscriber in
            let hit: Set<SlotID>
            if subscriber.slots.count >= changed.count {
                hit = Set(changed.filter { subscriber.slots.contains($0) })
            } else {
                let set = changedSet ?? Set(changed)
                changedSet = set
                hit = subscriber.slots.intersection(set)
            }
            return hit.isEmpty ? nil : (subscriber.callback, hit)
        }
    }

    /// The subscribers to call for a batch that changed `changed`, with the slots each watches.
    static func notifications(_ state: State, _ changed: Set<SlotID>) -> [(
        @Sendable (Set<SlotID>) -> Void, Set<SlotID>
    )] {
        if changed.isEmpty || state.subscribers.isEmpty { return [] }
        return state.subscribers.values.compactMap { subscriber in
            let hit = subscriber.slots.intersection(changed)
            return hit.isEmpty ? nil : (subscriber.callback, hit)
        }
    }

    /// Applies one normalized write to a table of records: its records slot by slot, then its connection pages
    /// and declarative updates (`ConnectionWrites`), appending the slots whose content changed to `changed`, each
    /// once (a write has one pending record per key and one slot per storage key; `changed` must not list any
    /// slot of the write's records before the call).
    /// `observer` (a persistence layer) hears of every record the write changed, as the table now holds it.
    /// The write is applied in place (its slot tables taken, not copied).
    static func apply(
        _ write: inout NormalizedWrite, to records: inout [RecordKey: Record], connections: inout Set<RecordKey>,
        now: Double, changed: inout [SlotID], observer: (@Sendable (StoreBatch) -> Void)? = nil
    ) {
        var indexes: [RecordKey: ConnectionWrites.EdgeIndex] = [:]  // a table of its own: built where needed
        apply(
            &write, to: &records, connections: &connections, edgeIndexes: &indexes, now: now, changed: &changed,
            observer: observer)
    }

    /// `apply` with the table's kept edge indexes (`State.edgeIndexes`).
    static func apply(
        _ write: inout NormalizedWrite, to records: inout [RecordKey: Record], connections: inout Set<RecordKey>,
        edgeIndexes: inout [RecordKey: ConnectionWrites.EdgeIndex], now: Double, changed: inout [SlotID],
        observer: (@Sendable (StoreBatch) -> Void)? = nil
    ) {
        // Room for every record the batch writes, so a growing store rehashes its table once, not per doubling.
        records.reserveCapacity(records.count + write.pending.count)
        var rewroteAnEdge = false
        for index in write.pending.indices {
            let key = write.pending[index].key
            let typename = write.pending[index].typename
            Store.apply(
                index, of: &write, now: now, to: &records[key, default: Record(typename: typename)], changed: &changed,
                rewroteAnEdge: &rewroteAnEdge)
        }
        // An edge record written again with another node or cursor: what the indexes saw is not what lists show.
        if rewroteAnEdge { edgeIndexes = [:] }
        var connectionChanges = Set<SlotID>()
        if !write.connectionWrites.isEmpty {
            ConnectionWrites.apply(
                write.connectionWrites, variables: write.variables, to: &records, connections: &connections,
                edgeIndexes: &edgeIndexes, now: now, changed: &connectionChanges)
            // A page may write a slot a record of the write wrote too: list each once.
            if !connectionChanges.isEmpty { changed.append(contentsOf: connectionChanges.subtracting(changed)) }
        }
        if let observer {
            // Every record written has a new age, so each is part of the batch; so is every record a connection
            // page or a declarative update changed.
            var keys = write.pending.map(\.key)
            var seen = Set(keys)
            for slot in connectionChanges where seen.insert(slot.record).inserted { keys.append(slot.record) }
            observer(.records(keys.compactMap { key in records[key].map { (key, $0) } }))
        }
    }

    /// Writes one record's slots in place (no copy of its slot table), collecting the slots that changed.
    private static func apply(
        _ index: Int, of write: inout NormalizedWrite, now: Double, to record: inout Record, changed: inout [SlotID],
        rewroteAnEdge: inout Bool
    ) {
        if let typename = write.pending[index].typename { record.typename = typename }
        if record.slots.isEmpty {
            // A new record (or one without slots): every slot written is a change; take the table whole.
            record.slots = write.takeTable(index, recordingChangesIn: &changed)
        } else {
            let key = write.pending[index].key
            var recordHash: Int?
            write.forEachSlot(index) { storageKey, slot in
                if let old = record.slots.updateValue(slot, forKey: storageKey) {
                    if old == slot { return }
                    if storageKey == ConnectionWrites.node || storageKey == ConnectionWrites.cursor {
                        rewroteAnEdge = true
                    }
                }
                let hash = recordHash ?? key.hashValue
                recordHash = hash
                changed.append(SlotID(key, storageKey, recordHash: hash, storageKeyHash: storageKey.hashValue))
            }
        }
        record.updatedAt = now
        record.invalidated = false
        record.isDeleted = false
    }

    /// Calls `callback` once per committed batch that changes any of `slots`, with the changed ones.
    public func subscribe(to slots: Set<SlotID>, _ callback: @escaping @Sendable (Set<SlotID>) -> Void) -> Subscription
    {
        let id = state.withLock { state in
            let id = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[id] = Subscriber(slots: slots, callback: callback)
            return id
        }
        return Subscription(store: self, id: id)
    }

    func updateSubscription(_ id: Int, slots: Set<SlotID>) {
        state.withLock { $0.subscribers[id]?.slots = slots }
    }

    func cancelSubscription(_ id: Int) {
        _ = state.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    /// Marks records stale; returns how many were marked.
    @discardableResult
    func invalidate(where predicate: (RecordKey, Record) -> Bool) -> Int {
        state.withLock { state in
            var count = 0
            var marked: [(key: RecordKey, record: Record)] = []
            for (key, record) in state.records where predicate(key, record) {
                state.optimistic.base?[key]?.invalidated = true
                count += 1
                guard !record.invalidated else { continue }
                state.records[key]?.invalidated = true
                if state.batchObserver != nil, let now = state.records[key] { marked.append((key, now)) }
            }
            if let observer = state.batchObserver, !marked.isEmpty { observer(.records(marked)) }
            return count
        }
    }

    /// The oldest `updatedAt` among the records, and whether any is invalidated.
    func staleness(of keys: Set<RecordKey>) -> (oldest: Double?, invalidated: Bool) {
        state.withLock { state in
            var oldest: Double?
            var invalidated = false
            for key in keys {
                guard let record = state.records[key] else { continue }
                if record.invalidated { invalidated = true }
                if oldest.map({ record.updatedAt < $0 }) ?? true { oldest = record.updatedAt }
            }
            return (oldest, invalidated)
        }
    }

    /// Replaces every record (loading an image); optimistic layers in flight are dropped.
    func replaceRecords(_ records: [RecordKey: Record]) {
        state.withLock { state in
            Store.replace(&state, with: records)
            state.batchObserver?(.replaced(records))
        }
    }

    /// Makes `records` the whole content: optimistic layers in flight are dropped, connection records found again.
    static func replace(_ state: inout State, with records: [RecordKey: Record]) {
        state.records = records
        state.edgeIndexes = [:]
        state.optimistic = OptimisticState()
        state.connections = Set(records.keys.filter { $0.contains(".__connection:") })
    }

    /// Removes every record.
    public func clear() { replaceRecords([:]) }
}

/// A store subscription; cancel it when the reader goes away.
public struct Subscription: Sendable {
    let store: Store
    let id: Int

    /// Replaces the watched slots.
    public func update(_ slots: Set<SlotID>) { store.updateSubscription(id, slots: slots) }

    /// Stops notifications.
    public func cancel() { store.cancelSubscription(id) }
}
