import Foundation

// What a server sends on a WebSocket after the handshake, through Baton's RFC 6455 client (`SocketWebSocket`,
// frames in) and the graphql-transport-ws client (`GraphQLWebSocketTransport`, messages routed to two live
// subscriptions, ids "1" and "2"). The input is the server's byte stream, written into one end of a socket pair
// and closed; the client reads the other end.
//
// Invariants: the events each subscription hears are the ones a plain reading of the two protocols gives for
// the same bytes (`expectedEvents`: frames decoded, fragments joined, a close or a protocol error ending the
// stream; then `next` payloads in order, one `error` or `complete`, and `failed` when the stream ends while the
// subscription lives), nothing after the last event, and everything ends within seconds (no hang).
@testable import Baton

/// The largest message the client accepts here (small, so limits are reached).
let messageLimit = 4096

/// Hands out one prepared connection once it is set (after both subscriptions are registered, so none misses a
/// message), then refuses (the transport does not reconnect: `maxRetries` is 0).
final class OneConnection: WebSocketConnector, @unchecked Sendable {
    let connection = Locked<(any WebSocketConnection)?>(nil)
    private let handedOut = Locked(false)
    func connect(url: URL, subprotocol: String, headers: [String: String]) async throws -> any WebSocketConnection {
        guard !handedOut.withLock({ $0 }) else { throw WebSocketError.connectionFailed("one connection only") }
        while true {
            if let connection = connection.withLock({ $0 }) {
                handedOut.withLock { $0 = true }
                return connection
            }
            try await Task.sleep(nanoseconds: 100_000)
        }
    }
}

/// One subscription's events, spelled for comparison.
enum Heard: Equatable, CustomStringConvertible {
    case next(String)
    case error(Int)
    case complete, failed
    var description: String {
        switch self {
        case .next(let text): "next \(text)"
        case .error(let count): "error (\(count))"
        case .complete: "complete"
        case .failed: "failed"
        }
    }
}

/// The text messages in a server's bytes (RFC 6455 §5), up to the first close frame, protocol error, message over
/// the limit, or the bytes' end inside a frame.
func messages(in bytes: [UInt8]) -> [String] {
    var messages: [String] = []
    var offset = 0
    var message: [UInt8] = []
    var fragmented = false
    func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }
    while let head = take(2) {
        let first = head[head.startIndex]
        let second = head[head.startIndex + 1]
        let final = first & 0x80 != 0
        let opcode = first & 0x0F
        // Reserved bits (no extension was negotiated) and masked frames from a server fail the connection.
        if first & 0x70 != 0 || second & 0x80 != 0 { break }
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard let extended = take(2) else { break }
            length = extended.reduce(0) { $0 << 8 | UInt64($1) }
        } else if length == 127 {
            guard let extended = take(8) else { break }
            length = extended.reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard length <= UInt64(messageLimit), let payload = take(Int(length)) else { break }
        if opcode >= 0x8 {
            // Control frames: at most 125 bytes, never fragmented.
            guard final, length <= 125 else { break }
            if opcode == 0x8 { break }
            if opcode == 0x9 || opcode == 0xA { continue }
            break
        }
        // Data frames: a text or binary frame starts a message, continuations extend it.
        guard opcode <= 0x2, (opcode == 0x0) == fragmented else { break }
        message += payload
        guard message.count <= messageLimit else { break }
        fragmented = !final
        if final {
            messages.append(String(decoding: message, as: UTF8.self))
            message = []
        }
    }
    return messages
}

/// The events subscriptions "1" and "2" hear from those messages (graphql-transport-ws, as the transport routes it).
func expectedEvents(_ messages: [String]) -> [String: [Heard]] {
    var heard: [String: [Heard]] = ["1": [], "2": []]
    var live: Set<String> = ["1", "2"]
    for text in messages {
        guard let message = try? JSONParser.parse(text), let type = message["type"]?.stringValue else { break }
        let id = message["id"]?.stringValue
        var known = true
        switch type {
        case "next":
            if let id, live.contains(id), let payload = message["payload"] {
                heard[id]?.append(.next(payload.compactText))
            }
        case "error", "complete":
            guard let id, live.contains(id) else { break }
            live.remove(id)
            if type == "complete" {
                heard[id]?.append(.complete)
            } else if case .array(let items)? = message["payload"] {
                heard[id]?.append(.error(items.count))
            } else {
                heard[id]?.append(.error(0))
            }
        case "connection_ack", "ping", "pong": break
        default: known = false
        }
        if !known || live.isEmpty { break }
    }
    for id in live { heard[id]?.append(.failed) }
    return heard
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { return 0 }
    // The server's bytes wait in the socket (inputs are smaller than its buffer); then the server's side closes
    // for writing. Its reading side stays open, so the client's pongs and frames have somewhere to go.
    _ = bytes.withUnsafeBytes { send(pair[1], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    _ = shutdown(pair[1], Int32(SHUT_WR))
    defer { _ = close(pair[1]) }

    let connector = OneConnection()
    guard let url = URL(string: "ws://127.0.0.1/graphql") else { return 0 }
    let transport = GraphQLWebSocketTransport(
        url: url, reconnect: RetryPolicy(maxRetries: 0), acknowledgementTimeout: 5, connector: connector)
    let heard = Locked<[String: [Heard]]>(["1": [], "2": []])
    let ended = Locked(Set<String>())
    let done = DispatchSemaphore(value: 0)
    let request = GraphQLRequest(TestProfileQuery(id: "1"), headers: [:])
    var cancellations: [SubscriptionCancellation] = []
    for id in ["1", "2"] {
        cancellations.append(
            transport.subscribe(request) { event in
                let (event, terminal): (Heard?, Bool) =
                    switch event {
                    case .next(let body): (.next(String(decoding: body, as: UTF8.self)), false)
                    case .error(let errors): (.error(errors.count), true)
                    case .complete: (.complete, true)
                    case .failed: (.failed, true)
                    case .reconnecting: (nil, false)
                    }
                let first = ended.withLock { ended -> Bool in
                    if ended.contains(id) {
                        violated("subscription \(id) heard \(String(describing: event)) after its end")
                    }
                    if terminal { ended.insert(id) }
                    return ended.count == 2 && terminal
                }
                if let event {
                    heard.withLock { $0[id, default: []].append(event) }
                } else {
                    violated("a reconnect with maxRetries 0")
                }
                if first { done.signal() }
            })
    }
    connector.connection.withLock {
        $0 = SocketWebSocket(descriptor: pair[0], buffered: [], maxMessageBytes: messageLimit)
    }
    if done.wait(timeout: .now() + 10) == .timedOut { violated("the subscriptions did not end (a hang)") }
    withExtendedLifetime(cancellations) {}
    let expected = expectedEvents(messages(in: bytes))
    let got = heard.withLock { $0 }
    guard got == expected else { violated("heard \(got), the protocols give \(expected)") }
    return 0
}
