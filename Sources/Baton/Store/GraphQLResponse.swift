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

    /// Parses a response body. A body that is not a JSON object, or has neither data nor errors, is a
    /// `ResponseError.malformed`; it is read as `Store.commit(bytes:)` reads it, so both say the same.
    public init(bytes: Data) throws(ResponseError) {
        let result: Result<GraphQLResponse, ResponseError> = bytes.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            switch TapeNormalizer.read(buffer) {
            case .malformed(let reason, _): return .failure(.malformed(reason))
            case .requestFailed(let errors): return .success(GraphQLResponse(data: nil, errors: errors))
            case .response(let tape, let data, let errors):
                let tree = withExtendedLifetime(tape) { tape.view(buffer).jsonValue(data) }
                guard case .object(let object) = tree else { return .failure(.malformed("the data is not an object")) }
                return .success(GraphQLResponse(data: object, errors: errors))
            }
        }
        self = try result.get()
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
