import BatonCompiler
import Foundation
import XCTest

/// The Examples' generated Swift: up to date with `baton gen --check`, compiled with the runtime, and reading the
/// seed's fixtures as the guide says.
final class SwiftExamplesTests: XCTestCase {
    static let examples = SwiftCompiler.repository.appendingPathComponent("Examples")
    static let fixtures = SwiftCompiler.repository.appendingPathComponent("Tests/BatonRuntimeTests/Fixtures")

    func generatedFiles(_ example: String) throws -> [String] {
        let folder = Self.examples.appendingPathComponent(example + "/Generated/Swift")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            .sorted()
        return names.map { folder.appendingPathComponent($0).path }
    }

    /// `baton gen --lang swift --check` finds nothing to do: the checked-in code is what the generator writes.
    func testGeneratedExamplesAreUpToDate() throws {
        for example in ["GitHub", "RickAndMorty"] {
            let outcome = Driver(
                request: ProjectRequest(workingDirectory: Self.examples.appendingPathComponent(example).path),
                targets: .named(["swift"])
            ).generate(check: true)
            XCTAssertEqual(outcome.status, .clean, "\(example): \(outcome.diagnostics.map(\.message))")
            XCTAssertEqual(
                outcome.folders.flatMap { $0.report.changes.map(\.path) }, [],
                "\(example): run `baton gen` in Examples/\(example)")
            XCTAssertGreaterThan(outcome.folders.first?.report.unchanged ?? 0, 1)
        }
    }

    /// The test targets that read real generated code (not imitations of it) have it current too.
    func testGeneratedTestProjectsAreUpToDate() throws {
        for project in [
            "Tests/BatonRuntimeTests", "Tests/BatonRuntimeTests/Propagate", "Tests/BatonRuntimeTests/Connections",
            "Tests/BatonNetworkTests",
        ] {
            let outcome = Driver(
                request: ProjectRequest(
                    workingDirectory: SwiftCompiler.repository.appendingPathComponent(project).path),
                targets: .named(["swift"])
            ).generate(check: true)
            XCTAssertEqual(outcome.status, .clean, "\(project): \(outcome.diagnostics.map(\.message))")
            XCTAssertEqual(
                outcome.folders.flatMap { $0.report.changes.map(\.path) }, [], "\(project): run `baton gen` at the root"
            )
            XCTAssertGreaterThanOrEqual(outcome.folders.first?.report.unchanged ?? 0, 1)
        }
    }

    func testGeneratedGitHubExampleTypeChecks() throws {
        try SwiftCompiler.typecheck(try generatedFiles("GitHub"))
    }

    /// The runnable example (`swift run GitHubExample`) drives the generated code through a `BatonEnvironment` and
    /// prints what each branch of the guide's screen shows: Examples/GitHub/ExpectedOutput.txt, which the guide's
    /// sentences hold in (rows, a row skipped for a missing author with the log line, `@catch`, retry).
    func testGitHubExamplePrintsWhatTheScreenShows() throws {
        let main = Self.examples.appendingPathComponent("GitHub/Demo/main.swift").path
        let comments = Self.examples.appendingPathComponent("GitHub/Demo/Comments.swift").path
        let output = try SwiftCompiler.buildAndRun(try generatedFiles("GitHub") + [main, comments])
        let expected = try String(
            contentsOf: Self.examples.appendingPathComponent("GitHub/ExpectedOutput.txt"), encoding: .utf8)
        XCTAssertEqual(output, expected)
        for line in [
            "    IssueRow: #101 Crash in the type checker by alice",
            "    (no row for item 1: its author is gone)",
            "    (no row for item 2: the list holds null)",
            #"  log: requiredFieldNull {"path":"repository.issues.nodes.1.author"}"#,
            "  Text: Could not load the repository: Could not resolve to a Repository with the name 'apple/swfit'.",
            "  Text: No such repository",
            "  ErrorView: transport: The network connection was lost. [Try again]",
            #"  log: refetch {"operation":"RepositoryQuery","reason":"retry"}"#,
            // The guide's addComment line, from plain async code: the new edge joins the list, one notification.
            "after addComment(input: AddCommentInput(body: body, subjectId: subjectID), connections: [connectionID]):",
            "    Text: Thanks! by octocat\n    Button: More\n    Button: Send\n  notified 1 time(s)",
            "    Text: Thanks! by octocat (sending…)",
            #"  log: optimisticRolledBack {"operation":"AddComment","changed":12}"#,
            "    Text: Confirmed fixed in the nightly. by grace\n    Button: Send",
        ] {
            XCTAssertTrue(output.contains(line + "\n"), "the example shows: \(line)")
        }
    }

    /// The guide's Plate 3 read through generated lenses: character-errors.json committed for TestProfileQuery shows
    /// the three errors under @catch and nil on plain reads (TestProfilePlain); conditions-included.json read through
    /// TestConditions finds the origin's dimension.
    func testGeneratedRickAndMortyReadsTheSeedFixtures() throws {
        let main = FileManager.default.temporaryDirectory.appendingPathComponent(
            "baton-reader-\(UUID().uuidString)/main.swift")
        try FileManager.default.createDirectory(at: main.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: main.deletingLastPathComponent()) }
        try Self.readerProgram.write(to: main, atomically: true, encoding: .utf8)
        let output = try SwiftCompiler.buildAndRun(
            try generatedFiles("RickAndMorty") + [main.path],
            arguments: [
                Self.fixtures.appendingPathComponent("character-errors.json").path,
                Self.fixtures.appendingPathComponent("conditions-included.json").path,
            ])
        XCTAssertEqual(output, Self.expectedOutput)
    }

    /// What the reader prints; the Kotlin example's reader prints the same.
    static let expectedOutput = """
        TestProfileQuery(id: "1") with character-errors.json
        name: Rick Sanchez
        origin.name: Earth (C-137)
        status: Alive
        image (@catch): failure: image service unavailable (at character.image)
        gender (@catch): failure: gender is private (at character.gender)
        location.name (@catch): failure: location name redacted (at character.location.name)
        location.dimension: Replacement Dimension
        type: nil
        TestProfilePlain(id: "1"), the same fields without @catch
        image: nil
        gender: nil
        location.name: nil
        TestConditions(id: "1", withOrigin: true, hideStatus: false) with conditions-included.json
        name: Rick Sanchez
        origin.dimension: Dimension C-137
        status: Alive

        """

    static let readerProgram = #"""
        import Baton
        import Foundation

        func text(_ value: String?) -> String { value ?? "nil" }
        func text(_ result: Result<String?, FieldErrors>) -> String {
            switch result {
            case .success(let value): "success: \(text(value))"
            case .failure(let errors): "failure: " + errors.errors.map { $0.description }.joined(separator: "; ")
            }
        }

        do {
            let arguments = CommandLine.arguments
            let store = Store()
            let profile = TestProfileQuery(id: "1")
            _ = try store.commit(GraphQLResponse(bytes: Data(contentsOf: URL(fileURLWithPath: arguments[1]))), for: profile)
            print("TestProfileQuery(id: \"1\") with character-errors.json")
            if let character = try store.read(profile).character {
                print("name: \(text(character.name))")
                print("origin.name: \(text(character.origin?.name))")
                print("status: \(text(character.status))")
                print("image (@catch): \(text(character.image))")
                print("gender (@catch): \(text(character.gender))")
                print("location.name (@catch): \(text(character.location?.name ?? .success(nil)))")
                print("location.dimension: \(text(character.location?.dimension))")
                print("type: \(text(character.type))")
            }
            print("TestProfilePlain(id: \"1\"), the same fields without @catch")
            if let character = try store.read(TestProfilePlain(id: "1")).character {
                print("image: \(text(character.image))")
                print("gender: \(text(character.gender))")
                print("location.name: \(text(character.location?.name))")
            }

            let conditions = TestConditions(id: "1", withOrigin: true, hideStatus: false)
            _ = try store.commit(GraphQLResponse(bytes: Data(contentsOf: URL(fileURLWithPath: arguments[2]))), for: conditions)
            print("TestConditions(id: \"1\", withOrigin: true, hideStatus: false) with conditions-included.json")
            if let character = try store.read(conditions).character {
                print("name: \(text(character.name))")
                print("origin.dimension: \(text(character.origin?.dimension))")
                print("status: \(text(character.status))")
            }
        } catch {
            print("error: \(error)")
        }
        """#
}
