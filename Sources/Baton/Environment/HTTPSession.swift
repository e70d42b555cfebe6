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
public final class HTTPSession: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// The session transports share by default (an ephemeral configuration: no cookies, no URL cache).
    public static let shared = HTTPSession(configuration: .ephemeral)

    /// What an exchange returns: the status, the headers, the body.
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data

        /// A header by name, ignoring case.
        public func header(_ name: String) -> String? {
            let lowered = name.lowercased()
            return headers.first { $0.key.lowercased() == lowered }?.value
        }
    }

    private struct Pending {
        var continuation: CheckedContinuation<Reply, any Error>
        var limit: Int
        var body = Data()
        var status = 0
        var headers: [String: String] = [:]
        var deadline: Task<Void, Never>?
    }

    private let pending = Locked([Int: Pending]())
    // Set once in init (URLSession needs the delegate, the delegate cannot exist before `super.init`).
    nonisolated(unsafe) private var session: URLSession!

    /// A session with its own configuration (proxies, TLS, connection limits).
    public init(configuration: URLSessionConfiguration) {
        super.init()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    /// Sends `request`; fails with `TransportError.network`, `.timedOut`, `.responseTooLarge` or `.cancelled`.
    public func send(_ request: URLRequest, limit: Int, timeout: TimeInterval) async throws -> Reply {
        var request = request
        // URLSession's own timeout is an idle timeout, and on Linux one under a second fires at once: the deadline
        // below is the timeout; URLSession's is only a backstop past it.
        request.timeoutInterval = timeout + 1
        let task = session.dataTask(with: request)
        let id = task.taskIdentifier
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let deadline = Task { [weak self] in
                    try? await Task.sleep(nanoseconds: UInt64(max(timeout, 0) * 1e9))
                    if Task.isCancelled { return }
                    guard let self else { return }
                    finish(id, with: .failure(TransportError.timedOut(timeout, phase: phase(id))))
                    task.cancel()
                }
                pending.withLock { $0[id] = Pending(continuation: continuation, limit: limit, deadline: deadline) }
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

    /// Where an exchange is: reading once the answer's head came, else waiting (URLSession does not say when its
    /// connection is made, so this session never reports `.connecting`).
    private func phase(_ id: Int) -> TimeoutPhase {
        pending.withLock { ($0[id]?.status ?? 0) != 0 ? .reading : .waiting }
    }

    /// Resumes the exchange's caller once: the first outcome wins (a deadline, a cancel, the limit, the end).
    private func finish(_ id: Int, with result: Result<Reply, any Error>) {
        guard let entry = pending.withLock({ $0.removeValue(forKey: id) }) else { return }
        entry.deadline?.cancel()
        entry.continuation.resume(with: result)
    }

    /// The status and headers, once per exchange (from the task's response: the `didReceive response:` delegate
    /// method's completion-handler type differs between SDKs, and the default disposition is to go on).
    /// Returns the limit when the declared length is over it.
    private func readHead(_ id: Int, _ response: URLResponse?) -> Int? {
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
            if expected > 0 { state[id]?.body.reserveCapacity(Int(expected)) }
            return nil
        }
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        if let limit = readHead(id, dataTask.response) {
            finish(id, with: .failure(TransportError.responseTooLarge(limit: limit)))
            dataTask.cancel()
            return
        }
        // In place (`state[id]?.body`): a copy of the entry would copy the body on every chunk.
        let tooLarge = pending.withLock { state -> Int? in
            guard let limit = state[id]?.limit, let count = state[id]?.body.count else { return nil }
            if count + data.count > limit { return limit }
            state[id]?.body.append(data)
            return nil
        }
        if let limit = tooLarge {
            finish(id, with: .failure(TransportError.responseTooLarge(limit: limit)))
            dataTask.cancel()
        }
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
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
