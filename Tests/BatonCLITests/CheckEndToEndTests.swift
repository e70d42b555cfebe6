import BatonTestSupport
import Foundation
import XCTest

/// Runs the built `baton` executable and compares stdout, stderr and the exit status.
final class CheckEndToEndTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    typealias Run = BatonProcess.Run

    static func executable() throws -> URL { try BatonProcess.executable() }

    func baton(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> Run {
        try BatonProcess.run(arguments, in: directory, environment: environment)
    }

    /// A project in a scratch folder: a schema, a baton.json and the given documents.
    func project(_ files: [String: String], config: String? = nil) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("schema.graphql", Self.schema)
        try scratch.write("baton.json", config ?? #"{"schema": "schema.graphql"}"#)
        for (path, text) in files { try scratch.write(path, text) }
        return scratch
    }

    static let schema = """
        type Query {
          hello(name: String!): String
          issue: Issue
        }

        type Issue {
          title: String!
          body: String
        }

        """

    // MARK: Cases

    func testExamplesAreClean() throws {
        let run = try baton(["check"], in: Self.packageRoot.path)
        // The count grows as examples are added; what matters is a clean run.
        XCTAssertEqual(run.status, 0, run.description)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.hasPrefix("No problems found in "), run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix(" documents.\n"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    }

    func testExamplesCleanAsJSON() throws {
        let run = try baton(
            ["check", "--format", "json", "--config", "Examples/GitHub/baton.json"], in: Self.packageRoot.path)
        XCTAssertEqual(
            run,
            Run(
                stdout: #"{"version":1,"diagnostics":[],"summary":{"errors":0,"warnings":0}}"# + "\n", stderr: "",
                status: 0))
    }

    func testSyntaxError() throws {
        let scratch = try project(["Q.graphql": "query Q {\n  hello(name: \"x\"\n}\n"])
        let run = try baton(["check"], in: scratch.path)
        XCTAssertEqual(
            run,
            Run(
                stdout: "",
                stderr: """
                    Q.graphql:3:1: error: Syntax Error: Expected Name, found "}". [syntax]
                    Found 1 error in 1 document.

                    """, status: 1))
    }

    /// Validation errors in a .graphql file and in a Swift literal (at its true place in the
    /// .swift file), with a fragment defined in one file and used in the other.
    static let invalidFiles = [
        "Queries/Q.graphql": "query Q {\n  helo(name: \"x\")\n  issue { ...IssueParts }\n}\n",
        "Sources/Screen.swift": """
        import Baton

        struct Screen {
            @Fragment(\"\"\"
            fragment IssueParts on Issue {
              title
              bdy
            }
            \"\"\")
            var issue: IssueParts
        }

        """,
    ]

    /// graphql-tag's `#import` is not followed: the unknown fragment's error names the file to
    /// list in `documents`, and listing it resolves the fragment.
    func testGraphQLTagImportsNameTheFileToList() throws {
        let files = [
            "src/Q.graphql": "#import \"./shared/Issue.graphql\"\nquery Q {\n  issue { ...IssueParts }\n}\n",
            "src/shared/Issue.graphql": "fragment IssueParts on Issue { title }\n",
        ]
        let alone = try project(files, config: #"{"schema": "schema.graphql", "documents": ["src/Q.graphql"]}"#)
        let run = try baton(["check"], in: alone.path)
        XCTAssertEqual(run.status, 1, "\(run)")
        XCTAssertTrue(
            run.stderr.contains(
                """
                src/Q.graphql:3:14: error: Unknown fragment "IssueParts". [known-fragment-names]
                  src/Q.graphql:1:10: note: This file #imports "src/shared/Issue.graphql" (graphql-tag), which Baton \
                does not follow: every document baton.json's "documents" lists shares its fragments, so list \
                "src/shared/Issue.graphql" there (or a pattern matching it).
                """), run.stderr)
        let listed = try project(files, config: #"{"schema": "schema.graphql", "documents": ["src/**/*.graphql"]}"#)
        let clean = try baton(["check"], in: listed.path)
        XCTAssertEqual(clean.status, 0, "\(clean)")
    }

    /// The summary counts the documents that have problems among those checked, and names the
    /// schema's problems instead of counting its files as documents.
    func testSummaryCountsDocumentsWithProblemsAndNamesTheSchema() throws {
        let one = try project(["A.graphql": "query A { helo }\n", "B.graphql": "query B { issue { title } }\n"])
        XCTAssertTrue(
            try baton(["check"], in: one.path).stderr.hasSuffix("\nFound 1 error in 1 of 2 documents.\n"))
        try one.write("schema.graphql", Self.schema + "extend type Issue { body: Int }\n")
        XCTAssertTrue(
            try baton(["check"], in: one.path).stderr.hasSuffix(
                "\nFound 2 errors: 1 error in the schema, 1 error in 1 of 2 documents.\n"))
        try one.write("A.graphql", "query A { hello(name: \"x\") }\n")
        XCTAssertTrue(try baton(["check"], in: one.path).stderr.hasSuffix("\nFound 1 error in the schema.\n"))
    }

    func testValidationErrorsText() throws {
        let scratch = try project(Self.invalidFiles)
        let run = try baton(["check"], in: scratch.path)
        XCTAssertEqual(
            run,
            Run(
                stdout: "",
                stderr: """
                    Queries/Q.graphql:2:3: error: Cannot query field "helo" on type "Query". Did you mean "hello"? [fields-on-correct-type]
                    Sources/Screen.swift:7:7: error: Cannot query field "bdy" on type "Issue". Did you mean "body"? [fields-on-correct-type]
                    Found 2 errors in 2 documents.

                    """, status: 1))
    }

    func testPathsLimitReportingButFragmentsResolveAcrossTheProject() throws {
        let scratch = try project(Self.invalidFiles)
        let run = try baton(["check", "Queries/Q.graphql"], in: scratch.path)
        XCTAssertEqual(
            run,
            Run(
                stdout: "",
                stderr: """
                    Queries/Q.graphql:2:3: error: Cannot query field "helo" on type "Query". Did you mean "hello"? [fields-on-correct-type]
                    Found 1 error in 1 document.

                    """, status: 1))
        let missing = try baton(["check", "Nope.graphql"], in: scratch.path)
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(
            missing.stderr,
            "Nope.graphql: error: Cannot read Nope.graphql: No such file or directory. [io]\nFound 1 error.\n")
    }

    func testPrettyFormat() throws {
        let scratch = try project(Self.invalidFiles)
        let run = try baton(["check", "--format", "pretty"], in: scratch.path)
        XCTAssertEqual(
            run,
            Run(
                stdout: "",
                stderr: """
                    Queries/Q.graphql:2:3: error: Cannot query field "helo" on type "Query". Did you mean "hello"? [fields-on-correct-type]
                        2 |   helo(name: "x")
                          |   ^~~~
                    Sources/Screen.swift:7:7: error: Cannot query field "bdy" on type "Issue". Did you mean "body"? [fields-on-correct-type]
                        7 |       bdy
                          |       ^~~
                    Found 2 errors in 2 documents.

                    """, status: 1))
    }

    func testJSONFormat() throws {
        let scratch = try project(Self.invalidFiles)
        let run = try baton(["check", "--format", "json"], in: scratch.path)
        let expected =
            #"{"version":1,"diagnostics":["#
            + #"{"rule":"fields-on-correct-type","severity":"error","message":"Cannot query field \"helo\" on type \"Query\". Did you mean \"hello\"?","file":"Queries/Q.graphql","line":2,"column":3,"endLine":2,"endColumn":7,"notes":[]},"#
            + #"{"rule":"fields-on-correct-type","severity":"error","message":"Cannot query field \"bdy\" on type \"Issue\". Did you mean \"body\"?","file":"Sources/Screen.swift","line":7,"column":7,"endLine":7,"endColumn":10,"notes":[]}"#
            + #"],"summary":{"errors":2,"warnings":0}}"# + "\n"
        XCTAssertEqual(run, Run(stdout: expected, stderr: "", status: 1))
    }

    func testSARIFFormat() throws {
        let scratch = try project(["Q.graphql": "query Q {\n  helo\n}\n"])
        let run = try baton(["check", "--format", "sarif"], in: scratch.path)
        let expected =
            #"{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"name":"baton","version":"0.1.0","rules":["#
            + #"{"id":"fields-on-correct-type","shortDescription":{"text":"Fields on correct type. Every selected field must be defined on the type it is selected on (or be `__typename`)."}}]}},"#
            + #""columnKind":"utf16CodeUnits","results":[{"ruleId":"fields-on-correct-type","ruleIndex":0,"level":"error","message":{"text":"Cannot query field \"helo\" on type \"Query\". Did you mean \"hello\"?"},"#
            + #""locations":[{"physicalLocation":{"artifactLocation":{"uri":"Q.graphql"},"region":{"startLine":2,"startColumn":3,"endLine":2,"endColumn":7}}}]}]}]}"#
            + "\n"
        XCTAssertEqual(run, Run(stdout: expected, stderr: "", status: 1))
    }

    func testGitHubFormat() throws {
        let scratch = try project(["Q.graphql": "query Q {\n  helo\n}\n"])
        let run = try baton(["check", "--format", "github"], in: scratch.path)
        XCTAssertEqual(
            run,
            Run(
                stdout:
                    "::error file=Q.graphql,line=2,col=3,endLine=2,endColumn=7,title=baton%3A fields-on-correct-type::Cannot query field \"helo\" on type \"Query\". Did you mean \"hello\"?\n",
                stderr: "", status: 1))
    }

    func testBrokenConfiguration() throws {
        let scratch = try project(
            [:], config: "{\n  \"schema\": \"schema.graphql\",\n  \"documnts\": \"*.graphql\"\n}\n")
        let run = try baton(["check"], in: scratch.path)
        XCTAssertEqual(
            run,
            Run(
                stdout: "",
                stderr: """
                    baton.json:3:3: error: Unknown key "documnts". Did you mean "documents"? [config]
                    Found 1 error.

                    """, status: 2))
        let malformed = try project([:], config: "{\"schema\": \"schema.graphql\",, }")
        XCTAssertEqual(
            try baton(["check"], in: malformed.path),
            Run(
                stdout: "",
                stderr:
                    "baton.json:1:29: error: Malformed JSON: Expected a string key, found character \",\". [config]\nFound 1 error.\n",
                status: 2))
    }

    func testMissingSchemaFile() throws {
        let scratch = try project(["Q.graphql": "{ hello(name: \"x\") }"], config: #"{"schema": "missing.graphqls"}"#)
        let run = try baton(["check"], in: scratch.path)
        XCTAssertEqual(
            run,
            Run(
                stdout: "",
                stderr:
                    "baton.json:1:12: error: Schema file \"missing.graphqls\" does not exist. [config]\nFound 1 error.\n",
                status: 2))
    }

    func testNoConfiguration() throws {
        let scratch = try Scratch()
        let run = try baton(["check"], in: scratch.path)
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.hasPrefix("error: No baton.json found in "), run.stderr)
    }

    func testUsageErrors() throws {
        let root = Self.packageRoot.path
        XCTAssertEqual(
            try baton(["check", "--formt", "json"], in: root),
            Run(
                stdout: "",
                stderr: """
                    Error: Unknown option '--formt'. Did you mean '--format'?
                    Usage: baton check [--config <path>] [--schema <path> ...] [--format <format>] [--warnings-as-errors] [--quiet] [--watch] [<paths> ...]
                      See 'baton check --help' for more information.

                    """, status: 2))
        XCTAssertEqual(
            try baton(["chek"], in: root),
            Run(
                stdout: "",
                stderr:
                    "Error: Unknown subcommand 'chek'. Did you mean 'check'?\nUsage: baton <subcommand>\n  See 'baton --help' for more information.\n",
                status: 2))
        let badFormat = try baton(["check", "--format", "xml"], in: root)
        XCTAssertEqual(badFormat.status, 2)
        XCTAssertTrue(
            badFormat.stderr.hasPrefix(
                "Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'text', 'pretty', 'json', 'sarif' or 'github'.\n"
            ),
            badFormat.stderr)
    }

    func testHelpAndVersion() throws {
        let root = Self.packageRoot.path
        let help = try baton(["check", "--help"], in: root)
        XCTAssertEqual(help.status, 0)
        XCTAssertEqual(help.stderr, "")
        XCTAssertTrue(help.stdout.hasPrefix("OVERVIEW: Validate GraphQL documents against the schema.\n"), help.stdout)
        XCTAssertTrue(help.stdout.contains("\nUSAGE: baton check [--config <path>]"), help.stdout)
        XCTAssertTrue(
            help.stdout.contains("  --warnings-as-errors    Treat warnings as errors (exit status 1).\n"), help.stdout)
        XCTAssertTrue(help.stdout.contains("  -h, --help              Show help information.\n"), help.stdout)
        XCTAssertEqual(try baton(["help", "check"], in: root), help)
        let root_ = try baton(["--help"], in: root)
        XCTAssertEqual(root_.status, 0)
        XCTAssertTrue(
            root_.stdout.contains(
                "SUBCOMMANDS:\n  init                    Write a commented baton.json for this folder.\n  check                   Validate GraphQL documents against the schema.\n"
            ),
            root_.stdout)
        XCTAssertEqual(try baton(["--version"], in: root), Run(stdout: "0.1.0\n", stderr: "", status: 0))
    }

    func testSchemaWithoutConfiguration() throws {
        let scratch = try Scratch()
        try scratch.write("s.graphql", Self.schema)
        try scratch.write("docs/a.graphql", "query A { hello(name: \"x\") }")
        try scratch.write("docs/b.gql", "query B { issue { title } }")
        XCTAssertEqual(
            try baton(["check", "--schema", "s.graphql", "docs"], in: scratch.path),
            Run(stdout: "", stderr: "No problems found in 2 documents.\n", status: 0))
        // A quoted glob that matches nothing.
        XCTAssertEqual(
            try baton(["check", "--schema", "s.graphql", "docs/**/*.graphqls"], in: scratch.path),
            Run(
                stdout: "", stderr: "error: No document matches \"docs/**/*.graphqls\". [io]\nFound 1 error.\n",
                status: 2))
    }

    func testGlobMatchingNothingInConfiguration() throws {
        let scratch = try project([:], config: #"{"schema": "schema.graphql", "documents": "queries/*.graphql"}"#)
        XCTAssertEqual(
            try baton(["check"], in: scratch.path),
            Run(
                stdout: "",
                stderr: """
                    baton.json:1:43: error: No documents found: no .graphql, .gql or .swift file matches "queries/*.graphql". [config]
                    Found 1 error.

                    """, status: 2))
    }

    func testUnreadableFiles() throws {
        // A configuration path that is a folder cannot be read (whoever runs the test).
        let scratch = try project(["Q.graphql": "query Q { hello(name: \"x\") }"])
        try scratch.write("Empty/readme.md", "")
        XCTAssertEqual(
            try baton(["check", "--config", "Empty"], in: scratch.path),
            Run(
                stdout: "", stderr: "Empty: error: Cannot read Empty: Is a directory. [io]\nFound 1 error.\n", status: 2
            ))
        // A folder holding a baton.json stands for it.
        XCTAssertEqual(try baton(["check", "--config", "."], in: scratch.path).status, 0)
        // A document named on the command line that cannot be opened (a link to nothing): an
        // I/O error with its path, whoever runs the test.
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path + "/Gone.graphql", withDestinationPath: scratch.path + "/nowhere.graphql")
        let gone = try baton(["check", "--schema", "schema.graphql", "Gone.graphql"], in: scratch.path)
        XCTAssertEqual(gone.status, 2, gone.stderr)
        XCTAssertTrue(gone.stderr.contains("Gone.graphql"), gone.stderr)
        XCTAssertTrue(gone.stderr.contains("[io]"), gone.stderr)
        try FileManager.default.removeItem(atPath: scratch.path + "/Gone.graphql")
        // A document without read permission (root reads everything, so only as another user).
        guard geteuid() != 0 else {
            print(
                "testUnreadableFiles: running as root, which can read a file without permissions; permission case not run"
            )
            return
        }
        try scratch.write("Locked.graphql", "query L { hello(name: \"x\") }")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: scratch.path + "/Locked.graphql")
        XCTAssertEqual(
            try baton(["check"], in: scratch.path),
            Run(
                stdout: "",
                stderr:
                    "Locked.graphql: error: Cannot read Locked.graphql: Permission denied. [io]\nFound 1 error in 1 of 2 documents.\n",
                status: 2))
    }

    func testInvalidUTF8IsLocated() throws {
        let scratch = try project([:])
        let bytes = Data("{ hello(name: \"x\")\n  # caf".utf8) + Data([0xE9, 0x0A]) + Data("}\n".utf8)
        try bytes.write(to: URL(fileURLWithPath: scratch.path + "/Q.graphql"))
        let run = try baton(["check"], in: scratch.path)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.hasPrefix("Q.graphql:2:8: error: "), run.stderr)
        XCTAssertTrue(run.stderr.contains("UTF-8"), run.stderr)
    }

    func testDeeplyNestedDocumentDoesNotCrash() throws {
        let depth = 100_000
        let document =
            "query Q " + String(repeating: "{ issue ", count: depth) + String(repeating: "}", count: depth) + "\n"
        let scratch = try project(["Deep.graphql": document])
        let run = try baton(["check"], in: scratch.path)
        XCTAssertEqual(run.status, 1, run.description)
        XCTAssertTrue(run.stderr.hasPrefix("Deep.graphql:1:"), run.stderr)
        XCTAssertTrue(run.stderr.contains("[syntax]"), run.stderr)
    }

    func testWarningsAsErrorsAndQuiet() throws {
        // A documents pattern matching nothing is a warning; the check still passes.
        let scratch = try project(
            ["Q.graphql": "query Q { hello(name: \"x\") }"],
            config: #"{"schema": "schema.graphql", "documents": ["*.graphql", "none/*.gql"]}"#)
        XCTAssertEqual(
            try baton(["check"], in: scratch.path),
            Run(
                stdout: "",
                stderr:
                    "baton.json:1:57: warning: Documents pattern \"none/*.gql\" matches no file. [config]\nFound 1 warning in baton.json.\n",
                status: 0))
        XCTAssertEqual(try baton(["check", "--quiet"], in: scratch.path), Run(stdout: "", stderr: "", status: 0))
        XCTAssertEqual(
            try baton(["check", "--warnings-as-errors"], in: scratch.path),
            Run(
                stdout: "",
                stderr:
                    "baton.json:1:57: error: Documents pattern \"none/*.gql\" matches no file. [config]\nFound 1 error in baton.json.\n",
                status: 1))
    }

    /// `keyFields` in baton.json: what the schema cannot honour is reported at the entry (`key-fields`), a
    /// malformed entry by the loader (`config`); a good key is honoured silently, the plate saying so.
    func testKeyFields() throws {
        let config = """
            {
              "schema": "schema.graphql",
              "keyFields": {
                "Issue": ["title", "author"],
                "Query": ["hello"],
                "Comment": ["text"]
              }
            }
            """
        let scratch = try project(["Q.graphql": "query Q { issue { body } }"], config: config)
        try scratch.write(
            "schema.graphql",
            Self.schema + "type Comment { text(format: String!): String }\nextend type Issue { comment: Comment }\n")
        XCTAssertEqual(
            try baton(["check"], in: scratch.path),
            Run(
                stdout: "",
                stderr: """
                    baton.json:4:14: error: keyFields of "Issue": "Issue" has no field "author". [key-fields]
                    baton.json:5:5: error: keyFields names "Query", a root type: its record is keyed by its name ("Query"). [key-fields]
                    baton.json:6:16: error: keyFields of "Comment": "Comment.text" takes the required argument "format"; a key field is asked for without arguments. [key-fields]
                    Found 3 errors in baton.json.

                    """, status: 1))
        try scratch.write("baton.json", #"{"schema": "schema.graphql", "keyFields": {"Issue": ["title"]}}"#)
        XCTAssertEqual(try baton(["check"], in: scratch.path).status, 0)
        let plate = try baton(["plate", "Q"], in: scratch.path)
        XCTAssertTrue(plate.stdout.contains("a lens of Issue, optional, keyed by title"), plate.stdout)
    }

    func testUnknownScalarMapping() throws {
        let config = """
            {
              "schema": "schema.graphql",
              "customScalarTypes": {
                "DateTime": {"swift": "Foundation.Date"},
                "ID": {"swift": "Swift.String"},
                "Issue": {"swift": "App.Issue"}
              }
            }
            """
        let scratch = try project(["Q.graphql": "query Q { issue { title } }"], config: config)
        XCTAssertEqual(
            try baton(["check"], in: scratch.path),
            Run(
                stdout: "",
                stderr: """
                    baton.json:4:5: error: Unknown scalar "DateTime": the schema has no scalar of that name. [unknown-scalar-mapping]
                    baton.json:5:5: error: "ID" is a built-in scalar and cannot be mapped: it always reads as the language's own type. [unknown-scalar-mapping]
                    baton.json:6:5: error: "Issue" is an object type, not a scalar; only custom scalars can be mapped. [unknown-scalar-mapping]
                    Found 3 errors in baton.json.

                    """, status: 1))
    }

    func testSchemaThatDoesNotBuild() throws {
        let scratch = try project(["Q.graphql": "query Q { helo }"])
        try scratch.write("schema.graphql", "type Query {\n  hello: Strin\n}\n")
        XCTAssertEqual(
            try baton(["check"], in: scratch.path),
            Run(
                stdout: "",
                stderr: """
                    Q.graphql:1:11: error: Cannot query field "helo" on type "Query". Did you mean "hello"? [fields-on-correct-type]
                    schema.graphql:2:10: error: Unknown type "Strin". Did you mean "String"? [known-type-names]
                    Found 2 errors: 1 error in the schema, 1 error in 1 document.

                    """, status: 1))
        try scratch.write("schema.graphql", "type Query {\n  hello: String\n")
        XCTAssertEqual(
            try baton(["check"], in: scratch.path),
            Run(
                stdout: "",
                stderr: """
                    schema.graphql:3:1: error: Syntax Error: Expected Name, found <EOF>. [syntax]
                    Found 1 error in the schema (not validated: the schema could not be built).

                    """, status: 1))
    }

    func testUnterminatedSwiftLiteral() throws {
        let scratch = try project([
            "Screen.swift": "struct S {\n    @Query(\"\"\"\n    query Q { hello(name: \"x\") }\n"
        ])
        XCTAssertEqual(
            try baton(["check"], in: scratch.path),
            Run(
                stdout: "",
                stderr:
                    "Screen.swift:2:12: error: Unterminated multi-line string literal. [syntax]\nFound 1 error in 1 document.\n",
                status: 1))
    }

    func testColorOnlyOnATerminal() throws {
        let scratch = try project(["Q.graphql": "query Q {\n  helo\n}\n"])
        // Not a terminal: no escape codes, whatever the environment says.
        let run = try baton(["check", "--format", "pretty"], in: scratch.path, environment: ["TERM": "xterm-256color"])
        XCTAssertFalse(run.stderr.contains("\u{1B}["), run.stderr)
    }
}
