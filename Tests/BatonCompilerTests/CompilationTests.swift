import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonIR
import BatonSchema
import XCTest

/// The driver's `Compilation` on its own: stages up to a requested point, one gate, the policy,
/// and updates per changed file (what a watcher or an editor keeps).
final class CompilationTests: XCTestCase {
    static let root = "/project"
    static let schema = "type Query { me: User }\ntype User { id: ID! name: String }\n"

    func compilation(
        _ documents: [String: String], policy: DiagnosticPolicy = DiagnosticPolicy(),
        options: CompilationOptions = CompilationOptions(), cache: ProjectCache? = nil
    ) -> Compilation {
        var overlays: [String: [UInt8]] = [Self.root + "/schema.graphql": Array(Self.schema.utf8)]
        for (path, text) in documents { overlays[Self.root + "/" + path] = Array(text.utf8) }
        let project = ProjectInput(
            configuration: nil, schemaFiles: [Self.root + "/schema.graphql"],
            documentFiles: documents.keys.sorted().map { Self.root + "/" + $0 }, overlays: overlays)
        return Compilation(
            project: project, workingDirectory: Self.root, policy: policy, options: options, cache: cache)
    }

    func testStagesRunUpToTheRequestedPointAndStopAtTheGate() {
        let clean = compilation(["Me.graphql": "query Me { me { id } }"])
        clean.run(upTo: .validate)
        XCTAssertEqual(clean.completed, .validate)
        XCTAssertNil(clean.model, "the plan is not built before it is asked for")
        clean.run(upTo: .plan)
        XCTAssertEqual(clean.model?.operations.map(\.name), ["Me"])

        let broken = compilation(["Me.graphql": "query Me { me { nope } }"])
        broken.run(upTo: .plan)
        XCTAssertTrue(broken.stoppedAtGate)
        XCTAssertNil(broken.model, "the generators never see invalid input")
        XCTAssertEqual(broken.diagnostics.map(\.rule), ["fields-on-correct-type"])
    }

    func testWarningsAsErrorsCloseTheGate() {
        let schema = "type Query { me: User old: String @deprecated(reason: \"Use me.\") }\ntype User { id: ID! }\n"
        for warningsAsErrors in [false, true] {
            let project = ProjectInput(
                configuration: nil, schemaFiles: ["/p/schema.graphql"], documentFiles: ["/p/Q.graphql"],
                overlays: ["/p/schema.graphql": Array(schema.utf8), "/p/Q.graphql": Array("query Q { old }".utf8)])
            let compilation = Compilation(
                project: project, workingDirectory: "/p", policy: DiagnosticPolicy(warningsAsErrors: warningsAsErrors))
            compilation.run(upTo: .plan)
            XCTAssertEqual(compilation.diagnostics.map(\.severity), [.warning])
            XCTAssertEqual(compilation.stoppedAtGate, warningsAsErrors)
            XCTAssertEqual(compilation.shownDiagnostics.map(\.severity), [warningsAsErrors ? .error : .warning])
        }
    }

    func testAChangedFileIsReadAgainAlone() throws {
        let documents = ["A.graphql": "query A { me { ...Name } }", "Name.graphql": "fragment Name on User { name }"]
        let compilation = compilation(documents)
        compilation.run(upTo: .plan)
        XCTAssertFalse(compilation.stoppedAtGate)
        let before = try XCTUnwrap(compilation.units.first { $0.path.hasSuffix("A.graphql") }?.documents.first?.source)
        // An editor's buffer changes the fragment: only that file is read again, and the plan is rebuilt.
        let name = Self.root + "/Name.graphql"
        compilation.documentsChanged([name], texts: [name: Array("fragment Name on User { nope }".utf8)])
        XCTAssertNil(compilation.model)
        compilation.run(upTo: .plan)
        XCTAssertTrue(compilation.stoppedAtGate)
        XCTAssertEqual(compilation.diagnostics.map(\.rule), ["fields-on-correct-type"])
        let after = try XCTUnwrap(compilation.units.first { $0.path.hasSuffix("A.graphql") }?.documents.first?.source)
        XCTAssertTrue(before === after, "an unchanged file is not read again")
        // The fix: the plan comes back.
        compilation.documentsChanged([name], texts: [name: Array("fragment Name on User { id }".utf8)])
        compilation.run(upTo: .plan)
        XCTAssertEqual(compilation.model?.fragments.map(\.name), ["Name"])
        // A file that is gone (no text, nothing on disk) leaves the project, and its fragment with it.
        compilation.documentsChanged([name])
        compilation.run(upTo: .plan)
        XCTAssertEqual(compilation.diagnostics.map(\.rule), ["known-fragment-names"])
    }

    /// The cache is its caller's (a watch session's): a compilation made with one reuses the last round's plan and
    /// validation, and only through it; one made without validates and plans everything each round, with the same
    /// diagnostics. A cache handed to a new compilation carries its rounds on, and is dropped when the schema is
    /// built again.
    func testAKeptCompilationReusesOnlyTheCacheItWasGiven() throws {
        let documents = [
            "A.graphql": "query A { me { ...Name } }", "Name.graphql": "fragment Name on User { name }",
            "B.graphql": "query B { me { id } }",
        ]
        let cache = ProjectCache()
        let kept = compilation(documents, options: CompilationOptions(checksOnly: true), cache: cache)
        let plain = compilation(documents, options: CompilationOptions(checksOnly: true))
        XCTAssertTrue(kept.cache === cache)
        XCTAssertNil(plain.cache)
        XCTAssertTrue(kept.options.checksOnly)
        for compilation in [kept, plain] { compilation.run(upTo: .plan) }
        XCTAssertEqual(cache.validatedDocuments, 3)
        XCTAssertEqual(cache.plan.built, 3, "every definition planned once")
        XCTAssertEqual(plain.validatedDocuments, 0, "no cache: nothing kept to count")

        let b = Self.root + "/B.graphql"
        let edit = [b: Array("query B { me { nope } }".utf8)]
        for compilation in [kept, plain] {
            compilation.documentsChanged([b], texts: edit)
            compilation.run(upTo: .plan)
        }
        XCTAssertEqual(cache.validatedDocuments, 1, "only B, which shares no name with A or Name")
        XCTAssertEqual(kept.diagnostics.map(String.init(describing:)), plain.diagnostics.map(String.init(describing:)))
        XCTAssertEqual(kept.diagnostics.map(\.rule), ["fields-on-correct-type"])

        // The schema built again: what the cache held was made against the old one.
        for compilation in [kept, plain] {
            compilation.documentsChanged([b], texts: [b: Array("query B { me { id } }".utf8)])
            compilation.schemaChanged(texts: [Self.root + "/schema.graphql": Array(Self.schema.utf8)])
            compilation.run(upTo: .plan)
        }
        XCTAssertEqual(cache.validatedDocuments, 3)
        XCTAssertEqual(cache.plan.built, 3)
        XCTAssertEqual(kept.diagnostics.map(\.message), [])
        XCTAssertEqual(plain.diagnostics.map(\.message), [])
    }

    /// `key-fields` reports the plan's decision (`PlanDecisions`, made once per schema and used by the
    /// plan): a declared key the type lacks is reported once, by the streamed `check` and by a kept
    /// compilation alike, as `RecordKeyPolicy` decides it; the schema fixed, the kept compilation
    /// decides again and reports nothing.
    func testTheKeyFieldsRuleReportsThePlansDecisionForEachSchema() throws {
        let wrong = "type Query { me: User }\ntype User @typePolicy(keyFields: \"nope\") { id: ID! }\n"
        let right = "type Query { me: User }\ntype User @typePolicy(keyFields: \"id\") { id: ID! }\n"
        let path = Self.root + "/schema.graphql"
        let project = ProjectInput(
            configuration: nil, schemaFiles: [path], documentFiles: [Self.root + "/Me.graphql"],
            overlays: [path: Array(wrong.utf8), Self.root + "/Me.graphql": Array("query Me { me { id } }".utf8)])
        let schema = try XCTUnwrap(
            SchemaBuilder.build(sources: [SourceFile(path: path, text: wrong)]).0)
        let decided = RecordKeyPolicy.decide(schema: schema, configured: []).1.map(\.message)
        XCTAssertEqual(decided.count, 1)
        let streamed = Compilation(
            project: project, workingDirectory: Self.root,
            options: CompilationOptions(checksOnly: true, streamsDocuments: true, workers: 2))
        let kept = Compilation(project: project, workingDirectory: Self.root, cache: ProjectCache())
        for compilation in [streamed, kept] {
            compilation.run(upTo: .plan)
            XCTAssertEqual(compilation.diagnostics.filter { $0.rule == RecordKeyPolicy.rule }.map(\.message), decided)
        }
        kept.schemaChanged(texts: [path: Array(right.utf8)])
        kept.run(upTo: .plan)
        XCTAssertEqual(kept.diagnostics.map(\.message), [])
        XCTAssertNotNil(kept.model)
    }
}
