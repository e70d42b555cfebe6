import BatonCLI
import XCTest

final class ArgumentParserTests: XCTestCase {
    private let signature = CommandSignature(
        options: [
            .value("config", valueName: "path", help: "A path."),
            .value("schema", valueName: "path", repeatable: true, help: "Schemas."),
            .value("format", valueName: "format", choices: ["text", "json"], defaultValue: "text", help: "Format."),
            .flag("quiet", short: "q", help: "Quiet."),
            .flag("verbose", short: "v", help: "Verbose."),
        ],
        arguments: [ArgumentSpec("paths", help: "Paths.", repeating: true)])

    private func parse(_ arguments: [String]) -> Result<ParsedArguments, UsageError> {
        ArgumentParser.parse(arguments, signature: signature)
    }

    func testOptionsFlagsAndPositionals() throws {
        let parsed = try parse([
            "a.graphql", "--config", "x.json", "--format=json", "-qv", "--schema", "s1", "--schema=s2", "--", "--b",
        ]).get()
        XCTAssertEqual(parsed.value("config"), "x.json")
        XCTAssertEqual(parsed.value("format"), "json")
        XCTAssertEqual(parsed.allValues("schema"), ["s1", "s2"])
        XCTAssertTrue(parsed.flag("quiet"))
        XCTAssertTrue(parsed.flag("verbose"))
        XCTAssertEqual(parsed.positionals, ["a.graphql", "--b"])
    }

    func testDefaults() throws {
        let parsed = try parse([]).get()
        XCTAssertEqual(parsed.value("format"), "text")
        XCTAssertFalse(parsed.flag("quiet"))
    }

    func testErrors() {
        XCTAssertEqual(
            parse(["--formt", "json"]), .failure(UsageError("Unknown option '--formt'. Did you mean '--format'?")))
        XCTAssertEqual(parse(["--banana"]), .failure(UsageError("Unknown option '--banana'.")))
        XCTAssertEqual(parse(["-x"]), .failure(UsageError("Unknown option '-x'.")))
        XCTAssertEqual(parse(["--config"]), .failure(UsageError("Missing value for '--config <path>'.")))
        XCTAssertEqual(parse(["--config", "--quiet"]), .failure(UsageError("Missing value for '--config <path>'.")))
        XCTAssertEqual(parse(["--quiet=yes"]), .failure(UsageError("The flag '--quiet' does not take a value.")))
        XCTAssertEqual(
            parse(["--format", "jsn"]),
            .failure(
                UsageError(
                    "The value 'jsn' is invalid for '--format <format>'. Please provide one of 'text' or 'json'. Did you mean 'json'?"
                )))
    }

    func testUnexpectedArgument() {
        let noArguments = CommandSignature(options: [], arguments: [])
        XCTAssertEqual(
            ArgumentParser.parse(["x"], signature: noArguments), .failure(UsageError("Unexpected argument 'x'.")))
        let required = CommandSignature(
            options: [], arguments: [ArgumentSpec("name", help: "A name.", optional: false)])
        XCTAssertEqual(
            ArgumentParser.parse([], signature: required), .failure(UsageError("Missing expected argument '<name>'.")))
    }
}
