import Foundation

/// A view's hold on an operation: its phase, whether its data is stale, and a way to retry.
///
/// A handle reads the whole operation once per change (an `OperationWalk`) to learn which slots it depends on
/// and what is missing; it subscribes to those slots and re-reads when a commit changes any of them. A miss found
/// on such a re-read is missing data: logged, the operation marked stale and refetched once (a heal). A miss
/// right after the handle's own fetch is the server leaving a field out: logged as unexpected, not healed, so
/// nothing loops. Reads are numbered in the order their snapshots were taken, and a read publishes only when no
/// newer one has, so commits on several threads never leave an older snapshot's phase on show.
public final class Handle<Operation: GraphQLOperation>: AttachedHandle {
    public let operation: Operation
    public let policy: FetchPolicy
    /// Seconds after which the data is stale; nil for never by age.
    public let expiration: TimeInterval?
    /// Headers every fetch of the handle sends (its first, its retries, heals and refetches), over the transport's.
    public let headers: [String: String]
    let environment: BatonEnvironment

    struct State {
        var phase: Phase<Operation.Data> = .loading
        var lastFetchError: FetchError?
        var records = Set<RecordKey>()
        var subscription: Subscription?
        var fetching = false
        var committingOwn = false
        var healAttempted = false
        var markedStale = false
        var detached = false
        var fetchTask: Task<Void, Never>?
        /// The number of the latest read's snapshot, and of those the dependencies and the phase were last taken
        /// from: re-reads caused by commits on several threads can finish in any order, and an older read never
        /// overwrites what a newer one set.
        var reads: UInt64 = 0
        var subscribedRead: UInt64 = 0
        var publishedRead: UInt64 = 0
    }

    private let state = Locked(State())
    private let observers = Observers()

    init(
        operation: Operation, policy: FetchPolicy, expiration: TimeInterval?, headers: [String: String] = [:],
        environment: BatonEnvironment
    ) {
        self.operation = operation
        self.policy = policy
        self.expiration = expiration
        self.headers = headers
        self.environment = environment
    }

    deinit {
        state.withLock { $0.subscription }?.cancel()
    }

    // MARK: What a view reads

    /// `.loading`, `.ready(data)` or `.failed(error)`.
    public var phase: Phase<Operation.Data> { state.withLock { $0.phase } }

    /// The failure of the latest fetch, when it failed; with data already there the phase stays `.ready`.
    public var lastFetchError: FetchError? { state.withLock { $0.lastFetchError } }

    /// Whether a fetch is running for this handle.
    public var isFetching: Bool { state.withLock { $0.fetching } }

    /// True when the data is older than the expiration, or a record it read, its type, or the operation was
    /// invalidated, or a heal marked it. Stale data stays visible.
    public var isStale: Bool {
        let (records, marked, hasData) = state.withLock { ($0.records, $0.markedStale, $0.phase.data != nil) }
        guard hasData else { return false }
        if marked || environment.isInvalidated(operation.identity) { return true }
        let (oldest, invalidated) = environment.store.staleness(of: records)
        if invalidated { return true }
        if let expiration, let oldest, environment.clock().timeIntervalSince1970 - oldest > expiration { return true }
        return false
    }

    /// Fetches again (after a failure, or to refresh).
    public func retry() { refetch(reason: "retry") }

    /// Calls `callback` after every change of phase or staleness; returns a token for `removeObserver`.
    @discardableResult
    public func observe(_ callback: @escaping @Sendable () -> Void) -> Int { observers.add(callback) }

    public func removeObserver(_ id: Int) { observers.remove(id) }

    /// Stops notifications and fetches for this handle; a fetch under way is cancelled (its request too).
    public func detach() {
        let (subscription, fetch) = state.withLock { state in
            state.detached = true
            return (state.subscription, state.fetchTask)
        }
        subscription?.cancel()
        fetch?.cancel()
        environment.detach(self)
    }

    // MARK: Lifecycle

    func start() {
        let subscription = environment.store.subscribe(to: []) { [weak self] _ in self?.storeChanged() }
        state.withLock { $0.subscription = subscription }
        let read = walkNow()
        switch policy {
        case .storeOnly:
            publish(read, reporter: LoggingReporter(log: environment.log))
        case .networkOnly:
            subscribe(read)
            startFetch()
        case .storeOrNetwork:
            if read.walk.isComplete {
                publish(read, reporter: LoggingReporter(log: environment.log))
                if isStale { refetch(reason: "stale") }
            } else {
                subscribe(read)
                startFetch()
            }
        case .storeAndNetwork:
            if read.walk.isComplete {
                publish(read, reporter: LoggingReporter(log: environment.log))
            } else {
                subscribe(read)
            }
            startFetch()
        }
    }

    func refetch(reason: String) {
        guard policy != .storeOnly else { return }
        environment.log.record(
            LogEvent(
                "refetch", JSONObject([("operation", .string(Operation.operationName)), ("reason", .string(reason))])))
        startFetch()
    }

    func stalenessChanged() { observers.notify() }

    var retainedRoot: RetainedRoot { RetainedRoot(operation) }

    private func storeChanged() {
        let skip = state.withLock { $0.committingOwn || $0.detached }
        if !skip { reread() }
    }

    /// A re-read after another commit changed a slot this handle depends on.
    private func reread() {
        let read = walkNow()
        let walk = read.walk
        let reporter = LoggingReporter(log: environment.log)
        let (fetching, hasData) = state.withLock { ($0.fetching, $0.phase.data != nil) }
        if walk.missing.isEmpty {
            state.withLock { $0.healAttempted = false }
        } else if fetching {
            // A fetch of this operation is on its way; it will answer the miss.
            for missing in walk.missing { reporter.markSeen(record: missing.record, field: missing.field) }
        } else {
            for missing in walk.missing {
                reporter.report(
                    .missingData(type: missing.type, field: missing.field, record: missing.record, path: missing.path))
            }
            let heal = state.withLock { state -> Bool in
                guard hasData, !state.healAttempted, policy != .storeOnly else { return false }
                state.healAttempted = true
                state.markedStale = true
                return true
            }
            if heal {
                publish(read, reporter: reporter)
                refetch(reason: "missingData")
                return
            }
        }
        publish(read, reporter: reporter)
    }

    /// The read after this handle's own fetch committed.
    private func readAfterFetch() {
        let read = walkNow()
        let walk = read.walk
        let reporter = LoggingReporter(log: environment.log)
        if walk.missing.isEmpty {
            state.withLock { $0.healAttempted = false }
        } else {
            for missing in walk.missing {
                reporter.report(
                    .unexpectedValue(
                        type: missing.type, field: missing.field, reason: "missing after a refetch", path: missing.path)
                )
                reporter.markSeen(record: missing.record, field: missing.field)
            }
        }
        publish(read, reporter: reporter)
    }

    /// One read of the store: a snapshot, the walk of the operation over it, and its number.
    struct Read {
        var snapshot: StoreSnapshot
        var walk: OperationWalk
        var number: UInt64
    }

    private func walkNow() -> Read {
        // The snapshot is taken under the handle's lock with its number, so a higher number is never an older
        // snapshot (the store's lock is taken inside the handle's, never the other way round).
        let (snapshot, number) = state.withLock { state in
            state.reads += 1
            return (environment.store.snapshot(), state.reads)
        }
        let walk = OperationWalk(
            snapshot: snapshot, variables: operation.resolvedVariables, root: Operation.rootTypename,
            selections: Operation.Data.selections)
        return Read(snapshot: snapshot, walk: walk, number: number)
    }

    /// Takes the read's records and slots as what the handle depends on, unless a newer read already did; returns
    /// whether it took them.
    @discardableResult
    private func subscribe(_ read: Read) -> Bool {
        state.withLock { state in
            guard read.number > state.subscribedRead else { return false }
            state.subscribedRead = read.number
            state.records = read.walk.records
            state.subscription?.update(read.walk.dependencies)
            return true
        }
    }

    /// Reads the operation's data from the read's snapshot and makes it the phase, unless a newer read already
    /// published (then this one is dropped: its snapshot is older than what the view shows).
    private func publish(_ read: Read, reporter: LoggingReporter) {
        guard subscribe(read) else { return }
        let phase: Phase<Operation.Data>
        do {
            phase = .ready(try read.snapshot.read(operation, reporter: reporter))
        } catch {
            phase = .failed(.read(error))
        }
        let published = state.withLock { state in
            guard read.number > state.publishedRead else { return false }
            state.publishedRead = read.number
            state.phase = phase
            return true
        }
        if published { observers.notify() }
    }

    private func startFetch() {
        let start = state.withLock { state -> Bool in
            if state.fetching || state.detached { return false }
            state.fetching = true
            return true
        }
        guard start else { return }
        let task = environment.track { [self] in await self.runFetch() }
        state.withLock { state in
            state.fetchTask = task
            if state.detached { task.cancel() }
        }
    }

    private func runFetch() async {
        do {
            try await environment.send(
                operation, headers: headers, beforeDelivery: { state.withLock { $0.committingOwn = true } },
                afterDelivery: { state.withLock { $0.committingOwn = false } },
                // Incremental delivery: each payload but the last is shown as it arrives, the fetch still running
                // (`isFetching`), so what is still missing is waited for, not reported.
                afterPayload: { reread() })
            state.withLock { state in
                state.fetching = false
                state.markedStale = false
                state.lastFetchError = nil
            }
            readAfterFetch()
        } catch {
            state.withLock { state in
                state.fetching = false
                state.lastFetchError = error
                if state.phase.data == nil { state.phase = .failed(error) }
            }
            observers.notify()
        }
    }
}
