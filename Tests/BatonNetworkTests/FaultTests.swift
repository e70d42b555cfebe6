import Baton
import Foundation
import XCTest

/// Faults the server injects, each handled as Docs/Runtime.md says: never a crash, never a half-committed batch.
final class FaultTests: ServerTestCase {
    /// A quick retry policy, so the tests wait milliseconds, not seconds.
    static let quickRetries = RetryPolicy(maxRetries: 2, initialDelay: 0.01, maxDelay: 0.05, maxRetryAfter: 5)

    func environment(
        _ key: String, fault: String, maxResponseBytes: Int = 32 << 20, retryPolicy: RetryPolicy = quickRetries,
        log: MemoryLog = MemoryLog()
    ) throws -> BatonEnvironment {
        let transport = HTTPTransport(
            url: try server.url, headers: ["X-Baton-Test-Key": key, "X-Baton-Fault": fault], timeout: 10,
            maxResponseBytes: maxResponseBytes)
        return BatonEnvironment(transport: transport, log: log, retryPolicy: retryPolicy)
    }

    /// Fetches and returns the failure (failing the test when the fetch succeeds).
    func failure<Operation: GraphQLOperation>(
        _ environment: BatonEnvironment, _ operation: Operation, file: StaticString = #filePath, line: UInt = #line
    ) async -> FetchError? {
        do {
            _ = try await environment.fetch(operation)
            XCTFail("the fetch succeeded", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testA502WithAnHTMLPageIsRetriedThenFailsWithTheStatus() async throws {
        let key = UUID().uuidString
        let log = MemoryLog()
        let environment = try environment(key, fault: "status=502", log: log)
        let error = await failure(environment, CharacterQuery(id: "1"))
        guard case .httpStatus(502, nil, let body)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(error?.description, "transport: HTTP status 502")
        XCTAssertTrue(String(decoding: body, as: UTF8.self).contains("<html>"), "the body is kept for diagnostics")
        XCTAssertEqual(try server.log(key: key).count, 3, "the first attempt and two retries")
        XCTAssertEqual(log.events.filter { $0.name == "retry" }.count, 2)
        XCTAssertTrue(environment.store.snapshot().records.isEmpty)
    }

    func testA500IsNotRetried() async throws {
        let key = UUID().uuidString
        let error = await failure(try environment(key, fault: "status=500"), CharacterQuery(id: "1"))
        guard case .httpStatus(500, nil, _)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(try server.log(key: key).count, 1)
    }

    func testANon2xxWithAGraphQLBodyIsReadAsThatBody() async throws {
        let key = UUID().uuidString
        let error = await failure(try environment(key, fault: "status=400,body=graphql"), CharacterQuery(id: "1"))
        guard case .request(let errors)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(errors.map(\.message), ["injected request error with status 400"])
        XCTAssertEqual(try server.log(key: key).count, 1)
    }

    func testA429HonoursRetryAfterThenSucceeds() async throws {
        let key = UUID().uuidString
        let environment = try environment(key, fault: "status=429,retry-after=1,times=1,key=\(key)")
        let start = Date()
        let data = try await environment.fetch(CharacterQuery(id: "4"))
        XCTAssertEqual(data.character?.characterSummary.name, "Character 4")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 1, "Retry-After: 1 was waited for")
        XCTAssertEqual(try server.log(key: key).count, 2)
    }

    func testARetryAfterLongerThanThePolicyAllowsSurfacesAtOnce() async throws {
        let key = UUID().uuidString
        let error = await failure(try environment(key, fault: "status=429,retry-after=3600"), CharacterQuery(id: "1"))
        guard case .httpStatus(429, 3600?, _)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(error?.description, "transport: HTTP status 429 (retry after 3600 s)")
        XCTAssertEqual(try server.log(key: key).count, 1)
    }

    func testMutationsAreNeverRetried() async throws {
        let key = UUID().uuidString
        let environment = try environment(key, fault: "status=502")
        let error = await failure(environment, RenameCharacter(id: "5", name: "Never"))
        guard case .httpStatus(502, nil, _)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(try server.log(key: key).count, 1)
        let log = MemoryLog()
        let closed = await failure(
            try self.environment(key + "b", fault: "close=before", log: log), RenameCharacter(id: "5", name: "Never"))
        XCTAssertNotNil(closed)
        XCTAssertFalse(log.events.contains { $0.name == "retry" }, "Baton sends a mutation once")
        // libcurl (URLSession on Linux) sends a request once more by itself when a reused keep-alive connection
        // dies before any byte of the answer: Docs/Runtime.md says so. Never more than that.
        XCTAssertLessThanOrEqual(try server.log(key: key + "b").count, 2)
    }

    func testATruncatedBodyIsANetworkFailureAndCommitsNothing() async throws {
        let key = UUID().uuidString
        let environment = try environment(key, fault: "body=truncate", retryPolicy: .never)
        let error = await failure(environment, CharactersPage(first: 50))
        guard case .offline? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(environment.store.snapshot().records.isEmpty, "nothing of the half body is committed")
    }

    func testATruncatedBodyIsRetriedForAQuery() async throws {
        let key = UUID().uuidString
        let environment = try environment(key, fault: "body=truncate,times=1,key=\(key)")
        let page = try await environment.fetch(CharactersPage(first: 5))
        XCTAssertEqual(page.characters.edges.count, 5)
        XCTAssertEqual(try server.log(key: key).count, 2)
    }

    func testAMalformedBodyIsAMalformedResponseAndChangesNothing() async throws {
        let environment = try environment(UUID().uuidString, fault: "")
        _ = try await environment.fetch(CharacterQuery(id: "1"))
        let before = environment.store.snapshot().records
        let broken = try self.environment(UUID().uuidString, fault: "body=malformed")
        let error = await failure(
            BatonEnvironment(store: environment.store, transport: broken.transport, retryPolicy: .never),
            CharacterQuery(id: "1"))
        guard case .malformedResponse? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(environment.store.snapshot().records, before)
    }

    func testAFiftyMegabyteBodyIsRefusedWithoutReadingIt() async throws {
        let key = UUID().uuidString
        let environment = try environment(key, fault: "size=52428800", maxResponseBytes: 1 << 20)
        let start = Date()
        let error = await failure(environment, CharacterQuery(id: "1"))
        XCTAssertEqual(error, .tooLarge(limit: 1 << 20))
        XCTAssertEqual(error?.description, "transport: response larger than 1048576 bytes")
        XCTAssertEqual(try server.log(key: key).count, 1, "too large is not transient: no retry")
        XCTAssertLessThan(Date().timeIntervalSince(start), 3)
    }

    func testAFiftyMegabyteBodyUnderALargerLimitIsRead() async throws {
        let environment = try environment(UUID().uuidString, fault: "size=52428800", maxResponseBytes: 64 << 20)
        // The padded body answers no field of the operation: committed, then read as missing data, not a crash.
        let data = try await environment.fetch(CharacterQuery(id: "1"))
        XCTAssertNil(data.character)
    }

    func testErrorsWithoutDataAreARequestError() async throws {
        let error = await failure(try environment(UUID().uuidString, fault: "body=errors"), CharacterQuery(id: "1"))
        XCTAssertEqual(error.map { "\($0)" }, "injected request error")
    }

    func testAFieldErrorIsStoredBesideItsField() async throws {
        let environment = try environment(UUID().uuidString, fault: "field-error=character.origin")
        let data = try await environment.fetch(CharacterQuery(id: "9"))
        XCTAssertEqual(data.character?.characterSummary.name, "Character 9")
        XCTAssertNil(data.character?.origin)
        let slot = environment.store.record("Character:9")?.slots["origin"]
        XCTAssertEqual(slot?.errors.map(\.message), ["injected field error at character.origin"])
    }

    func testAClosedConnectionIsANetworkFailure() async throws {
        let key = UUID().uuidString
        let log = MemoryLog()
        let error = await failure(try environment(key, fault: "close=before", log: log), CharacterQuery(id: "1"))
        guard case .offline? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(error?.description.hasPrefix("transport: network: ") == true)
        XCTAssertEqual(log.events.filter { $0.name == "retry" }.count, 2, "a network failure of a query is retried")
        XCTAssertGreaterThanOrEqual(try server.log(key: key).count, 3)
    }

    func testOfflineKeepsTheStoredDataWithTheFailureOnTheFetch() async throws {
        let online = try environment(UUID().uuidString, fault: "")
        _ = try await online.fetch(CharacterQuery(id: "12"))
        // A port nothing listens on: connection refused, as when offline.
        let offline = BatonEnvironment(
            store: online.store,
            transport: HTTPTransport(url: URL(string: "http://127.0.0.1:\(try Self.closedPort())/graphql")!),
            retryPolicy: Self.quickRetries)
        let handle = offline.attach(CharacterQuery(id: "12"), policy: .storeAndNetwork)
        await offline.settle()
        XCTAssertEqual(handle.phase.data?.character?.characterSummary.name, "Character 12")
        guard case .offline? = handle.lastFetchError else {
            return XCTFail("\(String(describing: handle.lastFetchError))")
        }
        handle.detach()
    }

    /// A local port that was free a moment ago (bound, then closed).
    static func closedPort() throws -> Int {
        let socket = Socket.bindLoopback()
        guard let socket else { throw XCTSkip("cannot bind a loopback port") }
        defer { socket.close() }
        return socket.port
    }
}
