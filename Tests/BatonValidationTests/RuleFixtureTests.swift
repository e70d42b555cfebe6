import BatonDiagnostics
import BatonSchema
import BatonSyntax
import Foundation
import XCTest

@testable import BatonValidation

/// Fixture tests per rule, in relay's style: `Fixtures/<rule-id>/<case>.graphql` is validated
/// (with every rule) against `Fixtures/schema.graphqls`, the spec's example schema, and
/// `<case>.expected` holds the input and then the diagnostics (ERROR) or `no errors` (OUTPUT).
/// A `*.invalid.graphql` case must produce an error of its rule, every other case none. `#- path`
/// lines split a case into several files validated together. Regenerate with
/// `BATON_UPDATE_FIXTURES=1 swift test --filter BatonValidationTests`.
final class RuleFixtureTests: XCTestCase {
    static let schema: GraphQLSchema? = {
        let path = TestSupport.fixtures.appendingPathComponent("schema.graphqls").path
        return try? TestSupport.loadSchema(path)
    }()

    func testRuleFixtures() throws {
        let schema = try XCTUnwrap(Self.schema, "the fixture schema did not build")
        let update = ProcessInfo.processInfo.environment["BATON_UPDATE_FIXTURES"] == "1"
        let suites = try FileManager.default.contentsOfDirectory(atPath: TestSupport.fixtures.path)
            .filter { !$0.contains(".") }.sorted()
        XCTAssertFalse(suites.isEmpty)
        for suite in suites {
            let directory = TestSupport.fixtures.appendingPathComponent(suite)
            let cases = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".graphql") }.sorted()
            for name in cases {
                let url = directory.appendingPathComponent(name)
                let input = try String(contentsOf: url, encoding: .utf8)
                var documents: [Document] = []
                var diagnostics: [Diagnostic] = []
                for source in Self.sources(name: name, text: input) {
                    let result = Parser.parse(source)
                    diagnostics += result.diagnostics
                    if let document = result.document { documents.append(document) }
                }
                diagnostics += Validator.validate(schema: schema, documents: documents)
                if name.hasSuffix(".invalid.graphql") {
                    XCTAssertTrue(
                        diagnostics.contains { $0.rule == suite }, "\(suite)/\(name): expected an error of \(suite)")
                } else {
                    XCTAssertTrue(
                        diagnostics.isEmpty, "\(suite)/\(name): unexpected errors:\n\(TextRenderer.render(diagnostics))"
                    )
                }
                var actual = banner("INPUT") + input
                if !actual.hasSuffix("\n") { actual += "\n" }
                if diagnostics.isEmpty {
                    actual += banner("OUTPUT") + "no errors\n"
                } else {
                    actual += banner("ERROR") + TextRenderer.render(diagnostics)
                }
                let expectedURL = url.deletingPathExtension().appendingPathExtension("expected")
                if update {
                    try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
                    continue
                }
                guard let expected = try? String(contentsOf: expectedURL, encoding: .utf8) else {
                    XCTFail(
                        "\(suite)/\(name): missing \(expectedURL.lastPathComponent); run with BATON_UPDATE_FIXTURES=1")
                    continue
                }
                XCTAssertEqual(actual, expected, "\(suite)/\(name)")
            }
        }
    }

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

    func banner(_ title: String) -> String {
        let side = String(repeating: "=", count: (78 - title.count - 2) / 2)
        return "\(side) \(title) \(side)\n"
    }

    /// The files of a fixture: the whole text, or one file per `#- path` section.
    static func sources(name: String, text: String) -> [SourceFile] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.contains(where: { $0.hasPrefix("#- ") }) else { return [SourceFile(path: name, text: text)] }
        var sources: [SourceFile] = []
        var path: String?
        var body: [Substring] = []
        func flush() {
            if let path { sources.append(SourceFile(path: path, text: body.joined(separator: "\n"))) }
        }
        for line in lines {
            if line.hasPrefix("#- ") {
                flush()
                path = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                body = []
            } else if path != nil {
                body.append(line)
            }
        }
        flush()
        return sources
    }
}
