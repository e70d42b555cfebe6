import Foundation

/// One open WebSocket carrying text messages (all `graphql-transport-ws` needs).
///
/// Two implementations sit behind it: `URLSessionWebSocketConnector` on Apple platforms, and on Linux, where
/// swift-corelibs-foundation's `URLSessionWebSocketTask` fails at once with "WebSockets not supported by
/// libcurl" (Docs/Runtime.md, Networking), `SocketWebSocketConnector`, Baton's own RFC 6455 client over a
/// socket (`ws://` only).
public protocol WebSocketConnection: Sendable {
    /// The messages the server sends, in order; the stream finishes when the socket closes and throws when
    /// it breaks.
    var messages: AsyncThrowingStream<String, any Error> { get }
    /// Sends one text message, in order with every other; a failure breaks the connection (`messages` throws).
    func send(_ text: String)
    /// Closes the socket (normal closure); `messages` finishes.
    func close()
}

/// Opens WebSockets.
public protocol WebSocketConnector: Sendable {
    /// Opens `url` asking for `subprotocol`, with extra handshake headers.
    func connect(url: URL, subprotocol: String, headers: [String: String]) async throws -> any WebSocketConnection
}

/// A WebSocket failure.
public enum WebSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    case unsupportedURL(String)
    case connectionFailed(String)
    case handshakeFailed(String)
    case protocolViolation(String)
    case closed(code: Int, reason: String)

    public var description: String {
        switch self {
        case .unsupportedURL(let url): "unsupported WebSocket URL \(url)"
        case .connectionFailed(let reason): "connection failed: \(reason)"
        case .handshakeFailed(let reason): "handshake failed: \(reason)"
        case .protocolViolation(let reason): "protocol violation: \(reason)"
        case .closed(let code, let reason): "closed (\(code)\(reason.isEmpty ? "" : ": \(reason)"))"
        }
    }
}

/// The connector for this platform.
public func defaultWebSocketConnector() -> any WebSocketConnector {
    #if canImport(FoundationNetworking)
        SocketWebSocketConnector()
    #else
        URLSessionWebSocketConnector()
    #endif
}
