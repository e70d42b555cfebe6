import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback HTTP/1.1 server that answers the first request on each connection and keeps the connection open, then
/// resets the connection (RST, no answer byte) when a second request arrives on it: a server dropping a keep-alive
/// connection just as the client reuses it. It answers every request it reads whole with
/// `{"data":null,"errors":[{"message":"answered <operationName>"}]}`, and counts what it answered by operation.
final class ResettingServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let state = NSLock()
    private var answered: [String: Int] = [:]
    private var resets = 0
    private var stopped = false

    init?() {
        guard let socket = Socket.bindLoopback(), listen(socket.descriptor, 32) == 0 else { return nil }
        listener = socket.descriptor
        port = socket.port
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                Thread.detachNewThread { [self] in serve(client) }
            }
        }
    }

    /// How many requests of an operation it answered (a mutation answered is a mutation executed).
    func answers(_ operation: String) -> Int { state.withLock { answered[operation] ?? 0 } }

    /// How many reused connections it reset.
    var resetCount: Int { state.withLock { resets } }

    func stop() {
        state.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        closeDescriptor(listener)
    }

    private func serve(_ client: Int32) {
        var buffer: [UInt8] = []
        var served = 0
        while true {
            // A request head, then its Content-Length body.
            guard let (head, end) = readHead(client, &buffer) else { break }
            if served > 0 {
                // A reused connection: reset it before any byte of an answer.
                var linger = linger(l_onoff: 1, l_linger: 0)
                _ = setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
                state.withLock { resets += 1 }
                break
            }
            let length = Self.header("content-length", in: head).flatMap { Int($0) } ?? 0
            buffer.removeFirst(end)
            while buffer.count < length {
                guard receive(client, &buffer) else { return closeDescriptor(client) }
            }
            let body = String(decoding: buffer.prefix(length), as: UTF8.self)
            buffer.removeFirst(length)
            let name = Self.operationName(body: body, head: head)
            state.withLock { answered[name, default: 0] += 1 }
            let answer = Data(#"{"data":null,"errors":[{"message":"answered \#(name)"}]}"#.utf8)
            let closing = Self.header("connection", in: head)?.lowercased() == "close"
            var text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(answer.count)\r\n"
            text += closing ? "Connection: close\r\n\r\n" : "\r\n"
            let bytes = Array(text.utf8) + Array(answer)
            guard bytes.withUnsafeBytes({ send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count
            else { break }
            served += 1
            if closing { break }
        }
        closeDescriptor(client)
    }

    /// Reads until a whole head is buffered: the head's text (lowercased names) and where the body starts.
    private func readHead(_ client: Int32, _ buffer: inout [UInt8]) -> (String, Int)? {
        while true {
            if buffer.count >= 4 {
                for index in 0...(buffer.count - 4)
                where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13
                    && buffer[index + 3] == 10
                {
                    return (String(decoding: buffer[..<index], as: UTF8.self), index + 4)
                }
            }
            guard receive(client, &buffer) else { return nil }
        }
    }

    private func receive(_ client: Int32, _ buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    static func header(_ name: String, in head: String) -> String? {
        for line in head.components(separatedBy: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The operation's name: from a POST body's `operationName`, or a GET's `operationName=` parameter.
    static func operationName(body: String, head: String) -> String {
        let source = body.isEmpty ? (head.components(separatedBy: "\r\n").first ?? "") : body
        for marker in [#""operationName":""#, "operationName="] {
            if let range = source.range(of: marker) {
                return String(source[range.upperBound...].prefix { $0.isLetter || $0.isNumber })
            }
        }
        return "?"
    }
}
