import Baton
import Foundation

/// A transport for tests that answers from JSON files or text, per operation name, in order, queued before anything
/// is sent (`MockEnvironment`'s transport instead holds each request until the test answers it).
///
/// Each request takes the next answer queued for its operation; the last one keeps answering. Every request is
/// kept, so a test can count fetches.
public final class FixtureTransport: Transport {
    /// One answer.
    public enum Answer: Sendable, Hashable {
        case file(URL)
        case json(String)
        case failure(String)
        /// Fails with this transport error (a network failure to retry, a status, a timeout).
        case error(TransportError)
    }

    private let state = Mutex<(answers: [String: [Answer]], requests: [GraphQLRequest])>(([:], []))

    public init() {}

    /// Queues answers for an operation.
    public func answer(_ operationName: String, with answers: Answer...) {
        state.withLock { $0.answers[operationName, default: []].append(contentsOf: answers) }
    }

    /// Every request so far.
    public var requests: [GraphQLRequest] { state.withLock { $0.requests } }

    /// How many requests named the operation.
    public func requestCount(_ operationName: String) -> Int {
        requests.filter { $0.operationName == operationName }.count
    }

    public func send(_ request: GraphQLRequest) async throws -> Data {
        let answer: Answer? = state.withLock { state in
            state.requests.append(request)
            guard var queue = state.answers[request.operationName], let first = queue.first else { return nil }
            if queue.count > 1 {
                queue.removeFirst()
                state.answers[request.operationName] = queue
            }
            return first
        }
        switch answer {
        case nil: throw TransportError.noFixture(request.operationName)
        case .file(let url)?: return try Data(contentsOf: url)
        case .json(let text)?: return Data(text.utf8)
        case .failure(let reason)?: throw TransportError.failed(reason)
        case .error(let error)?: throw error
        }
    }
}
