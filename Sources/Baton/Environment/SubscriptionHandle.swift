import Foundation

/// A view's hold on a subscription: every `next` the server sends is committed to the store as a server batch
/// (so handles reading the same records update, as after any fetch) and read as this handle's phase.
///
/// A `next` with errors and no data, or the server's `error`, is a request error: with no data yet the phase is
/// `.failed`; with data it stays `.ready` and `lastError` carries it. A socket that drops is reconnected by the
/// transport and the subscription sent again (`reconnects` counts it); `detach()` ends the subscription, and the
/// transport sends `complete` and closes the socket after the last one.
public final class SubscriptionHandle<Operation: GraphQLOperation>: Sendable {
    public let operation: Operation
    let environment: BatonEnvironment

    struct State {
        var phase: Phase<Operation.Data> = .loading
        var lastError: FetchError?
        var events = 0
        var reconnects = 0
        var finished = false
        var cancellation: SubscriptionCancellation?
    }

    private let state = Locked(State())
    private let observers = Observers()

    init(operation: Operation, environment: BatonEnvironment) {
        self.operation = operation
        self.environment = environment
    }

    /// `.loading` until the first `next`, then `.ready(data)`; `.failed` when it failed before any data.
    public var phase: Phase<Operation.Data> { state.withLock { $0.phase } }
    /// The latest failure (a request error, or the transport giving up).
    public var lastError: FetchError? { state.withLock { $0.lastError } }
    /// `next` payloads committed.
    public var eventCount: Int { state.withLock { $0.events } }
    /// Times the socket dropped and the subscription was sent again.
    public var reconnects: Int { state.withLock { $0.reconnects } }
    /// Whether the subscription is over (completed, failed, or detached).
    public var isFinished: Bool { state.withLock { $0.finished } }

    /// Calls `callback` after every change; returns a token for `removeObserver`.
    @discardableResult
    public func observe(_ callback: @escaping @Sendable () -> Void) -> Int { observers.add(callback) }

    public func removeObserver(_ id: Int) { observers.remove(id) }

    /// Ends the subscription (the transport sends `complete`).
    public func detach() {
        let cancellation = state.withLock { state -> SubscriptionCancellation? in
            state.finished = true
            defer { state.cancellation = nil }
            return state.cancellation
        }
        cancellation?.cancel()
    }

    /// The subscription's trace: every event it logs carries it (the attempt counts the times it was sent).
    private let trace = Locked(LogEvent.Trace.next(Operation.operationName))

    func start(_ transport: any SubscriptionTransport) {
        let name = JSONObject([("operation", .string(Operation.operationName))])
        LogEvent.Trace.$current.withValue(trace) { environment.log.record(LogEvent("subscriptionStarted", name)) }
        let cancellation = transport.subscribe(GraphQLRequest(operation)) { [weak self] event in
            self?.receive(event)
        }
        let detachedMeanwhile = state.withLock { state -> Bool in
            if !state.finished { state.cancellation = cancellation }
            return state.finished
        }
        if detachedMeanwhile { cancellation.cancel() }
    }

    func fail(_ error: FetchError) {
        state.withLock { state in
            state.finished = true
            state.lastError = error
            if state.phase.data == nil { state.phase = .failed(error) }
        }
        observers.notify()
    }

    private func receive(_ event: SubscriptionEvent) {
        LogEvent.Trace.$current.withValue(trace) { traced(event) }
        // A reconnect sends the subscription again: what follows is its next attempt.
        if case .reconnecting(let attempt, _, _) = event { trace.withLock { $0.attempt = attempt + 1 } }
    }

    private func traced(_ event: SubscriptionEvent) {
        if state.withLock({ $0.finished }) { return }
        let log = environment.log
        let name = Operation.operationName
        switch event {
        case .next(let bytes):
            do {
                let (result, deliver) = try environment.store.commitDeferringNotifications(bytes: bytes, for: operation)
                log.record(
                    LogEvent(
                        "committed",
                        JSONObject([("kind", "subscription"), ("changed", .number(String(result.changedSlots.count)))]))
                )
                deliver()
                let phase: Phase<Operation.Data>
                do {
                    phase = .ready(try environment.store.read(operation, reporter: LoggingReporter(log: log)))
                } catch {
                    phase = .failed(.read(error))
                }
                state.withLock { state in
                    state.events += 1
                    state.phase = phase
                    state.lastError = nil
                }
            } catch {
                record(FetchError(error, body: bytes))
            }
        case .error(let errors):
            record(.request(errors))
            state.withLock { $0.finished = true }
        case .complete:
            log.record(LogEvent("subscriptionCompleted", JSONObject([("operation", .string(name))])))
            state.withLock { $0.finished = true }
        case .reconnecting(let attempt, let delay, let reason):
            log.record(
                LogEvent(
                    "subscriptionReconnecting",
                    JSONObject([
                        ("operation", .string(name)), ("attempt", .number(String(attempt))),
                        ("delay", .number(String(format: "%.3f", delay))), ("reason", .string(reason)),
                    ])))
            state.withLock { $0.reconnects += 1 }
        case .failed(let reason):
            fail(.offline(reason))
            return
        }
        observers.notify()
    }

    private func record(_ failure: FetchError) {
        environment.log.record(
            LogEvent(
                "subscriptionFailed",
                JSONObject([("operation", .string(Operation.operationName)), ("error", failure.payload)])))
        state.withLock { state in
            state.lastError = failure
            if state.phase.data == nil { state.phase = .failed(failure) }
        }
    }

}

extension BatonEnvironment {
    /// Starts a subscription on `subscriptionTransport`; without one the handle fails at once.
    public func subscribe<Operation: GraphQLOperation>(_ operation: Operation) -> SubscriptionHandle<Operation> {
        let handle = SubscriptionHandle(operation: operation, environment: self)
        if let subscriptionTransport {
            handle.start(subscriptionTransport)
        } else {
            handle.fail(.unattached("the environment has no subscription transport"))
        }
        return handle
    }
}
