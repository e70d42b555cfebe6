import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonTestSupport
import Foundation
import Testing
import XCTest

@testable import BatonValidation

/// Fixture tests per rule, in relay's style: `Fixtures/<rule-id>/<case>.graphql` is validated
/// (with every rule) against `Fixtures/schema.graphqls`, the spec's example schema, and
/// `<case>.expected` holds the input and then the diagnostics (ERROR) or `no errors` (OUTPUT).
/// A `*.invalid.graphql` case must produce an error of its rule, every other case none. `#- path`
/// lines split a case into several files validated together. Each case is its own test
/// (`RuleFixtures`); regenerate with `BATON_UPDATE_FIXTURES=1 swift test`.
final class RuleFixtureTests: XCTestCase {
    static let schema: GraphQLSchema? = {
        let path = TestSupport.fixtures.appendingPathComponent("schema.graphqls").path
        return try? TestSupport.loadSchema(path)
    }()

    static let cases = FixtureRunner.suites(in: TestSupport.fixtures).flatMap { suite in
        FixtureRunner.cases(suite, in: TestSupport.fixtures.appendingPathComponent(suite))
    }

    /// One case: its files validated together with every spec rule.
    static func result(_ fixture: FixtureCase, schema: GraphQLSchema) throws -> FixtureResult {
        var (documents, diagnostics) = try fixture.documents()
        diagnostics += Validator.validate(schema: schema, documents: documents)
        var result = FixtureResult.diagnostics(diagnostics, output: "no errors\n")
        result.failed = diagnostics.contains { $0.rule == fixture.suite }
        result.clean = diagnostics.isEmpty
        return result
    }

    func testSuitesHaveCases() { XCTAssertFalse(Self.cases.isEmpty) }

    /// Every registered rule has a fixture folder named after its id with a valid and an invalid case.
    func testEveryRuleHasFixtures() throws {
        for rule in specifiedRules {
            let directory = TestSupport.fixtures.appendingPathComponent(rule.id).path
            let cases = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            XCTAssertTrue(cases.contains { $0.hasSuffix(".invalid.graphql") }, "\(rule.id): no invalid fixture")
            XCTAssertTrue(
                cases.contains { $0.hasSuffix(".graphql") && !$0.hasSuffix(".invalid.graphql") },
                "\(rule.id): no valid fixture")
        }
    }

    /// Every file under `Rules/` declares a rule that is registered, and ids are unique.
    func testEveryRuleFileIsRegistered() throws {
        let rulesDirectory = TestSupport.repositoryRoot.appendingPathComponent("Sources/BatonValidation/Rules").path
        let files = try FileManager.default.contentsOfDirectory(atPath: rulesDirectory).filter {
            $0.hasSuffix(".swift")
        }
        let registered = Set(specifiedRules.map { String(describing: $0) })
        for file in files {
            XCTAssertTrue(registered.contains(String(file.dropLast(".swift".count))), "\(file) is not registered")
        }
        let ids = specifiedRules.map { $0.id }
        XCTAssertEqual(Set(ids).count, ids.count, "rule ids must be unique")
    }
}

/// Each spec rule fixture as its own test, through the shared `FixtureRunner`.
@Suite struct RuleFixtures {
    @Test(arguments: RuleFixtureTests.cases)
    func fixture(_ fixture: FixtureCase) throws {
        let schema = try #require(RuleFixtureTests.schema, "the fixture schema did not build")
        let problems = FixtureRunner.verify(fixture, try RuleFixtureTests.result(fixture, schema: schema))
        #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")))
    }
}
