import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonTestSupport
import BatonValidation
import Foundation
import XCTest

/// A rule `baton.json` turns off is not run (`DocumentValidation.rules(for:)`): on every validation fixture,
/// with each rule that reports there turned off in turn, the diagnostics are every rule's, settled by the
/// project's `rules` (which drop the rule's), in the same order; a rule whose work shows in other rules'
/// reports (field merging's `validation-depth`, `throw-on-field-error-on-mutation` superseding
/// `known-directives`) runs whatever its own setting.
final class RulesTurnedOffTests: XCTestCase {
    func configuration(off rule: String) throws -> Configuration {
        let loaded = ConfigurationLoader.load(
            text: #"{"schema": "schema.graphqls", "rules": {"\#(rule)": "off", "unused-rule-setting": "warning"}}"#,
            path: "/p/baton.json", workingDirectory: "/p")
        return try XCTUnwrap(loaded.projects.first)
    }

    func testATurnedOffRuleIsNotRunAndNothingElseChanges() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var compared = 0
        for suite in ["Fixtures", "BatonFixtures"] {
            let folder = tests.appendingPathComponent("BatonValidationTests").appendingPathComponent(suite)
            let schemaSource = SourceFile(
                path: "schema.graphqls",
                bytes: Array(try Data(contentsOf: folder.appendingPathComponent("schema.graphqls"))))
            let schema = try XCTUnwrap(SchemaBuilder.build(sources: [schemaSource]).0)
            for name in FixtureRunner.suites(in: folder) {
                for fixture in FixtureRunner.cases(name, in: folder.appendingPathComponent(name)) {
                    let sections = try fixture.sections(keepsPreamble: true)
                    guard !sections.contains(where: { $0.path.hasSuffix(".graphqls") }) else { continue }
                    let documents = sections.compactMap {
                        Parser.parse(SourceFile(path: $0.path, text: $0.text)).document
                    }
                    let rendered = { (diagnostics: [Diagnostic]) in JSONRenderer.render(diagnostics) }
                    let every = DocumentValidation.rules
                    let reporting = Set(
                        Validator.validate(schema: schema, documents: documents, rules: every, mode: .merged).map(
                            \.rule))
                    for rule in reporting.union([OverlappingFieldsCanBeMergedRule.id]).sorted() {
                        let configuration = try configuration(off: rule)
                        let run = DocumentValidation.rules(for: configuration)
                        let affectsOthers = every.contains { $0.id == rule && $0.affectsOtherRules }
                        XCTAssertEqual(run.contains { $0.id == rule }, affectsOthers, "\(rule)")
                        let all = Validator.validate(
                            schema: schema, documents: documents, rules: every, mode: .merged,
                            options: DocumentValidation.options(for: configuration))
                        let ran = DocumentValidation.validate(
                            schema: schema, documents: documents, configuration: configuration)
                        XCTAssertEqual(
                            rendered(configuration.applyingRuleSettings(to: ran)),
                            rendered(configuration.applyingRuleSettings(to: all)), "\(fixture), \(rule) off")
                        compared += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 200)
        XCTAssertEqual(
            DocumentValidation.rules.filter { $0.affectsOtherRules }.map { $0.id }.sorted(),
            [OverlappingFieldsCanBeMergedRule.id, ThrowOnFieldErrorOnMutationRule.id])
        // Without a configuration, or with no rule off, every rule runs.
        XCTAssertEqual(DocumentValidation.rules(for: nil).count, DocumentValidation.rules.count)
    }
}
