import Foundation

#if !canImport(FoundationNetworking)
    /// WebSockets on Apple platforms: URLSession's `URLSessionWebSocketTask` (`ws://` and `wss://`).
    public struct URLSessionWebSocketConnector: WebSocketConnector {
        public init() {}

        public func connect(url: URL, subprotocol: String, headers: [String: String]) async throws
            -> any WebSocketConnection
        {
            var request = URLRequest(url: url)
            request.setValue(subprotocol, forHTTPHeaderField: "Sec-WebSocket-Protocol")
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let task = URLSession.shared.webSocketTask(with: request)
            task.resume()
            return URLSessionWebSocket(task: task)
        }
    }

    /// One `URLSessionWebSocketTask`, its receive loop feeding `messages`.
    final class URLSessionWebSocket: WebSocketConnection, @unchecked Sendable {
        let task: URLSessionWebSocketTask
        let messages: AsyncThrowingStream<String, any Error>

        init(task: URLSessionWebSocketTask) {
            self.task = task
            let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
            messages = stream
            Task {
                do {
                    while true {
                        switch try await task.receive() {
                        case .string(let text): continuation.yield(text)
                        case .data(let data): continuation.yield(String(decoding: data, as: UTF8.self))
                        @unknown default: break
                        }
                    }
                } catch {
                    if task.closeCode == .normalClosure {
                        continuation.finish()
                    } else {
                        continuation.finish(throwing: error)
                    }
                }
            }
        }

        func send(_ text: String) {
            task.send(.string(text)) { [task] error in
                if error != nil { task.cancel(with: .abnormalClosure, reason: nil) }
            }
        }

        func close() { task.cancel(with: .normalClosure, reason: nil) }
    }
#endif
