import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonTestSupport
import Foundation
import XCTest

@testable import BatonValidation

/// Paths and loaders shared by the validation tests.
enum TestSupport {
    /// The repository root.
    static let repositoryRoot: URL = TestPaths.repository
    /// `../shared` beside the repository (or `BATON_SHARED`), holding the corpus and the peer tools.
    static let shared: URL = TestPaths.shared
    static let corpus: URL = TestPaths.corpus
    static let fixtures: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Loads a schema file (SDL or introspection JSON); build diagnostics are ignored, as
    /// graphql-js's `assumeValidSDL` does.
    static func loadSchema(_ path: String) throws -> GraphQLSchema {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let source = SourceFile(path: path, bytes: Array(data))
        let (schema, diagnostics): (GraphQLSchema?, [Diagnostic])
        if path.hasSuffix(".json") {
            (schema, diagnostics) = IntrospectionSchemaBuilder.build(source: source)
        } else {
            (schema, diagnostics) = SchemaBuilder.build(sources: [source])
        }
        guard let schema else {
            throw NSError(
                domain: "TestSupport", code: 1,
                userInfo: [
                    NSLocalizedDescriptionKey: "schema \(path) did not build: \(diagnostics.map(\.message))"
                ])
        }
        return schema
    }

    /// `.graphql`/`.gql` files under a directory, recursively, sorted as graphql-js's tool
    /// sorts them (directory entries by name, depth first).
    static func documentFiles(under directory: String) -> [String] {
        var result: [String] = []
        func walk(_ path: String) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
            if isDirectory.boolValue {
                let entries = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
                    .sorted { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }
                for entry in entries { walk(path + "/" + entry) }
            } else if path.lowercased().hasSuffix(".graphql") || path.lowercased().hasSuffix(".gql") {
                result.append(path)
            }
        }
        walk(directory)
        return result
    }

    /// Parses files; returns the documents and the syntax diagnostics.
    static func parse(files: [String], displayPath: (String) -> String = { $0 }) -> (
        [Document], [Diagnostic]
    ) {
        var documents: [Document] = []
        var diagnostics: [Diagnostic] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let result = Parser.parse(SourceFile(path: displayPath(file), bytes: Array(data)))
            diagnostics += result.diagnostics
            if let document = result.document { documents.append(document) }
        }
        return (documents, diagnostics)
    }

    /// One comparable error: file, line, column and message, as graphql-js's tool prints them.
    struct ErrorKey: Hashable, Comparable, CustomStringConvertible {
        let file: String
        let line: Int
        let column: Int
        let message: String
        static func < (a: ErrorKey, b: ErrorKey) -> Bool {
            (a.file, a.line, a.column, a.message) < (b.file, b.line, b.column, b.message)
        }
        var description: String { "\(file):\(line):\(column): \(message)" }
    }

    /// Only the spec's rules are compared with graphql-js: diagnostics of Baton's own rules
    /// (which graphql-js does not have) are left out, whatever rule list produced them.
    static func keys(_ diagnostics: [Diagnostic]) -> [ErrorKey] {
        let batonIDs = Set(BatonRuleCatalog.rules.map { $0.id })
        return diagnostics.filter { !batonIDs.contains($0.rule) }.map { diagnostic in
            let location = diagnostic.location
            return ErrorKey(
                file: diagnostic.displayPath ?? "", line: location?.line ?? 0,
                column: location?.column ?? 0,
                message: diagnostic.message)
        }
    }

    /// Runs a command, returning its standard output (nil when it cannot be started).
    static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The path of `node` when it and graphql-js are installed.
    static func nodeWithGraphQL() -> String? {
        for candidate in ["/usr/bin/node", "/usr/local/bin/node", "/opt/homebrew/bin/node"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            let hasGraphQL =
                FileManager.default.fileExists(atPath: "/usr/share/nodejs/graphql/index.mjs")
                || FileManager.default.fileExists(atPath: "/usr/lib/nodejs/graphql/index.mjs")
                || ProcessInfo.processInfo.environment["GRAPHQL_JS_PATH"] != nil
            return hasGraphQL ? candidate : nil
        }
        return nil
    }

    /// Runs `graphqljs-validate.mjs` and returns its errors (not syntax errors or timing lines).
    static func graphQLJS(
        node: String, schema: String, paths: [String], merge: Bool, assumeValidSDL: Bool
    )
        -> [ErrorKey]?
    {
        var arguments = [
            shared.appendingPathComponent("tools/graphqljs-validate.mjs").path, "--no-rules",
        ]
        if merge { arguments.append("--merge") }
        if assumeValidSDL { arguments.append("--assume-valid-sdl") }
        arguments.append(schema)
        arguments += paths
        guard let (status, output) = run(node, arguments), status != 2 else { return nil }
        var keys: [ErrorKey] = []
        for line in output.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let message = object["message"] as? String, let file = object["file"] as? String
            else { continue }
            if (object["rule"] as? String) == "syntax" { continue }
            keys.append(
                ErrorKey(
                    file: file, line: object["line"] as? Int ?? 0, column: object["column"] as? Int ?? 0,
                    message: message))
        }
        return keys
    }

    /// One run of `graphqljs-validate.mjs --no-rules`: a schema, the documents or directories, the mode.
    struct GraphQLJSJob {
        var schema: String
        var paths: [String]
        var merge: Bool
        var assumeValidSDL: Bool
    }

    /// What `graphQLJS(node:schema:paths:merge:assumeValidSDL:)` returns for each job, from one node process
    /// (`Peers/graphqljs-validate-batch.mjs`: the shared tool's graphql-js calls, each schema built once and reused by
    /// the jobs against it); a job's entry is nil where the tool exits 2 (the schema fails). Nil when the batch
    /// cannot run at all.
    static func graphQLJS(node: String, jobs: [GraphQLJSJob]) -> [[ErrorKey]?]? {
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("baton-graphqljs-jobs-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: list) }
        let objects = jobs.map {
            ["schema": $0.schema, "paths": $0.paths, "merge": $0.merge, "assumeValidSDL": $0.assumeValidSDL] as [String: Any]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: objects), (try? data.write(to: list)) != nil
        else { return nil }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Peers/graphqljs-validate-batch.mjs").path
        let common = shared.appendingPathComponent("tools/graphqljs-common.mjs").path
        guard let (status, output) = run(node, [script, common, list.path]), status == 0 else { return nil }
        var keys = [[ErrorKey]](repeating: [], count: jobs.count)
        var statuses = [Int?](repeating: nil, count: jobs.count)
        for line in output.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let job = object["job"] as? Int, jobs.indices.contains(job)
            else { continue }
            if let status = object["status"] as? Int {
                statuses[job] = status
                continue
            }
            guard let message = object["message"] as? String, let file = object["file"] as? String,
                (object["rule"] as? String) != "syntax"
            else { continue }
            keys[job].append(
                ErrorKey(
                    file: file, line: object["line"] as? Int ?? 0, column: object["column"] as? Int ?? 0,
                    message: message))
        }
        // Every job must have finished; a job whose schema failed is nil, as the single run's status 2 is.
        guard statuses.allSatisfy({ $0 != nil }) else { return nil }
        return zip(keys, statuses).map { $1 == 2 ? nil : $0 }
    }

    /// The difference of two multisets of errors, for a readable failure message.
    static func difference(expected: [ErrorKey], actual: [ErrorKey]) -> (
        missing: [ErrorKey], extra: [ErrorKey]
    ) {
        var counts: [ErrorKey: Int] = [:]
        for key in expected { counts[key, default: 0] += 1 }
        var extra: [ErrorKey] = []
        for key in actual {
            if let count = counts[key], count > 0 { counts[key] = count - 1 } else { extra.append(key) }
        }
        var missing: [ErrorKey] = []
        for (key, count) in counts where count > 0 { missing += Array(repeating: key, count: count) }
        return (missing.sorted(), extra.sorted())
    }
}
