import Baton
import BatonTestSupport
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `@defer` and `@stream` against a real server: graphql-core 3.3's incremental execution
/// (Tests/Server/incremental, the current draft's `pending`/`incremental`/`completed` as `multipart/mixed`), through
/// `HTTPTransport` and code `baton gen` wrote (Incremental/Generated). The server runs in the virtualenv
/// `.ci/install.d/incremental-server.sh` makes; without it the suite skips locally and fails in CI.
final class IncrementalServerTests: ServerTestCase {
    static let serverScript = TestServer.packageRoot.appendingPathComponent("Tests/Server/incremental/server.py")

    override class func startServer() throws -> TestServer {
        try TestServer(script: serverScript, python: try PythonScript.incrementalPython())
    }

    /// Hands the payloads of a transport (`HTTPTransport`, `GraphQLWebSocketTransport`) over one by one, and after each records what `read` reads; after the
    /// first, runs `afterFirst` (a test opens the server's gate there).
    final class Recording: IncrementalTransport, @unchecked Sendable {
        let http: any IncrementalTransport
        let store: Store
        let read: @Sendable (Store) -> String
        let afterFirst: (@Sendable () throws -> Void)?
        private(set) var seen: [String] = []

        init(
            _ http: any IncrementalTransport, store: Store, read: @escaping @Sendable (Store) -> String,
            afterFirst: (@Sendable () throws -> Void)? = nil
        ) {
            self.http = http
            self.store = store
            self.read = read
            self.afterFirst = afterFirst
        }

        func send(_ request: GraphQLRequest) async throws -> Data { try await http.send(request) }

        func sendIncrementally(_ request: GraphQLRequest, receive: (Data) async throws -> Void) async throws {
            try await http.sendIncrementally(request) { payload in
                try await receive(payload)
                seen.append(read(store))
                if seen.count == 1 { try afterFirst?() }
            }
        }
    }

    func fetch<Operation: GraphQLOperation>(
        _ operation: Operation, fault: String? = nil, timeout: TimeInterval = 10,
        read: @escaping @Sendable (Store) -> String
    ) async throws -> (seen: [String], log: MemoryLog, error: FetchError?, store: Store) {
        var headers: [String: String] = [:]
        if let fault { headers["X-Baton-Fault"] = fault }
        let store = Store()
        let transport = Recording(
            HTTPTransport(url: try server.url, headers: headers, timeout: timeout), store: store, read: read)
        let log = MemoryLog()
        let environment = BatonEnvironment(
            store: store, transport: transport, log: log,
            retryPolicy: RetryPolicy(maxRetries: 0, initialDelay: 0, maxDelay: 0, maxRetryAfter: 0))
        do {
            _ = try await environment.fetch(operation)
            return (transport.seen, log, nil, store)
        } catch {
            return (transport.seen, log, error, store)
        }
    }

    static func screen(_ store: Store) -> String {
        guard let repository = try? store.read(RepositoryScreen(owner: "octocat", name: "baton")).repository else {
            return "nothing"
        }
        switch repository.repositoryIssues {
        case .pending: return "\(repository.name); issues pending"
        case .ready(let issues):
            return "\(repository.name); issues " + issues.issues.map(\.title).joined(separator: ", ")
        case .failed(let errors): return "\(repository.name); issues failed: \(errors)"
        }
    }

    /// The `committed` lines of the repository screen: the repository, then its issues.
    static let repositoryThenIssues = [
        "payload 1: filled data; pending 1; more coming",
        "payload 2: filled repository (issues); completed repository (issues); pending 0; complete",
    ]

    /// The payload summaries of a log's `committed` events.
    static func payloads(_ log: MemoryLog) -> [String] {
        log.events.filter { $0.name == "committed" }.compactMap { $0.payload["payload"]?.stringValue }
    }

    /// The guide's repository screen with `issues` deferred: the repository first, then the issues.
    func testTheRepositoryFirstThenItsIssues() async throws {
        let (seen, log, error, _) = try await fetch(
            RepositoryScreen(owner: "octocat", name: "baton"), read: Self.screen)
        XCTAssertNil(error)
        XCTAssertEqual(seen, ["baton; issues pending", "baton; issues Defer it, Stream it"])
        XCTAssertEqual(Self.payloads(log), Self.repositoryThenIssues)
    }

    /// A deferred fragment the server completes with errors reads as failed; the rest stays.
    func testAFailingDeferredFragmentReadsFailedWhileTheRestStays() async throws {
        let (seen, _, error, _) = try await fetch(FailingIssues(owner: "octocat", name: "baton")) { store in
            guard let repository = try? store.read(FailingIssues(owner: "octocat", name: "baton")).repository else {
                return "nothing"
            }
            switch repository.asRepository {
            case .pending: return "\(repository.name); pending"
            case .ready: return "\(repository.name); ready"
            case .failed(let errors): return "\(repository.name); failed: \(errors)"
            }
        }
        XCTAssertNil(error)
        XCTAssertEqual(seen, ["baton; pending", "baton; failed: issues are unavailable"])
    }

    /// A streamed list grows, one item per payload, more coming until the stream completes.
    func testAStreamedListGrows() async throws {
        let (seen, _, error, _) = try await fetch(Stargazers(owner: "octocat", name: "baton")) { store in
            guard let repository = try? store.read(Stargazers(owner: "octocat", name: "baton")).repository else {
                return "nothing"
            }
            let stars = repository.stargazers
            return stars.items.map(\.login).joined(separator: ", ") + (stars.moreComing ? " …" : "")
        }
        XCTAssertNil(error)
        XCTAssertEqual(seen.first, "ada …")
        XCTAssertEqual(seen.last, "ada, grace, linus")
        XCTAssertEqual(seen.dropLast().allSatisfy { $0.hasSuffix(" …") }, true)
    }

    /// Each payload is committed as its bytes arrive, before the server has sent the rest: the server holds the
    /// deferred issues behind a gate (`X-Baton-Gate`) that this test opens only from inside the first `receive`, once
    /// the store shows the repository with its issues pending. A transport that read the whole body before handing
    /// parts over would never get there: the gate stays shut and the answer ends, cut, after 10 s.
    func testTheFirstPayloadIsCommittedBeforeTheServerSendsTheRest() async throws {
        let (seen, log) = try await fetchThroughGate { gate in
            HTTPTransport(url: try self.server.url, headers: ["X-Baton-Gate": gate], timeout: 20)
        }
        XCTAssertEqual(seen, ["baton; issues pending", "baton; issues Defer it, Stream it"])
        XCTAssertEqual(Self.payloads(log), Self.repositoryThenIssues)
    }

    /// Fetches the repository screen through the transport `make` builds for a new gate, opening the gate from
    /// inside the first `receive` (and checking the server's answer to that); returns what was read after each
    /// payload and the log.
    func fetchThroughGate(_ make: (String) throws -> any IncrementalTransport) async throws -> ([String], MemoryLog) {
        let gate = UUID().uuidString
        let url = try server.url
        let store = Store()
        let answers = GateAnswers()
        let transport = Recording(try make(gate), store: store, read: Self.screen) {
            answers.append(try Self.openGate(gate, on: url))
        }
        let log = MemoryLog()
        _ = try await BatonEnvironment(store: store, transport: transport, log: log)
            .fetch(RepositoryScreen(owner: "octocat", name: "baton"))
        XCTAssertEqual(answers.all, [#"{"opened": "\#(gate)", "restSent": false}"#])
        return (transport.seen, log)
    }

    /// Opens the server's gate `gate` (`/_baton/gate?open=NAME`) and returns its answer.
    static func openGate(_ gate: String, on server: URL) throws -> String {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)
        components?.path = "/_baton/gate"
        components?.queryItems = [URLQueryItem(name: "open", value: gate)]
        guard let gateURL = components?.url else { throw URLError(.badURL) }
        return String(decoding: try Data(contentsOf: gateURL), as: UTF8.self)
    }

    /// graphql-transport-ws carries the same answer as successive `next` messages: each is committed as it arrives,
    /// before the server sends the next (the same gate, opened from inside the first `receive`), with the same
    /// `committed` lines as over HTTP.
    func testOverGraphQLTransportWSEachNextIsCommittedBeforeTheServerSendsTheRest() async throws {
        let (seen, log) = try await fetchThroughGate { gate in
            GraphQLWebSocketTransport(
                url: try self.server.webSocketURL, headers: ["X-Baton-Gate": gate], operationTimeout: 20)
        }
        XCTAssertEqual(seen, ["baton; issues pending", "baton; issues Defer it, Stream it"])
        XCTAssertEqual(Self.payloads(log), Self.repositoryThenIssues)
    }

    /// Over graphql-transport-ws a streamed list grows, one `next` per item.
    func testOverGraphQLTransportWSAStreamedListGrows() async throws {
        let store = Store()
        let transport = Recording(
            GraphQLWebSocketTransport(url: try server.webSocketURL, operationTimeout: 10), store: store
        ) { store in
            guard let repository = try? store.read(Stargazers(owner: "octocat", name: "baton")).repository else {
                return "nothing"
            }
            let stars = repository.stargazers
            return stars.items.map(\.login).joined(separator: ", ") + (stars.moreComing ? " …" : "")
        }
        let environment = BatonEnvironment(store: store, transport: transport)
        _ = try await environment.fetch(Stargazers(owner: "octocat", name: "baton"))
        XCTAssertEqual(transport.seen.first, "ada …")
        XCTAssertEqual(transport.seen.last, "ada, grace, linus")
        XCTAssertEqual(transport.seen.count, 3)
    }

    /// The socket closed after the first `next`: that payload stays committed, the fetch fails offline, nothing
    /// else is committed, and the operation is not sent again on a new socket.
    func testOverGraphQLTransportWSASocketClosedAfterTheFirstNextKeepsItAndFails() async throws {
        let key = UUID().uuidString
        let store = Store()
        let socket = GraphQLWebSocketTransport(
            url: try server.webSocketURL, headers: ["X-Baton-Fault": "truncate-after=1", "X-Baton-Test-Key": key],
            operationTimeout: 10)
        let transport = Recording(socket, store: store, read: Self.screen)
        let environment = BatonEnvironment(
            store: store, transport: transport,
            retryPolicy: RetryPolicy(maxRetries: 2, initialDelay: 0, maxDelay: 0, maxRetryAfter: 0))
        do {
            _ = try await environment.fetch(RepositoryScreen(owner: "octocat", name: "baton"))
            XCTFail("the fetch succeeded")
        } catch {
            guard case .offline = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(transport.seen, ["baton; issues pending"])
        XCTAssertEqual(Self.screen(store), "baton; issues pending")
        XCTAssertEqual(try server.log(key: key).map(\.method), ["WS"])
    }

    /// An operation without `@defer` or `@stream` over the socket: its one `next` is the whole answer (`send`).
    func testOverGraphQLTransportWSAWholeAnswerIsItsOneNext() async throws {
        let socket = GraphQLWebSocketTransport(url: try server.webSocketURL, operationTimeout: 10)
        let request = GraphQLRequest(
            operationName: "Name", query: #"query Name { repository(owner: "octocat", name: "baton") { name } }"#,
            variables: [:])
        let body = try await socket.send(request)
        XCTAssertEqual(
            try JSONParser.parse(body).compactText, #"{"data":{"repository":{"name":"baton"}}}"#)
    }

    /// The server's `error` message (a document it refuses) is the request's error.
    func testOverGraphQLTransportWSAnErrorMessageIsARequestError() async throws {
        let socket = GraphQLWebSocketTransport(url: try server.webSocketURL, operationTimeout: 10)
        let request = GraphQLRequest(
            operationName: "Nope", query: "query Nope { nope }", variables: [:], incrementalDelivery: true)
        do {
            try await socket.sendIncrementally(request) { _ in XCTFail("a payload for a refused document") }
            XCTFail("the operation succeeded")
        } catch let error as FetchError {
            guard case .request(let errors) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(errors.map(\.message), ["Cannot query field 'nope' on type 'Query'."])
        }
    }

    /// The connection closed between parts (no closing boundary): the first payload stays committed, the rest is a
    /// request error, and nothing of it is committed half-way.
    func testTruncationBetweenPartsKeepsTheFirstPayloadAndFails() async throws {
        let (seen, log, error, store) = try await fetch(
            RepositoryScreen(owner: "octocat", name: "baton"), fault: "truncate-after=1", read: Self.screen)
        XCTAssertEqual(error, .offline(MultipartError.truncated.description))
        XCTAssertEqual(seen, ["baton; issues pending"])
        XCTAssertEqual(Self.screen(store), "baton; issues pending")
        XCTAssertEqual(Self.payloads(log), Array(Self.repositoryThenIssues.prefix(1)))
    }

    /// A server that ignores `Accept` and answers plain JSON: one payload, the fragment ready at once.
    func testAPlainJSONAnswerIsHandledAsToday() async throws {
        let (seen, _, error, _) = try await fetch(
            RepositoryScreen(owner: "octocat", name: "baton"), fault: "plain", read: Self.screen)
        XCTAssertNil(error)
        XCTAssertEqual(seen, ["baton; issues Defer it, Stream it"])
    }

    /// Automatic persisted queries still work: the id alone first, the document once the server does not know it,
    /// then the id alone; each answer incremental.
    func testAutomaticPersistedQueriesStillWork() async throws {
        let key = UUID().uuidString
        let store = Store()
        let http = HTTPTransport(
            url: try server.url, headers: ["X-Baton-Test-Key": key], persistedQueries: .automatic, timeout: 10)
        let transport = Recording(http, store: store, read: Self.screen)
        let environment = BatonEnvironment(store: store, transport: transport)
        _ = try await environment.fetch(RepositoryScreen(owner: "octocat", name: "baton"))
        _ = try await environment.fetch(RepositoryScreen(owner: "octocat", name: "baton"))
        XCTAssertEqual(
            transport.seen,
            [
                "baton; issues pending", "baton; issues Defer it, Stream it", "baton; issues Defer it, Stream it",
                "baton; issues Defer it, Stream it",
            ])
        let log = try server.log(key: key)
        XCTAssertEqual(log.map(\.hasQuery), [false, true, false])
        XCTAssertEqual(Set(log.map(\.persistedId)), [RepositoryScreen.operationID])
    }

    /// Cancelling the task reading a stream ends its exchange at once: the first payload came, the server sends
    /// nothing more and keeps the connection open (`never-ends`), the task is cancelled, `sendIncrementally` throws
    /// `cancelled`, and the session's only turn for the host is free again: the next request is answered at once
    /// instead of waiting out the queue (which a stream still held would make it do, then fail `timedOut`).
    func testCancellingAStreamEndsItsExchange() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 1
        let session = HTTPSession(configuration: configuration, queueTimeout: 3)
        let url = try server.url
        let request = GraphQLRequest(RepositoryScreen(owner: "octocat", name: "baton"))
        let (payloads, arrived) = AsyncStream<Void>.makeStream()
        let reading = Task {
            try await HTTPTransport(url: url, headers: ["X-Baton-Fault": "never-ends"], timeout: 30, session: session)
                .sendIncrementally(request) { _ in arrived.yield() }
        }
        var iterator = payloads.makeAsyncIterator()
        await iterator.next()
        reading.cancel()
        let outcome = await reading.result
        guard case .failure(let error) = outcome else { return XCTFail("the stream ended by itself") }
        XCTAssertEqual(error as? TransportError, .cancelled)
        let started = Date()
        let body = try await HTTPTransport(url: url, timeout: 10, session: session).send(request)
        XCTAssertFalse(body.isEmpty)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }

    /// A 401 to an incremental request is still refreshed once and sent again, and the second answer streams.
    func testA401IsRefreshedOnceThenTheAnswerStreams() async throws {
        let key = UUID().uuidString
        let authenticator = BearerTokenAuthenticator(token: "old") { "new" }
        let http = HTTPTransport(
            url: try server.url, headers: ["X-Baton-Fault": "require-bearer=new", "X-Baton-Test-Key": key],
            timeout: 10, authenticator: authenticator)
        let store = Store()
        let transport = Recording(http, store: store, read: Self.screen)
        _ = try await BatonEnvironment(store: store, transport: transport)
            .fetch(RepositoryScreen(owner: "octocat", name: "baton"))
        XCTAssertEqual(transport.seen, ["baton; issues pending", "baton; issues Defer it, Stream it"])
        XCTAssertEqual(try server.log(key: key).map(\.authorization), ["Bearer old", "Bearer new"])
        let refreshes = await authenticator.refreshCount
        XCTAssertEqual(refreshes, 1)
    }

    /// An answer that never says `hasNext: false` (nor ends) hits the request's timeout.
    func testAStreamThatNeverEndsTimesOut() async throws {
        let (_, _, error, _) = try await fetch(
            RepositoryScreen(owner: "octocat", name: "baton"), fault: "never-ends", timeout: 1, read: Self.screen)
        guard case .timedOut? = error else { return XCTFail("\(String(describing: error))") }
    }
}

/// What the server answered when the test opened its gate.
final class GateAnswers: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String] = []

    func append(_ answer: String) { lock.withLock { answers.append(answer) } }
    var all: [String] { lock.withLock { answers } }
}
