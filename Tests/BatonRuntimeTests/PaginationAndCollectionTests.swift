import Baton
import BatonTesting
import Foundation
import XCTest

/// `@refetchable` pagination: pages in order, a failed page keeps the loaded ones and carries the error, concurrent
/// loads fetch once.
final class PaginationTests: XCTestCase {
    func pagination(_ transport: FixtureTransport) async throws -> (
        BatonEnvironment, Handle<IssueComments>, Pagination<IssueCommentsFragment>
    ) {
        transport.answer("IssueComments", with: .json(CommentPages.page(0..<2, total: 6)))
        let environment = BatonEnvironment(transport: transport)
        let handle = environment.attach(IssueComments(id: "1"))
        await environment.settle()
        let issue = try XCTUnwrap(handle.phase.data?.issue)
        let fragment = IssueCommentsFragment(lens: issue.lens)
        return (environment, handle, environment.pagination(of: fragment))
    }

    func testThreePagesWithAFailedMiddlePageAndARetry() async throws {
        let transport = FixtureTransport()
        let (environment, handle, pages) = try await pagination(transport)
        XCTAssertTrue(pages.hasNext)
        XCTAssertFalse(pages.hasPrevious)
        let node = { (range: Range<Int>) in
            CommentPages.page(range, total: 6, issueKey: "node")
        }
        transport.answer(
            "IssueCommentsPage", with: .json(#"{"errors":[{"message":"try again"}]}"#), .json(node(2..<4)),
            .json(node(4..<6)))
        do {
            try await pages.loadNext(2)
            XCTFail("the middle page fails")
        } catch {
            XCTAssertEqual(error, .request([GraphQLError(message: "try again")]))
        }
        XCTAssertEqual(pages.lastError, .request([GraphQLError(message: "try again")]))
        XCTAssertEqual(handle.phase.data?.issue?.comments.bodies, ["comment 0", "comment 1"], "loaded pages stay")
        XCTAssertTrue(pages.hasNext)
        try await pages.loadNext(2)
        XCTAssertNil(pages.lastError)
        XCTAssertEqual(
            handle.phase.data?.issue?.comments.bodies, ["comment 0", "comment 1", "comment 2", "comment 3"])
        try await pages.loadNext(2)
        XCTAssertEqual(handle.phase.data?.issue?.comments.bodies.count, 6)
        XCTAssertFalse(pages.hasNext)
        try await pages.loadNext(2)  // nothing more: no fetch
        XCTAssertEqual(transport.requestCount("IssueCommentsPage"), 3)
        let sent = try JSONParser.parse(transport.requests.last?.body ?? Data())["variables"]
        XCTAssertEqual(sent, ["count": 2, "cursor": "k3", "id": "1"])
        XCTAssertEqual(pages.fragment.comments.bodies.count, 6)
        XCTAssertEqual(environment.pagination(of: pages.fragment) === pages, true, "one pagination per connection")
    }

    func testConcurrentLoadsFetchOnce() async throws {
        let transport = FixtureTransport()
        let gate = Gate()
        gate.open(1)
        transport.answer("IssueComments", with: .json(CommentPages.page(0..<2, total: 6)))
        transport.answer("IssueCommentsPage", with: .json(CommentPages.page(2..<4, total: 6, issueKey: "node")))
        let environment = BatonEnvironment(transport: GatedTransport(inner: transport, gate: gate))
        let handle = environment.attach(IssueComments(id: "1"))
        await environment.settle()
        let pages = environment.pagination(
            of: IssueCommentsFragment(lens: try XCTUnwrap(handle.phase.data?.issue).lens))
        let first = Task { try await pages.loadNext(2) }
        await gate.waitForRequests(2)
        XCTAssertTrue(pages.isLoadingNext)
        let second = Task { try await pages.loadNext(2) }
        try await Task.sleep(nanoseconds: 20_000_000)
        gate.open(2)
        try await first.value
        try await second.value
        XCTAssertEqual(transport.requestCount("IssueCommentsPage"), 1, "the second call waited for the first's page")
        XCTAssertEqual(handle.phase.data?.issue?.comments.bodies.count, 4)
        XCTAssertFalse(pages.isLoadingNext)
    }

    func testRefetchStartsTheConnectionAgain() async throws {
        let transport = FixtureTransport()
        let (_, handle, pages) = try await pagination(transport)
        transport.answer(
            "IssueCommentsPage", with: .json(CommentPages.page(2..<4, total: 6, issueKey: "node")),
            .json(CommentPages.page(0..<1, total: 1, title: "Renamed", issueKey: "node")))
        try await pages.loadNext(2)
        try await pages.refetch()
        XCTAssertEqual(handle.phase.data?.issue?.comments.bodies, ["comment 0"])
        XCTAssertEqual(handle.phase.data?.issue?.title, "Renamed")
        let sent = try JSONParser.parse(transport.requests.last?.body ?? Data())["variables"]
        XCTAssertEqual(sent, ["count": 2, "id": "1"], "no cursor")
    }
}

/// The bounded store: a collection keeps what live handles, retained and recent operations reach, and nothing else.
final class CollectionTests: XCTestCase {
    func testACollectionKeepsWhatALiveHandleReadsAndDropsTheRest() async throws {
        let transport = FixtureTransport()
        transport.answer("IssueComments", with: .json(CommentPages.page(0..<2, total: 2)))
        let log = MemoryLog()
        let environment = BatonEnvironment(
            transport: transport, log: log, garbageCollection: GarbageCollection(bufferSize: 1, automatic: false))
        let handle = environment.attach(IssueComments(id: "1"))
        await environment.settle()
        // Data nobody reads: a location committed straight to the store.
        try environment.store.commit(
            bytes: Data(#"{"data":{"location":{"__typename":"Location","id":"9","name":"Nowhere"}}}"#.utf8),
            for: LocationOnly())
        let reachable = Set(["Query", "Issue:1", "Issue:1.__connection:Issue_comments", "Comment:c0", "Comment:c1"])
        XCTAssertTrue(reachable.isSubset(of: Set(environment.store.snapshot().records.keys)))
        let removed = environment.collectGarbage()
        let kept = Set(environment.store.snapshot().records.keys)
        XCTAssertNil(environment.store.record("Location:9"))
        XCTAssertTrue(reachable.isSubset(of: kept), "\(kept)")
        // The server's page record (read only through the connection record) goes; the edges the connection links stay.
        let page = #"Issue:1.comments({"first":2})"#
        XCTAssertFalse(kept.contains(page))
        XCTAssertTrue(kept.contains(page + ".edges.0"))
        XCTAssertGreaterThan(removed, 0)
        XCTAssertEqual(handle.phase.data?.issue?.comments.bodies, ["comment 0", "comment 1"])
        XCTAssertEqual(log.events.last?.name, "collected")

        // Detached, the operation is recent: kept while it is among the last `bufferSize`.
        handle.detach()
        environment.collectGarbage()
        XCTAssertNotNil(environment.store.record("Comment:c0"))
        transport.answer(
            "LocationOnly", with: .json(#"{"data":{"location":{"__typename":"Location","id":"9","name":"Here"}}}"#))
        _ = try await environment.fetch(LocationOnly())
        environment.collectGarbage()
        XCTAssertNotNil(environment.store.record("Location:9"), "the recent operation's data")
        XCTAssertNil(environment.store.record("Comment:c0"), "pushed out of the buffer, then collected")
    }

    func testRetainedOperationsStayAndTheImageSavesOnlyWhatIsReachable() async throws {
        let transport = FixtureTransport()
        transport.answer("IssueComments", with: .json(CommentPages.page(0..<2, total: 2)))
        let environment = BatonEnvironment(transport: transport, garbageCollection: GarbageCollection(bufferSize: 0))
        _ = try await environment.fetch(IssueComments(id: "1"))
        try environment.store.commit(
            bytes: Data(#"{"data":{"location":{"__typename":"Location","id":"9","name":"Nowhere"}}}"#.utf8),
            for: LocationOnly())
        let retention = environment.retain(IssueComments(id: "1"))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("baton-gc-\(UUID()).image")
        defer { try? FileManager.default.removeItem(at: url) }
        try environment.saveImage(to: url)
        let loaded = BatonEnvironment(transport: transport)
        loaded.loadImage(from: url)
        XCTAssertNil(loaded.store.record("Location:9"), "unreachable records are not saved")
        XCTAssertEqual(
            try loaded.store.read(IssueComments(id: "1")).issue?.comments.bodies, ["comment 0", "comment 1"])
        environment.collectGarbage()
        XCTAssertNotNil(environment.store.record("Comment:c0"))
        retention.release()
        await environment.settle()  // the automatic collection after a release
        XCTAssertNil(environment.store.record("Comment:c0"))
    }
}

/// `query LocationOnly { location { id name } }`.
struct LocationOnly: GraphQLOperation {
    static let operationName = "LocationOnly"
    static let document = "query LocationOnly { location { id name } }"
    var variables: [String: JSONValue] { [:] }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let location = Field(
            "location", type: .named("Location"),
            selections: [.field(Field("id", type: .named("ID"))), .field(Field("name", type: .named("String")))])
        static let selections: [Selection] = [.field(location)]
    }
}
