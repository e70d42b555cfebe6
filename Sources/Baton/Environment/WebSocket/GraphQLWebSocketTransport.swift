import Foundation

/// Subscriptions over one WebSocket with the `graphql-transport-ws` protocol (the GraphQL over WebSocket
/// protocol of graphql-ws).
///
/// The socket opens with the first subscription and closes after the last one ends. On it: `connection_init`
/// with `connectionPayload`, then `subscribe` for each subscription (ids are the transport's own), `next`,
/// `error` and `complete` routed to their subscription, `ping` answered with `pong`, and a `ping` of ours every
/// `pingInterval` seconds when set. When the socket breaks (or the server closes it) while subscriptions are
/// live, each hears `reconnecting`, the transport waits as `reconnect` says (doubling, with jitter) and opens a
/// new socket, then subscribes every live subscription again; after `reconnect.maxRetries` failures in a row
/// they hear `failed` and end. A socket that got its `connection_ack` resets the count.
///
/// Queries and mutations go over the same socket too, `@defer` and `@stream` as successive `next` messages
/// (`GraphQLWebSocketTransport+Operations.swift`): the transport is an `IncrementalTransport`.
public final class GraphQLWebSocketTransport: SubscriptionTransport, @unchecked Sendable {
    public let url: URL
    public let connectionPayload: JSONObject?
    public let headers: [String: String]
    public let reconnect: RetryPolicy
    public let pingInterval: TimeInterval?
    /// Seconds to wait for `connection_ack`.
    public let acknowledgementTimeout: TimeInterval
    /// Seconds for the whole answer to a query or mutation sent over the socket (`sendIncrementally`).
    public let operationTimeout: TimeInterval
    let connector: any WebSocketConnector

    struct Active {
        var request: GraphQLRequest
        var onEvent: @Sendable (SubscriptionEvent) -> Void
    }

    struct State {
        var active: [String: Active] = [:]
        var nextID = 1
        var connection: (any WebSocketConnection)?
        var running: Task<Void, Never>?
        var pongs = 0
        var connects = 0
    }

    private let state = Locked(State())

    public init(
        url: URL, connectionPayload: JSONObject? = nil, headers: [String: String] = [:],
        reconnect: RetryPolicy = RetryPolicy(maxRetries: 5, initialDelay: 0.5, maxDelay: 30),
        pingInterval: TimeInterval? = nil, acknowledgementTimeout: TimeInterval = 10,
        operationTimeout: TimeInterval = 30,
        connector: any WebSocketConnector = defaultWebSocketConnector()
    ) {
        self.url = url
        self.connectionPayload = connectionPayload
        self.headers = headers
        self.reconnect = reconnect
        self.pingInterval = pingInterval
        self.acknowledgementTimeout = acknowledgementTimeout
        self.operationTimeout = operationTimeout
        self.connector = connector
    }

    /// `pong` messages received (for tests and diagnostics).
    public var pongsReceived: Int { state.withLock { $0.pongs } }
    /// Sockets that reached `connection_ack`.
    public var connectionsAcknowledged: Int { state.withLock { $0.connects } }
    /// Live subscriptions.
    public var activeCount: Int { state.withLock { $0.active.count } }

    public func subscribe(_ request: GraphQLRequest, onEvent: @escaping @Sendable (SubscriptionEvent) -> Void)
        -> SubscriptionCancellation
    {
        let (id, connection, start) = state.withLock { state -> (String, (any WebSocketConnection)?, Bool) in
            let id = String(state.nextID)
            state.nextID += 1
            state.active[id] = Active(request: request, onEvent: onEvent)
            let start = state.running == nil
            if start { state.running = Task { [self] in await self.run() } }
            return (id, state.connection, start)
        }
        if let connection, !start { connection.send(subscribeMessage(id, request)) }
        return SubscriptionCancellation { [weak self] in self?.cancel(id) }
    }

    private func cancel(_ id: String) {
        let (removed, connection, last) = state.withLock { state in
            (state.active.removeValue(forKey: id) != nil, state.connection, state.active.isEmpty)
        }
        guard removed, let connection else { return }
        connection.send(message("complete", id: id))
        if last { connection.close() }
    }

    // MARK: The connection loop

    private func run() async {
        var failures = 0
        while true {
            let reason: String
            do {
                try await runConnection()
                reason = "the server closed the connection"
            } catch {
                reason = String(describing: error)
            }
            let ended = state.withLock { state -> Bool in
                state.connection = nil
                if state.active.isEmpty { state.running = nil }
                return state.running == nil
            }
            if ended { return }
            failures += 1
            let wasAcknowledged = lastConnectionAcknowledged.withLock { flag -> Bool in
                defer { flag = false }
                return flag
            }
            if wasAcknowledged { failures = 1 }
            guard let delay = reconnect.delay(beforeRetry: failures, after: .network(reason)) else {
                let gone = state.withLock { state -> [Active] in
                    defer {
                        state.active = [:]
                        state.running = nil
                    }
                    return Array(state.active.values)
                }
                for active in gone { active.onEvent(.failed(reason)) }
                return
            }
            for active in state.withLock({ Array($0.active.values) }) {
                active.onEvent(.reconnecting(attempt: failures, delay: delay, reason: reason))
            }
            try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
        }
    }

    private let lastConnectionAcknowledged = Locked(false)

    /// One socket's life: connect, init, acknowledge, subscribe everything live, route messages until it ends.
    private func runConnection() async throws {
        let connection = try await connector.connect(url: url, subprotocol: "graphql-transport-ws", headers: headers)
        var initMessage = JSONObject([("type", .string("connection_init"))])
        if let connectionPayload { initMessage["payload"] = .object(connectionPayload) }
        connection.send(JSONValue.object(initMessage).compactText)
        let ackTimeout = Task {
            try await Task.sleep(nanoseconds: UInt64(acknowledgementTimeout * 1e9))
            connection.close()
        }
        defer { ackTimeout.cancel() }
        var pinger: Task<Void, Never>?
        defer {
            pinger?.cancel()
            connection.close()
        }
        for try await text in connection.messages {
            guard let message = try? JSONParser.parse(text), let type = message["type"]?.stringValue else {
                throw WebSocketError.protocolViolation("a message that is not a graphql-transport-ws message")
            }
            let id = message["id"]?.stringValue
            switch type {
            case "connection_ack":
                ackTimeout.cancel()
                lastConnectionAcknowledged.withLock { $0 = true }
                let live = state.withLock { state -> [(String, Active)] in
                    state.connection = connection
                    state.connects += 1
                    return state.active.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
                }
                if live.isEmpty {
                    connection.close()
                    return
                }
                for (id, active) in live { connection.send(subscribeMessage(id, active.request)) }
                if let pingInterval {
                    pinger = Task { [weak self] in
                        while !Task.isCancelled {
                            try? await Task.sleep(nanoseconds: UInt64(pingInterval * 1e9))
                            guard let self, !Task.isCancelled else { return }
                            connection.send(self.message("ping", id: nil))
                        }
                    }
                }
            case "next":
                guard let id, let payload = message["payload"] else { continue }
                let active = state.withLock { $0.active[id] }
                active?.onEvent(.next(Data(payload.compactText.utf8)))
            case "error":
                guard let id else { continue }
                // The payload is the errors' list (graphql-transport-ws `error`).
                var errors: [GraphQLError] = []
                if case .array(let items)? = message["payload"] { errors = items.map(GraphQLError.init(json:)) }
                let active = state.withLock { $0.active.removeValue(forKey: id) }
                active?.onEvent(.error(errors))
            case "complete":
                guard let id else { continue }
                let active = state.withLock { $0.active.removeValue(forKey: id) }
                active?.onEvent(.complete)
            case "ping":
                connection.send(self.message("pong", id: nil))
            case "pong":
                state.withLock { $0.pongs += 1 }
            default:
                throw WebSocketError.protocolViolation("unknown message type \(type)")
            }
            if state.withLock({ $0.active.isEmpty }) {
                connection.close()
                return
            }
        }
    }

    // MARK: Messages

    private func subscribeMessage(_ id: String, _ request: GraphQLRequest) -> String {
        JSONValue.object(
            JSONObject([
                ("id", .string(id)), ("type", .string("subscribe")),
                ("payload", .object(request.fields(sendingDocument: true, persistedID: nil))),
            ])
        ).compactText
    }

    private func message(_ type: String, id: String?) -> String {
        var object = JSONObject()
        if let id { object["id"] = .string(id) }
        object["type"] = .string(type)
        return JSONValue.object(object).compactText
    }
}
