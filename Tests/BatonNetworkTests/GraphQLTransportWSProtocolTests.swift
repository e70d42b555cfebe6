import Baton
import BatonTesting
import Foundation
import XCTest

/// The graphql-transport-ws client against a scripted socket: what it sends, in order, for what it receives.
final class GraphQLTransportWSProtocolTests: XCTestCase {
    /// A socket whose incoming messages the test pushes and whose outgoing ones it reads.
    final class ScriptedSocket: WebSocketConnection, WebSocketConnector, @unchecked Sendable {
        let messages: AsyncThrowingStream<String, any Error>
        private let continuation: AsyncThrowingStream<String, any Error>.Continuation
        private let lock = NSLock()
        private var outgoing: [String] = []
        private(set) var connectHeaders: [String: String] = [:]
        private(set) var subprotocol = ""

        init() { (messages, continuation) = AsyncThrowingStream<String, any Error>.makeStream() }

        func connect(url: URL, subprotocol: String, headers: [String: String]) async throws -> any WebSocketConnection {
            lock.withLock {
                connectHeaders = headers
                self.subprotocol = subprotocol
            }
            return self
        }

        func send(_ text: String) {
            lock.lock()
            outgoing.append(text)
            lock.unlock()
        }

        func close() { continuation.finish() }

        func receive(_ text: String) { continuation.yield(text) }

        var sent: [String] {
            lock.lock()
            defer { lock.unlock() }
            return outgoing
        }
    }

    func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return condition()
    }

    /// A transport that replays events at once: a `next`, a reconnect, a `next`, `complete`.
    struct ReplayingTransport: SubscriptionTransport {
        func subscribe(_ request: GraphQLRequest, onEvent: @escaping @Sendable (SubscriptionEvent) -> Void)
            -> SubscriptionCancellation
        {
            onEvent(.next(Data(#"{"data":{"ticks":{"__typename":"Tick","n":1}}}"#.utf8)))
            onEvent(.reconnecting(attempt: 1, delay: 0, reason: "dropped"))
            onEvent(.next(Data(#"{"data":{"ticks":{"__typename":"Tick","n":2}}}"#.utf8)))
            onEvent(.complete)
            return SubscriptionCancellation {}
        }
    }

    /// Every event of a subscription carries its trace: one request id, the attempt one more after each reconnect.
    func testEveryEventOfASubscriptionCarriesItsTrace() {
        let log = MemoryLog()
        let environment = BatonEnvironment(
            transport: FixtureTransport(), log: log, subscriptionTransport: ReplayingTransport())
        _ = environment.subscribe(Ticks(count: 2))
        let events = log.events
        XCTAssertEqual(
            events.map(\.name),
            ["subscriptionStarted", "committed", "subscriptionReconnecting", "committed", "subscriptionCompleted"])
        let ids = Set(events.compactMap { $0.trace?.requestID })
        XCTAssertEqual(ids.count, 1, "\(events.map(\.tracedDescription))")
        XCTAssertEqual(events.map { $0.trace?.attempt }, [1, 1, 1, 2, 2])
        XCTAssertEqual(events.map { $0.trace?.operation }, Array(repeating: "Ticks", count: 5))
    }

    func testInitSubscribePongNextAndCompleteOnDetach() async throws {
        let socket = ScriptedSocket()
        let transport = GraphQLWebSocketTransport(
            url: URL(string: "ws://127.0.0.1:1/graphql")!, connectionPayload: JSONObject([("token", "secret")]),
            headers: ["X-App": "1"], connector: socket)
        let environment = BatonEnvironment(transport: FixtureTransport(), subscriptionTransport: transport)
        let handle = environment.subscribe(Ticks(count: 3, intervalMs: 5))
        let initialized = await eventually { socket.sent.count == 1 }
        XCTAssertTrue(initialized)
        XCTAssertEqual(socket.sent, [#"{"type":"connection_init","payload":{"token":"secret"}}"#])
        XCTAssertEqual(socket.subprotocol, "graphql-transport-ws")
        XCTAssertEqual(socket.connectHeaders, ["X-App": "1"])

        socket.receive(#"{"type":"connection_ack"}"#)
        let subscribed = await eventually { socket.sent.count == 2 }
        XCTAssertTrue(subscribed)
        let subscribe = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(socket.sent[1].utf8)) as? [String: Any])
        XCTAssertEqual(subscribe["type"] as? String, "subscribe")
        XCTAssertEqual(subscribe["id"] as? String, "1")
        let payload = try XCTUnwrap(subscribe["payload"] as? [String: Any])
        XCTAssertEqual(payload["query"] as? String, Ticks.document)
        XCTAssertEqual(payload["operationName"] as? String, "Ticks")
        XCTAssertEqual((payload["variables"] as? [String: Int]) ?? [:], ["count": 3, "intervalMs": 5])

        socket.receive(#"{"type":"ping"}"#)
        let ponged = await eventually { socket.sent.last == #"{"type":"pong"}"# }
        XCTAssertTrue(ponged, "\(socket.sent)")

        socket.receive(#"{"id":"1","type":"next","payload":{"data":{"ticks":{"n":1,"__typename":"Tick"}}}}"#)
        socket.receive(#"{"id":"9","type":"next","payload":{"data":{"ticks":{"n":99,"__typename":"Tick"}}}}"#)
        let received = await eventually { handle.eventCount == 1 }
        XCTAssertTrue(received)
        XCTAssertEqual(handle.phase.data?.ticks.n, 1, "a next for another id is not this subscription's")

        handle.detach()
        let completed = await eventually { socket.sent.last == #"{"id":"1","type":"complete"}"# }
        XCTAssertTrue(completed, "\(socket.sent)")
        XCTAssertEqual(transport.activeCount, 0)
    }

    func testAServerErrorEndsTheSubscriptionAsARequestError() async throws {
        let socket = ScriptedSocket()
        let transport = GraphQLWebSocketTransport(url: URL(string: "ws://127.0.0.1:1/graphql")!, connector: socket)
        let environment = BatonEnvironment(transport: FixtureTransport(), subscriptionTransport: transport)
        let handle = environment.subscribe(Ticks(count: 1))
        socket.receive(#"{"type":"connection_ack"}"#)
        let subscribed = await eventually { socket.sent.count == 2 }
        XCTAssertTrue(subscribed)
        socket.receive(#"{"id":"1","type":"error","payload":[{"message":"no ticks today"}]}"#)
        let finished = await eventually { handle.isFinished }
        XCTAssertTrue(finished)
        guard case .failed(.request(let errors)) = handle.phase else { return XCTFail("\(handle.phase)") }
        XCTAssertEqual(errors.map(\.message), ["no ticks today"])
    }

    func testWithoutASubscriptionTransportTheHandleFailsAtOnce() {
        let handle = BatonEnvironment(transport: FixtureTransport()).subscribe(Ticks(count: 1))
        XCTAssertTrue(handle.isFinished)
        XCTAssertEqual(handle.lastError, .unattached("the environment has no subscription transport"))
    }
}
