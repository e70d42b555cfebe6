import BatonCodegen
import BatonCodegenSwift
import BatonConfig
import BatonDiagnostics
import BatonFiles

/// The files a build system declared before the build (`gen --build-map`): SwiftPM's build-tool
/// plugins and Xcode's build phases must name every output before any command runs, but which
/// definitions a document holds is known only once it is compiled. So the generated Swift is laid
/// out by document instead of by definition: each document the map gives a file receives that
/// document's operations and fragments, and one shared file receives the schema's types (enums,
/// input objects, scalar checks, the namespace) and the definitions of every document without a
/// file of its own (a literal added to a source the map did not expect, until the build system
/// plans again). Every declared file is written, with the header alone when it holds nothing, so
/// the set of files never depends on the documents' contents.
///
/// The map is JSON, written by the build system:
///
///     {"version": 1,
///      "documents": [{"path": "/abs/Screen.swift", "output": "Screen.baton.swift"}, {"path": "/abs/Util.swift"}],
///      "shared": "Baton.baton.swift"}
///
/// `documents` are read instead of baton.json's `documents` (a target's sources); `output` names
/// are files in the Swift output folder.
package struct SwiftBuildLayout: Sendable, Equatable {
    /// Every document of the build, absolute.
    package var documents: [String]
    /// A document's own file, by the document's absolute path.
    package var outputs: [String: String]
    /// The file for the schema's types and every other definition.
    package var shared: String

    package init(documents: [String], outputs: [String: String], shared: String) {
        self.documents = documents
        self.outputs = outputs
        self.shared = shared
    }

    /// Reads a map; a message saying what is wrong with it otherwise.
    package static func load(_ path: String) -> Result<SwiftBuildLayout, BuildMapProblem> {
        let bytes: [UInt8]
        switch FileSystem.readFile(path) {
        case .success(let read): bytes = read
        case .failure(let failure):
            return .failure(BuildMapProblem("Cannot read the build map \(path): \(failure.reason)."))
        }
        let file = SourceFile(path: path, bytes: bytes)
        guard case .success(let root) = JSONParser.parse(file), let members = root.objectMembers,
            case .number("1", _)? = members.first(where: { $0.key == "version" })?.value,
            let shared = members.first(where: { $0.key == "shared" })?.value.stringValue,
            let entries = members.first(where: { $0.key == "documents" })?.value.arrayValue
        else {
            return .failure(
                BuildMapProblem(
                    "The build map \(path) is not a version 1 map ({\"version\": 1, \"documents\": [...], \"shared\": \"…\"})."
                ))
        }
        var layout = SwiftBuildLayout(documents: [], outputs: [:], shared: shared)
        var names: Set<String> = [shared]
        for entry in entries {
            guard let fields = entry.objectMembers,
                let document = fields.first(where: { $0.key == "path" })?.value.stringValue,
                document.hasPrefix("/")
            else {
                return .failure(BuildMapProblem("The build map \(path) has a document without an absolute \"path\"."))
            }
            layout.documents.append(Path.normalize(document))
            guard let output = fields.first(where: { $0.key == "output" })?.value.stringValue else { continue }
            guard names.insert(output).inserted else {
                return .failure(BuildMapProblem("The build map \(path) names the file \"\(output)\" twice."))
            }
            layout.outputs[Path.normalize(document)] = output
        }
        return .success(layout)
    }

    /// A declared file's key where files are keyed by what they hold (`GeneratedFile.definition`, the
    /// manifest's entries): `L:` and its name, apart from every `DefinitionKey`.
    package static func fileKey(_ name: String) -> String { "L:" + name }

    /// The declared file a `fileKey` names; nil for any other key.
    package static func file(ofKey key: String) -> String? {
        key.hasPrefix("L:") ? String(key.dropFirst(2)) : nil
    }

    /// `files` (one per definition, as the Swift generator writes them) laid out as declared. A
    /// file named in `kept` (an incremental run's: every definition it holds kept, its text on disk
    /// as recorded) comes back kept (`GeneratedFile.kept`, keyed `fileKey`); every other one
    /// is merged from its definitions' texts, which must all be rendered. The shared file is never kept.
    package func apply(
        to files: [GeneratedFile], workingDirectory: String, keeping kept: Set<String> = []
    ) -> [GeneratedFile] {
        var groups: [String: [GeneratedFile]] = [:]
        var names: [String: String] = [:]  // by origin: a document holds several definitions
        for file in files {
            let name: String
            if let origin = file.origin, let known = names[origin] {
                name = known
            } else {
                let document = file.origin.map { Path.absolute($0, relativeTo: workingDirectory) }
                name = document.flatMap { outputs[$0] } ?? shared
                if let origin = file.origin { names[origin] = name }
            }
            groups[name, default: []].append(file)
        }
        return ([shared] + outputs.values.sorted()).map { name in
            let group = groups[name] ?? []
            if name != shared, kept.contains(name), group.allSatisfy(\.kept) {
                return .kept(path: name, origin: nil, definition: Self.fileKey(name))
            }
            var merged = SwiftGenerator.merged(group, path: name)
            if name != shared { merged.definition = Self.fileKey(name) }
            return merged
        }
    }
}

/// Why a build map cannot be used.
package struct BuildMapProblem: Error, Sendable, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}
