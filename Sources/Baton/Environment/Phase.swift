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

/// Why a fetch (or the read after it) failed.
public enum FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A response with errors and no data.
    case request([GraphQLError])
    /// The transport failed.
    case transport(String)
    /// The body was not a GraphQL response.
    case malformedResponse(String)
    /// The operation's read failed: a `@required` null reached the root, or `@throwOnFieldError` met an error.
    case read(ReadError)
    /// Nothing was attached to read: an operation value no handle fills, or a view without a `BatonEnvironment`.
    case unattached(String)

    public var description: String {
        switch self {
        case .request(let errors): errors.map(\.message).joined(separator: "; ")
        case .transport(let reason): "transport: \(reason)"
        case .malformedResponse(let reason): "malformed response: \(reason)"
        case .read(let error): error.description
        case .unattached(let reason): reason
        }
    }

    /// The failure for a body the store could not commit: a request error, or a malformed response with its reason
    /// alone (the description says "malformed response: " once; `ResponseError`'s own description says it too).
    init(_ error: ResponseError) {
        switch error {
        case .malformed(let reason): self = .malformedResponse(reason)
        case .requestFailed(let errors): self = .request(errors)
        }
    }

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
