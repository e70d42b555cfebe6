import Baton
import BatonTestSupport
import Foundation
import XCTest

/// Issue 33's check, in Swift: a seeded run of queries and mutations through a fault-injecting proxy
/// (`Tests/Server/faults/fault_proxy.py`) in front of a server the other tests do not use
/// (`Tests/Server/faults/notes_server.py`: graphql-core alone on the standard library's HTTP server), held to the
/// rules `FaultRun.problems` lists. The Kotlin half is `KotlinFaultRunTests`. `BATON_FAULT_SEED` picks another seed
/// (the run prints the one it used).
final class SeededFaultRunTests: XCTestCase {
    static func kind(of error: FetchError) -> String {
        switch error {
        case .offline: "offline"
        case .timedOut: "timedOut"
        case .httpStatus(let status, _, _): "http \(status)"
        case .malformedResponse: "malformed"
        default: "other: \(error)"
        }
    }

    func testEveryOutcomeIsTheFaultItMet() async throws {
        let run = try FaultRun()
        let events = MemoryLog()
        let environment = BatonEnvironment(
            transport: HTTPTransport(
                url: run.url, timeout: FaultRun.deadline, session: HTTPSession(configuration: .ephemeral)),
            log: events,
            retryPolicy: RetryPolicy(
                maxRetries: FaultRun.maxRetries, initialDelay: 0.01, maxDelay: 0.05, maxRetryAfter: 0.1))

        var outcomes: [FaultRun.Outcome] = []
        for index in 0..<FaultRun.requests {
            let (label, isMutation) = FaultRun.label(index)
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
            let mine = events.events.dropFirst(before)
            let operation = isMutation ? "AddNote" : "Note"
            outcomes.append(
                FaultRun.Outcome(
                    label: label, isMutation: isMutation, seconds: Date().timeIntervalSince(start), kind: kind,
                    requestIDs: Set(mine.compactMap(\.trace?.requestID)),
                    strayEvents: mine.filter { $0.trace?.operation != operation }.count))
        }
        XCTAssertEqual(try run.problems(outcomes, language: "Swift"), [])
    }
}
