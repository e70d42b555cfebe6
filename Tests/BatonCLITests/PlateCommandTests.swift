import BatonCLI
import BatonDiagnostics
import Foundation
import XCTest

/// `baton plate` end to end through `BatonCLI.run`: stdout, stderr and exit code.
final class PlateCommandTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func run(_ arguments: [String], in directory: URL) -> (Int32, String, String) {
        let context = CommandContext(
            standardOutput: OutputStream(capturingAsTerminal: false),
            standardError: OutputStream(capturingAsTerminal: false),
            workingDirectory: directory.path, environment: [:])
        let code = BatonCLI.run(arguments, context: context)
        return (code.rawValue, context.standardOutput.text, context.standardError.text)
    }

    func testPlateOneFromTheGitHubExample() {
        let (code, output, error) = run(
            ["plate", "RepositoryQuery"], in: Self.repository.appendingPathComponent("Examples/GitHub"))
        XCTAssertEqual(code, 0, error)
        XCTAssertEqual(
            output,
            """
            The lens of RepositoryQuery, an operation's data, reads a record of type Query:
            accessor         reads                as
            repository       repository           a lens of Repository, a Result, under @catch
              nameWithOwner  nameWithOwner        a scalar
              description    description          a scalar, optional
              issues         issues               a lens of IssueConnection
                nodes        nodes                a lens of Issue, a list, optional
                  id         id                   a scalar
                  issueRow   the parent's record  the lens of IssueRow_issue, optional

            """)
    }

    func testUnknownNameExitsTwoWithSuggestions() {
        let (code, output, error) = run(
            ["plate", "IssueRow_isue"], in: Self.repository.appendingPathComponent("Examples/GitHub"))
        XCTAssertEqual(code, 2)
        XCTAssertEqual(output, "")
        XCTAssertEqual(
            error,
            "Error: No operation, fragment or type is named \"IssueRow_isue\". Did you mean \"IssueRow_issue\"?\n")
    }

    func testTypeFromTheRootConfigurationSpansProjects() {
        let (code, output, _) = run(["plate", "Query", "--format", "markdown"], in: Self.repository)
        XCTAssertEqual(code, 0)
        XCTAssertTrue(output.contains("The lens of RepositoryQuery, an operation's data"))
        XCTAssertTrue(output.contains("The lens of TestProfileQuery, an operation's data"))
        XCTAssertTrue(output.contains("| &nbsp;&nbsp;nameWithOwner | nameWithOwner | a scalar |"))
    }

    func testSchemaAndPathsWithoutConfiguration() throws {
        let fixtures = Self.repository.appendingPathComponent("Tests/BatonIRTests/Fixtures")
        let (code, output, error) = run(
            [
                "plate", "FriendRow_user", "--schema", "schema.graphql", "plates/required-in-fragment-in-list.graphql",
                "--format", "json",
            ],
            in: fixtures)
        XCTAssertEqual(code, 0, error)
        XCTAssertTrue(output.contains(#""spreadAccessorName": "friendRow""#))
        guard case .success = JSONParser.parse(Array(output.utf8)) else { return XCTFail("invalid JSON") }
    }

    func testInvalidDocumentsReportErrorsInsteadOfAPlate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "baton-plate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "type Query { a: Int }\n".write(
            to: directory.appendingPathComponent("schema.graphql"), atomically: true, encoding: .utf8)
        try "query Q { b }\n".write(
            to: directory.appendingPathComponent("q.graphql"), atomically: true, encoding: .utf8)
        let (code, output, error) = run(["plate", "Q", "--schema", "schema.graphql", "q.graphql"], in: directory)
        XCTAssertEqual(code, 1)
        XCTAssertEqual(output, "")
        XCTAssertTrue(error.contains("Cannot query field \"b\" on type \"Query\"."), error)
    }
}
