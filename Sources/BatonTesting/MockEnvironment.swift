@_spi(BatonTesting) import Baton
import Foundation

/// A real `BatonEnvironment` (its store, reads, heals and log) over a `MockTransport`, a `MockClock` and a
/// `MemoryLog`: a test attaches the app's operations to `environment`, answers what they send, and reads what the
/// screen would show.
///
/// There is no second read path: answers are response bodies the store commits as it commits the server's.
public final class MockEnvironment: Sendable {
    public let environment: BatonEnvironment
    public let transport: MockTransport
    public let clock: MockClock
    public let log: MemoryLog
    private let logged = Mutex(0)

    /// An environment whose queries are not retried (`retryPolicy: .never`), so a rejected request fails at once.
    public init(
        retryPolicy: RetryPolicy = .never, garbageCollection: GarbageCollection = .standard,
        clock: MockClock = MockClock(), timeout: TimeInterval = 5
    ) {
        let transport = MockTransport(timeout: timeout)
        let log = MemoryLog()
        self.transport = transport
        self.clock = clock
        self.log = log
        environment = BatonEnvironment(
            transport: transport, log: log, clock: clock.function, retryPolicy: retryPolicy,
            garbageCollection: garbageCollection)
    }

    // MARK: Answering

    /// Answers the most recent pending request of `operationName` (any when nil) with `data`, JSON text such as
    /// `{"repository": {...}}`, and field `errors`; waits for the request to be sent first.
    public func resolve(_ operationName: String? = nil, data: String, errors: [MockFieldError] = []) async throws {
        try await transport.respond(operationName, with: .data(data, errors: errors))
    }

    /// Answers the most recent pending request of `operationName` (any when nil) with `response`.
    public func resolve(_ operationName: String? = nil, with response: MockResponse) async throws {
        try await transport.respond(operationName, with: response)
    }

    /// Fails the most recent pending request of `operationName` (any when nil) with request errors: a response
    /// without data (`FetchError.request`).
    public func reject(_ operationName: String? = nil, errors: [MockFieldError]) async throws {
        try await transport.respond(operationName, with: .requestErrors(errors))
    }

    /// Fails the most recent pending request of `operationName` (any when nil) in the transport:
    /// `.failed("…")` becomes `FetchError.transportFailed`, `.network("…")` `FetchError.offline`.
    public func reject(_ operationName: String? = nil, error: TransportError) async throws {
        try await transport.respond(operationName, with: .transportError(error))
    }

    /// Waits until every fetch the environment started has finished or waits for an answer from the test.
    public func settle() async {
        while true {
            let running = environment.runningTaskCount
            if running == 0 { return }
            if running <= transport.pending.count { return }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    // MARK: What went out

    /// The requests sent so far, oldest first.
    public var sentRequests: [GraphQLRequest] { transport.sent }

    /// The names of the operations sent so far, oldest first.
    public var sentOperationNames: [String] { transport.sent.map(\.operationName) }

    /// Returns the most recent request of `operationName`, or throws when none went out, or when `variables` are
    /// given and differ from its variables.
    @discardableResult
    public func expectSent(_ operationName: String, variables: [String: JSONValue]? = nil) throws -> GraphQLRequest {
        guard let request = transport.sent.last(where: { $0.operationName == operationName }) else {
            throw TestKitFailure(
                "expected \(operationName) to be sent; sent: "
                    + (sentOperationNames.isEmpty ? "nothing" : sentOperationNames.joined(separator: ", ")))
        }
        if let variables, request.variables != variables {
            throw TestKitFailure(
                "\(operationName) was sent with variables \(Self.text(request.variables)), expected \(Self.text(variables))"
            )
        }
        return request
    }

    /// Throws unless exactly `count` requests of `operationName` went out.
    public func expectSent(_ operationName: String, count: Int) throws {
        let actual = transport.sent.filter { $0.operationName == operationName }.count
        if actual != count {
            throw TestKitFailure("expected \(count) requests of \(operationName), \(actual) went out")
        }
    }

    static func text(_ variables: [String: JSONValue]) -> String {
        JSONValue.object(JSONObject(variables.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })).compactText
    }

    // MARK: The log

    /// The events logged since the last call (or since the start), printed one a line (`fetchStarted {…}`).
    public func takeLogLines() -> [String] {
        let lines = log.lines
        return logged.withLock { start in
            defer { start = lines.count }
            return Array(lines[min(start, lines.count)...])
        }
    }

    /// Takes the events logged since the last take and throws, with a line diff, unless they are `expected`.
    public func expectLog(_ expected: [String]) throws {
        try LogComparison.expect(takeLogLines(), equal: expected)
    }

    /// Takes the events logged since the last take and throws unless each of `expected` is among them, in order
    /// (others may come between).
    public func expectLog(containing expected: [String]) throws {
        try LogComparison.expect(takeLogLines(), contain: expected)
    }
}
