import Baton
import Foundation
import XCTest

/// A request whose keep-alive connection the server drops as it is reused (reset before any answer byte) ends at
/// once, never after the whole deadline: a query is answered (on a fresh connection, or retried), a mutation is
/// answered or fails as offline, and the server executes a mutation at most once (issue 33: URLSession on Linux
/// resent such a POST's head without its body and waited out the deadline).
final class ReusedConnectionTests: XCTestCase {
    /// The transport's deadline: far over the second each exchange must take.
    static let deadline: TimeInterval = 10

    func run(method: HTTPTransport.Method) async throws -> [(String, TimeInterval, String)] {
        guard let server = ResettingServer() else { throw XCTSkip("cannot listen on a loopback port") }
        defer { server.stop() }
        let transport = HTTPTransport(
            url: URL(string: "http://127.0.0.1:\(server.port)/graphql")!, method: method, timeout: Self.deadline,
            session: HTTPSession(configuration: .ephemeral))
        let environment = BatonEnvironment(transport: transport, retryPolicy: .standard)
        var outcomes: [(String, TimeInterval, String)] = []
        func time<Operation: GraphQLOperation>(_ label: String, _ operation: Operation) async {
            let start = Date()
            let outcome: String
            do {
                _ = try await environment.fetch(operation)
                outcome = "data"
            } catch {
                outcome = error.description
            }
            outcomes.append((label, Date().timeIntervalSince(start), outcome))
        }
        for round in 0..<3 {
            await time("query \(round)", CharacterQuery(id: "1"))
            await time("mutation \(round)", RenameCharacter(id: "1", name: "n\(round)"))
        }
        // Each mutation executed at most once: three sent, never more than three answered.
        XCTAssertLessThanOrEqual(server.answers("RenameCharacter"), 3, "a mutation executed twice")
        print(
            "reused connections: \(method): resets \(server.resetCount), "
                + outcomes.map { "\($0.0) \(String(format: "%.3f", $0.1)) s \($0.2)" }.joined(separator: "; "))
        return outcomes
    }

    func check(_ outcomes: [(String, TimeInterval, String)]) {
        for (label, seconds, outcome) in outcomes {
            XCTAssertLessThan(seconds, 1, "\(label) took \(seconds) s (\(outcome))")
            if label.hasPrefix("query") {
                XCTAssertEqual(outcome, "answered CharacterQuery", label)
            } else {
                XCTAssertTrue(
                    outcome == "answered RenameCharacter" || outcome.hasPrefix("transport: network: "),
                    "\(label): \(outcome)")
            }
        }
    }

    func testAPOSTOnADroppedConnectionEndsAtOnce() async throws {
        check(try await run(method: .post))
    }

    func testAGETOnADroppedConnectionEndsAtOnce() async throws {
        check(try await run(method: .getForQueries))
    }
}
