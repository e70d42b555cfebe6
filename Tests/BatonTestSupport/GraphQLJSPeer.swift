import Foundation
import XCTest

/// Runs graphql-js 16 (through BatonSyntaxTests' `Peers/graphqljs-syntax.mjs` and node) on a batch of requests,
/// for the differential tests. Tests call `GraphQLJSPeer.run` and skip, with the reason, when
/// node or graphql-js is missing.
package enum GraphQLJSPeer {
    package struct Request {
        package var text: String?
        package var path: String?
        package var mode: String

        package init(text: String?, path: String?, mode: String) {
            self.text = text
            self.path = path
            self.mode = mode
        }

        package static func parse(_ text: String) -> Request { Request(text: text, path: nil, mode: "parse") }
        package static func print(path: String) -> Request { Request(text: nil, path: path, mode: "print") }
        package static func print(_ text: String) -> Request { Request(text: text, path: nil, mode: "print") }
        package static func nodes(_ text: String) -> Request { Request(text: text, path: nil, mode: "nodes") }
        package static func nodes(path: String) -> Request { Request(text: nil, path: path, mode: "nodes") }
    }

    /// One graphql-js outcome.
    package struct Outcome: Equatable, CustomStringConvertible {
        package var ok: Bool
        package var printed: String?
        package var nodes: [String]?
        package var message: String?
        package var line: Int?
        package var column: Int?
        package var crash: String?

        package var description: String {
            if ok { return "ok" }
            if let crash { return "crash: \(crash)" }
            return "\(line ?? 0):\(column ?? 0): \(message ?? "")"
        }
    }

    static let scriptPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BatonSyntaxTests/Peers/graphqljs-syntax.mjs").path

    /// graphql-js's outcome for each request, or throws XCTSkip when the peer cannot run.
    package static func run(_ requests: [Request]) throws -> [Outcome] {
        let payload: [[String: String]] = requests.map { request in
            var entry = ["mode": request.mode]
            if let text = request.text { entry["text"] = text }
            if let path = request.path { entry["path"] = path }
            return entry
        }
        let input = try JSONSerialization.data(withJSONObject: payload)
        let inputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("baton-syntax-peer-\(UUID().uuidString).json")
        try input.write(to: inputFile)
        defer { try? FileManager.default.removeItem(at: inputFile) }

        let (status, data) = try NodePeer.run(
            ["--stack-size=4000", scriptPath], standardInput: inputFile,
            missing: "node is not installed; graphql-js differential test skipped")
        if status == 3 {
            throw Unavailable.error("graphql-js is not installed (Debian node-graphql); differential test skipped")
        }
        guard status == 0,
            let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else {
            XCTFail("graphql-js peer failed with status \(status)")
            return []
        }
        return array.map { entry in
            Outcome(
                ok: entry["ok"] as? Bool ?? false, printed: entry["printed"] as? String,
                nodes: entry["nodes"] as? [String],
                message: entry["message"] as? String, line: entry["line"] as? Int, column: entry["column"] as? Int,
                crash: entry["crash"] as? String)
        }
    }
}
