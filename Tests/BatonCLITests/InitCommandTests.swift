import BatonTestSupport
import Foundation
import XCTest

/// `baton init` through the built executable: what it finds, what it writes (valid for the loader
/// and for Docs/baton.schema.json), that `check` and `gen` work at once, and what it refuses.
final class InitCommandTests: XCTestCase {
    typealias Run = BatonProcess.Run

    static let schema = "type Query { hello(name: String!): String }\n"
    static let screen = """
        import Baton

        struct Screen {
            @Query(\"\"\"
            query Hello { hello(name: "x") }
            \"\"\")
            var hello: HelloQuery
        }

        """

    func baton(_ arguments: [String], in scratch: Scratch) throws -> Run {
        try BatonProcess.run(arguments, in: scratch.path)
    }

    /// The issue's "done when": an empty folder with only a schema and a Swift file.
    func testInitThenCheckThenGenInAFolderWithASchemaAndASwiftFile() throws {
        let scratch = try Scratch()
        try scratch.write("schema.graphqls", Self.schema)
        try scratch.write("Sources/App/Screen.swift", Self.screen)
        let initRun = try baton(["init"], in: scratch)
        XCTAssertEqual(initRun.status, 0, "\(initRun)")
        XCTAssertEqual(
            initRun.stdout,
            """
            created baton.json
              schema     schema.graphqls
              documents  Sources/**/*.swift
              swift      Sources/App/Generated

            baton check: 1 document, no problems. Next: baton gen

            """)
        let text = try String(contentsOfFile: scratch.path + "/baton.json", encoding: .utf8)
        XCTAssertTrue(text.contains(#""// schema": "#), text)
        XCTAssertTrue(text.contains(#""operationSuffix": true"#), text)
        let check = try baton(["check"], in: scratch)
        XCTAssertEqual(check.status, 0, "\(check)")
        let gen = try baton(["gen"], in: scratch)
        XCTAssertEqual(gen.status, 0, "\(gen)")
        XCTAssertEqual(gen.stdout, "created Sources/App/Generated/HelloQuery.graphql.swift\n")
        try JSONSchemaValidation.validate(scratch.path + "/baton.json")
    }

    func testOptionsSetTheChoices() throws {
        let scratch = try Scratch()
        try scratch.write("api/one.graphqls", "type Query { a: String }\n")
        try scratch.write("api/two.graphqls", "extend type Query { b: String }\n")
        try scratch.write("queries/A.graphql", "query A { a b }\n")
        let run = try baton(
            ["init", "--swift-out", "ios/Generated", "--kotlin-out", "android/gen", "--kotlin-package", "app.graphql"],
            in: scratch)
        XCTAssertEqual(run.status, 0, "\(run)")
        XCTAssertTrue(run.stdout.contains("schema     api/*.graphqls\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("documents  **/*.graphql\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("kotlin     android/gen (package app.graphql)\n"), run.stdout)
        let gen = try baton(["gen"], in: scratch)
        XCTAssertEqual(gen.status, 0, "\(gen)")
        XCTAssertTrue(gen.stdout.contains("created ios/Generated/AQuery.graphql.swift"), gen.stdout)
        XCTAssertTrue(gen.stdout.contains("created android/gen/AQuery.kt"), gen.stdout)
        XCTAssertTrue(gen.stdout.contains("created android/gen/baton/runtime/Store.kt"), gen.stdout)
        try JSONSchemaValidation.validate(scratch.path + "/baton.json")

        let other = try Scratch()
        try other.write("schema/s.json", "{}")
        try other.write("graph.graphqls", Self.schema)
        let chosen = try baton(["init", "--schema", "schema/s.json"], in: other)
        XCTAssertEqual(chosen.status, 0, "\(chosen)")
        XCTAssertTrue(chosen.stdout.contains("schema     schema/s.json\n"), chosen.stdout)
    }

    func testNeverOverwrites() throws {
        let scratch = try Scratch()
        try scratch.write("schema.graphqls", Self.schema)
        try scratch.write("baton.json", "{\"mine\": true}\n")
        let run = try baton(["init"], in: scratch)
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(
            run.stderr,
            "Error: baton.json already exists here; edit it (Docs/Configuration.md), or remove it to start again.\n")
        XCTAssertEqual(try String(contentsOfFile: scratch.path + "/baton.json", encoding: .utf8), "{\"mine\": true}\n")
    }

    func testProblemsSayWhatToDo() throws {
        let empty = try Scratch()
        try empty.write("Sources/App/A.swift", "let a = 1\n")
        let none = try baton(["init"], in: empty)
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("No schema found here"), none.stderr)
        XCTAssertTrue(none.stderr.contains("--schema PATH"), none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: empty.path + "/baton.json"))

        let several = try Scratch()
        try several.write("a/schema.graphql", Self.schema)
        try several.write("b/schema.graphql", Self.schema)
        let ambiguous = try baton(["init"], in: several)
        XCTAssertEqual(ambiguous.status, 2)
        XCTAssertEqual(
            ambiguous.stderr,
            "Error: Found several schemas (a/schema.graphql, b/schema.graphql); pass --schema PATH to choose one.\n")

        let kotlin = try baton(["init", "--schema", "a/schema.graphql", "--kotlin-out", "k"], in: several)
        XCTAssertEqual(kotlin.status, 2)
        XCTAssertTrue(kotlin.stderr.contains("--kotlin-out needs --kotlin-package"), kotlin.stderr)
        let missing = try baton(["init", "--schema", "nope.graphqls"], in: several)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("\"nope.graphqls\" is not a file"), missing.stderr)
    }

    /// A check that finds errors makes init exit 1, naming for each rule the setting that turns
    /// it off (and saying when a category cannot be).
    func testErrorsExitOneAndNameTheSettingOfEachRule() throws {
        let scratch = try Scratch()
        try scratch.write("schema.graphqls", "type Query { a: Int a: String }\n")
        try scratch.write("queries/A.graphql", "query A { a b }\n")
        let run = try baton(["init"], in: scratch)
        XCTAssertEqual(run.status, 1, "\(run)")
        XCTAssertTrue(run.stdout.contains("Fix these, then run baton check and baton gen.\n"), run.stdout)
        XCTAssertTrue(
            run.stdout.contains(
                #"  unique-field-definition-names: "rules": {"unique-field-definition-names": "off"} turns it off"#),
            run.stdout)
        XCTAssertTrue(
            run.stdout.contains(#"  fields-on-correct-type: "rules": {"fields-on-correct-type": "off"} turns it off"#),
            run.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.path + "/baton.json"))

        let broken = try Scratch()
        try broken.write("schema.graphqls", Self.schema)
        try broken.write("queries/A.graphql", "query A { hello(name: \"x\") \n")
        let syntax = try baton(["init"], in: broken)
        XCTAssertEqual(syntax.status, 1, "\(syntax)")
        XCTAssertTrue(syntax.stdout.contains("  syntax: cannot be turned off; fix it\n"), syntax.stdout)
    }

    /// A schema that repeats a field identically (GitHub's published SDL does) loads with a warning
    /// naming the rule and its setting: init exits 0 and gen generates.
    func testIdenticalRepeatedFieldsAreAWarning() throws {
        let scratch = try Scratch()
        try scratch.write(
            "schema.graphqls",
            """
            type Query {
              "One description."
              a(first: Int = 1): [String!]
              "Another description."
              a(first: Int = 1): [String!]
            }

            """)
        try scratch.write("queries/A.graphql", "query A { a }\n")
        let run = try baton(["init"], in: scratch)
        XCTAssertEqual(run.status, 0, "\(run)")
        let check = try baton(["check"], in: scratch)
        XCTAssertEqual(check.status, 0, "\(check)")
        XCTAssertTrue(
            check.stderr.contains(
                "warning: Field \"Query.a\" can only be defined once. [unique-field-definition-names]"), check.stderr)
        XCTAssertTrue(
            check.stderr.contains(
                #""rules": {"unique-field-definition-names": "error"} in baton.json makes it an error"#),
            check.stderr)
        let gen = try baton(["gen"], in: scratch)
        XCTAssertEqual(gen.status, 0, "\(gen)")
    }

    func testHelpListsInit() throws {
        let scratch = try Scratch()
        XCTAssertTrue(try baton(["--help"], in: scratch).stdout.contains("  init "))
        let help = try baton(["init", "--help"], in: scratch)
        XCTAssertTrue(help.stdout.contains("--kotlin-package <name>"), help.stdout)
    }
}

/// Validates a baton.json against Docs/baton.schema.json with python3's jsonschema, as an editor would.
enum JSONSchemaValidation {
    /// Fails the test unless the file validates.
    static func validate(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertNil(try problem(path), path, file: file, line: line)
    }

    /// Why the file does not validate, or nil when it does.
    static func problem(_ path: String) throws -> String? {
        let python = try Unavailable.executable("python3", install: "apt-get install -y python3")
        let schema = TestPaths.repository.appendingPathComponent("Docs/baton.schema.json").path
        let script = """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                sys.exit(3)
            jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, path, schema]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 3 {
            throw Unavailable.error("python3 has no jsonschema module; bash .ci/install.d/jsonschema.sh installs it")
        }
        return process.terminationStatus == 0 ? nil : message
    }
}

/// Every baton.json in the repository is valid for the JSON schema editors use (comments included).
final class ConfigurationJSONSchemaTests: XCTestCase {
    func testRepositoryConfigurations() throws {
        // Every one checked in, found rather than listed, so a new project cannot be left out.
        let files = try XCTUnwrap(
            FileManager.default.enumerator(
                at: TestPaths.repository, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        )
        var paths: [String] = []
        for case let url as URL in files {
            if url.lastPathComponent == ".build" || url.lastPathComponent == "Fixtures" {
                files.skipDescendants()
            } else if url.lastPathComponent == "baton.json" {
                paths.append(url.path)
            }
        }
        for required in ["baton.json", "Examples/GitHub/baton.json", "Tests/BatonRuntimeTests/baton.json"] {
            XCTAssertTrue(paths.contains(TestPaths.repository.appendingPathComponent(required).path), required)
        }
        for path in paths.sorted() { try JSONSchemaValidation.validate(path) }
        // And the schema does refuse what the loader refuses.
        let scratch = try Scratch()
        for (index, text) in [
            #"{"schema": "s.graphql", "output": {"swift": {"path": "g", "accessModifier": "open"}}}"#,
            #"{"schema": "s.graphql", "// note": 3}"#,
            #"{"schema": "s.graphql", "output": {"kotlin": {"path": "k", "runtime": true}}}"#,
        ].enumerated() {
            try scratch.write("bad\(index).json", text)
            XCTAssertNotNil(try JSONSchemaValidation.problem(scratch.path + "/bad\(index).json"), text)
        }
    }
}
