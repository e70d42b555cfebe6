import Baton
import BatonTesting
import XCTest

@testable import GitHubExample

/// The guide's `RepositoryScreen` (Examples/GitHub) driven through the real runtime by the test kit: its four
/// states, as Docs/Testing.md tests them.
final class RepositoryScreenTests: XCTestCase {
    /// The answer of `Examples/GitHub/Fixtures/repository.json`: a second issue whose author is gone, a null item.
    static let repository = #"""
        {"repository": {"__typename": "Repository", "nameWithOwner": "apple/swift",
          "description": "The Swift Programming Language",
          "issues": {"__typename": "IssueConnection", "nodes": [
            {"__typename": "Issue", "id": "I_101", "number": 101, "title": "Crash in the type checker",
             "author": {"__typename": "User", "login": "alice"}},
            {"__typename": "Issue", "id": "I_102", "number": 102, "title": "Docs typo", "author": null},
            null]}}}
        """#

    /// What the screen lists for its issues: a row per issue it can show.
    func rows(_ screen: RepositoryQuery) throws -> [String] {
        guard case .ready(let data) = screen.phase else { throw TestKitFailure("not ready: \(screen.phase)") }
        guard case .success(let repository?) = data.repository else {
            throw TestKitFailure("no repository: \(data.repository)")
        }
        return (repository.issues.nodes ?? .empty).compactMap { issue in
            issue.issueRow.map { row in
                "#\(row.wrappedValue.number) \(row.wrappedValue.title) by \(row.wrappedValue.author.login)"
            }
        }
    }

    func testLoadingThenReady() async throws {
        let mock = MockEnvironment()
        let handle = mock.environment.attach(RepositoryQuery(owner: "apple", name: "swift"))
        defer { handle.detach() }
        let screen = handle.attachedOperation

        try await mock.transport.waitForOperation("RepositoryQuery")
        guard case .loading = screen.phase else { return XCTFail("expected loading: \(screen.phase)") }
        try mock.expectSent("RepositoryQuery", variables: ["owner": "apple", "name": "swift"])

        try await mock.resolve("RepositoryQuery", data: Self.repository)
        await mock.settle()

        guard case .ready(let data) = screen.phase, case .success(let repository?) = data.repository else {
            return XCTFail("expected the repository: \(screen.phase)")
        }
        XCTAssertEqual(repository.nameWithOwner, "apple/swift")
        XCTAssertEqual(repository.description, "The Swift Programming Language")
        try mock.expectSent("RepositoryQuery", count: 1)
    }

    func testAnIssueWhoseAuthorIsNullIsNoRowAndIsLogged() async throws {
        let mock = MockEnvironment()
        let handle = mock.environment.attach(RepositoryQuery(owner: "apple", name: "swift"))
        defer { handle.detach() }

        try await mock.resolve(data: Self.repository)
        await mock.settle()

        XCTAssertEqual(try rows(handle.attachedOperation), ["#101 Crash in the type checker by alice"])
        try mock.expectLog([
            #"fetchStarted {"operation":"RepositoryQuery"}"#,
            #"committed {"kind":"server","changed":14}"#,
            #"fetchCompleted {"operation":"RepositoryQuery"}"#,
            #"requiredFieldNull {"path":"repository.issues.nodes.1.author"}"#,
        ])
    }

    func testTheCatchFailureBranch() async throws {
        let mock = MockEnvironment()
        let handle = mock.environment.attach(RepositoryQuery(owner: "apple", name: "swfit"))
        defer { handle.detach() }

        try await mock.resolve(
            "RepositoryQuery", data: #"{"repository": null}"#,
            errors: [
                MockFieldError(
                    "Could not resolve to a Repository with the name 'apple/swfit'.", path: ["repository"],
                    extensions: ["type": "NOT_FOUND"])
            ])
        await mock.settle()

        guard case .ready(let data) = handle.attachedOperation.phase, case .failure(let errors) = data.repository else {
            return XCTFail("expected the @catch branch: \(handle.attachedOperation.phase)")
        }
        XCTAssertEqual(errors.description, "Could not resolve to a Repository with the name 'apple/swfit'.")
        XCTAssertEqual(errors.errors.first?.pathText, "repository")
        XCTAssertEqual(errors.errors.first?.extensions?["type"], "NOT_FOUND")
    }

    func testARequestErrorThenRetry() async throws {
        let mock = MockEnvironment()
        let handle = mock.environment.attach(RepositoryQuery(owner: "apple", name: "swift"))
        defer { handle.detach() }
        let screen = handle.attachedOperation

        try await mock.reject("RepositoryQuery", error: .failed("The network connection was lost."))
        await mock.settle()
        guard case .failed(let error) = screen.phase else { return XCTFail("expected a failure: \(screen.phase)") }
        XCTAssertEqual(error, .transportFailed("The network connection was lost."))

        screen.retry()
        try await mock.resolve("RepositoryQuery", data: Self.repository)
        await mock.settle()

        XCTAssertEqual(try rows(screen), ["#101 Crash in the type checker by alice"])
        try mock.expectSent("RepositoryQuery", count: 2)
        try mock.expectLog(containing: [
            #"fetchFailed {"operation":"RepositoryQuery","error":"transport: The network connection was lost."}"#,
            #"refetch {"operation":"RepositoryQuery","reason":"retry"}"#,
            #"fetchCompleted {"operation":"RepositoryQuery"}"#,
        ])
    }

    func testRequestErrorsWithoutDataFailTheFetch() async throws {
        let mock = MockEnvironment()
        let handle = mock.environment.attach(RepositoryQuery(owner: "apple", name: "swift"))
        defer { handle.detach() }

        try await mock.reject(errors: [MockFieldError("Rate limit exceeded", extensions: ["code": "RATE_LIMITED"])])
        await mock.settle()

        guard case .failed(.request(let errors)) = handle.attachedOperation.phase else {
            return XCTFail("expected request errors: \(handle.attachedOperation.phase)")
        }
        XCTAssertEqual(errors.map(\.message), ["Rate limit exceeded"])
        XCTAssertEqual(errors.first?.extensions?["code"], "RATE_LIMITED")
    }
}
