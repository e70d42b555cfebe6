import Baton
import BatonTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class TransportTests: XCTestCase {
    func testTheRequestBodyCarriesQueryNameVariablesAndOnError() throws {
        let body = try JSONParser.parse(GraphQLRequest(CharacterOrigin(id: "1")).body)
        XCTAssertEqual(body["query"], .string(CharacterOrigin.document))
        XCTAssertEqual(body["operationName"], "CharacterOrigin")
        XCTAssertEqual(body["variables"], ["id": "1"])
        XCTAssertEqual(body["onError"], "PROPAGATE")
        XCTAssertNil(
            try JSONParser.parse(GraphQLRequest(TestProfileQuery(id: "1")).body)["onError"],
            "sent only when the operation carries one")
    }

    func testTheHTTPTransportPostsJSON() throws {
        let transport = HTTPTransport(
            url: URL(string: "https://rickandmortyapi.com/graphql")!, headers: ["Authorization": "Bearer x"])
        let request = transport.urlRequest(for: GraphQLRequest(TestProfileQuery(id: "1")))
        XCTAssertEqual(request.httpMethod, "POST")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Content-Type"), "application/json")
        XCTAssertEqual(request.value(forHTTPHeaderField: "Authorization"), "Bearer x")
        XCTAssertEqual(request.httpBody, GraphQLRequest(TestProfileQuery(id: "1")).body)
    }

    func testTheFixtureTransportAnswersInOrderAndRepeatsTheLast() async throws {
        let transport = FixtureTransport()
        transport.answer(
            "TestConditions", with: .file(Fixtures.url("conditions-included.json")), .json(#"{"data":{}}"#))
        let request = GraphQLRequest(TestConditions(id: "1", withOrigin: true, hideStatus: false))
        let first = try await transport.send(request)
        XCTAssertEqual(first, try Fixtures.data("conditions-included.json"))
        for _ in 0..<2 {
            let later = try await transport.send(request)
            XCTAssertEqual(later, Data(#"{"data":{}}"#.utf8))
        }
        XCTAssertEqual(transport.requestCount("TestConditions"), 3)
        do {
            _ = try await transport.send(GraphQLRequest(LocationList()))
            XCTFail("expected no fixture")
        } catch {
            XCTAssertEqual(error as? TransportError, .noFixture("LocationList"))
        }
    }
}

/// Plate 4 of the guide: the store holds Plate 3's state (TestProfileQuery's answers, which knew Earth (C-137) by
/// name only), so `character.origin.dimension` is missing and the storeOrNetwork attach fetches; the answer
/// changes that one slot.
final class PlateFourTests: XCTestCase {
    func testTheLogOfAStoreOrNetworkAttach() async throws {
        let transport = FixtureTransport()
        transport.answer("TestConditions", with: .file(Fixtures.url("conditions-included.json")))
        let log = MemoryLog()
        let environment = BatonEnvironment(transport: transport, log: log)
        try environment.store.commit(.json(PlateThreeTests.earlierAnswer), for: TestProfileQuery(id: "1"))
        try environment.store.commit(try Fixtures.response("character-errors.json"), for: TestProfileQuery(id: "1"))

        XCTAssertNotNil(environment.store.record("Location:1"))
        XCTAssertNil(environment.store.record("Location:1")?.slots["dimension"], "the store cannot answer yet")
        let rick = environment.attach(
            TestConditions(id: "1", withOrigin: true, hideStatus: false), policy: .storeOrNetwork)
        await environment.settle()

        XCTAssertEqual(
            log.lines,
            [
                #"fetchStarted {"operation":"TestConditions"}"#,
                #"committed {"kind":"server","changed":1}"#,
                #"fetchCompleted {"operation":"TestConditions"}"#,
            ])
        print("Logged " + log.lines.joined(separator: " "))
        XCTAssertEqual(rick.phase.data?.character?.origin?.dimension, "Dimension C-137")
        XCTAssertEqual(log.lines.count, 3, "reading the data logs nothing more")
        XCTAssertEqual(transport.requestCount("TestConditions"), 1)
        XCTAssertFalse(rick.isStale)
    }
}

final class HandleTests: XCTestCase {
    func environment(_ transport: FixtureTransport, clock: TestClock = TestClock()) -> (BatonEnvironment, MemoryLog) {
        let log = MemoryLog()
        return (BatonEnvironment(transport: transport, log: log, clock: clock.function), log)
    }

    func testPoliciesDecideWhetherToFetch() async throws {
        let transport = FixtureTransport()
        transport.answer(
            "CharacterDetail", with: .json(HealAnswers.detail), .json(HealAnswers.detail), .failure("offline"))
        let (environment, _) = environment(transport)
        let operation = CharacterDetail(id: "1")

        let storeOnly = environment.attach(operation, policy: .storeOnly)
        await environment.settle()
        XCTAssertEqual(transport.requestCount("CharacterDetail"), 0, "storeOnly never fetches")
        XCTAssertNil(storeOnly.phase.data?.character)

        let first = environment.attach(operation, policy: .storeOrNetwork)
        await environment.settle()
        XCTAssertEqual(transport.requestCount("CharacterDetail"), 1)
        XCTAssertEqual(first.phase.data?.character?.name, "Rick Sanchez")
        XCTAssertEqual(storeOnly.phase.data?.character?.name, "Rick Sanchez", "a handle re-reads when its slots change")

        let cached = environment.attach(operation, policy: .storeOrNetwork)
        XCTAssertEqual(cached.phase.data?.character?.name, "Rick Sanchez", "ready at once from the store")
        await environment.settle()
        XCTAssertEqual(transport.requestCount("CharacterDetail"), 1, "fresh and complete: no fetch")

        let both = environment.attach(operation, policy: .storeAndNetwork)
        XCTAssertNotNil(both.phase.data, "ready at once, and fetching")
        await environment.settle()
        XCTAssertEqual(transport.requestCount("CharacterDetail"), 2)

        // networkOnly never shows the store's data: with the network failing it fails, though the store could answer.
        let network = environment.attach(operation, policy: .networkOnly)
        await environment.settle()
        XCTAssertEqual(transport.requestCount("CharacterDetail"), 3)
        guard case .failed(.transportFailed("offline")) = network.phase else { return XCTFail("\(network.phase)") }
    }

    func testAHandleIsNotifiedWhenASlotItReadChanges() async throws {
        let transport = FixtureTransport()
        transport.answer("CharacterDetail", with: .json(HealAnswers.detail))
        let (environment, _) = environment(transport)
        let handle = environment.attach(CharacterDetail(id: "1"))
        await environment.settle()
        let changes = Guarded(0)
        handle.observe { changes.withLock { $0 += 1 } }
        try environment.store.commit(
            .json(#"{"data":{"character":{"id":"1","name":"Rick C-137"}}}"#),
            selections: [
                .field(
                    "character", arguments: [("id", .literal("1"))], type: .named("Character"),
                    selections: [.field("id", type: .named("ID")), .field("name", type: .named("String"))])
            ])
        XCTAssertEqual(handle.phase.data?.character?.name, "Rick C-137")
        XCTAssertEqual(changes.withLock { $0 }, 1)
        try environment.store.commit(
            .json(#"{"data":{"character":{"id":"2","name":"Morty"}}}"#),
            selections: [
                .field(
                    "character", arguments: [("id", .literal("2"))], type: .named("Character"),
                    selections: [.field("id", type: .named("ID")), .field("name", type: .named("String"))])
            ])
        XCTAssertEqual(changes.withLock { $0 }, 1, "a slot it did not read")
    }

    func testARequestErrorWithNothingStoredFailsAndRetryFetchesAgain() async throws {
        let transport = FixtureTransport()
        transport.answer(
            "CharacterDetail", with: .json(#"{"errors":[{"message":"rate limited","extensions":{"code":"RATE"}}]}"#),
            .json(HealAnswers.detail))
        let (environment, log) = environment(transport)
        let handle = environment.attach(CharacterDetail(id: "1"))
        await environment.settle()
        guard case .failed(.request(let errors)) = handle.phase else { return XCTFail("\(handle.phase)") }
        XCTAssertEqual(errors.map(\.message), ["rate limited"])
        XCTAssertEqual(errors.first?.extensions?["code"], "RATE")
        XCTAssertEqual(
            log.lines,
            [
                #"fetchStarted {"operation":"CharacterDetail"}"#,
                #"fetchFailed {"operation":"CharacterDetail","error":["rate limited"]}"#,
            ])
        XCTAssertTrue(environment.store.snapshot().records.isEmpty, "the request error committed nothing")

        handle.retry()
        await environment.settle()
        XCTAssertEqual(handle.phase.data?.character?.name, "Rick Sanchez")
        XCTAssertNil(handle.lastFetchError)
        XCTAssertEqual(transport.requestCount("CharacterDetail"), 2)
    }

    func testARequestErrorWithDataStoredKeepsTheDataReady() async throws {
        let transport = FixtureTransport()
        transport.answer(
            "CharacterDetail", with: .json(HealAnswers.detail), .json(#"{"errors":[{"message":"down"}],"data":null}"#))
        let (environment, _) = environment(transport)
        let handle = environment.attach(CharacterDetail(id: "1"))
        await environment.settle()
        handle.retry()
        await environment.settle()
        XCTAssertEqual(handle.phase.data?.character?.name, "Rick Sanchez", "the data stays")
        XCTAssertEqual(
            handle.lastFetchError, .request([GraphQLError(message: "down")]), "the fetch carries the failure")
    }

    func testTransportAndMalformedFailures() async throws {
        let transport = FixtureTransport()
        transport.answer("CharacterDetail", with: .failure("offline"), .json("<html>"))
        let (environment, log) = environment(transport)
        let handle = environment.attach(CharacterDetail(id: "1"))
        await environment.settle()
        XCTAssertEqual(handle.lastFetchError, .transportFailed("offline"))
        handle.retry()
        await environment.settle()
        guard case .failed(let error) = handle.phase, case .malformedResponse = error else {
            return XCTFail("\(handle.phase)")
        }
        // "malformed response: " once, then the parser's reason (it was said twice).
        XCTAssertEqual(error.description, "malformed response: invalid JSON at byte 0: unexpected character")
        XCTAssertEqual(
            log.lines.last,
            #"fetchFailed {"operation":"CharacterDetail","error":"malformed response: invalid JSON at byte 0: unexpected character"}"#
        )
    }

    func testARequiredNullAtTheRootFailsThePhase() async throws {
        let transport = FixtureTransport()
        transport.answer("RootRequired", with: .json(#"{"data":{"item":{"title":null,"owner":{"login":"x"}}}}"#))
        let (environment, _) = environment(transport)
        let handle = environment.attach(RootRequired())
        await environment.settle()
        guard case .failed(.read(.requiredFieldNull(let path))) = handle.phase else {
            return XCTFail("\(handle.phase)")
        }
        XCTAssertEqual(path, "item.title")
    }
}

/// Issue 8, item 5, as the guide tells it: a list fetched a location's name, a detail fetched its dimension, and a
/// later response points the character's origin at a location known only by name.
final class HealTests: XCTestCase {
    func prepare(healAnswer: String) async throws -> (
        BatonEnvironment, MemoryLog, FixtureTransport, Handle<CharacterDetail>
    ) {
        let transport = FixtureTransport()
        transport.answer("LocationList", with: .json(HealAnswers.locationList))
        transport.answer("CharacterDetail", with: .json(HealAnswers.detail), .json(healAnswer))
        transport.answer("CharacterOrigin", with: .json(HealAnswers.retargeted))
        let log = MemoryLog()
        let environment = BatonEnvironment(transport: transport, log: log)
        _ = try await environment.fetch(LocationList())
        let detail = environment.attach(CharacterDetail(id: "1"))
        await environment.settle()
        XCTAssertEqual(detail.phase.data?.character?.origin?.dimension, "Dimension C-137")
        log.clear()
        return (environment, log, transport, detail)
    }

    func testMissingDataHealsWithOneRefetch() async throws {
        let (environment, log, transport, detail) = try await prepare(healAnswer: HealAnswers.detailHealed)
        let seen = Guarded([String?]())
        detail.observe { seen.withLock { $0.append(detail.phase.data?.character?.origin?.dimension) } }

        _ = try await environment.fetch(CharacterOrigin(id: "1"))
        await environment.settle()

        let lines = log.lines
        XCTAssertEqual(
            Array(lines.prefix(4)),
            [
                #"fetchStarted {"operation":"CharacterOrigin"}"#,
                #"committed {"kind":"server","changed":1}"#,
                #"missingData {"type":"Location","field":"dimension"}"#,
                #"refetch {"operation":"CharacterDetail","reason":"missingData"}"#,
            ])
        let rest = Array(lines.dropFirst(4))
        XCTAssertTrue(rest.contains(#"fetchCompleted {"operation":"CharacterOrigin"}"#))
        XCTAssertEqual(
            rest.filter { $0 != #"fetchCompleted {"operation":"CharacterOrigin"}"# },
            [
                #"fetchStarted {"operation":"CharacterDetail"}"#,
                #"committed {"kind":"server","changed":1}"#,
                #"fetchCompleted {"operation":"CharacterDetail"}"#,
            ])
        XCTAssertEqual(transport.requestCount("CharacterDetail"), 2, "refetched once")
        XCTAssertEqual(detail.phase.data?.character?.origin?.dimension, "unknown", "the truth")
        XCTAssertEqual(seen.withLock { $0.first }, .some(nil), "a blank for a moment")
        XCTAssertEqual(seen.withLock { $0.last }, "unknown")
        XCTAssertFalse(detail.isStale)
    }

    func testASecondMissAfterTheHealIsUnexpectedAndHealedNoFurther() async throws {
        let (environment, log, transport, detail) = try await prepare(healAnswer: HealAnswers.detailWithoutDimension)
        _ = try await environment.fetch(CharacterOrigin(id: "1"))
        await environment.settle()
        XCTAssertEqual(transport.requestCount("CharacterDetail"), 2)
        XCTAssertEqual(log.lines.filter { $0.hasPrefix("refetch") }.count, 1)
        XCTAssertEqual(
            log.lines.filter { $0.hasPrefix("unexpectedValue") }.last,
            #"unexpectedValue {"type":"Location","field":"dimension","reason":"missing after a refetch","path":"character.origin.dimension"}"#
        )
        XCTAssertNil(detail.phase.data?.character?.origin?.dimension)
        let count = log.lines.count
        _ = try await environment.fetch(CharacterOrigin(id: "1"))
        await environment.settle()
        XCTAssertEqual(transport.requestCount("CharacterDetail"), 2, "no loop")
        XCTAssertEqual(log.lines.count, count + 3, "only the CharacterOrigin fetch's own events")
    }
}

final class StalenessTests: XCTestCase {
    func testExpirationWithAnInjectedClock() async throws {
        let clock = TestClock()
        let transport = FixtureTransport()
        transport.answer("CharacterDetail", with: .json(HealAnswers.detail))
        let log = MemoryLog()
        let environment = BatonEnvironment(transport: transport, log: log, clock: clock.function)
        let handle = environment.attach(CharacterDetail(id: "1"), expiration: 60)
        await environment.settle()
        XCTAssertFalse(handle.isStale)
        clock.advance(by: 59)
        XCTAssertFalse(handle.isStale)
        clock.advance(by: 2)
        XCTAssertTrue(handle.isStale)
        XCTAssertEqual(handle.phase.data?.character?.name, "Rick Sanchez", "stale data stays visible")

        // A storeOrNetwork attach shows the stale data and refetches it.
        let second = environment.attach(CharacterDetail(id: "1"), expiration: 60)
        XCTAssertEqual(second.phase.data?.character?.name, "Rick Sanchez")
        await environment.settle()
        XCTAssertEqual(transport.requestCount("CharacterDetail"), 2)
        XCTAssertFalse(second.isStale)
        XCTAssertFalse(handle.isStale, "the refetch renewed the records both read")
    }

    func testRevalidateRefetchesWhatWentStale() async throws {
        let clock = TestClock()
        let transport = FixtureTransport()
        transport.answer("CharacterDetail", with: .json(HealAnswers.detail))
        transport.answer("LocationList", with: .json(HealAnswers.locationList))
        let log = MemoryLog()
        let environment = BatonEnvironment(transport: transport, log: log, clock: clock.function)
        let detail = environment.attach(CharacterDetail(id: "1"), expiration: 60)
        let list = environment.attach(LocationList(), expiration: 3600)
        await environment.settle()
        clock.advance(by: 120)
        log.clear()
        environment.revalidate()
        await environment.settle()
        XCTAssertEqual(
            log.lines,
            [
                #"refetch {"operation":"CharacterDetail","reason":"stale"}"#,
                #"fetchStarted {"operation":"CharacterDetail"}"#,
                #"committed {"kind":"server","changed":0}"#, #"fetchCompleted {"operation":"CharacterDetail"}"#,
            ])
        XCTAssertFalse(detail.isStale)
        XCTAssertFalse(list.isStale)
        XCTAssertEqual(transport.requestCount("LocationList"), 1)
    }

    func testInvalidationOfARecordATypeAndAnOperation() async throws {
        let transport = FixtureTransport()
        transport.answer("CharacterDetail", with: .json(HealAnswers.detail))
        let environment = BatonEnvironment(transport: transport, log: MemoryLog())
        let handle = environment.attach(CharacterDetail(id: "1"))
        await environment.settle()

        environment.invalidate(record: "Location:1")
        XCTAssertTrue(handle.isStale)
        handle.retry()
        await environment.settle()
        XCTAssertFalse(handle.isStale, "a response that writes the record clears it")

        environment.invalidate(type: "Character")
        XCTAssertTrue(handle.isStale)
        environment.revalidate()
        await environment.settle()
        XCTAssertFalse(handle.isStale)

        environment.invalidate(operation: CharacterDetail(id: "2"))
        XCTAssertFalse(handle.isStale, "another operation's variables")
        environment.invalidate(operation: CharacterDetail(id: "1"))
        XCTAssertTrue(handle.isStale)
        XCTAssertEqual(handle.phase.data?.character?.name, "Rick Sanchez")
        environment.revalidate()
        await environment.settle()
        XCTAssertFalse(handle.isStale)
        XCTAssertEqual(transport.requestCount("CharacterDetail"), 4)
    }
}

final class ImageTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-image-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// What the saved environments retain: the image saves only what retained roots reach.
    var retentions: [Retention] = []

    func savedEnvironment(clock: TestClock) throws -> (BatonEnvironment, URL) {
        let environment = BatonEnvironment(transport: FixtureTransport(), log: MemoryLog(), clock: clock.function)
        try environment.store.commit(.json(PlateThreeTests.earlierAnswer), for: TestProfileQuery(id: "1"))
        try environment.store.commit(try Fixtures.response("character-errors.json"), for: TestProfileQuery(id: "1"))
        let selections: [Selection] = [
            .field("price", type: .named("Decimal")), .field("meta", type: .named("JSON")),
            .field("tags", type: .list(.named("String"))),
        ]
        try environment.store.commit(
            .json(#"{"data":{"price":1.10,"meta":{"b":[1,2]},"tags":["a",null]}}"#), selections: selections)
        retentions += [
            environment.retain(TestProfileQuery(id: "1")),
            environment.retain(RetainedRoot(key: "Query", selections: selections, variables: [:])),
        ]
        let url = directory.appendingPathComponent("store.image")
        try environment.saveImage(to: url)
        return (environment, url)
    }

    func testRoundTripKeepsRecordsErrorsAndAges() throws {
        let clock = TestClock()
        let (environment, url) = try savedEnvironment(clock: clock)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path), ["store.image"],
            "no temporary file left")
        try environment.saveImage(to: url)  // over an existing image

        let log = MemoryLog()
        let loaded = BatonEnvironment(transport: FixtureTransport(), log: log, clock: clock.function)
        XCTAssertTrue(loaded.loadImage(from: url))
        XCTAssertEqual(loaded.store.snapshot().records, environment.store.snapshot().records)
        XCTAssertEqual(log.lines, [#"imageLoaded {"records":4}"#])
        XCTAssertEqual(loaded.store.record("Query")?.slots["price"]?.value, .number("1.10"))
        XCTAssertEqual(
            loaded.store.record("Character:1")?.slots["gender"]?.errors.map(\.message), ["gender is private"])
    }

    func testStalenessSurvivesALaunch() async throws {
        let clock = TestClock()
        let (_, url) = try savedEnvironment(clock: clock)
        clock.advance(by: 100)
        let relaunched = BatonEnvironment(transport: FixtureTransport(), log: MemoryLog(), clock: clock.function)
        relaunched.loadImage(from: url)
        let stale = relaunched.attach(TestProfileQuery(id: "1"), policy: .storeOnly, expiration: 60)
        let fresh = relaunched.attach(TestProfileQuery(id: "1"), policy: .storeOnly, expiration: 1000)
        XCTAssertEqual(stale.phase.data?.character?.name, "Rick Sanchez")
        XCTAssertTrue(stale.isStale)
        XCTAssertFalse(fresh.isStale)
    }

    func testABadImageIsLoggedAndTheStoreStartsEmpty() throws {
        let (_, url) = try savedEnvironment(clock: TestClock())
        let good = try Data(contentsOf: url)
        var flipped = good
        flipped[flipped.count - 10] ^= 0x01
        let futureVersion = Data(
            String(decoding: good, as: UTF8.self).replacingOccurrences(of: "BATON-IMAGE 1 ", with: "BATON-IMAGE 2 ")
                .utf8)
        let cases: [(String, Data, String)] = [
            ("truncated", good.prefix(good.count / 2), "corrupt image: expected"),
            ("corrupt", flipped, "corrupt image: checksum mismatch"),
            ("future", futureVersion, "image version 2 is newer than this build reads (1)"),
            ("garbage", Data("not an image at all".utf8), "corrupt image: no header"),
            ("empty", Data(), "corrupt image: no header"),
        ]
        for (name, data, reason) in cases {
            let bad = directory.appendingPathComponent("\(name).image")
            try data.write(to: bad)
            let log = MemoryLog()
            let environment = BatonEnvironment(transport: FixtureTransport(), log: log)
            try environment.store.commit(.json(#"{"data":{"x":1}}"#), selections: [.field("x", type: .named("Int"))])
            XCTAssertFalse(environment.loadImage(from: bad), name)
            XCTAssertTrue(environment.store.snapshot().records.isEmpty, name)
            XCTAssertEqual(log.events.map(\.name), ["imageRejected"], name)
            XCTAssertTrue(
                log.events.first?.payload["reason"]?.stringValue?.hasPrefix(reason) == true, "\(name): \(log.lines)")
        }
        let absent = BatonEnvironment(transport: FixtureTransport(), log: MemoryLog())
        XCTAssertFalse(absent.loadImage(from: directory.appendingPathComponent("none.image")))
    }
}
