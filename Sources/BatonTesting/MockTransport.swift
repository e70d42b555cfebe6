import Baton
import Foundation

/// A transport that holds every request until the test answers it.
///
/// Each request waits in a queue (`pending`); `resolve` and `reject` answer the most recent one, or the most recent
/// one of an operation, and wait (up to `timeout`) for it to be sent first, since a handle sends from a task of its
/// own. Every request is kept in `sent`, answered or not. A request whose task is cancelled (its handle detached)
/// leaves the queue as `CancellationError`.
public final class MockTransport: Transport {
    /// A request waiting for its answer.
    struct Waiting {
        var id: Int
        var request: GraphQLRequest
        var continuation: CheckedContinuation<[UInt8], any Error>?
        /// An answer given after the request was sent but before its task suspended: taken when it does.
        var early: Result<[UInt8], any Error>?
    }

    struct State {
        var nextID = 0
        var waiting: [Waiting] = []
        var sent: [GraphQLRequest] = []
    }

    private let state = Mutex(State())
    /// How long `resolve`, `reject` and `waitForOperation` wait for a request to be sent.
    public let timeout: TimeInterval

    /// A transport whose answers wait up to `timeout` seconds for their request.
    public init(timeout: TimeInterval = 5) { self.timeout = timeout }

    /// Every request sent so far, in order.
    public var sent: [GraphQLRequest] { state.withLock { $0.sent } }

    /// The requests waiting for an answer, oldest first.
    public var pending: [GraphQLRequest] { state.withLock { $0.waiting.filter { $0.early == nil }.map(\.request) } }

    public func send(_ request: GraphQLRequest) async throws -> Data {
        let id = state.withLock { state in
            state.nextID += 1
            state.sent.append(request)
            state.waiting.append(Waiting(id: state.nextID, request: request))
            return state.nextID
        }
        let bytes = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let early: Result<[UInt8], any Error>? = state.withLock { state in
                    guard let index = state.waiting.firstIndex(where: { $0.id == id }) else {
                        return .failure(CancellationError())
                    }
                    if let early = state.waiting[index].early {
                        state.waiting.remove(at: index)
                        return early
                    }
                    state.waiting[index].continuation = continuation
                    return nil
                }
                if let early { continuation.resume(with: early) }
            }
        } onCancel: {
            let continuation = state.withLock { state in
                state.waiting.firstIndex { $0.id == id }.flatMap { state.waiting.remove(at: $0).continuation }
            }
            continuation?.resume(throwing: CancellationError())
        }
        return Data(bytes)
    }

    /// Waits until a request of `operationName` (any request when nil) is pending, and returns the most recent.
    @discardableResult
    public func waitForOperation(_ operationName: String? = nil) async throws -> GraphQLRequest {
        try await waitForWaiting(operationName).request
    }

    /// Answers the most recent pending request of `operationName` (any operation when nil) with `response`.
    public func respond(_ operationName: String? = nil, with response: MockResponse) async throws {
        let result: Result<[UInt8], any Error> = Result { try response.answer() }
        let waiting = try await waitForWaiting(operationName)
        let continuation = state.withLock { state -> CheckedContinuation<[UInt8], any Error>? in
            guard let index = state.waiting.firstIndex(where: { $0.id == waiting.id }) else { return nil }
            guard let continuation = state.waiting[index].continuation else {
                // Sent, but its task has not suspended yet: it takes the answer when it does.
                state.waiting[index].early = result
                return nil
            }
            state.waiting.remove(at: index)
            return continuation
        }
        continuation?.resume(with: result)
    }

    private func waitForWaiting(_ operationName: String?) async throws -> Waiting {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let found = state.withLock { state in
                state.waiting.last {
                    $0.early == nil && (operationName == nil || $0.request.operationName == operationName)
                }
            }
            if let found { return found }
            if Date() >= deadline {
                throw TestKitFailure(
                    "no \(operationName.map { "request of \($0)" } ?? "request") was sent within \(timeout) s; "
                        + "pending: \(describe(pending)); sent: \(describe(sent))")
            }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    private func describe(_ requests: [GraphQLRequest]) -> String {
        requests.isEmpty ? "none" : requests.map(\.operationName).joined(separator: ", ")
    }
}

/// A value behind a lock (the kit targets platforms older than `Synchronization.Mutex`).
final class Mutex<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
