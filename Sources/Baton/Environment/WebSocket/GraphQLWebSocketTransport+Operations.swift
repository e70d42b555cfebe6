import Foundation

/// Queries and mutations over the socket, `@defer` and `@stream` included (the issue's "over graphql-transport-ws,
/// as successive `next` messages"): an operation is a `subscribe` like any subscription, each `next` is one payload
/// of its answer, handed to `receive` as it arrives (the environment merges and commits it as its own batch, as it
/// does each part of a `multipart/mixed` body), `complete` ends it and `error` is its request error.
///
/// One thing differs from a subscription: an operation is never subscribed again after the socket breaks (that would
/// run it again, and merge a second answer into the first); a break fails it as a network failure, which the
/// environment retries for a query only while nothing of it was committed. `operationTimeout` bounds the whole
/// answer, as an HTTP exchange's timeout does.
extension GraphQLWebSocketTransport: IncrementalTransport {
    /// A whole answer: the one `next` of an operation without `@defer` or `@stream`.
    public func send(_ request: GraphQLRequest) async throws -> Data {
        var payloads: [Data] = []
        try await sendIncrementally(request) { payloads.append($0) }
        guard payloads.count == 1, let payload = payloads.first else {
            throw FetchError.protocolViolation(
                "graphql-transport-ws: \(payloads.count) next messages for an operation without @defer or @stream")
        }
        return payload
    }

    /// Sends `request` as a `subscribe` and hands each `next` payload to `receive`, in order, until `complete`.
    /// Fails with `FetchError.request` for the server's `error`, `TransportError.network` when the socket breaks or
    /// cannot be opened, `TransportError.timedOut` after `operationTimeout`, `TransportError.cancelled` when the
    /// calling task is cancelled; ending early (a failure, a cancel, `receive` throwing) sends `complete`.
    public func sendIncrementally(_ request: GraphQLRequest, receive: (Data) async throws -> Void) async throws {
        let (events, sink) = AsyncStream<OperationEvent>.makeStream()
        let subscription = subscribe(request) { event in
            sink.yield(.event(event))
            switch event {
            case .next: break
            case .complete, .error, .reconnecting, .failed: sink.finish()
            }
        }
        let timeout = operationTimeout
        let deadline = Task {
            try? await Task.sleep(nanoseconds: UInt64(max(timeout, 0) * 1e9))
            if Task.isCancelled { return }
            sink.yield(.timedOut)
            sink.finish()
        }
        defer {
            deadline.cancel()
            subscription.cancel()
        }
        var received = false
        for await event in events {
            switch event {
            case .event(.next(let payload)):
                received = true
                try await receive(payload)
            case .event(.complete): return
            case .event(.error(let errors)): throw FetchError.request(errors)
            case .event(.reconnecting(_, _, let reason)), .event(.failed(let reason)):
                throw TransportError.network(reason)
            case .timedOut: throw TransportError.timedOut(timeout, phase: received ? .reading : .waiting)
            }
        }
        throw Task.isCancelled
            ? TransportError.cancelled : TransportError.network("the socket closed before the operation completed")
    }

    /// What an operation's answer waits for: an event of its subscription, or its deadline.
    private enum OperationEvent: Sendable {
        case event(SubscriptionEvent)
        case timedOut
    }
}
