import Foundation

/// One step of a response path: a response key or a list index.
public enum PathComponent: Sendable, Hashable, CustomStringConvertible {
    case key(String)
    case index(Int)

    public var description: String {
        switch self {
        case .key(let key): key
        case .index(let index): String(index)
        }
    }
}

/// A GraphQL error as the server wrote it: message, path, locations and extensions.
///
/// Stored beside the field it names (a field error) or carried by a failed fetch (a request error).
public struct GraphQLError: Sendable, Hashable, Error, CustomStringConvertible {
    /// A line and column in the operation's document.
    public struct Location: Sendable, Hashable {
        public var line: Int
        public var column: Int
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    public var message: String
    public var path: [PathComponent]?
    public var locations: [Location]
    public var extensions: JSONObject?

    public init(
        message: String, path: [PathComponent]? = nil, locations: [Location] = [], extensions: JSONObject? = nil
    ) {
        self.message = message
        self.path = path
        self.locations = locations
        self.extensions = extensions
    }

    /// The path as dotted text, e.g. `character.location.name`.
    public var pathText: String { (path ?? []).map(\.description).joined(separator: ".") }

    public var description: String { path == nil ? message : "\(message) (at \(pathText))" }

    /// Reads an error from a response's `errors` entry; a malformed entry keeps what can be read.
    init(json: JSONValue) {
        message = json["message"]?.stringValue ?? "(error without a message)"
        if case .array(let items)? = json["path"] {
            path = items.compactMap { item -> PathComponent? in
                switch item {
                case .string(let key): return .key(key)
                case .number(let text): return Int(text).map(PathComponent.index)
                default: return nil
                }
            }
        } else {
            path = nil
        }
        locations = []
        if case .array(let items)? = json["locations"] {
            for item in items {
                if case .number(let line)? = item["line"], case .number(let column)? = item["column"],
                    let lineNumber = Int(line), let columnNumber = Int(column)
                {
                    locations.append(Location(line: lineNumber, column: columnNumber))
                }
            }
        }
        if case .object(let object)? = json["extensions"] { extensions = object } else { extensions = nil }
    }

    /// The error as a response's `errors` entry.
    var json: JSONValue {
        var object = JSONObject()
        object["message"] = .string(message)
        if let path {
            object["path"] = .array(
                path.map {
                    switch $0 {
                    case .key(let key): .string(key)
                    case .index(let index): .number(String(index))
                    }
                })
        }
        if !locations.isEmpty {
            object["locations"] = .array(
                locations.map {
                    .object(JSONObject([("line", .number(String($0.line))), ("column", .number(String($0.column)))]))
                })
        }
        if let extensions { object["extensions"] = .object(extensions) }
        return .object(object)
    }
}

/// The field errors a `@catch` read or a `@throwOnFieldError` read reports.
public struct FieldErrors: Error, Sendable, Hashable, CustomStringConvertible {
    public var errors: [GraphQLError]

    public init(_ errors: [GraphQLError]) { self.errors = errors }

    /// The messages joined by "; ".
    public var description: String { errors.map(\.message).joined(separator: "; ") }
}
