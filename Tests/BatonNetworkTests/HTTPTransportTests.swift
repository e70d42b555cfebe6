import Baton
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP transport against the real server: methods, headers, auth, timeouts, cancellation, `onError`.
final class HTTPTransportTests: ServerTestCase {
    /// A transport whose requests carry a fresh test key (to read the server's log) and a fault.
    func transport(
        _ key: String, fault: String? = nil, method: HTTPTransport.Method = .post, timeout: TimeInterval = 10,
        authenticator: (any Authenticator)? = nil
    ) throws -> HTTPTransport {
        var headers = ["X-Baton-Test-Key": key]
        if let fault { headers["X-Baton-Fault"] = fault }
        return HTTPTransport(
            url: try server.url, headers: headers, method: method, timeout: timeout, authenticator: authenticator)
    }

    func testAQueryIsPostedAndCommittedFromTheBytes() async throws {
        let key = UUID().uuidString
        let environment = BatonEnvironment(transport: try transport(key))
        let data = try await environment.fetch(CharacterQuery(id: "7"))
        XCTAssertEqual(data.character?.characterSummary.name, "Character 7")
        XCTAssertEqual(data.character?.origin?.name, "Location 8")
        XCTAssertEqual(environment.store.record("Character:7")?.typename, "Character")
        let log = try server.log(key: key)
        XCTAssertEqual(log.map(\.method), ["POST"])
        XCTAssertEqual(log.first?.operationName, "CharacterQuery")
        XCTAssertEqual(log.first?.hasQuery, true)
        // baton.json's onError reaches the server in the body.
        XCTAssertEqual(log.first?.onError, "PROPAGATE")
    }

    func testQueriesGoAsGETAndMutationsAsPOST() async throws {
        let key = UUID().uuidString
        let environment = BatonEnvironment(transport: try transport(key, method: .getForQueries))
        let page = try await environment.fetch(CharactersPage(first: 3, after: "10"))
        XCTAssertEqual(page.characters.edges.map(\.node.name), ["Character 11", "Character 12", "Character 13"])
        let renamed = try await environment.fetch(RenameCharacter(id: "300", name: "Zeep + Xanflorp & co"))
        XCTAssertEqual(renamed.renameCharacter?.name, "Zeep + Xanflorp & co")
        let log = try server.log(key: key)
        XCTAssertEqual(log.map(\.method), ["GET", "POST"])
        XCTAssertEqual(log.map(\.onError), ["PROPAGATE", "PROPAGATE"])
    }

    func testTheGETFormSpellsTheRequestInTheURL() throws {
        let transport = HTTPTransport(url: URL(string: "https://example.com/graphql?app=1")!, method: .getForQueries)
        let request = transport.urlRequest(for: GraphQLRequest(CharactersPage(first: 2, after: "a+b")))
        let items = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)?.queryItems ?? []
        XCTAssertEqual(request.httpMethod, "GET")
        XCTAssertNil(request.httpBody)
        XCTAssertEqual(items.map(\.name), ["app", "query", "operationName", "variables", "onError"])
        XCTAssertEqual(items.first { $0.name == "variables" }?.value, #"{"after":"a+b","first":2}"#)
        XCTAssertEqual(items.first { $0.name == "query" }?.value, CharactersPage.document)
        XCTAssertFalse(request.url!.absoluteString.contains("a+b"), "a + must be percent-encoded")
    }

    func testHeadersPerEnvironmentAndPerRequest() async throws {
        let key = UUID().uuidString
        var transport = try transport(key)
        transport.headers["Authorization"] = "Bearer environment"
        let environment = BatonEnvironment(transport: transport)
        _ = try await environment.fetch(CharacterQuery(id: "1"))
        _ = try await environment.fetch(CharacterQuery(id: "1"), headers: ["Authorization": "Bearer request"])
        XCTAssertEqual(try server.log(key: key).map(\.authorization), ["Bearer environment", "Bearer request"])
    }

    func testA401RefreshesTheTokenOnceAndSendsAgain() async throws {
        let key = UUID().uuidString
        let authenticator = BearerTokenAuthenticator(token: "expired") { "fresh" }
        let environment = BatonEnvironment(
            transport: try transport(key, fault: "auth=fresh", authenticator: authenticator))
        let data = try await environment.fetch(CharacterQuery(id: "2"))
        XCTAssertEqual(data.character?.characterSummary.name, "Character 2")
        let refreshes = await authenticator.refreshCount
        XCTAssertEqual(refreshes, 1)
        XCTAssertEqual(try server.log(key: key).map(\.authorization), ["Bearer expired", "Bearer fresh"])
        // Already fresh: no refresh.
        _ = try await environment.fetch(CharacterQuery(id: "2"))
        let after = await authenticator.refreshCount
        XCTAssertEqual(after, 1)
    }

    func testA401AfterTheRefreshIsTheFailure() async throws {
        let key = UUID().uuidString
        let authenticator = BearerTokenAuthenticator(token: "expired") { "still-wrong" }
        let environment = BatonEnvironment(
            transport: try transport(key, fault: "auth=fresh", authenticator: authenticator))
        do {
            _ = try await environment.fetch(CharacterQuery(id: "2"))
            XCTFail("a refused token must fail the fetch")
        } catch {
            guard case .httpStatus(401, nil, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(error.description, "transport: HTTP status 401")
        }
        XCTAssertEqual(try server.log(key: key).count, 2, "one refresh, one more request, no loop")
    }

    func testATimeoutEndsTheRequest() async throws {
        let environment = BatonEnvironment(
            transport: try transport(UUID().uuidString, fault: "delay=3000", timeout: 0.3), retryPolicy: .never)
        let start = Date()
        do {
            _ = try await environment.fetch(CharacterQuery(id: "1"))
            XCTFail("the request must time out")
        } catch {
            XCTAssertEqual(error, .timedOut(.waiting, after: 0.3), "no byte of the answer came")
            XCTAssertEqual(error.description, "transport: timed out after 0.3 s")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    func testDetachingTheHandleCancelsItsRequest() async throws {
        let log = MemoryLog()
        let environment = BatonEnvironment(
            transport: try transport(UUID().uuidString, fault: "delay=5000"), log: log)
        let handle = environment.attach(CharacterQuery(id: "3"), policy: .networkOnly)
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertTrue(handle.isFetching)
        let start = Date()
        handle.detach()
        await environment.settle()
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "the 5 s request was cancelled, not waited for")
        XCTAssertTrue(log.events.contains { $0.name == "fetchCancelled" }, "\(log.events.map(\.name))")
        XCTAssertNil(environment.store.record("Character:3"))
    }
}

/// The deadline starts when a request is sent: requests past the session's connections per host wait their turn in
/// `HTTPSession`'s own queue (bounded by `queueTimeout`), not inside their deadline (issue 33: 6 attempts timed out
/// without ever being sent).
final class HTTPSessionQueueTests: ServerTestCase {
    func session(queueTimeout: TimeInterval) -> HTTPSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 1
        return HTTPSession(configuration: configuration, queueTimeout: queueTimeout)
    }

    func request(_ key: String) throws -> URLRequest {
        let transport = HTTPTransport(
            url: try server.url, headers: ["X-Baton-Test-Key": key, "X-Baton-Fault": "delay=600"])
        return transport.urlRequest(for: GraphQLRequest(CharacterQuery(id: "1")))
    }

    func testTheDeadlineCountsFromTheTurnNotTheQueue() async throws {
        let session = session(queueTimeout: 10)
        let request = try request(UUID().uuidString)
        async let first = session.send(request, limit: 1 << 20, timeout: 1)
        async let second = session.send(request, limit: 1 << 20, timeout: 1)
        let replies = try await [first, second]
        XCTAssertEqual(replies.map(\.status), [200, 200], "each within its own second, after its turn")
        let queued = replies.map(\.queuedFor).sorted()
        XCTAssertLessThan(queued[0], 0.1)
        XCTAssertGreaterThan(queued[1], 0.5, "the second waited for the first: \(queued)")
    }

    func testAQueueWaitPastQueueTimeoutFailsWithoutSending() async throws {
        let session = session(queueTimeout: 0.2)
        let key = UUID().uuidString
        let request = try request(key)
        async let first = session.send(request, limit: 1 << 20, timeout: 5)
        try await Task.sleep(nanoseconds: 50_000_000)
        do {
            _ = try await session.send(request, limit: 1 << 20, timeout: 5)
            XCTFail("the second request must wait past its queue timeout")
        } catch {
            XCTAssertEqual(error as? TransportError, .timedOut(0.2, phase: .connecting))
            XCTAssertEqual(FetchError(error as! TransportError), .timedOut(.connecting, after: 0.2))
        }
        _ = try await first
        XCTAssertEqual(try server.log(key: key).count, 1, "the one that timed out in the queue was never sent")
    }
}
