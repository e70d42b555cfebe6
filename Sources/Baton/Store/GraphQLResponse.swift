import Foundation

/// A server's response to one operation: `data` and `errors`.
public struct GraphQLResponse: Sendable, Hashable {
    /// The `data` object; nil when absent or null.
    public var data: JSONObject?
    public var errors: [GraphQLError]

    public init(data: JSONObject?, errors: [GraphQLError] = []) {
        self.data = data
        self.errors = errors
    }

    /// Parses a response body. A body that is not a JSON object is a `ResponseError.malformed`.
    public init(bytes: Data) throws(ResponseError) {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw .malformed(error.description)
        }
        guard case .object(let object) = json else { throw .malformed("the response is not a JSON object") }
        if case .object(let data)? = object["data"] { self.data = data } else { self.data = nil }
        if case .array(let items)? = object["errors"] {
            errors = items.map(GraphQLError.init(json:))
        } else {
            errors = []
        }
        if data == nil, errors.isEmpty { throw .malformed("the response has neither data nor errors") }
    }

    /// Errors and no data: the whole request failed.
    public var isRequestError: Bool { data == nil }
}

/// A response Baton cannot commit.
public enum ResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body is not a GraphQL response.
    case malformed(String)
    /// Errors and no data: a request error, not a field error. The store is unchanged.
    case requestFailed([GraphQLError])

    public var description: String {
        switch self {
        case .malformed(let reason): "malformed response: \(reason)"
        case .requestFailed(let errors): "request failed: " + errors.map(\.message).joined(separator: "; ")
        }
    }
}
