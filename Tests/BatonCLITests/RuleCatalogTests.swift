import BatonCLI
import BatonCompiler
import XCTest

final class RuleCatalogTests: XCTestCase {
    func testEveryRuleHasADescription() {
        for id in RuleCatalog.ruleIDs {
            XCTAssertNotNil(RuleCatalog.descriptions[id], "no description for rule \(id) in RuleCatalog")
        }
    }

    func testCommandsHaveDistinctNamesAndHelp() {
        let names = CommandRegistry.commands.map { $0.name }
        XCTAssertEqual(Set(names).count, names.count)
        for command in CommandRegistry.commands {
            XCTAssertFalse(command.abstract.isEmpty, command.name)
        }
    }
}
