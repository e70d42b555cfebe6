import Foundation

/// What a subscription transport reports for one subscription.
public enum SubscriptionEvent: Sendable, Hashable {
    /// A `next` payload's bytes (`{"data":…,"errors":…}`): the environment commits it as a server batch.
    case next(Data)
    /// The server's `error` for the subscription: it is over.
    case error([GraphQLError])
    /// The server completed the subscription.
    case complete
    /// The connection broke; the transport reconnects after `delay` seconds and subscribes again.
    case reconnecting(attempt: Int, delay: TimeInterval, reason: String)
    /// The transport gave up (reconnects exhausted, or the server refused the connection): it is over.
    case failed(String)
}

/// Sends subscriptions and reports their events, until the returned cancel is called.
public protocol SubscriptionTransport: Sendable {
    /// Starts a subscription; `onEvent` is called for each event, never after `cancel` returns or after a final
    /// event (`error`, `complete`, `failed`).
    func subscribe(_ request: GraphQLRequest, onEvent: @escaping @Sendable (SubscriptionEvent) -> Void)
        -> SubscriptionCancellation
}

/// Ends a subscription: the transport sends `complete` to the server and forgets it.
public struct SubscriptionCancellation: Sendable {
    private let action: @Sendable () -> Void

    public init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    public func cancel() { action() }
}
