import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// GraphQL over HTTP on URLSession (`FoundationNetworking` on Linux).
///
/// Decisions made once here: queries may go as GET (`?query=&variables=&operationName=`, or only the persisted
/// id, so a CDN can cache them), mutations and subscriptions always POST; headers are the transport's, then the
/// authenticator's, then the request's own; a 401 refreshes the authenticator once and sends again; a non-2xx
/// status with a GraphQL body is that body, without one it is `TransportError.httpStatus` (with `Retry-After`);
/// a body past `maxResponseBytes` is `TransportError.responseTooLarge`. Retries are the environment's
/// (`RetryPolicy`), which knows whether the operation is a query.
public struct HTTPTransport: IncrementalTransport {
    /// How queries travel; mutations always POST.
    public enum Method: String, Sendable, Hashable {
        /// Every request is a POST of JSON.
        case post
        /// Queries are GETs with the request in the URL; mutations POST.
        case getForQueries
    }

    /// Whether the document goes with the request.
    public enum PersistedQueries: String, Sendable, Hashable {
        /// Send the document (the default).
        case off
        /// Send only the id (the server knows every operation from `baton gen`'s manifest); never the document.
        case persistedOnly
        /// Send the id; send the document with it only when the server answers `PersistedQueryNotFound`.
        case automatic
    }

    public var url: URL
    public var headers: [String: String]
    public var method: Method
    public var persistedQueries: PersistedQueries
    /// Seconds for the whole exchange, from sending to the last byte.
    public var timeout: TimeInterval
    /// The largest body read (bytes); a larger one is a request error.
    public var maxResponseBytes: Int
    /// Adds credentials to every request and refreshes them once after a 401.
    public var authenticator: (any Authenticator)?
    public var session: HTTPSession

    public init(
        url: URL, headers: [String: String] = [:], method: Method = .post, persistedQueries: PersistedQueries = .off,
        timeout: TimeInterval = 30, maxResponseBytes: Int = 32 << 20, authenticator: (any Authenticator)? = nil,
        session: HTTPSession = .shared
    ) {
        self.url = url
        self.headers = headers
        self.method = method
        self.persistedQueries = persistedQueries
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.authenticator = authenticator
        self.session = session
    }

    /// The URLRequest for a request, sending the document or not (exposed for tests and for apps that sign).
    public func urlRequest(
        for request: GraphQLRequest, sendingDocument: Bool = true, credentials: [String: String] = [:]
    ) -> URLRequest {
        let persistedID = persistedQueries == .off ? nil : request.operationID
        var urlRequest: URLRequest
        if method == .getForQueries, request.operationType == .query,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        {
            var items = components.queryItems ?? []
            let fields = request.fields(sendingDocument: sendingDocument, persistedID: persistedID)
            for (name, value) in zip(fields.keys, fields.values) {
                let text = if case .string(let string) = value { string } else { value.compactText }
                items.append(URLQueryItem(name: name, value: text))
            }
            components.queryItems = items
            // `+` reads as a space in many servers' query parsers: spell it out.
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(
                of: "+", with: "%2B")
            urlRequest = URLRequest(url: components.url ?? url)
            urlRequest.httpMethod = "GET"
        } else {
            urlRequest = URLRequest(url: url)
            urlRequest.httpMethod = "POST"
            urlRequest.httpBody = request.body(sendingDocument: sendingDocument, persistedID: persistedID)
            urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        urlRequest.setValue(request.accept, forHTTPHeaderField: "Accept")
        for (name, value) in headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        for (name, value) in credentials { urlRequest.setValue(value, forHTTPHeaderField: name) }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        return urlRequest
    }

    public func send(_ request: GraphQLRequest) async throws -> Data {
        guard case .whole(let reply) = try await exchange(request, streamingParts: false) else {
            throw TransportError.failed("a multipart answer to a request that asked for none")
        }
        return reply.body
    }

    /// What an exchange answered: a whole body, or (asked for with `streamingParts`) a 2xx `multipart/mixed` body
    /// still arriving.
    private enum Answer {
        case whole(HTTPSession.Reply)
        case parts(HTTPSession.StreamingReply, boundary: String)
    }

    /// The exchange of `send`, with the reply's headers: a 401 answered once, a persisted id the server does not
    /// know sent again with its document (in `.automatic`), a status without a GraphQL body thrown. With
    /// `streamingParts`, a 2xx `multipart/mixed` answer is returned as soon as its head has come, its body unread.
    private func exchange(_ request: GraphQLRequest, streamingParts: Bool) async throws -> Answer {
        if persistedQueries != .off, request.operationID == nil {
            throw TransportError.failed("\(request.operationName) has no persisted id (generate it with baton gen)")
        }
        var sendingDocument = persistedQueries == .off
        var refreshed = false
        while true {
            let credentials = try await authenticator?.headers() ?? [:]
            let sent = urlRequest(for: request, sendingDocument: sendingDocument, credentials: credentials)
            let reply: HTTPSession.Reply
            if streamingParts {
                let head = try await session.stream(sent, limit: maxResponseBytes, timeout: timeout)
                if (200...299).contains(head.status),
                    let boundary = head.header("Content-Type").flatMap(MultipartReader.boundary(ofContentType:))
                {
                    return .parts(head, boundary: boundary)
                }
                reply = try await head.collect()
            } else {
                reply = try await session.send(sent, limit: maxResponseBytes, timeout: timeout)
            }
            if reply.status == 401, let authenticator, !refreshed {
                refreshed = true
                try await authenticator.refresh(rejected: credentials)
                continue
            }
            if !sendingDocument, Self.isPersistedQueryNotFound(reply.body) {
                guard persistedQueries == .automatic else {
                    throw TransportError.persistedQueryNotFound(request.operationID ?? "")
                }
                sendingDocument = true
                continue
            }
            if (200...299).contains(reply.status) { return .whole(reply) }
            // GraphQL over HTTP carries request errors in 4xx (and some servers' 5xx) bodies: keep a response.
            if (try? GraphQLResponse(bytes: reply.body)) != nil { return .whole(reply) }
            throw TransportError.httpStatus(
                reply.status, retryAfter: Self.retryAfter(reply.header("Retry-After")),
                body: FetchError.kept(reply.body))
        }
    }

    /// An answer to an operation with `@defer` or `@stream`, payload by payload as the bytes arrive: a
    /// `multipart/mixed` body is fed to a `MultipartReader` chunk by chunk as URLSession hands it over, and each part
    /// (at most `maxResponseBytes`) goes to `receive` as soon as its closing boundary has come, before the rest of
    /// the body is read; any other body is one payload (a server that ignored `Accept` and answered plain JSON). The
    /// whole body is still at most `maxResponseBytes` and the exchange's `timeout` runs to its end (a body that
    /// never ends times out); a body cut between parts is `TransportError.network` after the parts before the cut
    /// were received. Cancelling the calling task, or `receive` throwing, cancels the exchange.
    public func sendIncrementally(_ request: GraphQLRequest, receive: (Data) async throws -> Void) async throws {
        switch try await exchange(request, streamingParts: true) {
        case .whole(let reply): try await receive(reply.body)
        case .parts(let reply, let boundary):
            defer { reply.cancel() }
            var reader = MultipartReader(boundary: boundary, partLimit: maxResponseBytes)
            for try await chunk in reply.body {
                for part in try Self.parts(of: chunk, reading: &reader) { try await receive(Data(part)) }
            }
            // A cancelled read ends the body's stream without an error.
            if Task.isCancelled { throw TransportError.cancelled }
            do throws(MultipartError) {
                try reader.finish()
            } catch {
                throw TransportError.network(error.description)
            }
        }
    }

    /// The parts `chunk` completes; a part over the limit is `responseTooLarge`, any other fault a network failure.
    private static func parts(of chunk: Data, reading reader: inout MultipartReader) throws(TransportError)
        -> [[UInt8]]
    {
        do {
            return try reader.feed(chunk)
        } catch .partTooLarge(let limit) {
            throw .responseTooLarge(limit: limit)
        } catch {
            throw .network(error.description)
        }
    }

    /// Whether a body is the server's `PersistedQueryNotFound` answer (by message or by extensions code).
    static func isPersistedQueryNotFound(_ body: Data) -> Bool {
        guard body.count < 4096, let response = try? GraphQLResponse(bytes: body), response.data == nil else {
            return false
        }
        return response.errors.contains { error in
            error.message == "PersistedQueryNotFound"
                || error.extensions?["code"]?.stringValue == "PERSISTED_QUERY_NOT_FOUND"
        }
    }

    /// `Retry-After` in seconds (`RetryAfter.seconds`: whole seconds or an HTTP-date, at most a day).
    static func retryAfter(_ value: String?) -> TimeInterval? { RetryAfter.seconds(value) }
}

/// Credentials for every request, refreshed once when the server answers 401.
public protocol Authenticator: Sendable {
    /// The headers that authenticate a request (`Authorization: Bearer …`).
    func headers() async throws -> [String: String]
    /// Called after a 401 to the request sent with `rejected`; the request is then sent once more with
    /// `headers()`. Concurrent 401s should share one refresh: compare `rejected` with the current credentials.
    func refresh(rejected: [String: String]) async throws
}

/// A bearer token that refreshes through a closure, once for any number of requests rejected with the same token.
public actor BearerTokenAuthenticator: Authenticator {
    private var token: String
    private var refreshing: Task<String, any Error>?
    private let fetchToken: @Sendable () async throws -> String
    /// How many times the token was refreshed.
    public private(set) var refreshCount = 0

    public init(token: String, refresh: @escaping @Sendable () async throws -> String) {
        self.token = token
        self.fetchToken = refresh
    }

    public func headers() -> [String: String] { ["Authorization": "Bearer \(token)"] }

    public func refresh(rejected: [String: String]) async throws {
        if let refreshing {
            _ = try await refreshing.value
            return
        }
        guard rejected["Authorization"] == "Bearer \(token)" else { return }
        let task = Task { [fetchToken] in try await fetchToken() }
        refreshing = task
        defer { refreshing = nil }
        token = try await task.value
        refreshCount += 1
    }
}
