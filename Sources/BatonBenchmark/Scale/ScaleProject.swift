import BatonCompiler
import BatonDiagnostics
import BatonSchema
import BatonSyntax
import Foundation

/// The 10,000-operation project of `BatonBenchmark scale`, built deterministically from the
/// shared corpus: GitHub's apps' documents against GitHub's schema by default, or another corpus
/// domain's (`--corpus saleor`: 13 saleor apps, deep fragments spread into fragments, inline
/// fragments on unions and interfaces; `--corpus anilist`: AniHyou's) against its own schema.
///
/// A *document* here is one corpus operation with the fragments it uses (transitively, found
/// in the same corpus app's files), as a client sends it. Every document that validates alone
/// against GitHub's 2024-07-08 schema (no error from any of `check`'s rules) is kept; the
/// project then holds copy after copy of the kept documents, round robin, one operation per
/// file, until it has the requested number of operations. Copy `n` renames the operation and
/// every fragment (definitions and spreads) by appending `_n`, so names stay unique across the
/// project and the copies validate together as one unit, as `check` validates a project.
///
/// Nothing from the corpus is written into the repository: the project is written under a
/// `.build`-like folder chosen by the caller, and its `baton.json` names the schema in place.
struct ScaleProject {
    /// One corpus operation with its fragments, ready to be copied.
    struct Template {
        /// `GitHawk/RepoBranches`: the corpus app and the operation.
        var label: String
        var operationName: String
        /// The document's text: the operation, then its fragments in corpus order.
        var bytes: [UInt8]
        /// Where names are, as byte ranges into `bytes`, sorted: the operation's name, each
        /// fragment definition's name and each fragment spread's name.
        var names: [Span]
        /// Fields selected in the document (for "bytes per selection").
        var fieldCount: Int
    }

    /// A corpus domain: its schema and its apps' documents, as `../shared/corpus` lays them out.
    struct Domain {
        var name: String
        /// Under `corpus/schemas/`.
        var schema: String
        /// Custom scalars mapped in the project's `baton.json` (the rest stay unmapped, which the
        /// project's rules allow).
        var scalars: String

        static let all: [Domain] = [
            Domain(
                name: "github", schema: "github/schema-2024-07-08.graphql",
                scalars: """
                      "DateTime": {
                        "swift": "Foundation.Date",
                        "kotlin": { "type": "java.time.Instant", "converter": "app.DateTimes" }
                      },
                      "URI": { "swift": "Foundation.URL", "kotlin": { "type": "java.net.URI", "converter": "app.URIs" } }
                    """),
            Domain(name: "saleor", schema: "saleor/schema.graphql", scalars: ""),
            Domain(name: "anilist", schema: "anilist/schema.graphqls", scalars: ""),
        ]

        static func named(_ name: String) -> Domain? { all.first { $0.name == name } }
    }

    /// The corpus domain the documents come from.
    var domain: Domain
    /// The schema every document is validated against.
    var schemaPath: String
    /// The kept documents, in corpus order (app, file, position).
    var templates: [Template]
    /// Corpus operations left out, with why.
    var rejected: [(label: String, reason: String)]

    /// Reads the domain's documents of the corpus and keeps those that validate alone.
    static func load(shared: String, domain: Domain = Domain.all[0]) -> ScaleProject? {
        let schemaPath = "\(shared)/corpus/schemas/\(domain.schema)"
        guard let data = FileManager.default.contents(atPath: schemaPath),
            let schemaDocument = Parser.parse(SourceFile(path: schemaPath, bytes: Array(data))).document
        else { return nil }
        let (schema, _) = SchemaBuilder.build(documents: [schemaDocument])

        var project = ScaleProject(domain: domain, schemaPath: schemaPath, templates: [], rejected: [])
        let root = "\(shared)/corpus/documents/\(domain.name)"
        let apps = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted()
        for app in apps {
            let folder = "\(root)/\(app)"
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
            else { continue }
            project.collect(app: app, folder: folder, schema: schema)
        }
        return project
    }

    /// Adds the documents of one corpus app.
    private mutating func collect(app: String, folder: String, schema: GraphQLSchema) {
        let files = ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".graphql") || $0.hasSuffix(".gql") }.sorted()
        var fragments: [String: (bytes: ArraySlice<UInt8>, order: Int, node: FragmentDefinition)] = [:]
        var operations: [(bytes: ArraySlice<UInt8>, node: OperationDefinition)] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: "\(folder)/\(file)") else { continue }
            let source = SourceFile(path: file, bytes: Array(data))
            guard let document = Parser.parse(source).document else {
                rejected.append(("\(app)/\(file)", "syntax error"))
                continue
            }
            for definition in document.definitions {
                let text = source.bytes[definition.span.start..<definition.span.end]
                switch definition {
                case .operation(let operation): operations.append((text, operation))
                case .fragment(let fragment):
                    if fragments[fragment.name.value] == nil {
                        fragments[fragment.name.value] = (text, fragments.count, fragment)
                    }
                default: break
                }
            }
        }
        for (text, operation) in operations {
            guard let name = operation.name?.value else {
                rejected.append(("\(app)/(anonymous)", "anonymous operation"))
                continue
            }
            let label = "\(app)/\(name)"
            // The fragments the operation uses, transitively.
            var needed = Set<String>()
            var missing: [String] = []
            var pending = ScaleProject.spreads(in: operation.selectionSet)
            while let spread = pending.popLast() {
                guard needed.insert(spread).inserted else { continue }
                guard let fragment = fragments[spread] else {
                    missing.append(spread)
                    continue
                }
                pending += ScaleProject.spreads(in: fragment.node.selectionSet)
            }
            if !missing.isEmpty {
                rejected.append((label, "uses undefined fragment \(missing.sorted().joined(separator: ", "))"))
                continue
            }
            if needed.contains(name) {
                // Baton's `lens-definition-name-conflict`: both would generate the type `name`.
                rejected.append((label, "an operation and a fragment share its name"))
                continue
            }
            var bytes = Array(text)
            for fragment in needed.compactMap({ fragments[$0] }).sorted(by: { $0.order < $1.order }) {
                bytes += Array("\n\n".utf8) + fragment.bytes
            }
            bytes.append(0x0A)
            switch ScaleProject.template(label: label, name: name, bytes: bytes, schema: schema) {
            case .success(let template): templates.append(template)
            case .failure(let reason): rejected.append((label, reason.description))
            }
        }
    }

    struct Rejection: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses and validates one assembled document alone; records where its names are.
    private static func template(
        label: String, name: String, bytes: [UInt8], schema: GraphQLSchema
    ) -> Result<Template, Rejection> {
        let source = SourceFile(path: label, bytes: bytes)
        guard let document = Parser.parse(source).document else { return .failure(Rejection(description: "syntax")) }
        let errors = DocumentValidation.validate(schema: schema, documents: [document]).filter {
            $0.severity == .error
        }
        if let first = errors.first {
            return .failure(Rejection(description: "\(errors.count) errors alone, first: \(first.message)"))
        }
        var names: [Span] = []
        var fields = 0
        for definition in document.definitions {
            switch definition {
            case .operation(let operation):
                if let name = operation.name { names.append(name.span) }
                collectNames(operation.selectionSet, into: &names, fields: &fields)
            case .fragment(let fragment):
                names.append(fragment.name.span)
                collectNames(fragment.selectionSet, into: &names, fields: &fields)
            default: break
            }
        }
        names.sort { $0.start < $1.start }
        return .success(Template(label: label, operationName: name, bytes: bytes, names: names, fieldCount: fields))
    }

    private static func spreads(in selectionSet: SelectionSet) -> [String] {
        var names: [Span] = []
        var fields = 0
        var result: [String] = []
        collect(selectionSet, spreads: &result, names: &names, fields: &fields)
        return result
    }

    private static func collectNames(_ selectionSet: SelectionSet, into names: inout [Span], fields: inout Int) {
        var spreads: [String] = []
        collect(selectionSet, spreads: &spreads, names: &names, fields: &fields)
    }

    private static func collect(
        _ selectionSet: SelectionSet, spreads: inout [String], names: inout [Span], fields: inout Int
    ) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                fields += 1
                if let inner = field.selectionSet { collect(inner, spreads: &spreads, names: &names, fields: &fields) }
            case .fragmentSpread(let spread):
                spreads.append(spread.name.value)
                names.append(spread.name.span)
            case .inlineFragment(let inline):
                collect(inline.selectionSet, spreads: &spreads, names: &names, fields: &fields)
            }
        }
    }

    /// The text of copy `copy` of a template: every name gets the suffix `_copy`.
    static func text(of template: Template, copy: Int) -> [UInt8] {
        let suffix = Array("_\(copy)".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(template.bytes.count + template.names.count * suffix.count)
        var position = 0
        for name in template.names {
            bytes += template.bytes[position..<name.end]
            bytes += suffix
            position = name.end
        }
        bytes += template.bytes[position...]
        return bytes
    }

    /// What was written.
    struct Written {
        var directory: String
        var files: [String]
        var bytes: Int
        var fields: Int
        /// GitHub's schema + one file holding one copy of every kept document.
        var singleFile: String
        var singleFileBytes: Int
    }

    /// Writes `operations` documents, one per file under `Documents/NNN/`, a `baton.json`, and
    /// the single-file case (`Single/Corpus.graphql`), into `directory`. A project of the same
    /// size written before is kept and only files whose content differs are rewritten (writing
    /// 10,000 files takes this shared disk tens of seconds); anything else there is replaced.
    func write(operations: Int, to directory: String) throws -> Written {
        let manager = FileManager.default
        let stamp = "\(directory)/scale-project.txt"
        let expected = "operations \(operations), \(templates.count) documents of \(domain.name)\n"
        if (try? String(contentsOfFile: stamp, encoding: .utf8)) != expected {
            try? manager.removeItem(atPath: directory)
        }
        try? manager.removeItem(atPath: "\(directory)/Generated")
        try manager.createDirectory(atPath: "\(directory)/Single", withIntermediateDirectories: true)
        var written = Written(
            directory: directory, files: [], bytes: 0, fields: 0, singleFile: "\(directory)/Single/Corpus.graphql",
            singleFileBytes: 0)
        guard !templates.isEmpty else { return written }
        for index in 0..<operations {
            let template = templates[index % templates.count]
            let folder = "\(directory)/Documents/\(String(format: "%03d", index / 100))"
            if index % 100 == 0 { try manager.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            let path = "\(folder)/\(template.operationName)_\(index).graphql"
            let bytes = ScaleProject.text(of: template, copy: index)
            if manager.contents(atPath: path) != Data(bytes) {
                guard manager.createFile(atPath: path, contents: Data(bytes)) else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
                }
            }
            written.files.append(path)
            written.bytes += bytes.count
            written.fields += template.fieldCount
        }
        var single: [UInt8] = []
        for (index, template) in templates.enumerated() {
            single += ScaleProject.text(of: template, copy: index) + [0x0A]
        }
        try Data(single).write(to: URL(fileURLWithPath: written.singleFile))
        written.singleFileBytes = single.count
        let configuration = """
            {
              "schema": \(ScaleProject.jsonString(schemaPath)),
              "documents": "Documents/**/*.graphql",
              "customScalarTypes": {
            \(domain.scalars)
              },
              "rules": { "unmapped-custom-scalar": "off" },
              "output": {
                "swift": { "path": "Generated/Swift" },
                "kotlin": { "path": "Generated/Kotlin", "package": "com.example.scale" }
              }
            }

            """
        try Data(configuration.utf8).write(to: URL(fileURLWithPath: "\(directory)/baton.json"))
        try Data(expected.utf8).write(to: URL(fileURLWithPath: stamp))
        return written
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
