import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Baton's own RFC 6455 WebSocket client over a TCP socket, for `ws://` URLs: the opening handshake (with
/// `Sec-WebSocket-Accept` checked), masked text frames out, text/continuation/ping/pong/close frames in (a
/// masked frame, reserved bits, a long or fragmented control frame or fragments out of order break the
/// connection, as RFC 6455 requires).
///
/// It exists because URLSession's WebSocket task does not work on Linux (swift-corelibs-foundation answers
/// "WebSockets not supported by libcurl"); on Apple platforms `URLSessionWebSocketConnector` is the default. It
/// has no TLS, so `wss://` is refused with `WebSocketError.unsupportedURL`. A reader thread per socket blocks in
/// `recv`; `close` shuts the socket down, which ends the thread.
public struct SocketWebSocketConnector: WebSocketConnector {
    /// Seconds to wait for the TCP connection and the handshake.
    public var timeout: TimeInterval
    /// The largest message accepted (bytes); a larger one breaks the connection.
    public var maxMessageBytes: Int

    public init(timeout: TimeInterval = 10, maxMessageBytes: Int = 32 << 20) {
        self.timeout = timeout
        self.maxMessageBytes = maxMessageBytes
    }

    public func connect(url: URL, subprotocol: String, headers: [String: String]) async throws
        -> any WebSocketConnection
    {
        guard url.scheme?.lowercased() == "ws", let host = url.host else {
            throw WebSocketError.unsupportedURL(url.absoluteString)
        }
        let port = url.port ?? 80
        let path = url.path.isEmpty ? "/" : url.path
        let target = url.query.map { path + "?" + $0 } ?? path
        let timeout = self.timeout
        let limit = maxMessageBytes
        return try await withCheckedThrowingContinuation { continuation in
            // The connect and the handshake block: off the cooperative pool.
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        let descriptor = try SocketWebSocket.openTCP(host: host, port: port, timeout: timeout)
                        do {
                            let leftover = try SocketWebSocket.handshake(
                                descriptor, host: host, port: port, target: target, subprotocol: subprotocol,
                                headers: headers)
                            return SocketWebSocket(descriptor: descriptor, buffered: leftover, maxMessageBytes: limit)
                        } catch {
                            _ = systemClose(descriptor)
                            throw error
                        }
                    })
            }
        }
    }
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(descriptor)
    #else
        Darwin.close(descriptor)
    #endif
}

/// One client WebSocket on a connected socket.
final class SocketWebSocket: WebSocketConnection, @unchecked Sendable {
    let messages: AsyncThrowingStream<String, any Error>
    private let descriptor: Int32
    private let continuation: AsyncThrowingStream<String, any Error>.Continuation
    private let writeLock = NSLock()
    private let closed = Locked(false)
    private let maxMessageBytes: Int

    init(descriptor: Int32, buffered: [UInt8], maxMessageBytes: Int) {
        self.descriptor = descriptor
        self.maxMessageBytes = maxMessageBytes
        (messages, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
        let reader = Thread { [self] in self.readLoop(buffered) }
        reader.start()
    }

    deinit { _ = systemClose(descriptor) }

    func send(_ text: String) {
        do {
            try write(opcode: 0x1, payload: Array(text.utf8))
        } catch {
            _ = shutdown(descriptor, Int32(SHUT_RDWR))  // the reader sees the break and ends `messages`
        }
    }

    func close() {
        let wasClosed = closed.withLock { state -> Bool in
            defer { state = true }
            return state
        }
        if wasClosed { return }
        try? write(opcode: 0x8, payload: [0x03, 0xE8])  // 1000, normal closure
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    // MARK: Frames out

    /// Writes one masked frame (clients must mask, RFC 6455 §5.3).
    private func write(opcode: UInt8, payload: [UInt8]) throws {
        var frame: [UInt8] = [0x80 | opcode]
        let count = payload.count
        if count < 126 {
            frame.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            frame.append(0x80 | 126)
            frame += [UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                frame.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF))
            }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame.reserveCapacity(frame.count + count)
        for (index, byte) in payload.enumerated() { frame.append(byte ^ mask[index & 3]) }
        writeLock.lock()
        defer { writeLock.unlock() }
        try Self.writeAll(descriptor, frame)
    }

    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                #if canImport(Glibc)
                    return Glibc.send(descriptor, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                #else
                    return Darwin.send(descriptor, base + offset, bytes.count - offset, 0)
                #endif
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw WebSocketError.connectionFailed(String(cString: strerror(errno)))
            }
            offset += sent
        }
    }

    // MARK: Frames in

    private func readLoop(_ buffered: [UInt8]) {
        var reader = FrameReader(descriptor: descriptor, buffer: buffered)
        var message: [UInt8] = []
        var fragmented = false
        do {
            while true {
                let frame = try reader.next(limit: maxMessageBytes)
                // RFC 6455 §5.4–5.5: control frames are short and whole; a message is a text or binary frame and
                // its continuations, nothing else in between.
                if frame.opcode >= 0x8, !frame.final || frame.payload.count > 125 {
                    throw WebSocketError.protocolViolation("a fragmented or long control frame")
                }
                if frame.opcode <= 0x2, (frame.opcode == 0x0) != fragmented {
                    throw WebSocketError.protocolViolation(
                        fragmented ? "a new message inside a fragmented one" : "a continuation without a message")
                }
                switch frame.opcode {
                case 0x0, 0x1, 0x2:
                    fragmented = !frame.final
                    message += frame.payload
                    if message.count > maxMessageBytes {
                        throw WebSocketError.protocolViolation("a message larger than \(maxMessageBytes) bytes")
                    }
                    if frame.final {
                        continuation.yield(String(decoding: message, as: UTF8.self))
                        message.removeAll(keepingCapacity: true)
                    }
                case 0x8:
                    let code = frame.payload.count >= 2 ? Int(frame.payload[0]) << 8 | Int(frame.payload[1]) : 1005
                    let reason = String(decoding: frame.payload.dropFirst(2), as: UTF8.self)
                    close()
                    if code == 1000 || code == 1005 {
                        continuation.finish()
                    } else {
                        continuation.finish(throwing: WebSocketError.closed(code: code, reason: reason))
                    }
                    return
                case 0x9: try write(opcode: 0xA, payload: frame.payload)
                case 0xA: break
                default: throw WebSocketError.protocolViolation("unknown opcode \(frame.opcode)")
                }
            }
        } catch {
            let wasClosed = closed.withLock { $0 }
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
            if wasClosed { continuation.finish() } else { continuation.finish(throwing: error) }
        }
    }

    /// Reads frames from the socket through a buffer.
    struct FrameReader {
        let descriptor: Int32
        var buffer: [UInt8]
        var offset = 0

        mutating func next(limit: Int) throws -> (final: Bool, opcode: UInt8, payload: [UInt8]) {
            let head = try take(2)
            let final = head[0] & 0x80 != 0
            let opcode = head[0] & 0x0F
            // No extension was negotiated, and a server never masks (RFC 6455 §5.1–5.2).
            guard head[0] & 0x70 == 0, head[1] & 0x80 == 0 else {
                throw WebSocketError.protocolViolation("a masked frame or reserved bits from the server")
            }
            var length = UInt64(head[1] & 0x7F)
            if length == 126 {
                let bytes = try take(2)
                length = UInt64(bytes[0]) << 8 | UInt64(bytes[1])
            } else if length == 127 {
                length = try take(8).reduce(0) { $0 << 8 | UInt64($1) }
            }
            guard length <= UInt64(limit) else {
                throw WebSocketError.protocolViolation("a frame of \(length) bytes is over the limit")
            }
            return (final, opcode, try take(Int(length)))
        }

        private mutating func take(_ count: Int) throws -> [UInt8] {
            while buffer.count - offset < count {
                if offset > 0 {
                    buffer.removeFirst(offset)
                    offset = 0
                }
                var chunk = [UInt8](repeating: 0, count: max(65536, count))
                let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if received < 0, errno == EINTR { continue }
                if received <= 0 {
                    throw WebSocketError.connectionFailed(
                        received == 0 ? "the server closed the connection" : String(cString: strerror(errno)))
                }
                buffer += chunk[0..<received]
            }
            defer { offset += count }
            return Array(buffer[offset..<(offset + count)])
        }
    }

    // MARK: Opening

    /// A connected TCP socket to host:port (the first address that answers within `timeout`).
    static func openTCP(host: String, port: Int, timeout: TimeInterval) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw WebSocketError.connectionFailed("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var lastError = "no address"
        var current: UnsafeMutablePointer<addrinfo>? = first
        while let info = current {
            current = info.pointee.ai_next
            let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if descriptor < 0 { continue }
            var seconds = timeval(tv_sec: Int(timeout), tv_usec: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
            var one: Int32 = 1
            _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
                _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            if connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return descriptor }
            lastError = String(cString: strerror(errno))
            _ = systemClose(descriptor)
        }
        throw WebSocketError.connectionFailed("\(host):\(port): \(lastError)")
    }

    /// Sends the opening handshake and checks the answer; returns bytes read past it (early frames).
    static func handshake(
        _ descriptor: Int32, host: String, port: Int, target: String, subprotocol: String, headers: [String: String]
    ) throws -> [UInt8] {
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        var request = "GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request +=
            "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: \(subprotocol)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key })
        where !name.contains(where: \.isNewline) && !value.contains(where: \.isNewline) {
            request += "\(name): \(value)\r\n"
        }
        request += "\r\n"
        try writeAll(descriptor, Array(request.utf8))
        var seconds = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        let end: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw WebSocketError.handshakeFailed("the server closed the connection") }
            received += chunk[0..<count]
            if received.count > 16384 { throw WebSocketError.handshakeFailed("an answer head over 16 KB") }
            headEnd = (0...max(received.count - 4, 0)).first { index in
                index + 4 <= received.count && Array(received[index..<(index + 4)]) == end
            }
        }
        // Blocking reads from now on (the reader thread waits for frames as long as the socket lives).
        var forever = timeval(tv_sec: 0, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &forever, socklen_t(MemoryLayout<timeval>.size))
        guard let headEnd else { throw WebSocketError.handshakeFailed("no answer") }
        let head = String(decoding: received[0..<headEnd], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        guard let status = lines.first, status.hasPrefix("HTTP/1.1 101") else {
            throw WebSocketError.handshakeFailed("the server answered \(lines.first ?? "nothing")")
        }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let expected = Data(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
            .base64EncodedString()
        guard fields["sec-websocket-accept"] == expected else {
            throw WebSocketError.handshakeFailed("Sec-WebSocket-Accept does not match the key")
        }
        guard fields["sec-websocket-protocol"] == subprotocol else {
            throw WebSocketError.handshakeFailed("the server did not accept the subprotocol \(subprotocol)")
        }
        return Array(received[(headEnd + 4)...])
    }
}

/// SHA-1, only for the handshake's `Sec-WebSocket-Accept` (RFC 6455 §4.2.2; not for security).
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var bytes = message
        let bitLength = UInt64(message.count) * 8
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((bitLength >> UInt64(shift)) & 0xFF)) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: bytes.count, by: 64) {
            for index in 0..<16 {
                let base = chunk + index * 4
                w[index] =
                    UInt32(bytes[base]) << 24 | UInt32(bytes[base + 1]) << 16 | UInt32(bytes[base + 2]) << 8
                    | UInt32(bytes[base + 3])
            }
            for index in 16..<80 {
                let value = w[index - 3] ^ w[index - 8] ^ w[index - 14] ^ w[index - 16]
                w[index] = value << 1 | value >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for index in 0..<80 {
                let (f, k): (UInt32, UInt32) =
                    switch index {
                    case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                    case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                    case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                    default: (b ^ c ^ d, 0xCA62_C1D6)
                    }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[index]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            h[0] = h[0] &+ a
            h[1] = h[1] &+ b
            h[2] = h[2] &+ c
            h[3] = h[3] &+ d
            h[4] = h[4] &+ e
        }
        return h.flatMap { word in [24, 16, 8, 0].map { UInt8((word >> UInt32($0)) & 0xFF) } }
    }
}
