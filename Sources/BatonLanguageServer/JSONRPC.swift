import BatonDiagnostics

/// JSON-RPC 2.0 as LSP uses it: one incoming message, the error codes, and the outgoing texts.
package enum JSONRPC {
    /// Error codes (JSON-RPC's and LSP's).
    package enum ErrorCode: Int, Sendable {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
        case serverNotInitialized = -32002
        case requestCancelled = -32800
    }

    /// One message read from the client.
    package struct Incoming: Sendable {
        /// The request id as JSON text (a number's literal or a quoted string); nil for a notification.
        package var id: String?
        package var method: String?
        package var params: JSONValue?
        /// True for a response to a request of ours (no method, an id): ignored.
        package var isResponse: Bool { method == nil && id != nil }
    }

    /// What a body holds: a message, or the error to answer it with (id as JSON text, `null` when unknown).
    package static func decode(_ body: [UInt8]) -> Result<Incoming, ProtocolError> {
        guard let text = String(validating: body, as: UTF8.self) else {
            return .failure(ProtocolError(id: "null", code: .parseError, message: "The message is not valid UTF-8."))
        }
        let value: JSONValue
        switch JSONParser.parse(Array(text.utf8)) {
        case .success(let parsed): value = parsed
        case .failure(let error):
            return .failure(
                ProtocolError(
                    id: "null", code: .parseError, message: "The message is not JSON: \(error.message)"))
        }
        guard case .object = value else {
            return .failure(
                ProtocolError(id: "null", code: .invalidRequest, message: "A message must be a JSON object."))
        }
        var id: String?
        switch value["id"] {
        case .number(let literal, _)?: id = literal
        case .string(let string, _)?: id = JSONText.quote(string)
        case nil, .null?: id = nil
        default:
            return .failure(
                ProtocolError(id: "null", code: .invalidRequest, message: "A request id must be a number or a string."))
        }
        let method: String?
        switch value["method"] {
        case .string(let name, _)?: method = name
        case nil: method = nil
        default:
            return .failure(
                ProtocolError(id: id ?? "null", code: .invalidRequest, message: "A method must be a string."))
        }
        if method == nil && id == nil {
            return .failure(ProtocolError(id: "null", code: .invalidRequest, message: "A message without a method."))
        }
        return .success(Incoming(id: id, method: method, params: value["params"]))
    }

    /// A response's text.
    package static func result(id: String, _ result: String) -> String {
        "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"result\":\(result)}"
    }

    /// An error response's text.
    package static func error(id: String, _ code: ErrorCode, _ message: String) -> String {
        "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"error\":{\"code\":\(code.rawValue),\"message\":\(JSONText.quote(message))}}"
    }

    /// A notification's text.
    package static func notification(_ method: String, _ params: String) -> String {
        "{\"jsonrpc\":\"2.0\",\"method\":\(JSONText.quote(method)),\"params\":\(params)}"
    }
}

/// A message that gets an error response instead of a result.
package struct ProtocolError: Error, Sendable {
    package var id: String
    package var code: JSONRPC.ErrorCode
    package var message: String
}

extension JSONValue {
    /// The value at a path of object keys.
    subscript(path keys: String...) -> JSONValue? {
        var value: JSONValue? = self
        for key in keys { value = value?[key] }
        return value
    }

    /// A whole number that fits in an Int.
    var intValue: Int? {
        guard case .number(let literal, _) = self else { return nil }
        return Int(literal)
    }
}
