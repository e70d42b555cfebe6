import XCTest

/// `baton check` runs Baton's directive rules beside the spec's, and `rules` in baton.json
/// changes their severity, on documents and on the schema alike.
extension CheckEndToEndTests {
    func testRequiredOnNonNullIsReportedByCheck() throws {
        let scratch = try project(["Q.graphql": "query Q { issue { title @required(action: LOG) } }"])
        let run = try baton(["check"], in: scratch.path)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.hasPrefix("Q.graphql:1:25: error: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("[required-on-non-null]"), run.stderr)
    }

    func testRuleSettingsTurnABatonRuleIntoAWarningOrOff() throws {
        let document = ["Q.graphql": "query Q { issue { title @required(action: LOG) } }"]
        let warning = try project(
            document, config: #"{"schema": "schema.graphql", "rules": {"required-on-non-null": "warning"}}"#)
        let warned = try baton(["check"], in: warning.path)
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertTrue(warned.stderr.contains("warning: "), warned.stderr)
        XCTAssertEqual(try baton(["check", "--warnings-as-errors"], in: warning.path).status, 1)

        let off = try project(
            document, config: #"{"schema": "schema.graphql", "rules": {"required-on-non-null": "off"}}"#)
        let silent = try baton(["check"], in: off.path)
        XCTAssertEqual(silent.status, 0, silent.stderr)
        XCTAssertFalse(silent.stderr.contains("required-on-non-null"), silent.stderr)
    }

    func testRuleSettingsApplyToSchemaDiagnostics() throws {
        let scratch = try project(
            ["Q.graphql": "query Q { issue { title } }"],
            config: #"{"schema": "schema.graphql", "rules": {"unique-field-definition-names": "warning"}}"#)
        try scratch.write(
            "schema.graphql", "type Query {\n  issue: Issue\n}\ntype Issue {\n  title: String\n  title: String\n}\n")
        let run = try baton(["check"], in: scratch.path)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("warning: Field \"Issue.title\" can only be defined once."), run.stderr)
    }
}

extension CheckEndToEndTests {
    /// `--config` takes a folder holding baton.json in every command, as in `check`.
    func testEveryCommandTakesAFolderAsConfig() throws {
        let scratch = try project(["Sub/Q.graphql": "query Q { issue { title } }"])
        try scratch.write("Sub/baton.json", #"{"schema": "../schema.graphql"}"#)
        for arguments in [["check", "--config", "Sub"], ["plate", "Q", "--config", "Sub"]] {
            let run = try baton(arguments, in: scratch.path)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
        }
        let plate = try baton(["plate", "Q", "--config", "Sub"], in: scratch.path)
        XCTAssertTrue(plate.stdout.contains("title"), plate.stdout)
        let gen = try baton(["gen", "--check", "--config", "Sub"], in: scratch.path)
        XCTAssertTrue(gen.stderr.contains("no output"), "gen read Sub/baton.json: \(gen.stderr)")
    }
}
