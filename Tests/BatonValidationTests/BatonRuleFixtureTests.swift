import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonTestSupport
import Foundation
import Testing
import XCTest

@testable import BatonValidation

/// Fixture tests of Baton's own rules, in the same style as `RuleFixtureTests`:
/// `BatonFixtures/<rule-id>/<case>.graphql` is validated with every rule (`allRules`) and the
/// suite's options against `BatonFixtures/schema.graphqls`; `<case>.graphqls` is a schema,
/// built and checked by `BatonSchemaRules`. `<case>.expected` holds the input and then the
/// diagnostics (ERROR, with fix-its) or `no errors` (OUTPUT). A `*.invalid.*` case must produce
/// a diagnostic of its rule, every other case none at all. Each case is its own test
/// (`BatonRuleFixtures`); regenerate with `BATON_UPDATE_FIXTURES=1 swift test`.
final class BatonRuleFixtureTests: XCTestCase {
    static let fixtures: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("BatonFixtures")

    static let schema: GraphQLSchema? = {
        let path = fixtures.appendingPathComponent("schema.graphqls").path
        return try? TestSupport.loadSchema(path)
    }()

    /// The options every document fixture is validated with (see the schema's header).
    static let options = ValidationOptions(
        scalarMappings: ["DateTime": [.swift, .kotlin], "URL": [.swift]], outputLanguages: [.swift, .kotlin])

    static let cases = FixtureRunner.suites(in: fixtures).flatMap { suite in
        FixtureRunner.cases(suite, in: fixtures.appendingPathComponent(suite), extensions: ["graphql", "graphqls"])
    }

    /// One case: a `.graphqls` schema built and checked by `BatonSchemaRules`, or documents
    /// validated with every rule and the suite's options. Invalid cases must report their rule.
    static func result(_ fixture: FixtureCase, schema: GraphQLSchema) throws -> FixtureResult {
        let diagnostics: [Diagnostic]
        if fixture.name.hasSuffix(".graphqls") {
            let (built, buildDiagnostics) = SchemaBuilder.build(sources: [
                SourceFile(path: fixture.name, text: try fixture.input())
            ])
            diagnostics = buildDiagnostics + (built.map(BatonSchemaRules.check) ?? [])
        } else {
            diagnostics = try validate(fixture, schema: schema)
        }
        return FixtureResult(
            output: "no errors\n", errorText: diagnostics.isEmpty ? nil : render(diagnostics),
            failed: diagnostics.contains { $0.rule == fixture.suite }, clean: diagnostics.isEmpty)
    }

    func testFixtureSchemaAndCases() throws {
        let schema = try XCTUnwrap(Self.schema, "the Baton fixture schema did not build")
        XCTAssertEqual(BatonSchemaRules.check(schema).map(\.message), [], "the fixture schema's own levels")
        XCTAssertFalse(Self.cases.isEmpty)
    }

    /// Every file under `BatonRules/` declares a registered rule; every rule has a fixture
    /// folder named after its id with a valid and an invalid case; ids are unique and distinct
    /// from the spec's.
    func testEveryBatonRuleIsRegisteredAndHasFixtures() throws {
        let directory = TestSupport.repositoryRoot.appendingPathComponent("Sources/BatonValidation/BatonRules").path
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
        let registered = BatonRuleCatalog.rules
        let names = Set(registered.map { String(describing: $0) })
        XCTAssertEqual(files.count, registered.count, "one rule per file")
        for file in files {
            XCTAssertTrue(names.contains(String(file.dropLast(".swift".count))), "\(file) is not registered")
        }
        // Every Baton document rule declares its severity and summary: `batonRules`' type says so.
        let ids = registered.map { $0.id }
        XCTAssertEqual(Set(ids).count, ids.count, "rule ids must be unique")
        XCTAssertTrue(Set(ids).isDisjoint(with: specifiedRules.map { $0.id }), "Baton's ids differ from the spec's")
        XCTAssertEqual(allRules.map { $0.id }, specifiedRules.map { $0.id } + batonRules.map { $0.id })
        for id in ids {
            let cases =
                (try? FileManager.default.contentsOfDirectory(atPath: Self.fixtures.appendingPathComponent(id).path))
                ?? []
            let inputs = cases.filter { $0.hasSuffix(".graphql") || $0.hasSuffix(".graphqls") }
            XCTAssertTrue(inputs.contains { $0.contains(".invalid.") }, "\(id): no invalid fixture")
            XCTAssertTrue(inputs.contains { !$0.contains(".invalid.") }, "\(id): no valid fixture")
        }
        let warnings = Set(registered.filter { $0.severity == .warning }.map { $0.id })
        XCTAssertEqual(warnings, ["required-on-semantic-non-null", "unmapped-custom-scalar", "deprecated-usage"])
    }

    /// Without options (a plain spec validation) `unmapped-custom-scalar` reports nothing.
    func testUnmappedCustomScalarNeedsOptions() throws {
        let schema = try XCTUnwrap(Self.schema)
        let text = "query VersionQuery($at: Version) { version(at: $at) viewer { website } }"
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "q.graphql", text: text)).document)
        XCTAssertEqual(Validator.validate(schema: schema, documents: [document], rules: allRules), [])
        let withOptions = Validator.validate(
            schema: schema, documents: [document], rules: allRules, options: Self.options)
        XCTAssertEqual(withOptions.map(\.rule), ["unmapped-custom-scalar", "unmapped-custom-scalar"])
        // Mapped for every output language: nothing to say.
        let mapped = ValidationOptions(
            scalarMappings: ["Version": [.swift], "URL": [.swift]], outputLanguages: [.swift])
        XCTAssertEqual(
            Validator.validate(schema: schema, documents: [document], rules: allRules, options: mapped), [])
    }

    /// With only the spec's rules, `@throwOnFieldError` on a mutation is `known-directives`'s
    /// error, as graphql-js reports it; with Baton's, the helpful one replaces it.
    func testThrowOnFieldErrorOnMutationSupersedesKnownDirectives() throws {
        let schema = try XCTUnwrap(Self.schema)
        let text = "mutation M @throwOnFieldError { closeIssue(id: \"1\") { id } }"
        let document = try XCTUnwrap(Parser.parse(SourceFile(path: "m.graphql", text: text)).document)
        XCTAssertEqual(
            Validator.validate(schema: schema, documents: [document]).map(\.rule), ["known-directives"])
        XCTAssertEqual(
            Validator.validate(schema: schema, documents: [document], rules: allRules).map(\.rule),
            ["throw-on-field-error-on-mutation"])
    }

    /// On documents that use none of Baton's directives, Baton's rules report nothing but the
    /// two warnings (`deprecated-usage`; `unmapped-custom-scalar` needs options), and the spec's
    /// rules report exactly what they report alone: the whole corpus, every pair.
    func testBatonRulesAreSilentOnTheCorpus() throws {
        let pairs = CorpusDifferentialTests.pairs()
        try Unavailable.require(!pairs.isEmpty, "corpus not found at \(TestSupport.corpus.path)")
        let batonIDs = Set(batonRules.map { $0.id })
        var schemas: [String: GraphQLSchema] = [:]
        var deprecations = 0
        for pair in pairs {
            let schema = try schemas[pair.schemaPath] ?? TestSupport.loadSchema(pair.schemaPath)
            schemas[pair.schemaPath] = schema
            let (documents, _) = TestSupport.parse(files: TestSupport.documentFiles(under: pair.directory))
            let mode: ValidationMode = pair.merge ? .merged : .perFile
            let all = Validator.validate(schema: schema, documents: documents, rules: allRules, mode: mode)
            let spec = Validator.validate(schema: schema, documents: documents, mode: mode)
            XCTAssertEqual(all.filter { !batonIDs.contains($0.rule) }, spec, "\(pair.project): spec rules disturbed")
            let baton = all.filter { batonIDs.contains($0.rule) && $0.rule != DeprecatedUsageRule.id }
            XCTAssertEqual(baton, [], "\(pair.project):\n\(Self.render(baton))")
            deprecations += all.count { $0.rule == DeprecatedUsageRule.id }
        }
        print("corpus: \(pairs.count) pairs, no Baton errors, \(deprecations) deprecated-usage warnings")
    }

    // MARK: Helpers

    static func validate(_ fixture: FixtureCase, schema: GraphQLSchema) throws -> [Diagnostic] {
        let (documents, diagnostics) = try fixture.documents()
        return diagnostics + Validator.validate(schema: schema, documents: documents, rules: allRules, options: options)
    }

    /// The text renderer's lines, each followed by its fix-its.
    static func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.sorted(by: Diagnostic.sortKey).map { diagnostic in
            var text = TextRenderer.render(diagnostic)
            for fixIt in diagnostic.fixIts {
                let start = fixIt.range.start.location
                let end = fixIt.range.end.location
                text +=
                    "  fix-it: \(fixIt.message): replace \(start.line):\(start.column)-\(end.line):\(end.column) with \"\(fixIt.replacement)\"\n"
            }
            return text
        }.joined()
    }
}

/// Each Baton rule fixture as its own test, through the shared `FixtureRunner`.
@Suite struct BatonRuleFixtures {
    @Test(arguments: BatonRuleFixtureTests.cases)
    func fixture(_ fixture: FixtureCase) throws {
        let schema = try #require(BatonRuleFixtureTests.schema, "the Baton fixture schema did not build")
        let problems = FixtureRunner.verify(fixture, try BatonRuleFixtureTests.result(fixture, schema: schema))
        #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")))
    }
}
