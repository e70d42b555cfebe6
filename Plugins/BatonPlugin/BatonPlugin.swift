import Foundation
import PackagePlugin

/// Runs `baton gen --lang swift` for the target that adopts it
/// (`plugins: [.plugin(name: "BatonPlugin", package: "baton")]`), into the plugin's work folder, so the
/// generated lenses compile with the target and are never checked in.
///
/// A build-tool command must name its outputs before it runs, but what a document defines is known only
/// once it is compiled. So the plugin declares a deterministic set, one file per source: every `.graphql`
/// or `.gql` file of the target and every Swift source that mentions a Baton attribute gets a
/// `<name>.baton.swift` holding that document's operations and fragments, and one shared
/// `Baton.baton.swift` holds the schema's types and whatever the plugin did not expect (a literal added
/// to another source, until SwiftPM plans again). It passes the map to `baton gen --build-map`, which
/// writes exactly those files (a header alone for a document without definitions).
///
/// Inputs: every Swift and GraphQL file of the target (an edit anywhere reruns it), the project's
/// `baton.json` (the nearest one from the target's folder up to the package's) and its schema files. An
/// incremental build reruns the command only when one of them changed, and `baton` rewrites only files
/// whose content changed. Errors (`path:line:column: error: …`) fail the build at the document's place.
@main
struct BatonPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target.sourceModule else { return [] }
        let files = module.sourceFiles.map(\.url)
        // The folder holding every source (the target's, or one below it: baton.json is searched upwards).
        return try BatonBuild.commands(
            baton: context.tool(named: "baton").url, workDirectory: context.pluginWorkDirectoryURL,
            searchFrom: BatonBuild.commonFolder(files) ?? context.package.directoryURL,
            upTo: context.package.directoryURL, files: files, targetName: target.name)
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension BatonPlugin: XcodeBuildToolPlugin {
        /// The same for a target of an Xcode project: baton.json found from the project's folder.
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            let files = target.inputFiles.map(\.url)
            let folder = files.first?.deletingLastPathComponent() ?? context.xcodeProject.directoryURL
            return try BatonBuild.commands(
                baton: context.tool(named: "baton").url, workDirectory: context.pluginWorkDirectoryURL,
                searchFrom: folder, upTo: context.xcodeProject.directoryURL, files: files,
                targetName: target.displayName)
        }
    }
#endif

/// What the plugin plans, for SwiftPM and Xcode alike.
enum BatonBuild {
    /// The words whose attributes hold GraphQL (`@Query(…)`, `@Baton.Fragment(…)`): a Swift source
    /// mentioning none of them has no document, so gets no file of its own.
    static let attributeWords = ["Query", "Fragment", "Mutation", "Subscription"]

    static func commands(
        baton: URL, workDirectory: URL, searchFrom start: URL, upTo root: URL, files: [URL], targetName: String
    ) throws -> [Command] {
        let configuration = try findConfiguration(from: start, upTo: root)
        let documents = files.filter { ["swift", "graphql", "gql"].contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
        let output = workDirectory.appending(path: "Generated")
        // One file per document that can hold GraphQL; names unique ignoring case (as the module and a
        // case-insensitive disk need), the shared file's first.
        let shared = "Baton.baton.swift"
        var taken: Set<String> = [shared.lowercased()]
        var entries: [[String: String]] = []
        var outputs: [URL] = [output.appending(path: shared)]
        for document in documents {
            var entry = ["path": document.path]
            if mayHoldGraphQL(document) {
                let stem =
                    document.pathExtension == "swift"
                    ? document.deletingPathExtension().lastPathComponent : document.lastPathComponent
                var name = stem + ".baton.swift"
                var number = 2
                while !taken.insert(name.lowercased()).inserted {
                    name = "\(stem)_\(number).baton.swift"
                    number += 1
                }
                entry["output"] = name
                outputs.append(output.appending(path: name))
            }
            entries.append(entry)
        }
        let map = workDirectory.appending(path: "build-map.json")
        try writeIfChanged(map, json: ["version": 1, "documents": entries, "shared": shared])
        return [
            .buildCommand(
                displayName: "Baton: generating Swift for \(targetName) (\(outputs.count - 1) documents)",
                executable: baton,
                arguments: [
                    "gen", "--lang", "swift", "--config", configuration.path, "--swift-out", output.path,
                    "--build-map", map.path, "--absolute-paths",
                ],
                inputFiles: [configuration, map] + schemaFiles(of: configuration) + documents,
                outputFiles: outputs)
        ]
    }

    /// The deepest folder holding every file.
    static func commonFolder(_ files: [URL]) -> URL? {
        guard var common = files.first?.deletingLastPathComponent().standardizedFileURL.pathComponents else {
            return nil
        }
        for file in files.dropFirst() {
            let components = file.deletingLastPathComponent().standardizedFileURL.pathComponents
            common = Array(zip(common, components).prefix { $0 == $1 }.map(\.0))
        }
        return URL(fileURLWithPath: "/" + common.dropFirst().joined(separator: "/"))
    }

    /// The nearest `baton.json` from `start` up to `root`.
    static func findConfiguration(from start: URL, upTo root: URL) throws -> URL {
        var folder = start.standardizedFileURL
        let top = root.standardizedFileURL.path
        while true {
            let candidate = folder.appending(path: "baton.json")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            if folder.path == top || folder.path == "/" || !folder.path.hasPrefix(top) { break }
            folder = folder.deletingLastPathComponent()
        }
        throw PluginProblem(
            "BatonPlugin: no baton.json in \(start.path) or a folder above it up to \(top); run `baton init` there.")
    }

    /// A GraphQL file, or a Swift source mentioning a Baton attribute.
    static func mayHoldGraphQL(_ file: URL) -> Bool {
        guard file.pathExtension == "swift" else { return true }
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return true }
        return text.contains("@") && attributeWords.contains { text.contains($0) }
    }

    /// The schema files baton.json names: each path as written, and for a pattern with wildcards every
    /// schema file under the folder before its first wildcard (more than it matches, never fewer).
    static func schemaFiles(of configuration: URL) -> [URL] {
        let folder = configuration.deletingLastPathComponent()
        guard let data = try? Data(contentsOf: configuration),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        let entries = (object["schema"] as? [String]) ?? [object["schema"] as? String].compactMap { $0 }
        var files: [URL] = []
        for entry in entries {
            guard entry.contains("*") || entry.contains("?") else {
                files.append(entry.hasPrefix("/") ? URL(fileURLWithPath: entry) : folder.appending(path: entry))
                continue
            }
            let fixed = entry.split(separator: "/").prefix { !$0.contains("*") && !$0.contains("?") }
            let base = fixed.reduce(entry.hasPrefix("/") ? URL(fileURLWithPath: "/") : folder) {
                $0.appending(path: String($1))
            }
            let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            while let next = walker?.nextObject() as? URL {
                if ["graphql", "graphqls", "gql", "json"].contains(next.pathExtension) { files.append(next) }
            }
        }
        return files
    }

    /// Writes `json` to `file` unless it already holds it, so an unchanged plan leaves the build's inputs alone.
    static func writeIfChanged(_ file: URL, json: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .prettyPrinted])
        if (try? Data(contentsOf: file)) == data { return }
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file, options: .atomic)
    }
}

/// A problem that stops planning, with what to do.
struct PluginProblem: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
