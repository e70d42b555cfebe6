import Baton

/// A GraphQL error a test puts in a response: a message, where it happened and its extensions.
///
/// With a `path` it is a field error (the field reads as an error, which `@catch` catches); in a response without
/// data it is a request error (`FetchError.request`).
public struct MockFieldError: Sendable, Hashable {
    /// One step of an error's path: a field's response name or a list index.
    public enum PathComponent: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case field(String)
        case index(Int)

        public init(stringLiteral value: String) { self = .field(value) }
        public init(integerLiteral value: Int) { self = .index(value) }

        var json: JSONValue {
            switch self {
            case .field(let name): .string(name)
            case .index(let index): .number(String(index))
            }
        }
    }

    public var message: String
    public var path: [PathComponent]
    public var extensions: [String: JSONValue]

    /// An error with a message, at `path` (empty: a request error), with `extensions` (`["code": "NOT_FOUND"]`,
    /// written in key order).
    public init(_ message: String, path: [PathComponent] = [], extensions: [String: JSONValue] = [:]) {
        self.message = message
        self.path = path
        self.extensions = extensions
    }

    /// The error as a response's `errors` member spells it.
    var json: JSONValue {
        var object = JSONObject([("message", .string(message))])
        if !path.isEmpty { object["path"] = .array(path.map(\.json)) }
        if !extensions.isEmpty {
            object["extensions"] = .object(JSONObject(extensions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
        return .object(object)
    }
}

/// What the mock answers a request with: a response body, or a transport failure.
public enum MockResponse: Sendable, Hashable {
    /// `{"data": <data>, "errors": [...]}`: `data` is JSON text (`{"repository": {...}}`), `errors` its field errors.
    case data(String, errors: [MockFieldError] = [])
    /// `{"errors": [...]}` without data: the fetch fails with `FetchError.request`.
    case requestErrors([MockFieldError])
    /// A whole response body as the server would send it.
    case body(String)
    /// The transport fails with this error (`.network` is transient and retried under the retry policy).
    case transportError(TransportError)

    /// The body this response sends, or the error it throws.
    func answer() throws -> [UInt8] {
        switch self {
        case .data(let data, let errors):
            let members = errors.isEmpty ? "" : #","errors":"# + JSONValue.array(errors.map(\.json)).compactText
            return Array(#"{"data":\#(data)\#(members)}"#.utf8)
        case .requestErrors(let errors):
            return Array(JSONValue.object(JSONObject([("errors", .array(errors.map(\.json)))])).compactText.utf8)
        case .body(let text):
            return Array(text.utf8)
        case .transportError(let error):
            throw error
        }
    }
}
