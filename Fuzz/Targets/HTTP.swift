import Foundation

// HTTP answers through `HTTPTransport` (URLSession, `HTTPSession`'s limit and deadline) and the environment's
// fetch. A server on 127.0.0.1 in this process answers every request with the input: a status, a `Retry-After`
// value and a body (framed by the server with `Content-Length`, so the input varies what the transport decides,
// not HTTP framing, which is libcurl's).
//
// Input: byte 0 picks the status; byte 1's bits: 0x01 a `Retry-After` header (its value is the text up to the
// first newline), 0x02 a 64-byte limit, 0x04 automatic persisted queries, 0x08 an authenticator; the rest is the
// body. Invariants: the transport asks the server exactly as often as its rules say (a 401 refreshes once, a
// `PersistedQueryNotFound` sends the document once, nothing else repeats); it returns the body unchanged for a
// 2xx, or for another status when the body is a GraphQL response; otherwise it fails with that status and the
// header's delay, or with `responseTooLarge` past the limit; a fetch either commits exactly what
// `commit(bytes:)` commits in a new store or fails with the store untouched; nothing takes longer than the
// transport's timeout.
@testable import Baton

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let statuses = [200, 201, 202, 206, 299, 400, 401, 403, 404, 409, 413, 422, 429, 500, 502, 503, 504, 418]

/// What the server answers, set before each input.
struct Answer: Sendable {
    var status = 200
    var retryAfter: String?
    var body = Data()
}

/// A one-thread HTTP/1.1 server: reads a request head and its `Content-Length` body, answers `answer`, closes.
final class AnswerServer: @unchecked Sendable {
    let answer = Locked(Answer())
    let requests = Locked(0)
    let port: UInt16
    private let listener: Int32

    init() {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var one: Int32 = 1
        _ = setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        _ = listen(listener, 16)
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: bound.sin_port)
        if listener < 0 || port == 0 { violated("no loopback socket for the server") }
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client >= 0 { serve(client) }
            }
        }
    }

    private func serve(_ client: Int32) {
        defer { _ = close(client) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        // The head, then as much body as it declares.
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            received += chunk[0..<count]
            guard let end = Self.find([13, 10, 13, 10], in: received) else { continue }
            let head = String(decoding: received[0..<end], as: UTF8.self).lowercased()
            let declared =
                head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if received.count - end - 4 >= declared { break }
        }
        requests.withLock { $0 += 1 }
        let answer = self.answer.withLock { $0 }
        var head = "HTTP/1.1 \(answer.status) Answer\r\nContent-Type: application/json\r\n"
        head += "Content-Length: \(answer.body.count)\r\nConnection: close\r\n"
        if let retryAfter = answer.retryAfter { head += "Retry-After: \(retryAfter)\r\n" }
        let bytes = Array(head.utf8) + [13, 10] + Array(answer.body)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
        shutdown(client, Int32(SHUT_WR))
        // Wait for the client to close, so its reads see the whole answer.
        while chunk.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, 0) }) > 0 {}
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<(index + needle.count)]) == needle { return index }
        }
        return nil
    }
}

/// Credentials that count their refreshes.
final class CountingAuthenticator: Authenticator, @unchecked Sendable {
    let refreshes = Locked(0)
    func headers() -> [String: String] { ["Authorization": "Bearer t\(refreshes.withLock { $0 })"] }
    func refresh(rejected: [String: String]) { refreshes.withLock { $0 += 1 } }
}

let server = AnswerServer()
let epoch: @Sendable () -> Date = { Date(timeIntervalSince1970: 0) }
let timeout: TimeInterval = 3

/// Runs an async body to its end on another thread and waits for it (libFuzzer calls in synchronously).
func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    if done.wait(timeout: .now() + timeout * 3) == .timedOut { violated("an exchange outlived its timeout") }
    return result.withLock { $0 }!
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 2 else { return 0 }
    let status = statuses[Int(data[0]) % statuses.count]
    let flags = data[1]
    var rest = Data(UnsafeBufferPointer(start: data + 2, count: size - 2))
    var retryAfter: String?
    if flags & 0x01 != 0 {
        let newline = rest.firstIndex(of: 0x0A) ?? rest.endIndex
        // A header value: printable ASCII, no surrounding spaces (as a server sends it).
        retryAfter = String(decoding: rest[..<newline].filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
        rest = newline < rest.endIndex ? Data(rest[(newline + 1)...]) : Data()
    }
    let body = rest
    let limit = flags & 0x02 != 0 ? 64 : 1 << 20
    let automatic = flags & 0x04 != 0
    let authenticator = flags & 0x08 != 0 ? CountingAuthenticator() : nil
    server.answer.withLock { $0 = Answer(status: status, retryAfter: retryAfter, body: body) }
    guard let url = URL(string: "http://127.0.0.1:\(server.port)/graphql") else { return 0 }
    let transport = HTTPTransport(
        url: url, persistedQueries: automatic ? .automatic : .off, timeout: timeout, maxResponseBytes: limit,
        authenticator: authenticator)
    let operation = TestProfileQuery(id: "1")
    let request = GraphQLRequest(operation, headers: [:])

    // The transport alone.
    let before = server.requests.withLock { $0 }
    let sent = wait { () -> Result<Data, TransportError> in
        do {
            return .success(try await transport.send(request))
        } catch let error as TransportError {
            return .failure(error)
        } catch {
            return .failure(.failed("not a TransportError: \(error)"))
        }
    }
    let asked = server.requests.withLock { $0 } - before
    let tooLarge = body.count > limit
    let isResponse = (try? GraphQLResponse(bytes: body)) != nil
    var expected = 1
    if status == 401, authenticator != nil, !tooLarge { expected += 1 }
    if automatic, !tooLarge, body.count < 4096, HTTPTransport.isPersistedQueryNotFound(body) { expected += 1 }
    guard asked == expected else {
        violated("the transport asked \(asked) times, \(expected) expected (status \(status))")
    }
    switch sent {
    case .success(let returned):
        guard !tooLarge else { violated("a body over the limit was returned") }
        guard returned == body else { violated("the transport changed the body") }
        guard (200...299).contains(status) || isResponse else {
            violated("status \(status) without a GraphQL body returned")
        }
    case .failure(.responseTooLarge(let reported)):
        guard tooLarge, reported == limit else { violated("responseTooLarge(\(reported)) for \(body.count) bytes") }
    case .failure(.httpStatus(let reported, let delay, let kept)):
        guard kept == body.prefix(FetchError.bodyLimit) else { violated("httpStatus kept another body") }
        guard !tooLarge, reported == status, !(200...299).contains(status), !isResponse else {
            violated("httpStatus(\(reported)) for status \(status)")
        }
        if let delay {
            guard delay >= 0, delay <= RetryAfter.limit, delay.isFinite else { violated("a Retry-After of \(delay)") }
        }
        // RFC 9110: whole seconds (capped at the limit) or an HTTP-date; anything else is no delay.
        if let retryAfter, !retryAfter.isEmpty {
            let expected: TimeInterval? =
                if retryAfter.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                    min(Double(retryAfter) ?? .infinity, RetryAfter.limit)
                } else if RetryAfter.httpDate(retryAfter) != nil {
                    delay
                } else {
                    nil
                }
            guard delay == expected else { violated("Retry-After \(retryAfter) read as \(String(describing: delay))") }
        }
    case .failure(.persistedQueryNotFound):
        guard automatic == false else { violated("automatic persisted queries gave up") }
        violated("persistedQueryNotFound with persisted queries off")
    case .failure(let error):
        violated("the transport failed with \(error) for status \(status)")
    }

    // The environment's fetch: all of the answer committed, or nothing.
    let environment = BatonEnvironment(
        store: Store(clock: epoch), transport: transport, clock: epoch, retryPolicy: .never)
    let fetched = wait { () -> FetchError? in
        do {
            _ = try await environment.fetch(operation)
            return nil
        } catch let error as FetchError {
            return error
        } catch {
            violated("fetch threw \(error), not a FetchError")
        }
    }
    let records = environment.store.snapshot().records
    let reference = Store(clock: epoch)
    let committed = Result { () throws(ResponseError) in try reference.commit(bytes: body, for: operation) }
    switch (sent, fetched, committed) {
    case (.success, nil, .success), (.success, .read?, .success):
        guard records == reference.snapshot().records else { violated("a fetch committed other records") }
    case (.success, _?, .failure):
        guard records.isEmpty else { violated("a failed fetch committed records") }
    case (.failure, _?, _):
        guard records.isEmpty else { violated("a failed exchange committed records") }
    default:
        violated("fetch \(String(describing: fetched)) after send \(sent) of the same answer")
    }
    return 0
}
