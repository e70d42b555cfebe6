import Foundation

/// The client: a store, a transport and a log. It fetches, commits, logs, heals and revalidates.
///
/// Views attach handles (`attach`); one-off reads and mutations use `fetch`. Every event goes through `log`.
public final class BatonEnvironment: Sendable {
    public let store: Store
    public let transport: any Transport
    public let log: any EventLog
    /// The clock staleness is measured with (injected in tests).
    public let clock: @Sendable () -> Date
    /// When a query is sent again after a transport failure (mutations never are).
    public let retryPolicy: RetryPolicy
    /// Where subscriptions go (nil: `subscribe` fails at once).
    public let subscriptionTransport: (any SubscriptionTransport)?
    /// When unreachable records are collected, and how many recent operations stay reachable.
    public let garbageCollection: GarbageCollection

    struct State {
        var handles: [ObjectIdentifier: WeakHandle] = [:]
        var inFlight: [Int: Task<Void, Never>] = [:]
        var nextTask = 0
        var invalidatedOperations = Set<OperationIdentity>()
        /// What the store keeps (BatonEnvironment+Retention.swift).
        var retention = RetentionState()
        /// Pagination state shared per connection (Pagination.swift).
        var paginations: [String: WeakPagination] = [:]
    }

    struct WeakHandle: @unchecked Sendable {
        weak var handle: (any AttachedHandle)?
    }

    let state = Locked(State())

    /// An environment over a store (a new one on `clock` by default).
    public init(
        store: Store? = nil, transport: any Transport, log: any EventLog = MemoryLog(),
        clock: @escaping @Sendable () -> Date = { Date() }, retryPolicy: RetryPolicy = .standard,
        subscriptionTransport: (any SubscriptionTransport)? = nil, garbageCollection: GarbageCollection = .standard
    ) {
        self.garbageCollection = garbageCollection
        self.store = store ?? Store(clock: clock)
        self.transport = transport
        self.log = log
        self.clock = clock
        self.retryPolicy = retryPolicy
        self.subscriptionTransport = subscriptionTransport
    }

    // MARK: Handles

    /// Attaches a handle for an operation under a fetch policy; `expiration` overrides the operation's; `headers` go
    /// with every fetch of the handle, over the transport's.
    public func attach<Operation: GraphQLOperation>(
        _ operation: Operation, policy: FetchPolicy = .storeOrNetwork, expiration: TimeInterval? = nil,
        headers: [String: String] = [:]
    ) -> Handle<Operation> {
        let handle = Handle(
            operation: operation, policy: policy, expiration: expiration ?? Operation.expiration, headers: headers,
            environment: self)
        state.withLock { $0.handles[ObjectIdentifier(handle)] = WeakHandle(handle: handle) }
        handle.start()
        return handle
    }

    func detach(_ handle: AnyObject) {
        let removed = state.withLock { $0.handles.removeValue(forKey: ObjectIdentifier(handle)) }
        if let root = removed?.handle?.retainedRoot { release(root) }
    }

    var attachedHandles: [any AttachedHandle] {
        state.withLock { state in
            state.handles = state.handles.filter { $0.value.handle != nil }
            return state.handles.values.compactMap(\.handle)
        }
    }

    // MARK: Fetching

    /// Fetches an operation, commits the answer, and reads its data. Logs `fetchStarted`, `committed`,
    /// `fetchCompleted` or `fetchFailed`.
    /// `headers` go with this request alone, over the transport's.
    public func fetch<Operation: GraphQLOperation>(
        _ operation: Operation, headers: [String: String] = [:]
    ) async throws(FetchError) -> Operation.Data {
        try await send(operation, headers: headers, beforeDelivery: {}, afterDelivery: {})
        keepRecent(RetainedRoot(operation))
        do {
            return try store.read(operation, reporter: LoggingReporter(log: log))
        } catch {
            throw .read(error)
        }
    }

    /// The fetch pipeline shared by `fetch` and handles.
    /// The answer replaces the optimistic layer `replacing` (if any) in the same batch.
    /// Every event it logs (and every event logged by what it delivers to) carries a new `LogEvent.Trace`.
    /// An operation with `@defer` or `@stream` sent through an `IncrementalTransport` is committed payload by
    /// payload (`afterPayload` runs after each but the last).
    func send<Operation: GraphQLOperation>(
        _ operation: Operation, headers: [String: String] = [:], replacing layer: OptimisticLayerID? = nil,
        beforeDelivery: () -> Void, afterDelivery: () -> Void, afterPayload: () -> Void = {}
    ) async throws(FetchError) {
        let trace = Locked(LogEvent.Trace.next(Operation.operationName))
        do {
            try await LogEvent.Trace.$current.withValue(trace) {
                try await traced(
                    operation, headers: headers, replacing: layer, beforeDelivery: beforeDelivery,
                    afterDelivery: afterDelivery, afterPayload: afterPayload)
            }
        } catch {
            throw error as? FetchError ?? FetchError(thrown: error)
        }
    }

    private func traced<Operation: GraphQLOperation>(
        _ operation: Operation, headers: [String: String], replacing layer: OptimisticLayerID?,
        beforeDelivery: () -> Void, afterDelivery: () -> Void, afterPayload: () -> Void
    ) async throws(FetchError) {
        let name = JSONObject([("operation", .string(Operation.operationName))])
        log.record(LogEvent("fetchStarted", name))
        do {
            let request = GraphQLRequest(operation, headers: headers)
            if request.incrementalDelivery, let incremental = transport as? any IncrementalTransport {
                try await receiveIncrementally(
                    operation, request, through: incremental, replacing: layer, beforeDelivery: beforeDelivery,
                    afterDelivery: afterDelivery, afterPayload: afterPayload)
                _ = state.withLock { $0.invalidatedOperations.remove(operation.identity) }
                log.record(LogEvent("fetchCompleted", name))
                return
            }
            let bytes = try await receive(request)
            let (result, deliver): (CommitResult, () -> Void)
            do {
                (result, deliver) = try store.commitDeferringNotifications(
                    bytes: bytes, for: operation, replacing: layer)
            } catch {
                throw FetchError(error, body: bytes)
            }
            log.record(
                LogEvent(
                    "committed",
                    JSONObject([("kind", "server"), ("changed", .number(String(result.changedSlots.count)))])))
            beforeDelivery()
            deliver()
            afterDelivery()
            _ = state.withLock { $0.invalidatedOperations.remove(operation.identity) }
        } catch let error as FetchError {
            var payload = name
            payload["error"] = error.payload
            log.record(
                LogEvent(
                    error == .cancelled ? "fetchCancelled" : "fetchFailed",
                    payload))
            throw error
        } catch {
            throw FetchError(thrown: error)
        }
        log.record(LogEvent("fetchCompleted", name))
    }

    /// Sends a request through the transport, again after a transient failure of a query as `retryPolicy`
    /// allows (logging `retry`). A failure that ends it is the `FetchError` case of its kind (`FetchError(thrown:)`).
    private func receive(_ request: GraphQLRequest) async throws(FetchError) -> Data {
        try await retrying(request) { try await transport.send(request) }
    }

    /// Runs `attempt` again after a transient failure of a query, as `retryPolicy` allows and while `mayRetry`
    /// says so; a `FetchError` it throws ends it as it is.
    func retrying<Result>(
        _ request: GraphQLRequest, mayRetry: () -> Bool = { true }, _ attempt: () async throws -> Result
    ) async throws(FetchError) -> Result {
        var retry = 0
        while true {
            do {
                return try await attempt()
            } catch let error as FetchError {
                throw error
            } catch {
                let failure = error as? TransportError ?? (error is CancellationError ? .cancelled : nil)
                retry += 1
                guard request.operationType == .query, let failure, !Task.isCancelled, mayRetry(),
                    let delay = retryPolicy.delay(beforeRetry: retry, after: failure)
                else {
                    throw Task.isCancelled ? .cancelled : FetchError(thrown: error)
                }
                // The retry is logged under the attempt that failed; what follows under the next one.
                defer { LogEvent.Trace.current?.withLock { $0.attempt = retry + 1 } }
                log.record(
                    LogEvent(
                        "retry",
                        JSONObject([
                            ("operation", .string(request.operationName)), ("attempt", .number(String(retry))),
                            ("delay", .number(String(format: "%.3f", delay))), ("error", .string(failure.description)),
                        ])))
                do {
                    try await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                } catch {
                    throw .cancelled
                }
            }
        }
    }

    /// Runs work as a tracked task, so `settle()` can wait for it; the task is returned so it can be cancelled.
    @discardableResult
    func track(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        state.withLock { state in
            let id = state.nextTask
            state.nextTask += 1
            let task = Task {
                await work()
                self.finish(id)
            }
            state.inFlight[id] = task
            return task
        }
    }

    private func finish(_ id: Int) { _ = state.withLock { $0.inFlight.removeValue(forKey: id) } }

    /// How many tracked tasks (fetches, heals, refetches) are running: the test kit's `settle()` stops waiting when
    /// each of them waits for an answer the test has not given yet. SPI, not app API: `BatonTesting` imports it with
    /// `@_spi(BatonTesting)` (a `package` declaration would need every build of the runtime's sources to name the
    /// package).
    @_spi(BatonTesting) public var runningTaskCount: Int { state.withLock { $0.inFlight.count } }

    /// Waits until no fetch the environment started (including heals and refetches they cause) is running.
    public func settle() async {
        while let task = state.withLock({ $0.inFlight.values.first }) {
            await task.value
        }
    }

    // MARK: Staleness

    /// Marks a record stale.
    public func invalidate(record key: RecordKey) {
        let count = store.invalidate { candidate, _ in candidate == key }
        log.record(
            LogEvent("invalidated", JSONObject([("record", .string(key)), ("records", .number(String(count)))])))
        notifyStalenessChanged()
    }

    /// Marks every record of a type stale.
    public func invalidate(type typename: String) {
        let count = store.invalidate { _, record in record.typename == typename }
        log.record(
            LogEvent("invalidated", JSONObject([("type", .string(typename)), ("records", .number(String(count)))])))
        notifyStalenessChanged()
    }

    /// Marks an operation (with its variables) stale until it is fetched again.
    public func invalidate<Operation: GraphQLOperation>(operation: Operation) {
        _ = state.withLock { $0.invalidatedOperations.insert(operation.identity) }
        log.record(
            LogEvent(
                "invalidated",
                JSONObject([
                    ("operation", .string(Operation.operationName)),
                    ("variables", .string(operation.identity.variables)),
                ])))
        notifyStalenessChanged()
    }

    func isInvalidated(_ identity: OperationIdentity) -> Bool {
        state.withLock { $0.invalidatedOperations.contains(identity) }
    }

    private func notifyStalenessChanged() {
        for handle in attachedHandles { handle.stalenessChanged() }
    }

    /// Refetches every attached handle whose data went stale (what an app calls on returning to the foreground).
    public func revalidate() {
        for handle in attachedHandles where handle.isStale { handle.refetch(reason: "stale") }
    }

    // MARK: The image

    /// Saves the store to an image file (atomically) and logs `imageSaved`: only the records its live handles,
    /// retained operations and recent operations reach (see `GarbageCollection`), and never an optimistic value.
    public func saveImage(to url: URL) throws {
        let count = try store.saveImage(to: url, keeping: store.reachableRecords(from: retainedRoots))
        log.record(LogEvent("imageSaved", JSONObject([("records", .number(String(count)))])))
    }

    /// Loads the store from an image file. A missing file leaves the store empty quietly; a corrupt, truncated or
    /// future-version image is logged as `imageRejected` and the store starts empty. Returns whether it loaded.
    @discardableResult
    public func loadImage(from url: URL) -> Bool {
        switch store.loadImage(from: url) {
        case .success(let count):
            log.record(LogEvent("imageLoaded", JSONObject([("records", .number(String(count)))])))
            return true
        case .failure(.absent):
            return false
        case .failure(let error):
            log.record(LogEvent("imageRejected", JSONObject([("reason", .string(error.description))])))
            return false
        }
    }
}

/// What the environment needs from any handle, whatever its operation.
protocol AttachedHandle: AnyObject, Sendable {
    var isStale: Bool { get }
    /// The operation's root, which a collection keeps while the handle is attached.
    var retainedRoot: RetainedRoot { get }
    func refetch(reason: String)
    func stalenessChanged()
}
