import Baton
import BatonTesting
import XCTest

@testable import GitHubExample

/// The kit's own behaviour: waiting for requests, answering by name, the clock, and comparing logs.
final class MockEnvironmentTests: XCTestCase {
    static let empty = #"{"repository": null}"#

    func testSettleReturnsWhileARequestWaitsForTheTest() async throws {
        let mock = MockEnvironment()
        let handle = mock.environment.attach(RepositoryQuery(owner: "apple", name: "swift"))
        defer { handle.detach() }
        try await mock.transport.waitForOperation()
        await mock.settle()
        XCTAssertEqual(mock.transport.pending.map(\.operationName), ["RepositoryQuery"])
        try await mock.resolve(data: Self.empty)
        await mock.settle()
        XCTAssertEqual(mock.transport.pending, [])
    }

    func testANamedAnswerGoesToTheMostRecentRequestOfThatOperation() async throws {
        let mock = MockEnvironment()
        let first = mock.environment.attach(RepositoryQuery(owner: "apple", name: "swift"))
        let second = mock.environment.attach(RepositoryQuery(owner: "apple", name: "swift-format"))
        defer {
            first.detach()
            second.detach()
        }
        while mock.transport.pending.count < 2 { try await Task.sleep(nanoseconds: 1_000_000) }
        let newest = try XCTUnwrap(mock.transport.pending.last)
        try await mock.resolve("RepositoryQuery", data: Self.empty)
        XCTAssertEqual(mock.transport.pending.count, 1)
        XCTAssertNotEqual(mock.transport.pending.first, newest)
        try await mock.resolve(data: Self.empty)
        await mock.settle()
        XCTAssertNotNil(first.phase.data)
        XCTAssertNotNil(second.phase.data)
    }

    func testAnAnswerNobodyAskedForFailsWithWhatWasSent() async throws {
        let mock = MockEnvironment(timeout: 0.05)
        do {
            try await mock.resolve("ViewerQuery", data: "{}")
            XCTFail("expected a failure")
        } catch let failure as TestKitFailure {
            XCTAssertEqual(
                failure.description, "no request of ViewerQuery was sent within 0.05 s; pending: none; sent: none")
        }
        XCTAssertThrowsError(try mock.expectSent("ViewerQuery"))
    }

    func testExpectSentComparesVariables() async throws {
        let mock = MockEnvironment()
        let handle = mock.environment.attach(RepositoryQuery(owner: "apple", name: "swift"))
        defer { handle.detach() }
        try await mock.transport.waitForOperation("RepositoryQuery")
        XCTAssertNoThrow(try mock.expectSent("RepositoryQuery", variables: ["owner": "apple", "name": "swift"]))
        XCTAssertThrowsError(try mock.expectSent("RepositoryQuery", variables: ["owner": "apple", "name": "swfit"])) {
            XCTAssertEqual(
                "\($0)",
                #"RepositoryQuery was sent with variables {"name":"swift","owner":"apple"}, "#
                    + #"expected {"name":"swfit","owner":"apple"}"#)
        }
    }

    func testMovingTheClockMakesDataStale() async throws {
        let mock = MockEnvironment()
        let handle = mock.environment.attach(RepositoryQuery(owner: "apple", name: "swift"), expiration: 60)
        defer { handle.detach() }
        try await mock.resolve(data: Self.empty)
        await mock.settle()
        XCTAssertFalse(handle.isStale)
        mock.clock.advance(by: 61)
        XCTAssertTrue(handle.isStale)
        mock.environment.revalidate()
        try await mock.resolve(data: Self.empty)
        await mock.settle()
        XCTAssertFalse(handle.isStale)
        try mock.expectSent("RepositoryQuery", count: 2)
    }

    func testADetachedHandlesRequestLeavesTheQueue() async throws {
        let mock = MockEnvironment()
        let handle = mock.environment.attach(RepositoryQuery(owner: "apple", name: "swift"))
        try await mock.transport.waitForOperation("RepositoryQuery")
        handle.detach()
        await mock.environment.settle()
        XCTAssertEqual(mock.transport.pending, [])
        try mock.expectLog(containing: [
            #"fetchCancelled {"operation":"RepositoryQuery","error":"transport: cancelled"}"#
        ])
    }

    func testTheLogDifferenceShowsWhatIsMissingAndWhatIsNew() throws {
        XCTAssertNil(LogComparison.difference(["a", "b"], ["a", "b"]))
        XCTAssertEqual(LogComparison.difference(["a", "c", "d"], ["a", "b", "d"]), "  a\n- b\n+ c\n  d")
        XCTAssertThrowsError(try LogComparison.expect(["a", "b"], contain: ["b", "a"]))
        XCTAssertNoThrow(try LogComparison.expect(["a", "x", "b"], contain: ["a", "b"]))
    }
}
