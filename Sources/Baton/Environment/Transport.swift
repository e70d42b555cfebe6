import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One GraphQL request: what the transport sends.
public struct GraphQLRequest: Sendable, Hashable {
    public var operationName: String
    public var query: String
    public var variables: [String: JSONValue]
    /// The `onError` behaviour the operation carries (from baton.json), sent when present.
    public var onError: String?
    /// Query, mutation or subscription: only queries may go as GET and only queries are retried.
    public var operationType: OperationType
    /// The persisted-query id (SHA-256 of `query`, as `baton gen` computes it), or nil when the operation has none.
    public var operationID: String?
    /// Headers for this request alone, over the transport's own.
    public var headers: [String: String]
    /// The document has `@defer` or `@stream`: the request accepts an incremental answer
    /// (`GraphQLRequest.incrementalAccept`).
    public var incrementalDelivery: Bool

    public init(
        operationName: String, query: String, variables: [String: JSONValue], onError: String? = nil,
        operationType: OperationType = .query, operationID: String? = nil, headers: [String: String] = [:],
        incrementalDelivery: Bool = false
    ) {
        self.incrementalDelivery = incrementalDelivery
        self.operationName = operationName
        self.query = query
        self.variables = variables
        self.onError = onError
        self.operationType = operationType
        self.operationID = operationID
        self.headers = headers
    }

    /// The request for a generated operation.
    public init<Operation: GraphQLOperation>(_ operation: Operation, headers: [String: String] = [:]) {
        self.init(
            operationName: Operation.operationName, query: Operation.document, variables: operation.variables,
            onError: Operation.onError, operationType: Operation.operationType,
            operationID: Operation.operationID.isEmpty ? nil : Operation.operationID, headers: headers,
            incrementalDelivery: Operation.incrementalDelivery)
    }

    /// The `Accept` of a request without `@defer` or `@stream`.
    public static let wholeAccept = "application/graphql-response+json, application/json"
    /// The `Accept` of a request with `@defer` or `@stream`: the current draft's multipart answer
    /// (`incrementalSpec=v0.2`, graphql-spec #1110's `pending`/`incremental`/`completed`), Apollo Router's
    /// (`deferSpec=20220824`), or a whole JSON answer.
    public static let incrementalAccept =
        "multipart/mixed;incrementalSpec=v0.2, multipart/mixed;deferSpec=20220824, " + wholeAccept

    /// The `Accept` this request sends.
    public var accept: String { incrementalDelivery ? Self.incrementalAccept : Self.wholeAccept }

    /// The POST body: `{"query":…,"operationName":…,"variables":{…},"onError":…}`.
    public var body: Data { body(sendingDocument: true, persistedID: nil) }

    /// The body as GraphQL over HTTP sends it: with the document or not, and with
    /// `extensions.persistedQuery` when `persistedID` is set (Apollo's persisted-query protocol, version 1).
    public func body(sendingDocument: Bool, persistedID: String?) -> Data {
        Data(JSONValue.object(fields(sendingDocument: sendingDocument, persistedID: persistedID)).compactText.utf8)
    }

    /// The members of the request object, in the order the body writes them; the GET form spells the same ones.
    func fields(sendingDocument: Bool, persistedID: String?) -> JSONObject {
        var object = JSONObject()
        if sendingDocument { object["query"] = .string(query) }
        object["operationName"] = .string(operationName)
        object["variables"] = .object(JSONObject(variables.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        if let onError { object["onError"] = .string(onError) }
        if let persistedID {
            object["extensions"] = .object(
                JSONObject([
                    (
                        "persistedQuery",
                        .object(JSONObject([("version", .number("1")), ("sha256Hash", .string(persistedID))]))
                    )
                ]))
        }
        return object
    }
}

/// Sends a request and returns the response body. Errors thrown here are transport failures.
public protocol Transport: Sendable {
    func send(_ request: GraphQLRequest) async throws -> Data
}

/// A transport that hands an answer over payload by payload: what an operation with `@defer` or `@stream` is sent
/// through (the environment merges the payloads and commits each as its own batch). `HTTPTransport` is one.
public protocol IncrementalTransport: Transport {
    /// Sends `request` and calls `receive` with each payload of the answer, in order, as the bytes of one JSON
    /// object: each part of a `multipart/mixed` answer, or the whole body of any other. Fails as `send` does; a
    /// multipart body cut before its closing boundary is `TransportError.network`, a part over the transport's
    /// limit `TransportError.responseTooLarge`. An error `receive` throws ends the exchange and is rethrown.
    func sendIncrementally(_ request: GraphQLRequest, receive: (Data) async throws -> Void) async throws
}

/// When, in an exchange, a timeout struck.
public enum TimeoutPhase: String, Sendable, Hashable {
    /// Before the request was sent: connecting (or queued for a connection).
    case connecting
    /// The request was sent (or is being sent); no byte of the answer came.
    case waiting
    /// The answer began and did not end in time.
    case reading
}

/// A transport failure (the environment's fetch reports each kind as its own `FetchError` case).
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with a status outside 200...299 and no GraphQL body (with its `Retry-After`, seconds,
    /// and the body's first `FetchError.bodyLimit` bytes).
    case httpStatus(Int, retryAfter: TimeInterval? = nil, body: Data = Data())
    /// The fixture transport has no answer for the operation.
    case noFixture(String)
    /// A failure the fixture was told to produce, or one from the network layer.
    case failed(String)
    /// The connection failed or broke before the whole body arrived (a truncated body is one).
    case network(String)
    /// No complete answer within the request's timeout (seconds), and in which part of the exchange.
    case timedOut(TimeInterval, phase: TimeoutPhase = .waiting)
    /// The body is larger than the transport's limit; it was not read past the limit.
    case responseTooLarge(limit: Int)
    /// The request was cancelled (its handle detached).
    case cancelled
    /// The server knows no document for a persisted id, in persisted-only mode.
    case persistedQueryNotFound(String)

    /// Whether sending the same request again may succeed: a network failure, a timeout, 429, 502, 503, 504.
    public var isTransient: Bool {
        switch self {
        case .network, .timedOut: true
        case .httpStatus(let status, _, _): [429, 502, 503, 504].contains(status)
        default: false
        }
    }

    /// The server's `Retry-After`, when it sent one.
    public var retryAfter: TimeInterval? {
        if case .httpStatus(_, let retryAfter, _) = self { return retryAfter }
        return nil
    }

    public var description: String {
        switch self {
        case .httpStatus(let status, nil, _): "HTTP status \(status)"
        case .httpStatus(let status, let retryAfter?, _):
            "HTTP status \(status) (retry after \(ValueText.seconds(retryAfter)) s)"
        case .noFixture(let name): "no fixture answers \(name)"
        case .failed(let reason): reason
        case .network(let reason): "network: \(reason)"
        case .timedOut(let seconds, _): "timed out after \(ValueText.seconds(seconds)) s"
        case .responseTooLarge(let limit): "response larger than \(limit) bytes"
        case .cancelled: "cancelled"
        case .persistedQueryNotFound(let id): "the server has no persisted query \(id)"
        }
    }
}

/// Short decimal spellings for messages.
enum ValueText {
    /// `2`, `0.25`: seconds without a trailing `.0`.
    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
