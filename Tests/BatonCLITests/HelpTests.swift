import BatonCLI
import BatonCompiler
import XCTest

/// `baton help`: the commands and the rules it lists (the rules from `RuleCatalog`, tested in BatonCompilerTests).
final class HelpTests: XCTestCase {
    /// `baton help rules` lists every rule with its title.
    func testHelpListsEveryRule() {
        let context = CommandContext(
            standardOutput: OutputStream(capturingAsTerminal: false),
            standardError: OutputStream(capturingAsTerminal: false), workingDirectory: "/", environment: [:])
        XCTAssertEqual(BatonCLI.run(["help", "rules"], context: context), .success)
        let lines = context.standardOutput.text.split(separator: "\n")
        for descriptor in RuleCatalog.descriptors {
            XCTAssertTrue(
                lines.contains { $0.hasPrefix("  \(descriptor.id) ") && $0.hasSuffix(descriptor.title) },
                "baton help rules: \(descriptor.id)")
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
