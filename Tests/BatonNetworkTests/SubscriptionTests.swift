import Baton
import Foundation
import XCTest

/// Subscriptions over graphql-transport-ws against the server (ariadne's handler), through Baton's socket
/// client on Linux.
final class SubscriptionTests: ServerTestCase {
    static let quick = RetryPolicy(maxRetries: 3, initialDelay: 0.02, maxDelay: 0.1)

    func webSocketURL(fault: String? = nil) throws -> URL {
        var components = URLComponents(url: try server.webSocketURL, resolvingAgainstBaseURL: false)!
        if let fault { components.queryItems = [URLQueryItem(name: "fault", value: fault)] }
        return components.url!
    }

    func environment(_ transport: GraphQLWebSocketTransport, log: MemoryLog = MemoryLog()) throws -> BatonEnvironment {
        BatonEnvironment(
            transport: HTTPTransport(url: try server.url), log: log, subscriptionTransport: transport)
    }

    /// Waits (bounded) until `condition` holds.
    func eventually(_ seconds: TimeInterval = 10, _ condition: () throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return try condition()
    }

    func testEachNextIsCommittedAndTheSubscriptionCompletes() async throws {
        let transport = GraphQLWebSocketTransport(
            url: try webSocketURL(), connectionPayload: JSONObject([("token", "t")]), reconnect: Self.quick,
            pingInterval: 0.02)
        let log = MemoryLog()
        let environment = try environment(transport, log: log)
        let handle = environment.subscribe(Ticks(count: 5, intervalMs: 30))
        let seen = Seen()
        handle.observe { if let n = handle.phase.data?.ticks.n { seen.append(n) } }
        let finished = await eventually { handle.isFinished }
        XCTAssertTrue(finished)
        XCTAssertEqual(handle.eventCount, 5)
        XCTAssertEqual(handle.phase.data?.ticks.n, 5)
        XCTAssertEqual(seen.values, [1, 2, 3, 4, 5, 5], "each next notifies, in order, and the completion once more")
        XCTAssertEqual(log.events.filter { $0.name == "committed" }.count, 5)
        XCTAssertGreaterThan(transport.pongsReceived, 0, "our pings were answered")
        let closed = await eventually { transport.activeCount == 0 }
        XCTAssertTrue(closed)
    }

    func testANextNotifiesHandlesReadingTheSameRecords() async throws {
        let transport = GraphQLWebSocketTransport(url: try webSocketURL(), reconnect: Self.quick)
        let environment = try environment(transport)
        let query = environment.attach(CharacterQuery(id: "40"))
        await environment.settle()
        XCTAssertEqual(query.phase.data?.character?.characterSummary.name, "Character 40")
        let subscription = environment.subscribe(CharacterRenamed(id: "40"))
        let listening = try await eventually { try self.subscribers() == 1 }
        XCTAssertTrue(listening)
        _ = try await environment.fetch(RenameCharacter(id: "40", name: "Renamed over the socket"))
        let heard = await eventually { subscription.eventCount == 1 }
        XCTAssertTrue(heard)
        XCTAssertEqual(query.phase.data?.character?.characterSummary.name, "Renamed over the socket")
        // Detaching the last handle completes the subscription on the server.
        subscription.detach()
        let completed = try await eventually { try self.subscribers() == 0 }
        XCTAssertTrue(completed, "the server still runs the subscription")
        query.detach()
    }

    func testADroppedSocketReconnectsAndSubscribesAgain() async throws {
        let key = UUID().uuidString
        let transport = GraphQLWebSocketTransport(
            url: try webSocketURL(fault: "drop-after=2,times=1,key=\(key)"), reconnect: Self.quick)
        let log = MemoryLog()
        let environment = try environment(transport, log: log)
        let handle = environment.subscribe(Ticks(count: 4, intervalMs: 20))
        let finished = await eventually { handle.isFinished }
        XCTAssertTrue(finished)
        XCTAssertEqual(handle.reconnects, 1)
        XCTAssertEqual(transport.connectionsAcknowledged, 2)
        // Two ticks before the drop, then the subscription again from the start: four more.
        XCTAssertEqual(handle.eventCount, 6)
        XCTAssertEqual(handle.phase.data?.ticks.n, 4)
        XCTAssertNil(handle.lastError)
        XCTAssertEqual(log.events.filter { $0.name == "subscriptionReconnecting" }.count, 1)
    }

    func testARefusedConnectionFailsAfterTheRetries() async throws {
        let transport = GraphQLWebSocketTransport(
            url: try webSocketURL(), connectionPayload: JSONObject([("reject", true)]), reconnect: Self.quick)
        let handle = try environment(transport).subscribe(Ticks(count: 1))
        let finished = await eventually { handle.isFinished }
        XCTAssertTrue(finished)
        XCTAssertEqual(handle.reconnects, 3)
        guard case .failed(.offline)? = Optional(handle.phase) else { return XCTFail("\(handle.phase)") }
    }

    func testAnInvalidSubscriptionIsARequestError() async throws {
        let transport = GraphQLWebSocketTransport(url: try webSocketURL(), reconnect: Self.quick)
        // count is required and must be an Int: the server answers `error` for the subscription.
        let handle = try environment(transport).subscribe(BrokenTicks())
        let finished = await eventually { handle.isFinished }
        XCTAssertTrue(finished)
        guard case .failed(.request(let errors)) = handle.phase else { return XCTFail("\(handle.phase)") }
        XCTAssertFalse(errors.isEmpty)
    }

    func subscribers() throws -> Int {
        let url = URL(string: "http://127.0.0.1:\(try server.port)/_baton/subscribers")!
        return Int(try String(contentsOf: url, encoding: .utf8)) ?? -1
    }
}

/// A subscription the server refuses (a variable of the wrong type), hand-written on purpose.
struct BrokenTicks: GraphQLOperation {
    typealias Data = Ticks.Data
    static let operationName = "BrokenTicks"
    static let document = "subscription BrokenTicks($count: String!) { ticks(count: $count) { n __typename } }"
    static var operationType: OperationType { .subscription }
    var variables: [String: JSONValue] { ["count": .string("three")] }
}

/// Values collected from observer callbacks.
final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    func append(_ value: Int) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }
    var values: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
