import BatonTestSupport
import Foundation
import XCTest

/// The Kotlin runtime as a library, each suite one JVM run of the shared build: its own checks (lenses as values,
/// `Double`s as Swift prints them, the `HttpURLConnection` transport against a local server), the concurrency stress
/// test, and the optional adapters (OkHttp, coroutines, Flow).
final class KotlinRuntimeLibraryTests: XCTestCase {
    private static let checksRun = Once<(sections: [String: [String]], doubles: [Double])>()

    /// The doubles the image's ages are made of, and the edges of Swift's notation: fixed from 1e-4 to 2^53.
    static func doubles() -> [Double] {
        var values: [Double] = [
            0, -0.0, 1, 0.1, 100, 1e-4, 9.999e-5, 1e-5, 0.00010001, 1e15, 1e16, 9_007_199_254_740_992,
            9_007_199_254_740_994, 4_503_599_627_370_497.5, 1.7976931348623157e308, .leastNonzeroMagnitude,
            2.2250738585072014e-308,
            1_700_000_000, 1_700_000_000.5, 1_700_000_000.123, 1_764_577_591.123456, -2.5e-5, 123_456_789.012345678,
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in 0..<400 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let bits = state
            let value = Double(bitPattern: bits)
            if value.isFinite { values.append(value) }
            // Timestamps with a clock's precision: seconds since 1970 in microseconds.
            values.append(1_600_000_000 + Double(bits % 200_000_000_000_000) / 1_000_000 + Double(index))
        }
        return values
    }

    static func checks() throws -> (sections: [String: [String]], doubles: [Double]) {
        let build = try KotlinBuild.shared()
        return try checksRun.get {
            let doubles = Self.doubles()
            let file = build.folder.appendingPathComponent("doubles.txt")
            try doubles.map { String($0.bitPattern, radix: 16) }.joined(separator: "\n").write(
                to: file, atomically: true, encoding: .utf8)
            let output = try build.run("baton.tests.MainKt", ["checks", file.path])
            return (KotlinTestSupport.sections(output), doubles)
        }
    }

    /// Lenses compare by record and snapshot: equal over one snapshot (and in a set), unequal once a commit
    /// changed the store, and an old lens still reads its snapshot.
    func testLensesAreValues() throws {
        XCTAssertEqual(
            try Self.checks().sections["lenses as values"],
            [
                "the same snapshot, read twice: equal true, same hash true",
                "nested lenses: equal true",
                "a lens of another class over the same record: equal false",
                "in a set: 1 element",
                "after a commit that changes nothing: equal false",
                "after a commit that changes a slot: equal false, old still reads Rick, new reads Rick C-137",
                "another operation's variables: equal false",
            ])
    }

    /// `ResponseObjects.of`, each generated optimistic builder's `responseObject()` (issue 34): `__typename` first,
    /// the members in order, `?k` left out while null (any other key written, null too), `...` merged in member by
    /// member (nothing while null), builders and lists of them as their objects; odd members, a key not a string
    /// and a spread not a builder refused.
    func testResponseObjectsOfBuildsABuildersObject() throws {
        XCTAssertEqual(
            try Self.checks().sections["response objects"],
            [
                #"{"__typename":"Comment","id":"c1","body":null,"kept":"k","keptNull":[null],"#
                    + #""author":{"__typename":"Author","id":"a1","name":null},"#
                    + #""authors":[[{"__typename":"Author","id":"a1","name":null},null],null],"tags":["a","b"],"#
                    + #""nested":{"__typename":"Nested","y":2,"x":1},"extra":"e"}"#,
                "refused: an optimistic response's members come in pairs",
                "refused: an optimistic response's key is not a string: 1",
                "refused: an optimistic response's spread is not a builder: not a builder",
            ])
    }

    /// The image's ages are written as Swift's `String(Double)` writes them, so both runtimes' images are the same
    /// bytes: Kotlin's formatter against Swift's own output for the edges and 800 generated values.
    func testDoublesPrintAsSwiftPrintsThem() throws {
        let (sections, doubles) = try Self.checks()
        let kotlin = try XCTUnwrap(sections["doubles"])
        XCTAssertEqual(kotlin.count, doubles.count)
        for (value, text) in zip(doubles, kotlin) where String(value) != text {
            XCTFail("\(value.bitPattern): Swift prints \(String(value)), Kotlin \(text)")
        }
    }

    /// The `HttpURLConnection` transport against a local HTTP server: an HTTP error without a GraphQL body is a
    /// transport failure, one with a GraphQL body a request error, and a retry then commits the answer with its
    /// field error.
    func testTheHttpTransport() throws {
        XCTAssertEqual(try Self.checks().sections["http transport"], Self.transportLines(failure: 500))
    }

    /// `Retry-After` as RFC 9110 has it, read as Swift reads it (`RetryPolicyTests.testRetryAfterIsDigitsOrADateAndBounded`): whole seconds or an HTTP-date
    /// in its three forms, capped at a day; `1e800` (the `http` fuzz target's finding in Swift), a sign, a fraction,
    /// `inf` or a malformed date are ignored (null).
    func testRetryAfterIsDigitsOrADateAndBounded() throws {
        XCTAssertEqual(
            try Self.checks().sections["retry-after"],
            [
                "[3] 3.0", "[ 0 ] 0.0", "[007] 7.0", "[1e800] null", "[1e3] null", "[+5] null", "[-1] null",
                "[1.5] null", "[inf] null", "[NaN] null", "[0x10] null", "[5 s] null", "[\u{0663}] null",
                "[86401] 86400.0", "[99999999…(800)] 86400.0", "[0000000000000000000000012] 12.0",
                "[Sun, 06 Nov 1994 08:49:37 GMT] 90.0", "[Sunday, 06-Nov-94 08:49:37 GMT] 90.0",
                "[Sun Nov  6 08:49:37 1994] 90.0", "[Sun, 06 Nov 9999 08:49:37 GMT] 86400.0",
                "[Sun, 06 Nov 1994 08:49:37 UTC] null", "[Sun, 31 Nov 1994 08:49:37 GMT] null",
                "[Sun, 06 Nov 1994 24:00:00 GMT] null", "[Sun, 6 Nov 1994 08:49:37 GMT] null",
                "[Sun,  06 Nov 1994 08:49:37 GMT] null", "[Wed, 21 Oct 2015 07:28:00 GMT] 86400.0",
                "2024-02-29: 1.7091648E9, 2023-02-29: null",
            ])
    }

    /// A mutation call's headers and idempotency key, and a handle's headers on each of its fetches, as in Swift
    /// (`RequestHeaderTests`).
    func testRequestHeadersOfMutationCallsAndHandles() throws {
        XCTAssertEqual(
            try Self.checks().sections["request headers"],
            [
                "mutation: {X-App=1, Idempotency-Key=key-1}, the call's own: {}",
                "handle: [{X-Trace=t}, {X-Trace=t}]",
            ])
    }

    /// Each transport failure is its own `FetchError` case in Kotlin too, with Swift's texts and a bounded body
    /// (as `TypedFetchErrorTests`).
    func testEachTransportFailureIsItsOwnCase() throws {
        XCTAssertEqual(
            try Self.checks().sections["typed errors"],
            [
                "HttpStatus 429 2.0 body 65536: transport: HTTP status 429 (retry after 2 s)",
                "Offline: transport: network: reset",
                "TimedOut READING 3.0: transport: timed out after 3 s",
                "TooLarge: transport: response larger than 9 bytes",
                "Cancelled: transport: cancelled",
                "ProtocolViolation: transport: the server has no persisted query abc",
                "TransportFailed: transport: mine",
                "TransportFailed: transport: not a transport's",
                "body limit: 65536",
            ])
    }

    /// Every event of a fetch carries its trace (request id, operation, attempt: each retry under the attempt that
    /// failed) and a monotonic time; an invalidation outside any fetch carries none (as `LogTraceTests` in Swift).
    func testEveryEventOfAFetchCarriesItsTrace() throws {
        XCTAssertEqual(
            try Self.checks().sections["log traces"],
            [
                "fetchStarted: request same, TestProfileQuery, attempt 1",
                "retry: request same, TestProfileQuery, attempt 1",
                "retry: request same, TestProfileQuery, attempt 2",
                "committed: request same, TestProfileQuery, attempt 3",
                "fetchCompleted: request same, TestProfileQuery, attempt 3",
                "invalidated: no trace",
                "monotonic: true",
                "subscription: [subscriptionStarted Ticks#1, committed Ticks#1, subscriptionReconnecting Ticks#1, "
                    + "committed Ticks#2, subscriptionCompleted Ticks#2], one request: true",
                "printed: r<id> TestProfileQuery#1 retry",
            ])
    }

    /// A request whose keep-alive connection the server resets as it is reused ends within a second over
    /// `HttpURLConnection` (Kotlin/tests' `ResettingServer`, as Swift's `ReusedConnectionTests`): a query answered,
    /// a mutation answered or offline, none executed twice; as POSTs and with queries as GETs.
    func testARequestOnADroppedConnectionEndsAtOnce() throws {
        Self.checkReusedConnections(try Self.checks().sections["reused connections"])
    }

    static func checkReusedConnections(
        _ lines: [String]?, file: StaticString = #filePath, line: UInt = #line
    ) {
        print("Kotlin reused connections: \(lines ?? [])")
        XCTAssertEqual(lines?.count, 2, file: file, line: line)
        for text in lines ?? [] {
            XCTAssertTrue(text.contains("over a second: [], "), text, file: file, line: line)
            XCTAssertTrue(text.contains("CharacterQuery: answered CharacterQuery, "), text, file: file, line: line)
            XCTAssertFalse(text.contains("CharacterQuery: offline"), text, file: file, line: line)
            XCTAssertTrue(text.hasSuffix("mutations executed at most once: true"), text, file: file, line: line)
        }
    }

    /// What a transport's test prints (Kotlin/tests/baton/tests/Checks.kt, `transportScenario`) when the server first
    /// answers `failure` without a GraphQL body, then 400 with one, then 200.
    static func transportLines(failure: Int) -> [String] {
        [
            "an HTTP error without a GraphQL body: failed: transport: HTTP status \(failure)",
            "as a typed error: HttpStatus \(failure), retry after null, body <html>down</html>",
            "HTTP 400 with a GraphQL body: failed: bad request",
            "HTTP 200: ready, name Rick Sanchez, origin error stored: [no origin]",
            #"fetchStarted {"operation":"CharacterDetail"}"#,
            #"fetchFailed {"operation":"CharacterDetail","error":"transport: HTTP status \#(failure)"}"#,
            #"refetch {"operation":"CharacterDetail","reason":"retry"}"#,
            #"fetchStarted {"operation":"CharacterDetail"}"#,
            #"fetchFailed {"operation":"CharacterDetail","error":["bad request"]}"#,
            #"refetch {"operation":"CharacterDetail","reason":"retry"}"#,
            #"fetchStarted {"operation":"CharacterDetail"}"#,
            #"committed {"kind":"server","changed":4}"#,
            #"fetchCompleted {"operation":"CharacterDetail"}"#,
            "requests as sent: 3, each the request body: true",
        ]
    }

    /// Commits from four threads while three read snapshots and a handle re-reads: no lost update, no torn read,
    /// one notification per batch (fixed seed; bounded to 20 s, typically about 2).
    func testConcurrentCommitsAndReads() throws {
        let build = try KotlinBuild.shared()
        let start = Date()
        let output = try build.run("baton.tests.MainKt", ["stress", "20261201", "20"], timeout: 60)
        print("the Kotlin stress test ran in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        XCTAssertEqual(
            output,
            """
            writers: 4, readers: 3, commits per writer: 1500
            finished in time: true
            lost updates: 0
            torn reads: 0
            notifications of Half:a.value: one per batch
            handle torn reads: 0
            pair agrees at the end: true

            """)
    }

    /// The server checks (Kotlin/tests/baton/tests/ServerChecks.kt) in one JVM run of `mainClass`, split by section:
    /// the run starts Tests/Server/server.py with the network tests' persisted-query manifest and stops it.
    static func serverSections(_ mainClass: String, classpath: [URL] = []) throws -> [String: [String]] {
        let build = try KotlinBuild.shared()
        let python = try KotlinTestSupport.tool("python3")
        let script = KotlinProjectSupport.repositoryRoot.appendingPathComponent("Tests/Server/server.py")
        let manifest = KotlinBuild.network.appendingPathComponent("Operations/persisted-queries.json")
        let path = ([build.classes.path, try KotlinTestSupport.standardLibrary().path] + classpath.map(\.path))
            .joined(separator: ":")
        let start = Date()
        let run = try KotlinTestSupport.run(
            try KotlinTestSupport.tool("java"),
            ["-cp", path, mainClass, "server", python.path, script.path, manifest.path], in: build.folder,
            timeout: 120)
        if run.status == 3 {
            throw KotlinTestSupport.unavailable("\(run.errors.suffix(400)) (run .ci/install.d/python-server.sh)")
        }
        XCTAssertEqual(run.status, 0, run.errors)
        print(
            "the Kotlin server checks (\(mainClass)) ran in \(String(format: "%.1f", Date().timeIntervalSince(start))) s"
        )
        return KotlinTestSupport.sections(run.output)
    }

    /// The Kotlin runtime against the test GraphQL server (Tests/Server/server.py, which the Kotlin suite starts and
    /// stops) over `HttpURLConnection`: a fetch, a field error the server raises (stored beside the field's parent,
    /// which the non-null `name` nulls), a request error, and a handle's `retry()` after a 502; then the requests as
    /// the server's log saw them (`checkRequests`), the transport's rules (`checkTransportRules`) and subscriptions
    /// over the core's own WebSocket client (`checkSubscriptions`).
    func testAgainstTheTestGraphQLServer() throws {
        let sections = try Self.serverSections("baton.tests.MainKt")
        let fetched = [
            "phase: ready", "character: 1 Character 1 DEAD", "errors stored on Query.character: []",
            #"fetchStarted {"operation":"ServerCharacter"}"#, #"committed {"kind":"server","changed":4}"#,
            #"fetchCompleted {"operation":"ServerCharacter"}"#,
        ]
        XCTAssertEqual(sections["fetch"], fetched)
        XCTAssertEqual(
            sections["field error"],
            [
                "phase: ready", "character: nil",
                "errors stored on Query.character: [injected field error at character.name (at character.name)]",
                #"fetchStarted {"operation":"ServerCharacter"}"#, #"committed {"kind":"server","changed":1}"#,
                #"fetchCompleted {"operation":"ServerCharacter"}"#,
            ])
        XCTAssertEqual(
            sections["request error"],
            [
                "phase: failed: injected request error", "character: nil", "errors stored on Query.character: no slot",
                #"fetchStarted {"operation":"ServerCharacter"}"#,
                #"fetchFailed {"operation":"ServerCharacter","error":["injected request error"]}"#,
            ])
        XCTAssertEqual(
            sections["retry"],
            ["first: failed: transport: HTTP status 502"] + fetched.prefix(3) + [
                #"fetchStarted {"operation":"ServerCharacter"}"#,
                #"fetchFailed {"operation":"ServerCharacter","error":"transport: HTTP status 502"}"#,
                #"refetch {"operation":"ServerCharacter","reason":"retry"}"#,
            ] + fetched.dropFirst(3))
        try Self.checkRequests(sections)
        Self.checkTransportRules(sections)
        Self.checkSubscriptions(sections)
    }

    /// The transport's rules as Swift's `HTTPTransport` and `BatonEnvironment` keep them (HTTPTransportTests,
    /// FaultTests), over a Kotlin transport against the server (Kotlin/tests/baton/tests/TransportFaultChecks.kt): a
    /// 401 refreshes the token once and sends again (and not when it is fresh), a second 401 is the failure; the
    /// timeout bounds the whole exchange; detaching a handle cancels its request (`fetchCancelled`, nothing
    /// committed); queries are retried after 502, 429 (after `Retry-After`), a truncated body or a closed connection,
    /// with `retry` logged, and never after a 500, a `Retry-After` past the policy's limit or a body over the limit;
    /// mutations never; offline keeps the stored data with the failure on the fetch.
    static func checkTransportRules(
        _ sections: [String: [String]], file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(
            sections["auth"],
            [
                "refreshed: Character 2, refreshes 1", "already fresh: refreshes 1",
                "sent: Bearer expired, Bearer fresh, Bearer fresh",
                "refused after the refresh: failed: transport: HTTP status 401, requests 2",
            ], file: file, line: line)
        XCTAssertEqual(
            sections["timeout"], ["failed: transport: timed out after 0.3 s", "within 2 s: true"], file: file,
            line: line)
        XCTAssertEqual(
            sections["cancellation"],
            [
                "fetching: true", "cancelled within 2 s: true", #"fetchStarted {"operation":"CharacterQuery"}"#,
                #"fetchCancelled {"operation":"CharacterQuery","error":"transport: cancelled"}"#,
                "collections after the detach: 1", "committed nothing: true",
            ], file: file, line: line)
        XCTAssertEqual(
            sections["retries"],
            [
                "502: failed: transport: HTTP status 502, requests 3, retries 2",
                #"retry {"operation":"CharacterQuery","attempt":1,"delay":…,"error":"HTTP status 502"}"#,
                "500: failed: transport: HTTP status 500, requests 1",
                "429: Character 4, Retry-After waited: true, requests 2",
                "429 past the policy's limit: failed: transport: HTTP status 429 (retry after 3600 s), requests 1",
                "a mutation's 502: failed: transport: HTTP status 502, requests 1",
                "a mutation's closed connection: network true, retries 0, requests at most 2: true",
                "a truncated body, then whole: 5 edges, requests 2",
                "a query's closed connection: network true, retries 2, requests at least 3: true",
                "50 MB: failed: transport: response larger than 1048576 bytes, requests 1, within 3 s: true",
            ], file: file, line: line)
        XCTAssertEqual(
            sections["offline"], ["phase: ready, Character 12", "last fetch error is a network failure: true"],
            file: file, line: line)
    }

    /// Subscriptions over graphql-transport-ws as Swift's `GraphQLWebSocketTransport` runs them (SubscriptionTests),
    /// through a Kotlin socket against the server (Kotlin/tests/baton/tests/SubscriptionChecks.kt): each `next`
    /// committed and notified in order, our pings answered, the socket closed after the last subscription; a `next`
    /// updating a query reading the same record, and a detach completing the subscription on the server; a dropped
    /// socket reconnected once and the subscription sent again (two ticks, then four); a refused connection failing
    /// after three reconnects; an invalid subscription a request error.
    static func checkSubscriptions(
        _ sections: [String: [String]], file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(
            sections["subscription"],
            [
                "finished: true", "events: 5, last n: 5",
                "each next notified, in order, and the completion once more: [1, 2, 3, 4, 5, 5]", "committed: 5",
                "our pings answered: true", "closed: true", #"subscriptionStarted {"operation":"Ticks"}"#,
                #"subscriptionCompleted {"operation":"Ticks"}"#,
            ], file: file, line: line)
        XCTAssertEqual(
            sections["subscription notifies handles"],
            [
                "query: Character 40", "listening on the server: true", "heard: true",
                "query after the next: Renamed over the socket", "completed on the server after the detach: true",
            ], file: file, line: line)
        XCTAssertEqual(
            sections["dropped socket"],
            [
                "finished: true", "reconnects: 1, sockets acknowledged: 2", "events: 6, last n: 4, last error: null",
                "logged reconnecting: 1",
            ], file: file, line: line)
        XCTAssertEqual(
            sections["refused connection"], ["finished: true", "reconnects: 3, phase: failed: offline"], file: file,
            line: line)
        XCTAssertEqual(
            sections["invalid subscription"], ["finished: true", "phase: failed: request, with errors: true"],
            file: file,
            line: line)
    }

    /// The requests a Kotlin transport sent, as the server's request log saw them, against what the Swift runtime
    /// sends for the same operations (the ids are the Swift generated code's, so both runtimes hash alike): POST with
    /// the document and `onError`; GET for queries and POST for mutations; the transport's headers and a request's
    /// own; the id alone in persisted-only mode (POST and GET) and its failure for an id the server lacks; and
    /// automatic persisted queries sending the document only after `PersistedQueryNotFound`.
    static func checkRequests(
        _ sections: [String: [String]], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        func entry(_ method: String, _ name: String, document: Bool, id: String? = nil, auth: String? = nil) -> String {
            "\(method) \(name) \(document ? "document" : "no document") id=\(id ?? "none") auth=\(auth ?? "none") "
                + "onError=\(name == "ServerCharacter" ? "none" : "PROPAGATE")"
        }
        XCTAssertEqual(
            sections["post"],
            ["character: Character 7, origin Location 8", entry("POST", "CharacterQuery", document: true)],
            file: file, line: line)
        let get = try XCTUnwrap(sections["get for queries"], file: file, line: line)
        XCTAssertEqual(
            Array(get.prefix(4)),
            [
                "page: Character 11, Character 12, Character 13", "renamed: Zeep + Xanflorp & co",
                entry("GET", "CharactersPage", document: true), entry("POST", "RenameCharacter", document: true),
            ], file: file, line: line)
        // The GET form offline: the same members as Swift's `HTTPTransport` puts in the URL, a `+` percent-encoded.
        let offline = try XCTUnwrap(get.last, file: file, line: line)
        let parts = offline.split(separator: " ")
        // `offline GET: <method> <url> body <size or none>`
        XCTAssertEqual(parts.count, 6, offline, file: file, line: line)
        if parts.count == 6 {
            XCTAssertEqual(
                [parts[0], parts[1], parts[2], parts[4], parts[5]], ["offline", "GET:", "GET", "body", "none"],
                file: file, line: line)
            XCTAssertFalse(parts[3].contains("a+b"), "a + must be percent-encoded: \(parts[3])", file: file, line: line)
            let kotlin = URLComponents(string: String(parts[3]))
            let swift = HTTPTransportShapes.getURL(first: 2, after: "a+b")
            XCTAssertEqual(kotlin?.host, swift?.host, file: file, line: line)
            XCTAssertEqual(kotlin?.path, swift?.path, file: file, line: line)
            XCTAssertEqual(
                kotlin?.queryItems?.map { "\($0.name)=\($0.value ?? "nil")" },
                swift?.queryItems?.map { "\($0.name)=\($0.value ?? "nil")" }, file: file, line: line)
        }
        XCTAssertEqual(
            sections["headers"],
            [
                entry("POST", "CharacterQuery", document: true, auth: "Bearer environment"),
                entry("POST", "CharacterQuery", document: true, auth: "Bearer request"),
            ], file: file, line: line)
        let serverCharacter = HTTPTransportShapes.serverCharacterID
        XCTAssertEqual(
            sections["persisted only"],
            [
                "character: Character 21", "renamed: Persisted", "page: 1, 2",
                "unknown id: failed: transport: the server has no persisted query \(serverCharacter)",
                entry("POST", "CharacterQuery", document: false, id: HTTPTransportShapes.characterQueryID),
                entry("POST", "RenameCharacter", document: false, id: HTTPTransportShapes.renameCharacterID),
                entry("GET", "CharactersPage", document: false, id: HTTPTransportShapes.charactersPageID),
                entry("POST", "ServerCharacter", document: false, id: serverCharacter),
            ], file: file, line: line)
        XCTAssertEqual(
            sections["automatic persisted queries"],
            [
                "first: Character 31", "second: Character 32",
                entry("POST", "ServerCharacter", document: false, id: serverCharacter),
                entry("POST", "ServerCharacter", document: true, id: serverCharacter),
                entry("POST", "ServerCharacter", document: false, id: serverCharacter),
            ], file: file, line: line)
    }

    /// The OkHttp adapter against the test GraphQL server: the same checks as the `HttpURLConnection` transport,
    /// line for line, because both send the requests the runtime's `GraphQLHttp` spells under its rules, and the
    /// subscriptions over OkHttp's WebSocket (`OkHttpWebSocketConnector`).
    func testTheOkHttpAdapterAgainstTheTestGraphQLServer() throws {
        let build = try KotlinBuild.shared()
        guard let libraries = build.adapterLibraries else {
            throw KotlinTestSupport.unavailable(
                "kotlinx-coroutines, atomicfu, OkHttp or okio is missing from /usr/share/java; run .ci/install.d/kotlin-libraries.sh"
            )
        }
        let okHttp = try Self.serverSections("baton.tests.adapters.AdapterChecksKt", classpath: libraries)
        try Self.checkRequests(okHttp)
        Self.checkTransportRules(okHttp)
        Self.checkSubscriptions(okHttp)
        XCTAssertEqual(okHttp["fetch"]?.first, "phase: ready")
        XCTAssertEqual(okHttp["retry"]?.first, "first: failed: transport: HTTP status 502")
    }

    /// The OkHttp transport (against a local server, and with the server gone) and the coroutine adapters over the
    /// listener API (`awaitSettled`, `collectStates`, `fetchSuspending`; `states()` as a Flow over a stand-in of
    /// the Flow API, which Debian's kotlinx-coroutines 1.0.1 lacks).
    func testTheAdapters() throws {
        let build = try KotlinBuild.shared()
        guard build.adapterLibraries != nil else {
            throw KotlinTestSupport.unavailable(
                "kotlinx-coroutines, atomicfu, OkHttp or okio is missing from /usr/share/java; run .ci/install.d/kotlin-libraries.sh"
            )
        }
        let output = try build.run(
            "baton.tests.adapters.AdapterChecksKt", [KotlinBuild.scenarios.appendingPathComponent("Fixtures").path])
        let sections = KotlinTestSupport.sections(output)
        XCTAssertEqual(
            sections["okhttp transport"], Self.transportLines(failure: 503) + ["server gone: failed: offline"])
        Self.checkReusedConnections(sections["reused connections"])
        XCTAssertEqual(
            sections["coroutines"],
            [
                "awaitSettled: ready, name Rick Sanchez",
                "collectStates: first Rick Sanchez, last Rick C-137",
                "states in a row differ: true",
                "after cancelling, no more states: true",
                "fetchSuspending: Rick Sanchez",
                "fetchSuspending cancelled with its coroutine: true",
                "states() flow, first: Rick Sanchez",
            ])
    }
}
