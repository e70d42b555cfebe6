import Baton
import BatonTesting
import Foundation
import XCTest

/// A typed optimistic response written by hand, in the shape generated `Optimistic` values give.
struct AddCommentOptimistic: OptimisticResponse {
    var id: String
    var body: String
    var responseObject: JSONObject {
        let node: JSONValue = ["__typename": "Comment", "id": .string(id), "body": .string(body)]
        let edge: JSONValue = ["__typename": "CommentEdge", "cursor": .null, "node": node]
        return JSONObject([("addComment", ["__typename": "AddCommentPayload", "commentEdge": edge])])
    }
}

/// Mutations as calls, declarative updates inside the mutation's batch, optimistic layers.
final class MutationTests: XCTestCase {
    /// An environment whose store holds comments 0 and 1 of issue 1, with a handle attached to them.
    func screen(
        _ transport: FixtureTransport, log: MemoryLog = MemoryLog(), collection: GarbageCollection = .standard
    ) async throws -> (BatonEnvironment, Handle<IssueComments>) {
        transport.answer("IssueComments", with: .json(CommentPages.page(0..<2, total: 2)))
        let environment = BatonEnvironment(transport: transport, log: log, garbageCollection: collection)
        let handle = environment.attach(IssueComments(id: "1"), policy: .storeOrNetwork)
        await environment.settle()
        return (environment, handle)
    }

    static func bodies(_ handle: Handle<IssueComments>) -> [String] {
        handle.phase.data?.issue?.comments.bodies ?? []
    }

    func bodies(_ handle: Handle<IssueComments>) -> [String] {
        handle.phase.data?.issue?.comments.bodies ?? []
    }

    func connection(_ handle: Handle<IssueComments>) throws -> ConnectionID {
        try XCTUnwrap(handle.phase.data?.issue?.comments.connectionID)
    }

    func testAnAppendedEdgeReachesTheViewOnce() async throws {
        let transport = FixtureTransport()
        let (environment, handle) = try await screen(transport)
        XCTAssertEqual(bodies(handle), ["comment 0", "comment 1"])
        let notified = Locked(0)
        handle.observe { notified.withLock { $0 += 1 } }
        transport.answer(
            "AddComment", with: .json(CommentPages.added(7, cursor: "k7")), .json(CommentPages.added(8)),
            .json(CommentPages.added(8)))
        let addComment = environment.mutation(AddComment.self)
        let data = try await addComment.perform(AddComment(body: "seven", connections: [try connection(handle)]))
        XCTAssertEqual(data.addComment?.commentEdge?.node?.body, "comment 7")
        XCTAssertEqual(bodies(handle), ["comment 0", "comment 1", "comment 7"])
        XCTAssertEqual(notified.withLock { $0 }, 1, "one batch, one re-read")
        XCTAssertEqual(transport.requestCount("AddComment"), 1)
        XCTAssertNil(
            try JSONParser.parse(transport.requests.last?.body ?? Data())["variables"]?["connections"],
            "client-only variables are never sent")
        // The same mutation path answering again cannot retarget the edge already in the connection, and an edge
        // whose node is shown already is not added twice.
        try await addComment.perform(AddComment(body: "seven", connections: [try connection(handle)]))
        XCTAssertEqual(bodies(handle), ["comment 0", "comment 1", "comment 7", "comment 8"])
        try await addComment.perform(AddComment(body: "seven", connections: [try connection(handle)]))
        XCTAssertEqual(bodies(handle), ["comment 0", "comment 1", "comment 7", "comment 8"])
    }

    func testPrependAppendNodeAndAnEdgeAlreadyThere() async throws {
        let transport = FixtureTransport()
        let (environment, handle) = try await screen(transport)
        let id = try connection(handle)
        transport.answer("PrependComment", with: .json(CommentPages.added(9)))
        try await environment.perform(PrependComment(body: "x", connections: [id]))
        XCTAssertEqual(bodies(handle), ["comment 9", "comment 0", "comment 1"])
        transport.answer(
            "AddCommentNode",
            with: .json(#"{"data":{"addComment":{"__typename":"P","comment":\#(CommentPages.comment(10))}}}"#),
            .json(#"{"data":{"addComment":{"__typename":"P","comment":\#(CommentPages.comment(0, body: "edited"))}}}"#))
        try await environment.perform(AddCommentNode(body: "x", connections: [id]))
        XCTAssertEqual(bodies(handle), ["comment 9", "comment 0", "comment 1", "comment 10"])
        XCTAssertEqual(handle.phase.data?.issue?.comments.edges?.last?.value?.cursor, nil, "a made edge has no cursor")
        // A node the connection shows already is not added again (its new body still reaches the view).
        try await environment.perform(AddCommentNode(body: "x", connections: [id]))
        XCTAssertEqual(bodies(handle), ["comment 9", "edited", "comment 1", "comment 10"])
        // An unknown connection is skipped.
        try await environment.perform(AddCommentNode(body: "x", connections: [ConnectionID("Issue:2.nothing")]))
        XCTAssertEqual(bodies(handle).count, 4)
    }

    func testADeleteIsSeenByTwoViewsAndTheDeletedRecordReadsAsDeleted() async throws {
        let transport = FixtureTransport()
        let (environment, handle) = try await screen(transport)
        let other = environment.attach(IssueComments(id: "1", order: "LATEST"), policy: .storeOnly)
        try environment.store.commit(
            bytes: Data(CommentPages.page(1..<2, total: 1).utf8), for: IssueComments(id: "1", order: "LATEST"))
        XCTAssertEqual(bodies(other), ["comment 1"])
        let held = try XCTUnwrap(handle.phase.data?.issue?.comments.edges?[1].value?.node)
        let counts = (Locked(0), Locked(0))
        handle.observe { counts.0.withLock { $0 += 1 } }
        other.observe { counts.1.withLock { $0 += 1 } }
        let log = environment.log as? MemoryLog
        let before = log?.events.count ?? 0
        transport.answer(
            "DeleteComment", with: .json(#"{"data":{"deleteComment":{"__typename":"P","deletedId":"c1"}}}"#))
        try await environment.perform(DeleteComment(id: "c1"))
        await environment.settle()
        XCTAssertEqual(bodies(handle), ["comment 0"])
        XCTAssertEqual(bodies(other), [])
        XCTAssertEqual(counts.0.withLock { $0 }, 1)
        XCTAssertEqual(counts.1.withLock { $0 }, 1)
        // A lens read before the delete still holds its snapshot; read now, the record is deleted, not missing.
        XCTAssertEqual(held.body, "comment 1")
        let now = IssueComments.Comment(
            lens: Lens(snapshot: environment.store.snapshot(), key: "Comment:c1", context: ReadContext()))
        XCTAssertTrue(now.lens.isDeleted)
        XCTAssertNil(now.body)
        let events = (log?.events ?? []).dropFirst(before).map(\.name)
        XCTAssertFalse(events.contains("missingData"), "\(events)")
        XCTAssertFalse(events.contains("refetch"), "a deletion is not healed: \(events)")
        XCTAssertEqual(transport.requestCount("IssueComments"), 1)
    }

    func testDeleteEdgeRemovesFromTheNamedConnectionsOnly() async throws {
        let transport = FixtureTransport()
        let (environment, handle) = try await screen(transport)
        transport.answer(
            "RemoveCommentEdge", with: .json(#"{"data":{"deleteComment":{"__typename":"P","deletedId":"c0"}}}"#))
        try await environment.perform(RemoveCommentEdge(id: "c0", connections: [try connection(handle)]))
        XCTAssertEqual(bodies(handle), ["comment 1"])
        XCTAssertFalse(environment.store.record("Comment:c0")?.isDeleted ?? true, "the record stays")
    }

    func testAnOptimisticAddThatSucceedsIsReplacedByTheServer() async throws {
        let transport = FixtureTransport()
        let log = MemoryLog()
        let (environment, handle) = try await screen(transport, log: log)
        let id = try connection(handle)
        let seen = Locked<[[String]]>([])
        let optimistic = Locked<[Bool]>([])
        handle.observe {
            seen.withLock { $0.append(MutationTests.bodies(handle)) }
            optimistic.withLock {
                $0.append(handle.phase.data?.issue?.comments.edges?.last?.value?.node?.lens.isOptimistic ?? false)
            }
        }
        transport.answer("AddComment", with: .json(CommentPages.added(7, cursor: "k7")))
        try await environment.perform(
            AddComment(body: "seven", connections: [id]),
            optimisticResponse: AddCommentOptimistic(id: "temp", body: "sending"))
        XCTAssertEqual(
            seen.withLock { $0 }, [["comment 0", "comment 1", "sending"], ["comment 0", "comment 1", "comment 7"]])
        XCTAssertEqual(optimistic.withLock { $0 }, [true, false], "a lens tells the optimistic value")
        XCTAssertEqual(environment.store.optimisticLayerCount, 0)
        XCTAssertNil(environment.store.record("Comment:temp"), "the optimistic record is gone with its layer")
        XCTAssertEqual(
            log.events.map(\.name).filter { $0.hasPrefix("optimistic") || $0 == "committed" }.suffix(2),
            ["optimisticApplied", "committed"])
    }

    func testAnOptimisticAddThatFailsRollsBackExactly() async throws {
        let transport = FixtureTransport()
        let log = MemoryLog()
        let (environment, handle) = try await screen(transport, log: log)
        let before = environment.store.snapshot().records
        let seen = Locked<[[String]]>([])
        handle.observe { seen.withLock { $0.append(MutationTests.bodies(handle)) } }
        transport.answer("AddComment", with: .json(#"{"errors":[{"message":"not allowed"}]}"#))
        do {
            try await environment.perform(
                AddComment(body: "x", connections: [try connection(handle)]),
                optimisticResponse: AddCommentOptimistic(id: "temp", body: "sending"))
            XCTFail("expected the request error")
        } catch {
            XCTAssertEqual(error as? FetchError, .request([GraphQLError(message: "not allowed")]))
        }
        XCTAssertEqual(seen.withLock { $0 }, [["comment 0", "comment 1", "sending"], ["comment 0", "comment 1"]])
        XCTAssertEqual(environment.store.snapshot().records, before, "every record as it was")
        XCTAssertEqual(log.events.map(\.name).last, "optimisticRolledBack")
    }

    func testOptimisticLayersRollBackIndependently() async throws {
        let transport = FixtureTransport()
        let (environment, handle) = try await screen(transport)
        let id = try connection(handle)
        let gate = Gate()
        let slow = GatedTransport(inner: transport, gate: gate)
        let environment2 = BatonEnvironment(store: environment.store, transport: slow)
        transport.answer(
            "AddComment", with: .json(#"{"errors":[{"message":"first fails"}]}"#),
            .json(CommentPages.added(8, cursor: "k8")))
        let first = Task {
            try await environment2.perform(
                AddComment(body: "a", connections: [id]),
                optimisticResponse: AddCommentOptimistic(id: "t1", body: "one"))
        }
        await gate.waitForRequests(1)
        let second = Task {
            try await environment2.perform(
                AddComment(body: "b", connections: [id]),
                optimisticResponse: AddCommentOptimistic(id: "t2", body: "two"))
        }
        await gate.waitForRequests(2)
        XCTAssertEqual(bodies(handle), ["comment 0", "comment 1", "one", "two"])
        gate.open(1)
        _ = await first.result
        XCTAssertEqual(bodies(handle), ["comment 0", "comment 1", "two"], "the failed layer alone rolls back")
        gate.open(2)
        _ = try await second.value
        XCTAssertEqual(bodies(handle), ["comment 0", "comment 1", "comment 8"])
        XCTAssertEqual(environment.store.optimisticLayerCount, 0)
    }

    func testAMutationIsNeverRetriedAndACallWithoutAnEnvironmentSaysSo() async throws {
        let transport = FixtureTransport()
        let environment = BatonEnvironment(transport: transport, retryPolicy: .standard)
        transport.answer("AddComment", with: .error(.network("connection reset")))
        do {
            try await environment.perform(AddComment(body: "x", connections: []))
            XCTFail("expected the transport failure")
        } catch {
            XCTAssertEqual(error, .offline("connection reset"), "a transient failure, not retried for a mutation")
        }
        XCTAssertEqual(transport.requestCount("AddComment"), 1)
        do {
            try await MutationCall<AddComment>(environment: nil).perform(AddComment(body: "x", connections: []))
            XCTFail("expected unattached")
        } catch {
            guard case .unattached = error else { return XCTFail("\(error)") }
        }
    }
}

/// Holds each request until the test opens it.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var arrived = 0
    private var opened = Set<Int>()

    func arrive() -> Int {
        lock.lock()
        defer { lock.unlock() }
        arrived += 1
        return arrived
    }

    func open(_ request: Int) {
        lock.lock()
        opened.insert(request)
        lock.unlock()
    }

    func isOpen(_ request: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return opened.contains(request)
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return arrived
    }

    func waitForRequests(_ count: Int) async {
        while self.count < count { try? await Task.sleep(nanoseconds: 1_000_000) }
    }
}

/// A transport that passes each request on once the gate opens it.
struct GatedTransport: Transport {
    let inner: FixtureTransport
    let gate: Gate

    func send(_ request: GraphQLRequest) async throws -> Data {
        let number = gate.arrive()
        while !gate.isOpen(number) { try await Task.sleep(nanoseconds: 1_000_000) }
        return try await inner.send(request)
    }
}

/// Headers for a mutation call (an idempotency key as one call) and for every fetch of a handle, without dropping
/// to `environment.perform(_:headers:)`.
final class RequestHeaderTests: XCTestCase {
    func testAMutationCallSendsItsIdempotencyKeyAndHeaders() async {
        let transport = FixtureTransport()
        transport.answer("AddComment", with: .failure("not answered"))
        let environment = BatonEnvironment(transport: transport)
        let call = environment.mutation(AddComment.self).headers(["X-App": "1"]).idempotencyKey("key-1")
        _ = try? await call.perform(AddComment(body: "x", connections: []))
        XCTAssertEqual(transport.requests.last?.headers, ["X-App": "1", "Idempotency-Key": "key-1"])
        XCTAssertEqual(environment.mutation(AddComment.self).headers, [:], "a call's headers are its own")
    }

    func testEveryFetchOfAHandleSendsItsHeaders() async {
        let transport = FixtureTransport()
        transport.answer("TestProfileQuery", with: .json(PlateThreeTests.earlierAnswer))
        let environment = BatonEnvironment(transport: transport)
        let handle = environment.attach(TestProfileQuery(id: "1"), policy: .networkOnly, headers: ["X-Trace": "t"])
        await environment.settle()
        handle.retry()
        await environment.settle()
        XCTAssertEqual(transport.requests.map(\.headers), [["X-Trace": "t"], ["X-Trace": "t"]])
        handle.detach()
    }
}
