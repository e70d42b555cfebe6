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

    public init(operationName: String, query: String, variables: [String: JSONValue], onError: String? = nil) {
        self.operationName = operationName
        self.query = query
        self.variables = variables
        self.onError = onError
    }

    /// The request for a generated operation.
    public init<Operation: GraphQLOperation>(_ operation: Operation) {
        self.init(
            operationName: Operation.operationName, query: Operation.document, variables: operation.variables,
            onError: Operation.onError)
    }

    /// The POST body: `{"query":…,"operationName":…,"variables":{…},"onError":…}`.
    public var body: Data {
        var object = JSONObject()
        object["query"] = .string(query)
        object["operationName"] = .string(operationName)
        object["variables"] = .object(JSONObject(variables.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        if let onError { object["onError"] = .string(onError) }
        return Data(JSONValue.object(object).compactText.utf8)
    }
}

/// Sends a request and returns the response body. Errors thrown here are transport failures.
public protocol Transport: Sendable {
    func send(_ request: GraphQLRequest) async throws -> Data
}

/// A transport failure.
public enum TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with a status outside 200...299 and no GraphQL body.
    case httpStatus(Int)
    /// The fixture transport has no answer for the operation.
    case noFixture(String)
    /// A failure the fixture was told to produce, or one from the network layer.
    case failed(String)

    public var description: String {
        switch self {
        case .httpStatus(let status): "HTTP status \(status)"
        case .noFixture(let name): "no fixture answers \(name)"
        case .failed(let reason): reason
        }
    }
}

/// GraphQL over HTTP on Foundation's URLSession: a POST of the request as JSON.
public struct HTTPTransport: Transport {
    public var url: URL
    public var headers: [String: String]

    public init(url: URL, headers: [String: String] = [:]) {
        self.url = url
        self.headers = headers
    }

    /// The URLRequest this transport sends (exposed for tests and for apps that sign requests).
    public func urlRequest(for request: GraphQLRequest) -> URLRequest {
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "POST"
        urlRequest.httpBody = request.body
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        urlRequest.setValue("application/graphql-response+json, application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        return urlRequest
    }

    public func send(_ request: GraphQLRequest) async throws -> Data {
        let (data, response) = try await URLSession.shared.data(for: urlRequest(for: request))
        if let http = response as? HTTPURLResponse, !(200...299).contains(http.statusCode) {
            // GraphQL over HTTP may carry a request error in a 4xx body; keep it when it is a response.
            if (try? GraphQLResponse(bytes: data)) != nil { return data }
            throw TransportError.httpStatus(http.statusCode)
        }
        return data
    }
}

/// A transport for tests that answers from JSON files or text, per operation name, in order.
///
/// Each request takes the next answer queued for its operation; the last one keeps answering. Every request is
/// kept, so a test can count fetches.
public final class FixtureTransport: Transport {
    /// One answer.
    public enum Answer: Sendable, Hashable {
        case file(URL)
        case json(String)
        case failure(String)
    }

    private let state = Locked<(answers: [String: [Answer]], requests: [GraphQLRequest])>(([:], []))

    public init() {}

    /// Queues answers for an operation.
    public func answer(_ operationName: String, with answers: Answer...) {
        state.withLock { $0.answers[operationName, default: []].append(contentsOf: answers) }
    }

    /// Every request so far.
    public var requests: [GraphQLRequest] { state.withLock { $0.requests } }

    /// How many requests named the operation.
    public func requestCount(_ operationName: String) -> Int {
        requests.filter { $0.operationName == operationName }.count
    }

    public func send(_ request: GraphQLRequest) async throws -> Data {
        let answer: Answer? = state.withLock { state in
            state.requests.append(request)
            guard var queue = state.answers[request.operationName], let first = queue.first else { return nil }
            if queue.count > 1 {
                queue.removeFirst()
                state.answers[request.operationName] = queue
            }
            return first
        }
        switch answer {
        case nil: throw TransportError.noFixture(request.operationName)
        case .file(let url)?: return try Data(contentsOf: url)
        case .json(let text)?: return Data(text.utf8)
        case .failure(let reason)?: throw TransportError.failed(reason)
        }
    }
}
