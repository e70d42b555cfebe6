import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonSchema
import BatonTestSupport
import BatonValidation
import Foundation
import XCTest

/// Rules are described once (`RuleDescriptor`): the catalog, `baton help rules`, SARIF, the ids
/// `rules` accepts and Docs/Rules.md all follow the descriptors.
final class RuleCatalogTests: XCTestCase {
    func testEveryRuleHasOneDescriptor() {
        let ids = RuleCatalog.descriptors.map(\.id)
        XCTAssertEqual(Set(ids).count, ids.count, "one descriptor per id")
        let described = Set(ids)
        for rule in allRules { XCTAssertTrue(described.contains(rule.id), "no descriptor for \(rule.id)") }
        for id in SchemaRuleIDs.sdlRules { XCTAssertTrue(described.contains(id), "no descriptor for SDL rule \(id)") }
        for rule in BatonSchemaRules.rules { XCTAssertTrue(described.contains(rule.id), rule.id) }
        for descriptor in RuleCatalog.descriptors {
            XCTAssertFalse(descriptor.title.isEmpty, descriptor.id)
            XCTAssertTrue(descriptor.title.hasSuffix("."), "\(descriptor.id): a title is a sentence")
            XCTAssertNotNil(RuleCatalog.descriptions[descriptor.id])
        }
    }

    /// The ids baton.json's `rules` accepts are exactly the configurable rules; categories and
    /// the plan's diagnostics are refused.
    func testConfigurableRulesAreWhatRulesAccepts() {
        for descriptor in RuleCatalog.descriptors {
            let text = #"{"schema": "s.graphql", "rules": {"\#(descriptor.id)": "warning"}}"#
            let loaded = ConfigurationLoader.load(
                text: text, path: "/p/baton.json", workingDirectory: "/p", knownRules: RuleCatalog.ruleIDs)
            XCTAssertEqual(loaded.hasErrors, !descriptor.configurable, descriptor.id)
        }
    }

    /// Docs/Rules.md names every rule (as `` `id` ``).
    func testRulesDocumentationListsEveryRule() throws {
        let text = try String(
            contentsOf: TestPaths.repository.appendingPathComponent("Docs/Rules.md"), encoding: .utf8)
        for descriptor in RuleCatalog.descriptors {
            XCTAssertTrue(text.contains("`\(descriptor.id)`"), "Docs/Rules.md does not list \(descriptor.id)")
        }
    }
}
