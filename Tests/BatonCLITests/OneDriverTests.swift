import BatonTestSupport
import Foundation
import XCTest

/// Issue 13's observations 1 to 5, end to end through the built `baton`: `check`, `plate` and `gen`
/// share one driver, so `check` refuses what `gen` refuses, `gen` writes all of its files or none
/// with exactly one machine document on stdout, and PATHS that are the schema or baton.json mean
/// "every document".
final class OneDriverTests: XCTestCase {
    static let schema = """
        type Query { me: User }
        type User { id: ID! name: String }

        """

    func baton(_ arguments: [String], in scratch: Scratch) throws -> BatonProcess.Run {
        try BatonProcess.run(arguments, in: scratch.path)
    }

    func project(_ files: [String: String], config: String = #"{"schema": "schema.graphqls"}"#) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("schema.graphqls", Self.schema)
        try scratch.write("baton.json", config)
        for (path, text) in files { try scratch.write(path, text) }
        return scratch
    }

    // MARK: 1. check refuses what gen refuses

    func testCheckReportsWhatGenWouldStopOn() throws {
        let scratch = try project(
            ["Me.graphql": "{ me { id } }\n"],
            config: #"{"schema": "schema.graphqls", "output": {"swift": {"path": "out/swift"}}}"#)
        let check = try baton(["check"], in: scratch)
        let gen = try baton(["gen"], in: scratch)
        XCTAssertEqual(check.status, 1, check.description)
        XCTAssertEqual(gen.status, 1, gen.description)
        XCTAssertTrue(check.stderr.contains("[lens-anonymous-operation]"), check.stderr)
        XCTAssertTrue(gen.stderr.contains("[lens-anonymous-operation]"), gen.stderr)
        // A language setting gen needs is a configuration error for check too.
        try scratch.write(
            "baton.json",
            #"{"schema": "schema.graphqls", "output": {"swift": {"path": "out/swift"}, "kotlin": {"path": "out/kotlin"}}}"#
        )
        try scratch.write("Me.graphql", "query Me { me { id } }\n")
        let missingPackage = try baton(["check"], in: scratch)
        XCTAssertEqual(missingPackage.status, 2, missingPackage.description)
        XCTAssertTrue(missingPackage.stderr.contains("No output.kotlin.package"), missingPackage.stderr)
    }

    // MARK: 2. all files or none

    func testGenWritesNothingWhenOneLanguageCannotBeGenerated() throws {
        let scratch = try project(
            ["Me.graphql": "query Me { me { id } }\n"],
            config:
                #"{"schema": "schema.graphqls", "output": {"swift": {"path": "out/swift"}, "kotlin": {"path": "out/kotlin"}}}"#
        )
        let run = try baton(["gen"], in: scratch)
        XCTAssertEqual(run.status, 2, run.description)
        XCTAssertTrue(run.stderr.contains("No output.kotlin.package"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/out"), "nothing is written")
    }

    func testGenWritesNothingWhenAnOutputFolderIsInTheWay() throws {
        let scratch = try project(
            ["Me.graphql": "query Me { me { id } }\n"],
            config:
                #"{"schema": "schema.graphqls", "output": {"swift": {"path": "out/swift"}, "kotlin": {"path": "out/kotlin", "package": "app"}}}"#
        )
        // A regular file where the Kotlin folder goes: the writer refuses it, so Swift is not written either.
        try scratch.write("out/kotlin", "not a folder\n")
        let run = try baton(["gen"], in: scratch)
        XCTAssertEqual(run.status, 2, run.description)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/out/swift"), run.description)
    }

    // MARK: 3. one machine document on stdout

    func testGenFormatJSONWritesOneDocument() throws {
        let scratch = try project(
            ["Me.graphql": "query Me { me { id } }\n"],
            config: #"{"schema": "schema.graphqls", "output": {"swift": {"path": "out"}}}"#)
        let run = try baton(["gen", "--format", "json"], in: scratch)
        XCTAssertEqual(run.status, 0, run.description)
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
        let files = try XCTUnwrap(object["files"] as? [[String: String]], run.stdout)
        XCTAssertEqual(files.map { $0["path"] }, ["out/Me.graphql.swift"])
        XCTAssertEqual(files.map { $0["change"] }, ["create"])
        XCTAssertEqual(run.stdout.split(separator: "\n").count, 1, run.stdout)

        // With a diagnostic: still one document, and nothing after it.
        try scratch.write("Me.graphql", "query Me { me { nope } }\n")
        let failing = try baton(["gen", "--format", "json"], in: scratch)
        XCTAssertEqual(failing.status, 1, failing.description)
        let failed = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(failing.stdout.utf8)) as? [String: Any], failing.stdout)
        XCTAssertEqual((failed["diagnostics"] as? [Any])?.count, 1, failing.stdout)
        XCTAssertEqual((failed["files"] as? [Any])?.count, 0, failing.stdout)
    }

    func testGenFormatSARIFAndGitHubWriteOnlyTheirDocument() throws {
        let scratch = try project(
            ["Me.graphql": "query Me { me { id } }\n"],
            config: #"{"schema": "schema.graphqls", "output": {"swift": {"path": "out"}}}"#)
        let sarif = try baton(["gen", "--format", "sarif"], in: scratch)
        XCTAssertEqual(sarif.status, 0, sarif.description)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any], sarif.stdout)
        XCTAssertTrue(sarif.stderr.contains("created out/Me.graphql.swift"), sarif.stderr)
        try scratch.write("Me.graphql", "query Me { me { id name } }\n")
        let github = try baton(["gen", "--format", "github"], in: scratch)
        XCTAssertEqual(github.status, 0, github.description)
        XCTAssertEqual(github.stdout, "")
        XCTAssertTrue(github.stderr.contains("updated out/Me.graphql.swift"), github.stderr)
    }

    func testGenQuietAndWarningsAsErrors() throws {
        // A documents pattern matching nothing is a warning: gen goes on, unless warnings are errors.
        let scratch = try project(
            ["Me.graphql": "query Me { me { id } }\n"],
            config:
                #"{"schema": "schema.graphqls", "documents": ["*.graphql", "none/*.gql"], "output": {"swift": {"path": "out"}}}"#
        )
        let strict = try baton(["gen", "--warnings-as-errors"], in: scratch)
        XCTAssertEqual(strict.status, 1, strict.description)
        XCTAssertTrue(strict.stderr.contains("error: Documents pattern"), strict.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.path + "/out"), strict.description)
        let quiet = try baton(["gen", "--quiet"], in: scratch)
        XCTAssertEqual(quiet, BatonProcess.Run(stdout: "", stderr: "", status: 0))
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.path + "/out/Me.graphql.swift"))
    }

    // MARK: 4. --schema without documents, and SDL files among documents

    func testSchemaAloneIsChecked() throws {
        let scratch = try Scratch()
        try scratch.write("schema.graphqls", Self.schema)
        let clean = try baton(["check", "--schema", "schema.graphqls"], in: scratch)
        XCTAssertEqual(
            clean, BatonProcess.Run(stdout: "", stderr: "No problems found in 0 documents.\n", status: 0))
        try scratch.write("broken.graphqls", "type Query { me: Nope }\n")
        let broken = try baton(["check", "--schema", "broken.graphqls"], in: scratch)
        XCTAssertEqual(broken.status, 1, broken.description)
        XCTAssertTrue(broken.stderr.contains("Nope"), broken.stderr)
        // A PATH named on the command line must still match something.
        let named = try baton(["check", "--schema", "schema.graphqls", "queries"], in: scratch)
        XCTAssertEqual(named.status, 2, named.description)
    }

    func testSchemaFilesAreNotDocuments() throws {
        let scratch = try Scratch()
        try scratch.write("schema.graphql", Self.schema)
        try scratch.write("extra/types.graphql", "type Actor { login: String }\nextend type User { age: Int }\n")
        try scratch.write("queries/Me.graphql", "query Me { me { id } }\n")
        let run = try baton(["check", "--schema", "schema.graphql"], in: scratch)
        XCTAssertEqual(
            run, BatonProcess.Run(stdout: "", stderr: "No problems found in 1 document.\n", status: 0))
        // A file mixing definitions is a document: its type-system definitions are reported.
        try scratch.write("queries/Mixed.graphql", "query Mixed { me { id } }\ntype Actor { login: String }\n")
        let mixed = try baton(["check", "--schema", "schema.graphql"], in: scratch)
        XCTAssertEqual(mixed.status, 1, mixed.description)
        XCTAssertTrue(mixed.stderr.contains("queries/Mixed.graphql:2:1"), mixed.stderr)
    }

    // MARK: 5. PATHS that are the schema or baton.json

    func testSchemaOrConfigurationPathReportsEveryDocument() throws {
        let scratch = try project(["queries/Me.graphql": "query Me { me { id name } }\n"])
        XCTAssertEqual(try baton(["check", "schema.graphqls"], in: scratch).status, 0)
        // The schema loses a field a document reads: committing the schema alone must fail.
        try scratch.write("schema.graphqls", "type Query { me: User }\ntype User { id: ID! }\n")
        for path in ["schema.graphqls", "baton.json", "./baton.json"] {
            let run = try baton(["check", path], in: scratch)
            XCTAssertEqual(run.status, 1, "\(path): \(run.description)")
            XCTAssertTrue(run.stderr.contains("queries/Me.graphql:1:20"), "\(path): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasSuffix("Found 1 error in 1 document.\n"), "\(path): \(run.stderr)")
        }
        // Another PATH still only reports itself.
        try scratch.write("queries/Other.graphql", "query Other { me { id } }\n")
        let other = try baton(["check", "queries/Other.graphql"], in: scratch)
        XCTAssertEqual(other, BatonProcess.Run(stdout: "", stderr: "No problems found in 1 document.\n", status: 0))
    }
}
