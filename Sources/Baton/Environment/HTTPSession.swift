import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP exchange on URLSession with the limits a GraphQL client needs: the body is read as bytes up to a
/// limit (a larger body is refused as soon as its length is known or passed, never read whole), the whole
/// exchange ends by a deadline, and cancelling the calling task cancels the URLSession task.
///
/// URLSession's async `data(for:)` has neither a size limit nor a total deadline (its `timeoutInterval` is an
/// idle timeout), so the session runs data tasks through its own delegate. One `HTTPSession` serves every
/// transport that does not bring its own (`HTTPSession.shared`).
///
/// **A POST never goes on a reused connection** on Linux (`postsOnFreshConnections`, on by default there): when a
/// server drops a keep-alive connection just as the client reuses it (reset or closed before any answer byte),
/// libcurl sends the request again on a new connection, but its head only, without the body, so the server waits
/// for the body and the exchange for its deadline (issue 33: 352 of 352 such POSTs waited 30 s). POSTs therefore
/// go through a second URLSession of the same configuration, each with `Connection: close`, so none of its
/// connections is ever reused; GETs (which libcurl resends whole) keep reusing theirs. The price is a new connection
/// (and TLS handshake) per POST: `HTTPTransport(method: .getForQueries)` keeps queries on reused connections.
/// Apple's URLSession reports such a connection as lost (`networkConnectionLost`) instead, so the option is off
/// there.
///
/// **The deadline starts when the request is sent.** URLSession queues requests past its connections per host
/// (six by default) and its clock cannot tell queued from sent, so the session keeps that queue itself: at most
/// `maxExchangesPerHost` exchanges per host are in URLSession at once (the configuration's
/// `httpMaximumConnectionsPerHost`), the others wait their turn in order, at most `queueTimeout` seconds
/// (`TransportError.timedOut(queueTimeout, phase: .connecting)`, never sent), and the exchange's `timeout` counts
/// from its turn. `Reply.queuedFor` reports the wait.
///
/// **A body can be handed over as it arrives** (`stream`): the head once it has come, then the bytes in the chunks
/// URLSession delivers them (`didReceive data:`, on Linux too), under the same limit (counted over the whole body),
/// deadline, turn and cancellation; an answer to `@defer` or `@stream` is read part by part that way.
public final class HTTPSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// The session transports share by default (an ephemeral configuration: no cookies, no URL cache).
    public static let shared = HTTPSession(configuration: .ephemeral)

    /// What an exchange returns: the status, the headers, the body, and how long it waited for its turn.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        /// Seconds the exchange waited in the session's queue before it was sent (its deadline counts after).
        public var queuedFor: TimeInterval = 0

        /// A header by name, ignoring case.
        public func header(_ name: String) -> String? { HTTPSession.header(name, in: headers) }
    }

    /// What `stream` returns once the answer's head has come: the status, the headers, and the body as it arrives.
    public struct StreamingReply: Sendable {
        public var status: Int
        public var headers: [String: String]
        /// Seconds the exchange waited in the session's queue before it was sent (its deadline counts after).
        public var queuedFor: TimeInterval
        /// The body's bytes, chunk by chunk as they arrive; it ends with the body and throws the exchange's failure
        /// (`TransportError`: a network failure, the deadline, the limit). Cancelling the task reading it cancels the
        /// exchange.
        public var body: AsyncThrowingStream<Data, any Error>
        let stop: @Sendable () -> Void

        /// A header by name, ignoring case.
        public func header(_ name: String) -> String? { HTTPSession.header(name, in: headers) }

        /// Ends the exchange without reading the rest (cancels the URLSession task); nothing once it has ended.
        public func cancel() { stop() }

        /// The rest of the body, read to its end: the reply `send` would have returned.
        public func collect() async throws -> Reply {
            var data = Data()
            for try await chunk in body { data.append(chunk) }
            // A cancelled read ends the stream without an error.
            if Task.isCancelled { throw TransportError.cancelled }
            return Reply(status: status, headers: headers, body: data, queuedFor: queuedFor)
        }
    }

    /// A header by name, ignoring case.
    static func header(_ name: String, in headers: [String: String]) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// Who waits for an exchange: a caller of `send` for the whole reply, or a caller of `stream` for the head and
    /// then its body's stream.
    private enum Waiter {
        case whole(CheckedContinuation<Reply, any Error>)
        case head(CheckedContinuation<StreamingReply, any Error>, Chunks)
        case body(AsyncThrowingStream<Data, any Error>.Continuation)
    }

    /// A streaming exchange's body before its head was handed over: the stream and its continuation.
    private struct Chunks {
        var stream: AsyncThrowingStream<Data, any Error>
        var continuation: AsyncThrowingStream<Data, any Error>.Continuation
        var stop: @Sendable () -> Void
    }

    private struct Pending {
        var waiter: Waiter
        var limit: Int
        /// The body so far (a whole exchange only; a streaming one hands its chunks on).
        var body = Data()
        /// The body's bytes so far, against the limit.
        var received = 0
        var status = 0
        var headers: [String: String] = [:]
        var deadline: Task<Void, Never>?
        var host: String
        var queuedFor: TimeInterval
    }

    /// The exchanges in flight to one host and those waiting for a turn, in order.
    private struct Turns {
        var inFlight = 0
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    /// At most this many exchanges per host are in URLSession at once; more wait their turn.
    public let maxExchangesPerHost: Int
    /// The longest an exchange waits for its turn, in seconds.
    public let queueTimeout: TimeInterval
    private let turns = Locked([String: Turns]())
    private let lastWaiter = Locked<UInt64>(0)

    /// Whether POSTs go on connections of their own, never reused (see above).
    public let postsOnFreshConnections: Bool

    /// The default of `postsOnFreshConnections`: on where URLSession is libcurl (Linux), off on Apple platforms.
    #if canImport(FoundationNetworking)
        public static let postsOnFreshConnectionsByDefault = true
    #else
        public static let postsOnFreshConnectionsByDefault = false
    #endif

    // Exchanges by task, per URLSession (the two sessions number their tasks each from 1).
    private let pending = Locked([TaskKey: Pending]())
    // Set once in init (URLSession needs the delegate, the delegate cannot exist before `super.init`).
    nonisolated(unsafe) private var session: URLSession!
    // The POSTs' session, when they have one.
    nonisolated(unsafe) private var postSession: URLSession?

    /// A session with its own configuration (proxies, TLS, connection limits).
    public init(
        configuration: URLSessionConfiguration, postsOnFreshConnections: Bool = postsOnFreshConnectionsByDefault,
        queueTimeout: TimeInterval = 30
    ) {
        self.postsOnFreshConnections = postsOnFreshConnections
        self.maxExchangesPerHost = max(configuration.httpMaximumConnectionsPerHost, 1)
        self.queueTimeout = queueTimeout
        super.init()
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: Self.serialQueue())
        if postsOnFreshConnections {
            postSession = URLSession(configuration: configuration, delegate: self, delegateQueue: Self.serialQueue())
        }
    }

    private static func serialQueue() -> OperationQueue {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }

    /// An exchange: its session and its task's identifier.
    private struct TaskKey: Hashable {
        var session: ObjectIdentifier
        var task: Int
    }

    private func key(_ session: URLSession, _ task: URLSessionTask) -> TaskKey {
        TaskKey(session: ObjectIdentifier(session), task: task.taskIdentifier)
    }

    /// Sends `request`; fails with `TransportError.network`, `.timedOut`, `.responseTooLarge` or `.cancelled`.
    public func send(_ request: URLRequest, limit: Int, timeout: TimeInterval) async throws -> Reply {
        try await exchange(request, limit: limit, timeout: timeout) { continuation, _, _ in .whole(continuation) }
    }

    /// Sends `request` and returns once the answer's head has come, with its body as a stream of the chunks as they
    /// arrive. The limit counts the whole body; the deadline runs until the body ends; the turn is held until then.
    /// Fails (or its body does) as `send` does. Call `cancel()` on a reply whose body is not read to its end.
    public func stream(_ request: URLRequest, limit: Int, timeout: TimeInterval) async throws -> StreamingReply {
        try await exchange(request, limit: limit, timeout: timeout) { continuation, id, task in
            let (stream, chunks) = AsyncThrowingStream<Data, any Error>.makeStream()
            let stop: @Sendable () -> Void = { [weak self] in
                self?.finish(id, with: .failure(TransportError.cancelled))
                task.cancel()
            }
            chunks.onTermination = { termination in
                if case .cancelled = termination { stop() }
            }
            return .head(continuation, Chunks(stream: stream, continuation: chunks, stop: stop))
        }
    }

    /// One exchange, for either kind of waiter: its turn, its deadline and its cancellation.
    private func exchange<Value>(
        _ request: URLRequest, limit: Int, timeout: TimeInterval,
        waiter: @escaping (CheckedContinuation<Value, any Error>, TaskKey, URLSessionDataTask) -> Waiter
    ) async throws -> Value {
        var request = request
        // URLSession's own timeout is an idle timeout, and on Linux one under a second fires at once: the deadline
        // below is the timeout; URLSession's is only a backstop past it.
        request.timeoutInterval = timeout + 1
        var session = self.session!
        if let postSession, request.httpMethod == "POST" {
            session = postSession
            request.setValue("close", forHTTPHeaderField: "Connection")
        }
        let host = "\(request.url?.host ?? ""):\(request.url?.port ?? -1)"
        let queued = DispatchTime.now().uptimeNanoseconds
        guard await takeTurn(host) else {
            throw Task.isCancelled
                ? TransportError.cancelled : TransportError.timedOut(queueTimeout, phase: .connecting)
        }
        let queuedFor = Double(DispatchTime.now().uptimeNanoseconds - queued) / 1e9
        let task = session.dataTask(with: request)
        let id = key(session, task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let deadline = Task { [weak self] in
                    try? await Task.sleep(nanoseconds: UInt64(max(timeout, 0) * 1e9))
                    if Task.isCancelled { return }
                    guard let self else { return }
                    finish(id, with: .failure(TransportError.timedOut(timeout, phase: phase(id))))
                    task.cancel()
                }
                let waiter = waiter(continuation, id, task)
                pending.withLock {
                    $0[id] = Pending(
                        waiter: waiter, limit: limit, deadline: deadline, host: host, queuedFor: queuedFor)
                }
                if Task.isCancelled {
                    finish(id, with: .failure(TransportError.cancelled))
                    return
                }
                task.resume()
            }
        } onCancel: {
            finish(id, with: .failure(TransportError.cancelled))
            task.cancel()
        }
    }

    /// Where a sent exchange is: reading once the answer's head came, else waiting (URLSession does not say when its
    /// connection is made: `.connecting` is only for a turn that never came).
    private func phase(_ id: TaskKey) -> TimeoutPhase {
        pending.withLock { ($0[id]?.status ?? 0) != 0 ? .reading : .waiting }
    }

    /// Resumes the exchange's caller once: the first outcome wins (a deadline, a cancel, the limit, the end); the
    /// host's next exchange takes its turn. A streaming exchange's body ends, or throws the failure.
    private func finish(_ id: TaskKey, with result: Result<Reply, any Error>) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: id) }) else { return }
        entry.deadline?.cancel()
        passTurn(entry.host)
        let result = result.map { reply in
            var reply = reply
            reply.queuedFor = entry.queuedFor
            return reply
        }
        switch entry.waiter {
        case .whole(let continuation): continuation.resume(with: result)
        case .head(let continuation, let chunks):
            // The exchange ended before any byte of the body: an empty body, or the failure.
            switch result {
            case .success(let reply):
                chunks.continuation.finish()
                continuation.resume(returning: streamingReply(reply, chunks))
            case .failure(let error):
                chunks.continuation.finish(throwing: error)
                continuation.resume(throwing: error)
            }
        case .body(let chunks):
            switch result {
            case .success: chunks.finish()
            case .failure(let error): chunks.finish(throwing: error)
            }
        }
    }

    private func streamingReply(_ head: Reply, _ chunks: Chunks) -> StreamingReply {
        StreamingReply(
            status: head.status, headers: head.headers, queuedFor: head.queuedFor, body: chunks.stream,
            stop: chunks.stop)
    }

    /// Waits for a turn to send to `host`: true when it came, false after `queueTimeout` or a cancel.
    private func takeTurn(_ host: String) async -> Bool {
        let id = lastWaiter.withLock {
            $0 += 1
            return $0
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now = turns.withLock { all -> Bool in
                    var entry = all[host] ?? Turns()
                    defer { all[host] = entry }
                    if entry.inFlight < maxExchangesPerHost, entry.waiting.isEmpty {
                        entry.inFlight += 1
                        return true
                    }
                    entry.waiting.append((id, continuation))
                    return false
                }
                if now { return continuation.resume(returning: true) }
                if Task.isCancelled { return giveUp(host, id) }
                let timeout = queueTimeout
                Task { [weak self] in
                    try? await Task.sleep(nanoseconds: UInt64(max(timeout, 0) * 1e9))
                    self?.giveUp(host, id)
                }
            }
        } onCancel: {
            giveUp(host, id)
        }
    }

    /// A waiter leaves the queue without its turn (timed out or cancelled), if it is still waiting.
    private func giveUp(_ host: String, _ id: UInt64) {
        let waiter = turns.withLock { all -> CheckedContinuation<Bool, Never>? in
            guard let index = all[host]?.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return all[host]?.waiting.remove(at: index).continuation
        }
        waiter?.resume(returning: false)
    }

    /// An exchange to `host` ended: its turn passes to the first waiter, if any.
    private func passTurn(_ host: String) {
        let next = turns.withLock { all -> CheckedContinuation<Bool, Never>? in
            guard var entry = all[host] else { return nil }
            defer { all[host] = entry.inFlight == 0 && entry.waiting.isEmpty ? nil : entry }
            if !entry.waiting.isEmpty { return entry.waiting.removeFirst().continuation }
            entry.inFlight -= 1
            return nil
        }
        next?.resume(returning: true)
    }

    /// The status and headers, once per exchange (from the task's response: the `didReceive response:` delegate
    /// method's completion-handler type differs between SDKs, and the default disposition is to go on).
    /// Returns the limit when the declared length is over it.
    private func readHead(_ id: TaskKey, _ response: URLResponse?) -> Int? {
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return pending.withLock { state -> Int? in
            guard let limit = state[id]?.limit, state[id]?.status == 0 else { return nil }
            state[id]?.status = http?.statusCode ?? 0
            state[id]?.headers = headers
            let expected = response?.expectedContentLength ?? -1
            if expected > Int64(limit) { return limit }
            if expected > 0, case .whole? = state[id]?.waiter { state[id]?.body.reserveCapacity(Int(expected)) }
            return nil
        }
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = key(session, dataTask)
        if let limit = readHead(id, dataTask.response) {
            finish(id, with: .failure(TransportError.responseTooLarge(limit: limit)))
            dataTask.cancel()
            return
        }
        // In place (`state[id]?.body`): a copy of the entry would copy the body on every chunk.
        let outcome = pending.withLock { state -> Received in
            // Field by field: a copy of the whole entry would hold a second reference to its body.
            guard let limit = state[id]?.limit, let received = state[id]?.received, let waiter = state[id]?.waiter,
                let status = state[id]?.status, let headers = state[id]?.headers, let queuedFor = state[id]?.queuedFor
            else { return .gone }
            if received + data.count > limit { return .tooLarge(limit) }
            state[id]?.received += data.count
            switch waiter {
            case .whole: state[id]?.body.append(data)
            case .head(let continuation, let chunks):
                // The first bytes: the body's stream starts with them and the caller gets the head.
                chunks.continuation.yield(data)
                state[id]?.waiter = .body(chunks.continuation)
                let head = Reply(status: status, headers: headers, body: Data(), queuedFor: queuedFor)
                return .headCame(continuation, streamingReply(head, chunks))
            case .body(let chunks): chunks.yield(data)
            }
            return .gone
        }
        switch outcome {
        case .gone: break
        case .tooLarge(let limit):
            finish(id, with: .failure(TransportError.responseTooLarge(limit: limit)))
            dataTask.cancel()
        case .headCame(let continuation, let reply): continuation.resume(returning: reply)
        }
    }

    /// What a chunk of the body did.
    private enum Received {
        case gone
        case tooLarge(Int)
        case headCame(CheckedContinuation<StreamingReply, any Error>, StreamingReply)
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = key(session, task)
        guard let error else {
            _ = readHead(id, task.response)  // an empty body calls no `didReceive data:`
            let reply = pending.withLock { state in
                state[id].map { Reply(status: $0.status, headers: $0.headers, body: $0.body) }
            }
            if let reply { finish(id, with: .success(reply)) }
            return
        }
        let urlError = error as? URLError
        switch urlError?.code {
        case .cancelled?: finish(id, with: .failure(TransportError.cancelled))
        case .timedOut?:
            let seconds = (task.originalRequest?.timeoutInterval ?? 1) - 1
            finish(id, with: .failure(TransportError.timedOut(seconds, phase: phase(id))))
        default: finish(id, with: .failure(TransportError.network(Self.reason(error))))
        }
    }

    /// A short reason for a URLSession failure (its localized description, or its code).
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let description = nsError.userInfo[NSLocalizedDescriptionKey] as? String { return description }
        if let urlError = error as? URLError { return "URL error \(urlError.code.rawValue)" }
        return String(describing: error)
    }
}
