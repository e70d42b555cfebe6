import Foundation

/// Where a handle's data is: loading, ready to read, or failed.
public enum Phase<Data: Sendable>: Sendable {
    case loading
    case ready(Data)
    case failed(FetchError)

    /// The data when ready.
    public var data: Data? {
        if case .ready(let data) = self { return data }
        return nil
    }
}

/// Why a fetch (or the read after it) failed: one type a view switches on, with the same cases as the Kotlin
/// runtime's `FetchError`.
///
/// The transport's failures (`TransportError`) arrive as their own cases, never as text: `.offline` (no connection,
/// or it broke before the whole answer), `.timedOut` (with when), `.httpStatus` (with `Retry-After`), `.tooLarge`,
/// `.cancelled`, `.protocolViolation` (the server broke a protocol Baton speaks), `.transportFailed` (a failure of
/// a transport's own). The body of a failed answer (`.httpStatus`, `.malformedResponse`) is kept for diagnostics,
/// its first `bodyLimit` bytes. `description` says what went wrong as the logs say it (`transport: HTTP status
/// 502`, `transport: network: …`).
public enum FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A response with errors and no data: the server's request errors.
    case request([GraphQLError])
    /// No connection to the server: it could not be made, or it broke (reset, closed, a truncated body) before the
    /// whole answer arrived.
    case offline(String)
    /// No complete answer within the transport's timeout (seconds), and in which part of the exchange.
    case timedOut(TimeoutPhase, after: TimeInterval)
    /// A status outside 200...299 without a GraphQL body, with the server's `Retry-After` (seconds) and the body.
    case httpStatus(Int, retryAfter: TimeInterval?, body: Data)
    /// The body was not a GraphQL response (why, and the body).
    case malformedResponse(String, body: Data)
    /// The body was larger than the transport's limit (bytes); it was not read past it.
    case tooLarge(limit: Int)
    /// The fetch was cancelled (its handle detached, its task cancelled).
    case cancelled
    /// The server broke a protocol Baton speaks (it knows no document for a persisted id, in persisted-only mode).
    case protocolViolation(String)
    /// A failure of a transport's own (a custom transport's error, a fixture told to fail, one without an answer).
    case transportFailed(String)
    /// The operation's read failed: a `@required` null reached the root, or `@throwOnFieldError` met an error.
    case read(ReadError)
    /// Nothing was attached to read: an operation value no handle fills, or a view without a `BatonEnvironment`.
    case unattached(String)

    /// The most of a failed answer's body kept (bytes).
    public static let bodyLimit = 64 << 10

    public var description: String {
        switch self {
        case .request(let errors): errors.map(\.message).joined(separator: "; ")
        case .offline(let reason): "transport: network: \(reason)"
        case .timedOut(_, let seconds): "transport: \(TransportError.timedOut(seconds))"
        case .httpStatus(let status, let retryAfter, _):
            "transport: \(TransportError.httpStatus(status, retryAfter: retryAfter))"
        case .malformedResponse(let reason, _): "malformed response: \(reason)"
        case .tooLarge(let limit): "transport: \(TransportError.responseTooLarge(limit: limit))"
        case .cancelled: "transport: \(TransportError.cancelled)"
        case .protocolViolation(let reason), .transportFailed(let reason): "transport: \(reason)"
        case .read(let error): error.description
        case .unattached(let reason): reason
        }
    }

    /// The body of the failed answer (its first `bodyLimit` bytes), when there was one.
    public var body: Data? {
        switch self {
        case .httpStatus(_, _, let body), .malformedResponse(_, let body): body
        default: nil
        }
    }

    /// The failure for a transport's failure, each kind its own case.
    public init(_ error: TransportError) {
        switch error {
        case .httpStatus(let status, let retryAfter, let body):
            self = .httpStatus(status, retryAfter: retryAfter, body: Self.kept(body))
        case .noFixture, .failed: self = .transportFailed(error.description)
        case .network(let reason): self = .offline(reason)
        case .timedOut(let seconds, let phase): self = .timedOut(phase, after: seconds)
        case .responseTooLarge(let limit): self = .tooLarge(limit: limit)
        case .cancelled: self = .cancelled
        case .persistedQueryNotFound: self = .protocolViolation(error.description)
        }
    }

    /// The failure for whatever a transport threw: a `TransportError` by its kind, a cancellation as `.cancelled`,
    /// anything else as `.transportFailed` with its text.
    init(thrown error: any Error) {
        if let error = error as? TransportError {
            self.init(error)
        } else if error is CancellationError {
            self = .cancelled
        } else {
            self = .transportFailed(String(describing: error))
        }
    }

    /// The failure for a body the store could not commit: a request error, or a malformed response with its reason
    /// alone (the description says "malformed response: " once; `ResponseError`'s own description says it too)
    /// and the body.
    init(_ error: ResponseError, body: Data = Data()) {
        switch error {
        case .malformed(let reason): self = .malformedResponse(reason, body: Self.kept(body))
        case .requestFailed(let errors): self = .request(errors)
        }
    }

    /// The part of a body kept for diagnostics.
    static func kept(_ body: Data) -> Data { body.count <= bodyLimit ? body : Data(body.prefix(bodyLimit)) }

    /// The payload of a `fetchFailed` event.
    var payload: JSONValue {
        switch self {
        case .request(let errors): .array(errors.map { .string($0.message) })
        default: .string(description)
        }
    }
}

/// Where a handle's data comes from.
public enum FetchPolicy: String, Sendable, Hashable {
    /// Read the store; fetch when it cannot answer fully or its data is stale.
    case storeOrNetwork
    /// Read the store when it can answer, and fetch anyway.
    case storeAndNetwork
    /// Always fetch; show nothing from the store before the answer.
    case networkOnly
    /// Never fetch.
    case storeOnly
}
