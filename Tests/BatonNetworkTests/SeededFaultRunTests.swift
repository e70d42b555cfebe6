import Baton
import Foundation
import XCTest

/// Issue 33's check, in Swift: a seeded run of queries and mutations through a fault-injecting proxy
/// (`Tests/Server/faults/fault_proxy.py`) in front of a server the other tests do not use
/// (`Tests/Server/faults/notes_server.py`: graphql-core alone on the standard library's HTTP server).
///
/// The proxy decides each attempt's fault from the seed, the request's label and the attempt alone, and logs it;
/// the test then holds every outcome to the fault of the request's last attempt:
/// - a dropped connection (reset before or after the server saw the request, a reused connection closed, a
///   truncated answer) ends as `offline`, or is retried when it is a query, and within a second;
/// - a body that is not JSON is `malformedResponse`, a 503 or 429 `httpStatus`, an answer that never comes `timedOut`;
/// - a query whose last attempt failed transiently had no retries left;
/// - the server executed no mutation twice (counted per `Idempotency-Key`);
/// - every log event carries the request id of its fetch, and no two fetches share one.
///
/// `BATON_FAULT_SEED` picks another seed (the run prints the one it used).
final class SeededFaultRunTests: XCTestCase {
    static let faults = TestServer.packageRoot.appendingPathComponent("Tests/Server/faults")
    static let retries = RetryPolicy(maxRetries: 2, initialDelay: 0.01, maxDelay: 0.05, maxRetryAfter: 0.1)
    /// The transport's deadline: what a stalled answer costs.
    static let deadline: TimeInterval = 1.5

    struct Attempt: Decodable {
        var label: String
        var attempt: Int
        var fault: String
        var reused: Bool
    }

    struct Outcome {
        var label: String
        var isMutation: Bool
        var seconds: TimeInterval
        /// `data`, `offline`, `timedOut`, `http 503`, `malformed`, or another case's description.
        var kind: String
        var requestIDs: Set<UInt64>
    }

    static func kind(of error: FetchError) -> String {
        switch error {
        case .offline: "offline"
        case .timedOut: "timedOut"
        case .httpStatus(let status, _, _): "http \(status)"
        case .malformedResponse: "malformed"
        default: "other: \(error)"
        }
    }

    /// The faults after which a query is sent again (`TransportError.isTransient`: the network, a timeout, 429, 503).
    static let transient: Set<String> = [
        "reset-before", "reset-after", "close-reused", "truncate", "status-503", "status-429", "stall",
    ]

    /// What the last attempt's fault makes of a request.
    static func expectedKind(after fault: String) -> String {
        switch fault {
        case "pass": "data"
        case "reset-before", "reset-after", "close-reused", "truncate": "offline"
        case "garbage": "malformed"
        case "status-503": "http 503"
        case "status-429": "http 429"
        case "stall": "timedOut"
        default: "unknown fault \(fault)"
        }
    }

    func testEveryOutcomeIsTheFaultItMet() async throws {
        let seed = ProcessInfo.processInfo.environment["BATON_FAULT_SEED"] ?? "20261206"
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("baton-faults-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: log) }
        let server = try TestServer(
            script: Self.faults.appendingPathComponent("notes_server.py"), arguments: [],
            portLine: "NOTES_SERVER_PORT=", health: "/health")
        defer { server.stop() }
        let proxy = try TestServer(
            script: Self.faults.appendingPathComponent("fault_proxy.py"),
            arguments: ["--upstream", "\(server.port)", "--seed", seed, "--log", log.path],
            portLine: "FAULT_PROXY_PORT=", health: nil)
        defer { proxy.stop() }

        let events = MemoryLog()
        let environment = BatonEnvironment(
            transport: HTTPTransport(
                url: URL(string: "http://127.0.0.1:\(proxy.port)/graphql")!, timeout: Self.deadline,
                session: HTTPSession(configuration: .ephemeral)),
            log: events, retryPolicy: Self.retries)

        var outcomes: [Outcome] = []
        for index in 0..<120 {
            let isMutation = index % 2 == 1
            let label = (isMutation ? "m" : "q") + "\(index)"
            let before = events.events.count
            let start = Date()
            var kind = "data"
            do {
                if isMutation {
                    _ = try await environment.perform(AddNote(text: label), headers: ["Idempotency-Key": label])
                } else {
                    _ = try await environment.fetch(Note(id: label))
                }
            } catch {
                kind = Self.kind(of: error)
            }
            let seconds = Date().timeIntervalSince(start)
            let mine = events.events.dropFirst(before)
            XCTAssertFalse(mine.isEmpty, "\(label) logged nothing")
            for event in mine {
                XCTAssertNotNil(event.trace, "\(label): \(event.name) carries no trace")
                XCTAssertEqual(
                    event.trace?.operation, isMutation ? "AddNote" : "Note", "\(label): \(event.tracedDescription)")
            }
            outcomes.append(
                Outcome(
                    label: label, isMutation: isMutation, seconds: seconds, kind: kind,
                    requestIDs: Set(mine.compactMap(\.trace?.requestID))))
        }

        let attempts = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map {
            try JSONDecoder().decode(Attempt.self, from: Data($0.utf8))
        }
        let byLabel = Dictionary(grouping: attempts, by: \.label)
        var faultCounts: [String: Int] = [:]
        for attempt in attempts { faultCounts[attempt.fault, default: 0] += 1 }
        print(
            "seeded fault run: seed \(seed), \(outcomes.count) requests, \(attempts.count) attempts, "
                + "faults \(faultCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")), "
                + "outcomes \(Dictionary(grouping: outcomes, by: \.kind).mapValues(\.count).sorted { $0.key < $1.key })"
        )

        for outcome in outcomes {
            let tried = (byLabel[outcome.label] ?? []).sorted { $0.attempt < $1.attempt }
            guard let last = tried.last else {
                XCTFail("\(outcome.label): the proxy saw no attempt (\(outcome.kind))")
                continue
            }
            XCTAssertEqual(
                outcome.kind, Self.expectedKind(after: last.fault),
                "\(outcome.label): attempts \(tried.map { "\($0.fault)\($0.reused ? " (reused)" : "")" }), outcome \(outcome.kind)"
            )
            XCTAssertEqual(outcome.requestIDs.count, 1, "\(outcome.label): one request id for one fetch")
            if outcome.isMutation {
                XCTAssertEqual(tried.count, 1, "\(outcome.label): a mutation is never sent again")
            } else {
                // A query is sent again only after a transient failure, and ends with one only without retries left.
                XCTAssertTrue(
                    tried.dropLast().allSatisfy { Self.transient.contains($0.fault) },
                    "\(outcome.label): retried after \(tried.map(\.fault))")
                if Self.transient.contains(last.fault) {
                    XCTAssertEqual(
                        tried.count, Self.retries.maxRetries + 1,
                        "\(outcome.label): \(outcome.kind) after \(tried.map(\.fault)) with retries left")
                }
            }
            if !tried.contains(where: { $0.fault == "stall" }) {
                XCTAssertLessThan(
                    outcome.seconds, 1, "\(outcome.label): \(tried.map(\.fault)) took \(outcome.seconds) s")
            }
        }
        let ids = outcomes.flatMap(\.requestIDs)
        XCTAssertEqual(Set(ids).count, ids.count, "no two fetches share a request id")

        let executions = try JSONDecoder().decode(
            [String: Int].self, from: Data(contentsOf: URL(string: "http://127.0.0.1:\(server.port)/executions")!))
        for (key, count) in executions { XCTAssertLessThanOrEqual(count, 1, "mutation \(key) executed \(count) times") }
        // The run met every fault it is meant to test (the seed is chosen so; another seed may not).
        if ProcessInfo.processInfo.environment["BATON_FAULT_SEED"] == nil {
            for fault in ["pass", "reset-before", "reset-after", "truncate", "garbage", "status-503", "stall"] {
                XCTAssertGreaterThan(faultCounts[fault] ?? 0, 0, "the default seed met no \(fault)")
            }
        }
    }
}
