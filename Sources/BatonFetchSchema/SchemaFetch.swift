import BatonCLI
import BatonCodegen
import BatonConfig
import BatonDiagnostics
import BatonFiles
import BatonSchema
import Foundation

/// Why `baton fetch-schema` wrote nothing (each is exit status 2).
package enum FetchSchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    case network(String, String)
    case status(Int, String)
    case refused([String])
    case notIntrospection(String)
    case invalidSchema([String])
    case write(String)

    package var description: String {
        switch self {
        case .network(let url, let reason): "could not reach \(url): \(reason)"
        case .status(let status, let excerpt):
            "the endpoint answered HTTP \(status) without a GraphQL response" + (excerpt.isEmpty ? "" : ": \(excerpt)")
        case .refused(let messages):
            "the endpoint refused introspection: \(messages.joined(separator: "; ")) (is introspection disabled? ask for a schema file, or pass the headers that allow it with --header)"
        case .notIntrospection(let reason): "the answer is not an introspection result: \(reason)"
        case .invalidSchema(let messages): "the fetched schema is not valid: \(messages.joined(separator: "; "))"
        case .write(let reason): reason
        }
    }
}

/// `baton fetch-schema`'s work: introspect an endpoint, check the result builds a valid schema, and write SDL
/// (printed by `SchemaPrinter`, sorted) or the introspection JSON, atomically and only when it changed.
package struct SchemaFetch {
    package typealias Format = FetchSchemaCommand.Format

    package var endpoint: URL
    package var headers: [(String, String)]
    package var timeout: TimeInterval
    package var format: Format

    package init(endpoint: URL, headers: [(String, String)], timeout: TimeInterval, format: Format) {
        self.endpoint = endpoint
        self.headers = headers
        self.timeout = timeout
        self.format = format
    }

    /// The text to write: SDL or the introspection JSON (`{"data":{"__schema":…}}` as the server sent it).
    package func fetch() -> Result<String, FetchSchemaError> {
        var reply: IntrospectionFetch.Reply
        switch IntrospectionFetch.post(
            query: IntrospectionQuery.text(), to: endpoint, headers: headers, timeout: timeout)
        {
        case .failure(let error): return .failure(error)
        case .success(let value): reply = value
        }
        var json = Self.parse(reply)
        // A server of the 2021 spec has no `__Type.isOneOf`: ask again without it.
        if case .failure(.refused(let messages)) = json, messages.contains(where: { $0.contains("isOneOf") }) {
            switch IntrospectionFetch.post(
                query: IntrospectionQuery.text(includingOneOf: false), to: endpoint, headers: headers,
                timeout: timeout)
            {
            case .failure(let error): return .failure(error)
            case .success(let value): reply = value
            }
            json = Self.parse(reply)
        }
        let value: JSONValue
        switch json {
        case .failure(let error): return .failure(error)
        case .success(let parsed): value = parsed
        }
        let source = SourceFile(path: endpoint.absoluteString, bytes: reply.body)
        let (schema, diagnostics) = IntrospectionSchemaBuilder.build(json: value, source: source)
        let errors = diagnostics.filter { $0.severity == .error }.map(\.message)
        guard let schema, errors.isEmpty else { return .failure(.invalidSchema(Array(errors.prefix(5)))) }
        switch format {
        case .sdl: return .success(SchemaPrinter.print(schema))
        case .json:
            var text = String(decoding: reply.body, as: UTF8.self)
            if !text.hasSuffix("\n") { text += "\n" }
            return .success(text)
        }
    }

    /// The body as a GraphQL response holding `data.__schema`.
    static func parse(_ reply: IntrospectionFetch.Reply) -> Result<JSONValue, FetchSchemaError> {
        let parsed = JSONParser.parse(reply.body)
        guard case .success(let json) = parsed, case .object = json else {
            if !(200...299).contains(reply.status) {
                let excerpt = String(decoding: reply.body.prefix(120), as: UTF8.self)
                    .split(whereSeparator: \.isNewline).joined(separator: " ")
                return .failure(.status(reply.status, excerpt))
            }
            return .failure(.notIntrospection("the body is not JSON"))
        }
        let data = json["data"]
        if data?["__schema"] == nil || data?["__schema"].map({ if case .null = $0 { true } else { false } }) == true {
            let messages = json["errors"]?.arrayValue?.compactMap { $0["message"]?.stringValue } ?? []
            if !messages.isEmpty { return .failure(.refused(messages)) }
            if !(200...299).contains(reply.status) { return .failure(.status(reply.status, "")) }
            return .failure(.notIntrospection("no data.__schema"))
        }
        return .success(json)
    }

    /// Writes `text` to `path` atomically, only when it changed; returns whether it changed.
    package static func write(_ text: String, to path: String) -> Result<Bool, FetchSchemaError> {
        do {
            let report = try FileWriter(root: Path.directory(of: path), managedExtensions: []).writeFile(
                Path.lastComponent(path), text)
            return .success(report.hasChanges)
        } catch {
            return .failure(.write("could not write \(path): \(error)"))
        }
    }
}
