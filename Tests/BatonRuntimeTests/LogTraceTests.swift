import Foundation
import XCTest

@testable import Baton
import BatonTesting

/// Every event a fetch logs carries its trace (request id, operation, attempt) and a monotonic time; events of two
/// fetches running at once tell apart; events outside any fetch carry none.
final class LogTraceTests: XCTestCase {
    func testEveryEventOfAFetchCarriesItsRequestOperationAttemptAndTime() async throws {
        let transport = FixtureTransport()
        transport.answer(
            "TestProfileQuery", with: .error(.network("reset")), .error(.timedOut(1)),
            .json(PlateThreeTests.earlierAnswer))
        let log = MemoryLog()
        let environment = BatonEnvironment(
            transport: transport, log: log, retryPolicy: RetryPolicy(maxRetries: 2, initialDelay: 0.001))
        _ = try await environment.fetch(TestProfileQuery(id: "1"))
        environment.invalidate(type: "Character")

        let events = log.events
        XCTAssertEqual(
            events.map(\.name), ["fetchStarted", "retry", "retry", "committed", "fetchCompleted", "invalidated"])
        let traces = events.map(\.trace)
        let id = try XCTUnwrap(traces[0]?.requestID)
        XCTAssertEqual(
            traces,
            [1, 1, 2, 3, 3].map { LogEvent.Trace(requestID: id, operation: "TestProfileQuery", attempt: $0) } + [nil],
            "each retry under the attempt that failed, what follows under the next; an invalidation under none")
        let times = events.map(\.monotonicNanoseconds)
        XCTAssertEqual(times, times.sorted(), "monotonic")
        XCTAssertGreaterThan(times[0], 0)
        let printed = events[1].tracedDescription
        XCTAssertTrue(printed.contains(" r\(id) TestProfileQuery#1 retry {\"operation\":\"TestProfileQuery\""), printed)
        XCTAssertEqual(events[0], LogEvent("fetchStarted", events[0].payload, trace: nil), "equal by name and payload")
    }

    func testTwoFetchesAtOnceHaveTheirOwnIDs() async throws {
        let transport = FixtureTransport()
        transport.answer("TestProfileQuery", with: .json(PlateThreeTests.earlierAnswer))
        let log = MemoryLog()
        let environment = BatonEnvironment(transport: transport, log: log)
        async let first = environment.fetch(TestProfileQuery(id: "1"))
        async let second = environment.fetch(TestProfileQuery(id: "1"))
        _ = try await (first, second)
        let byRequest = Dictionary(grouping: log.events) { $0.trace?.requestID ?? 0 }
        XCTAssertEqual(byRequest.count, 2, "\(log.events.map(\.tracedDescription))")
        for events in byRequest.values {
            XCTAssertEqual(events.map(\.name), ["fetchStarted", "committed", "fetchCompleted"])
        }
    }
}

/// A failure is the case of its kind, with a failed answer's body kept for diagnostics up to `FetchError.bodyLimit`.
final class TypedFetchErrorTests: XCTestCase {
    func testEachTransportFailureIsItsOwnCase() {
        let big = Data(repeating: 0x41, count: 100_000)
        XCTAssertEqual(
            FetchError(TransportError.httpStatus(429, retryAfter: 2, body: big)),
            .httpStatus(429, retryAfter: 2, body: big.prefix(FetchError.bodyLimit)))
        XCTAssertEqual(FetchError(TransportError.network("reset")), .offline("reset"))
        XCTAssertEqual(FetchError(TransportError.timedOut(3, phase: .reading)), .timedOut(.reading, after: 3))
        XCTAssertEqual(FetchError(TransportError.responseTooLarge(limit: 9)), .tooLarge(limit: 9))
        XCTAssertEqual(FetchError(TransportError.cancelled), .cancelled)
        XCTAssertEqual(
            FetchError(TransportError.persistedQueryNotFound("abc")),
            .protocolViolation("the server has no persisted query abc"))
        XCTAssertEqual(FetchError(TransportError.failed("mine")), .transportFailed("mine"))
        XCTAssertEqual(FetchError(thrown: CancellationError()), .cancelled)
        XCTAssertEqual(FetchError.bodyLimit, 65_536)
        // The texts stay what the logs always said.
        XCTAssertEqual(FetchError.offline("reset").description, "transport: network: reset")
        XCTAssertEqual(
            FetchError.httpStatus(429, retryAfter: 2, body: Data()).description,
            "transport: HTTP status 429 (retry after 2 s)")
        XCTAssertEqual(FetchError.timedOut(.waiting, after: 30).description, "transport: timed out after 30 s")
    }

    func testAMalformedBodyIsKeptBounded() async throws {
        let transport = FixtureTransport()
        let body = "<html>" + String(repeating: "x", count: 100_000)
        transport.answer("TestProfileQuery", with: .json(body))
        let environment = BatonEnvironment(transport: transport)
        do {
            _ = try await environment.fetch(TestProfileQuery(id: "1"))
            XCTFail("not a GraphQL response")
        } catch {
            guard case .malformedResponse(_, let kept) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(kept, Data(body.utf8).prefix(FetchError.bodyLimit))
            XCTAssertEqual(error.body?.count, FetchError.bodyLimit)
        }
    }
}
