import BatonCompiler
import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonTestSupport
import BatonValidation
import Foundation
import XCTest

/// A one-shot `check` streams its documents (`StreamingCheck`): files read and parsed on the
/// workers, validated and planned batch by batch, ASTs let go. Its diagnostics must be the
/// whole-project path's on one worker, byte for byte in every format, with 1, 2 and 7 workers and
/// with batches of one group each as well as the default size; so must the whole-project path's on
/// 2 and 7 workers (read, validated in batches of one group and planned in parallel): on every
/// validation fixture, the corpus projects, and a project of many files with errors, cross-file
/// fragments, cycles and names.
final class StreamingCheckTests: XCTestCase {
    /// The ways a streaming check is run, beside the whole-project path.
    static let ways: [(workers: Int, batchBytes: Int)] = [
        (1, 1), (2, 1), (7, 1), (1, DocumentGroups.batchBytes), (2, DocumentGroups.batchBytes),
        (7, DocumentGroups.batchBytes),
    ]

    /// Every format's rendering of a fixture project's diagnostics.
    static func rendered(_ project: FixtureProject) -> String {
        let diagnostics = project.diagnostics
        return [
            TextRenderer.render(diagnostics), JSONRenderer.render(diagnostics),
            SARIFRenderer.render(diagnostics, descriptions: [:], version: "test"), GitHubRenderer.render(diagnostics),
        ].joined(separator: "\n--\n")
    }

    /// Compares every streaming way with the whole-project path; returns the whole path's text. Every way takes
    /// its schema from `schemas` (built once per schema text and kind: what is compared is the documents' paths).
    @discardableResult
    static func compare(
        _ sections: [(path: String, text: String)], schema: (path: String, bytes: [UInt8]), _ name: String,
        ways: [(workers: Int, batchBytes: Int)] = ways, schemas: SchemaMemo = SchemaMemo(),
        file: StaticString = #filePath, line: UInt = #line
    ) -> String {
        let whole = FixtureProject(
            sections: sections, defaultSchema: schema, upTo: .plan, targets: .configured, checksOnly: true, workers: 1,
            schemas: schemas)
        let expected = rendered(whole)
        // The whole-project path on several workers: documents read, validated and planned in parallel.
        for workers in [2, 7] {
            let parallel = FixtureProject(
                sections: sections, defaultSchema: schema, upTo: .plan, targets: .configured, checksOnly: true,
                workers: workers, batchBytes: 1, schemas: schemas)
            XCTAssertEqual(
                rendered(parallel), expected, "\(name), the whole project on \(workers) workers", file: file, line: line)
            XCTAssertEqual(
                parallel.compilation.stoppedAtGate, whole.compilation.stoppedAtGate, name, file: file, line: line)
        }
        for way in ways {
            let streamed = FixtureProject(
                sections: sections, defaultSchema: schema, upTo: .plan, targets: .configured, checksOnly: true,
                streaming: way, schemas: schemas)
            XCTAssertTrue(
                streamed.compilation.documents.isEmpty, "\(name): the ASTs are let go", file: file, line: line)
            XCTAssertEqual(
                rendered(streamed), expected, "\(name), \(way.workers) workers, batches of \(way.batchBytes) bytes",
                file: file, line: line)
            XCTAssertEqual(
                streamed.compilation.documentCount, whole.compilation.documentCount, name, file: file, line: line)
            XCTAssertEqual(
                streamed.compilation.stoppedAtGate, whole.compilation.stoppedAtGate, name, file: file, line: line)
            XCTAssertEqual(
                streamed.compilation.skippedValidation, whole.compilation.skippedValidation, name, file: file,
                line: line)
        }
        return expected
    }

    func testValidationFixturesGiveTheSameDiagnosticsStreamed() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var compared = 0
        var withErrors = 0
        // One schema per suite (with its descriptions for the whole path, without for a streamed check).
        let schemas = SchemaMemo()
        for suite in ["Fixtures", "BatonFixtures"] {
            let folder = tests.appendingPathComponent("BatonValidationTests").appendingPathComponent(suite)
            let schemaURL = folder.appendingPathComponent("schema.graphqls")
            let schema = ("schema.graphqls", Array(try Data(contentsOf: schemaURL)))
            for name in FixtureRunner.suites(in: folder) {
                for fixture in FixtureRunner.cases(name, in: folder.appendingPathComponent(name)) {
                    let sections = try fixture.sections(keepsPreamble: true)
                    // A case that is a schema of its own is the schema rules', not a document's.
                    guard !sections.contains(where: { $0.path.hasSuffix(".graphqls") }) else { continue }
                    let text = Self.compare(sections, schema: schema, "\(fixture)", schemas: schemas)
                    compared += 1
                    if text.contains(": error: ") { withErrors += 1 }
                }
            }
        }
        XCTAssertGreaterThan(compared, 130)
        XCTAssertGreaterThan(withErrors, 60)
        // Each suite's schema built once with its descriptions (the whole path) and once without (a streamed check):
        // more is a way building its own, fewer a way not given the memo.
        XCTAssertEqual(schemas.builds, 4, "each suite's schema is built once with and once without descriptions")
    }

    func testCorpusProjectsGiveTheSameDiagnosticsStreamed() throws {
        let corpus = PlateFixtures.corpusDirectory
        guard FileManager.default.fileExists(atPath: corpus.path) else {
            throw Unavailable.error("no corpus at \(corpus.path)")
        }
        var files = 0
        for (project, schemaPath) in CorpusLensTests.projects {
            let schemaURL = corpus.appendingPathComponent("schemas").appendingPathComponent(schemaPath)
            let schema = (schemaPath, Array(try Data(contentsOf: schemaURL)))
            let folder = corpus.appendingPathComponent("documents").appendingPathComponent(project)
            let sections = try Self.sections(in: folder)
            files += sections.count
            // A corpus project is smaller than a default batch: a batch per group is what splits it.
            Self.compare(sections, schema: schema, project, ways: Self.ways.filter { $0.batchBytes == 1 })
        }
        XCTAssertGreaterThan(files, 100)
    }

    /// Many files: errors spread over them, fragments spread across files, a cycle across three
    /// files, operation and fragment names repeated in other files, labels and refetch query names
    /// shared across files, an unused fragment, an unknown one; then the same without the errors, so
    /// the plan's own cross-file diagnostic (an operation and a fragment of one name) is reached.
    func testManyFilesWithCrossFileErrorsGiveTheSameDiagnosticsStreamed() throws {
        let schema = Array(
            """
            directive @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT
            interface Node { id: ID! }
            type Query { node(id: ID!): Node, user(id: ID!): User, viewer: User }
            type User implements Node { id: ID!, name: String, friend: User, old: String @deprecated(reason: "no") }
            """.utf8)
        var sections: [(path: String, text: String)] = []
        for index in 0..<60 {
            let name = String(format: "%03d", index)
            sections.append(
                (
                    "Documents/\(name)/Query\(index).graphql",
                    """
                    query Query\(index)($id: ID!) { user(id: $id) { ...UserFields\(index % 7) name old } }
                    """
                ))
            if index < 7 {
                sections.append(
                    ("Documents/\(name)/Fragment\(index).graphql", "fragment UserFields\(index) on User { id name }"))
            }
            switch index % 10 {
            case 1: sections.append(("Documents/\(name)/Bad\(index).graphql", "query Bad\(index) { viewer { nope } }"))
            case 2: sections.append(("Documents/\(name)/Again.graphql", "query Query\(index - 1) { viewer { id } }"))
            case 3:
                sections.append(("Documents/\(name)/Unused\(index).graphql", "fragment Unused\(index) on User { id }"))
            case 4:
                sections.append(
                    ("Documents/\(name)/Unknown\(index).graphql", "query Unknown\(index) { viewer { ...Missing } }"))
            case 5:
                sections.append(
                    (
                        "Documents/\(name)/Label\(index).graphql",
                        "query Label\(index) { viewer { ... @defer(label: \"shared\") { id } } }"
                    ))
            default: break
            }
        }
        sections += [
            (
                "Cycle/A.graphql",
                "fragment CycleA on User { friend { ...CycleB } }\nquery CycleUse { viewer { ...CycleA } }"
            ),
            ("Cycle/B.graphql", "fragment CycleB on User { friend { ...CycleC } }"),
            ("Cycle/C.graphql", "fragment CycleC on User { friend { ...CycleA } }"),
            ("Twice/One.graphql", "fragment Twice on User { id }\nquery TwiceUse { viewer { ...Twice } }"),
            ("Twice/Two.graphql", "fragment Twice on User { name }"),
            ("Refetch/Fragment.graphql", "fragment Refetched on User @refetchable(queryName: \"Query3\") { name }"),
            ("Refetch/Use.graphql", "query RefetchUse { viewer { ...Refetched } }"),
        ]
        let withErrors = Self.compare(sections, schema: ("schema.graphql", schema), "with errors")
        for rule in [
            "fields-on-correct-type", "unique-operation-names", "no-unused-fragments", "known-fragment-names",
            "no-fragment-cycles", "unique-fragment-names", "defer-stream-directive-label", "deprecated-usage",
        ] {
            XCTAssertTrue(withErrors.contains("[\(rule)]"), "\(rule) is reported:\n\(withErrors)")
        }
        // Clean, but for the plan: an operation and a fragment of one name, in two files.
        let clean =
            sections.filter {
                !$0.path.hasPrefix("Cycle") && !$0.path.hasPrefix("Twice") && !$0.path.hasPrefix("Refetch")
            }
            .filter { section in
                ["Bad", "Again", "Unused", "Unknown", "Label"].allSatisfy { !section.path.contains("/\($0)") }
            } + [
                ("Named/Operation.graphql", "query Same { viewer { ...Same } }"),
                ("Named/Fragment.graphql", "fragment Same on User { id }"),
            ]
        // A schema that does not build: nothing validated, the same report.
        Self.compare(sections, schema: ("schema.graphql", Array("type Query {".utf8)), "no schema")
        // A schema that builds with a problem (on two or more workers it is built beside the first pass): its
        // diagnostic and the documents' in the same order as on one worker.
        let flawed = schema + Array("\ninterface Named { name: String }\ntype Odd implements Named { id: ID }\n".utf8)
        let withSchemaProblem = Self.compare(sections, schema: ("schema.graphql", flawed), "schema with a problem")
        XCTAssertTrue(withSchemaProblem.contains("Named"), "the schema's problem is reported:\n\(withSchemaProblem)")
        XCTAssertTrue(withSchemaProblem.contains("[fields-on-correct-type]"), withSchemaProblem)
        let planned = Self.compare(clean, schema: ("schema.graphql", schema), "clean")
        XCTAssertTrue(planned.contains("[lens-definition-name-conflict]"), planned)
        XCTAssertFalse(planned.contains(": error: ") && !planned.contains("lens-definition-name-conflict"), planned)
    }

    /// A batch keeps only the sources its validation diagnostics point into (the merge orders by them); the
    /// batch's other texts are let go with it, not held until every batch is done.
    func testABatchKeepsOnlyTheSourcesItsDiagnosticsPointInto() {
        weak var released: SourceFile?
        let kept: [(SourceFile, Int)] = {
            let sources = (0..<4).map { SourceFile(path: "Q\($0).graphql", text: "{ a }") }
            released = sources[1]
            let diagnostics = [
                Diagnostic(
                    .warning, "w", rule: "r", range: SourceRange(file: sources[2], span: Span(start: 0, end: 1))),
                Diagnostic(.error, "e", rule: "r", range: nil, path: "Q1.graphql"),
                Diagnostic(.error, "e", rule: "r", range: SourceRange(file: sources[0], span: Span(start: 2, end: 3))),
                Diagnostic(.error, "e", rule: "r", range: SourceRange(file: sources[2], span: Span(start: 2, end: 3))),
            ]
            return StreamingCheck.placed(sources.enumerated().map { ($1, 10 + $0) }, in: diagnostics)
        }()
        XCTAssertEqual(kept.map(\.0.path), ["Q0.graphql", "Q2.graphql"])
        XCTAssertEqual(kept.map(\.1), [10, 12])
        XCTAssertNil(released, "a source no diagnostic points into is let go")
        XCTAssertTrue(StreamingCheck.placed([(SourceFile(path: "A", text: ""), 0)], in: []).isEmpty)
    }

    func testLinksAndGroups() {
        let links: [DocumentLinks] = [
            DocumentLinks(keys: ["name:A", "name:F"]), DocumentLinks(keys: ["name:B"]),
            DocumentLinks(keys: ["name:F"]), DocumentLinks(keys: ["name:C", "name:G"]),
            DocumentLinks(keys: ["name:B", "name:G"]),
        ]
        XCTAssertEqual(DocumentGroups.groups(links), [[0, 2], [1, 3, 4]])
        // Merging sorts and drops repeats, whichever side is empty.
        let unsorted = DocumentLinks(keys: ["name:B", "label:x", "name:B", "name:A"])
        let normal = ["label:x", "name:A", "name:B"]
        XCTAssertEqual(DocumentLinks().merging(unsorted).keys, normal)
        XCTAssertEqual(unsorted.merging(DocumentLinks()).keys, normal)
        XCTAssertEqual(
            DocumentLinks().merging(DocumentLinks(keys: normal, joinsAll: true)),
            DocumentLinks(keys: normal, joinsAll: true))
        XCTAssertEqual(links[0].merging(links[3]).keys, ["name:A", "name:C", "name:F", "name:G"])
        XCTAssertEqual(links[0].merging(links[2]).keys, ["name:A", "name:F"])
        XCTAssertEqual(DocumentGroups.reaching([2], links: links), [0, 2])
        XCTAssertEqual(DocumentGroups.reaching([3], links: links), [1, 3, 4])
        var joining = links
        joining[1].joinsAll = true
        XCTAssertEqual(DocumentGroups.groups(joining), [[0, 1, 2, 3, 4]])
        // Batches follow the weights alone, never splitting a group.
        XCTAssertEqual(
            DocumentGroups.batches([[0, 2], [1, 3, 4]], weights: [5, 5, 5, 5, 5], minimumWeight: 10),
            [[0, 2], [1, 3, 4]])
        XCTAssertEqual(
            DocumentGroups.batches([[0, 2], [1, 3, 4]], weights: [5, 5, 5, 5, 5], minimumWeight: 100),
            [[0, 1, 2, 3, 4]])
    }

    /// The library API for a change: re-validating the documents it reaches gives them what the
    /// whole project's validation gives them.
    func testValidatingWhatAChangeReaches() throws {
        let schema = try XCTUnwrap(
            SchemaBuilder.build(
                sources: [SourceFile(path: "schema.graphql", text: "type Query { a: Int, b: Int, c: Query }")]
            ).0)
        let texts = [
            "fragment F on Query { a }", "query One { ...F nope }", "query Two { b }", "query Three { c { ...G } }",
            "fragment G on Query { nope2 }", "fragment Unused on Query { a }",
        ]
        let documents = texts.enumerated().compactMap { index, text in
            Parser.parse(SourceFile(path: "\(index).graphql", text: text)).document
        }
        let links = documents.map(DocumentLinks.of)
        let whole = DocumentValidation.validate(schema: schema, documents: documents)
        for changed in 0..<documents.count {
            let (reached, diagnostics) = DocumentValidation.validate(
                schema: schema, documents: documents, links: links, changed: [changed])
            XCTAssertTrue(reached.contains(changed))
            let paths = Set(reached.map { "\($0).graphql" })
            XCTAssertEqual(
                TextRenderer.render(diagnostics),
                TextRenderer.render(whole.filter { paths.contains($0.range?.file.path ?? "") }), "change to \(changed)")
        }
        XCTAssertEqual(
            DocumentValidation.validate(schema: schema, documents: documents, links: links, changed: [0]).reached,
            [0, 1])
        XCTAssertEqual(
            DocumentValidation.validate(schema: schema, documents: documents, links: links, changed: [2]).reached, [2])
        // A fragment renamed away: its old name still reaches the document that spread it.
        let renamed = try XCTUnwrap(
            Parser.parse(SourceFile(path: "0.graphql", text: "fragment H on Query { a }")).document)
        var after = links
        after[0] = DocumentLinks.of(renamed).merging(links[0])
        XCTAssertEqual(DocumentGroups.reaching([0], links: after), [0, 1])
    }

    /// The `.graphql` and `.gql` files under `folder`, as sections with paths relative to it, sorted.
    static func sections(in folder: URL) throws -> [(path: String, text: String)] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var sections: [(path: String, text: String)] = []
        for case let url as URL in enumerator where ["graphql", "gql"].contains(url.pathExtension) {
            let path = String(url.path.dropFirst(folder.path.count + 1))
            sections.append((path, String(decoding: try Data(contentsOf: url), as: UTF8.self)))
        }
        return sections.sorted { $0.path < $1.path }
    }
}
