import Baton
import BatonTesting
import Testing

@testable import GitHubExample

/// The kit under Swift Testing: its expectations throw, so a `throws` test reports them; nothing in the kit imports
/// a test framework.
@Suite struct SwiftTestingTests {
    @Test func theScreenLoadsUnderSwiftTesting() async throws {
        let mock = MockEnvironment()
        let handle = mock.environment.attach(RepositoryQuery(owner: "apple", name: "swift"))
        defer { handle.detach() }

        try await mock.transport.waitForOperation("RepositoryQuery")
        #expect(handle.phase.data == nil)
        try await mock.resolve("RepositoryQuery", data: #"{"repository": null}"#)
        await mock.settle()

        let repository = try #require(handle.phase.data).repository
        #expect(throws: Never.self) { try repository.get() }
        try mock.expectSent("RepositoryQuery", count: 1)
    }

    @Test func aFailedExpectationIsAnError() {
        let mock = MockEnvironment()
        #expect(throws: TestKitFailure("expected RepositoryQuery to be sent; sent: nothing")) {
            try mock.expectSent("RepositoryQuery")
        }
    }
}
