import Baton
import BatonTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Kotlin runtime scenarios (Kotlin/tests/baton/tests/Scenarios.kt) on the Swift runtime, through this
/// project's generated Swift: each returns the lines the Kotlin scenario of the same name prints, so the test can
/// compare what the two runtimes do with the same operations and the same answers.
struct SwiftScenarios {
    let fixtures: URL
    let seed: URL
    let swiftImage: URL
    let kotlinImage: URL

    func fixture(_ name: String) throws -> Data { try Data(contentsOf: fixtures.appendingPathComponent(name)) }

    func answer(_ name: String) -> FixtureTransport.Answer { .file(fixtures.appendingPathComponent(name)) }

    func environment(_ transport: FixtureTransport, _ log: MemoryLog, _ clock: ScenarioClock = ScenarioClock())
        -> BatonEnvironment
    {
        BatonEnvironment(transport: transport, log: log, clock: clock.function)
    }

    static func text(_ value: String?) -> String { value ?? "nil" }

    static func text(_ result: Result<String?, FieldErrors>) -> String {
        switch result {
        case .success(let value): "success: " + text(value)
        case .failure(let errors): "failure: " + errors.errors.map(\.description).joined(separator: "; ")
        }
    }

    static func phase<D>(_ phase: Phase<D>) -> String {
        switch phase {
        case .loading: "loading"
        case .ready: "ready"
        case .failed(let error): "failed: " + error.description
        }
    }

    static func kind<D>(_ phase: Phase<D>) -> String {
        switch phase {
        case .loading: "loading"
        case .ready: "ready"
        case .failed(.request): "failed: request"
        case .failed(.offline): "failed: offline"
        case .failed(.timedOut): "failed: timedOut"
        case .failed(.httpStatus): "failed: httpStatus"
        case .failed(.malformedResponse): "failed: malformedResponse"
        case .failed(.tooLarge): "failed: tooLarge"
        case .failed(.cancelled): "failed: cancelled"
        case .failed(.protocolViolation): "failed: protocolViolation"
        case .failed(.transportFailed): "failed: transportFailed"
        case .failed(.read): "failed: read"
        case .failed(.unattached): "failed: unattached"
        }
    }

    func prepareHeal(_ healAnswer: String, _ out: inout [String]) async throws -> (
        BatonEnvironment, MemoryLog, FixtureTransport, Handle<CharacterDetail>
    ) {
        let transport = FixtureTransport()
        transport.answer("LocationList", with: answer("location-list.json"))
        transport.answer("CharacterDetail", with: answer("detail.json"), answer(healAnswer))
        transport.answer("CharacterOrigin", with: answer("retargeted.json"))
        let log = MemoryLog()
        let environment = environment(transport, log)
        _ = try await environment.fetch(LocationList())
        let detail = environment.attach(CharacterDetail(id: "1"))
        await environment.settle()
        out.append("before: " + Self.text(detail.phase.data?.character?.origin?.dimension))
        log.clear()
        return (environment, log, transport, detail)
    }

    func heal() async throws -> [String] {
        var out: [String] = []
        let (environment, log, transport, detail) = try await prepareHeal("detail-healed.json", &out)
        let seen = Guarded<[String]>([])
        detail.observe { seen.withLock { $0.append(Self.text(detail.phase.data?.character?.origin?.dimension)) } }
        _ = try await environment.fetch(CharacterOrigin(id: "1"))
        await environment.settle()
        let lines = log.lines
        out += lines.prefix(4)
        let completed = #"fetchCompleted {"operation":"CharacterOrigin"}"#
        out.append("then, with \(completed) somewhere: \(lines.dropFirst(4).contains(completed))")
        out += lines.dropFirst(4).filter { $0 != completed }
        out.append("CharacterDetail requests: \(transport.requestCount("CharacterDetail"))")
        out.append("dimension: " + Self.text(detail.phase.data?.character?.origin?.dimension))
        out.append("first seen: " + (seen.withLock { $0.first } ?? "null"))
        out.append("last seen: " + (seen.withLock { $0.last } ?? "null"))
        out.append("stale: \(detail.isStale)")
        return out
    }

    /// What both runtimes commit before saving an image: Plate 3's two answers and custom scalars of every shape.
    func imageStore(_ clock: ScenarioClock) throws -> Store {
        let store = Store(clock: clock.function)
        try store.commit(bytes: try fixture("earlier-answer.json"), for: TestProfileQuery(id: "1"))
        clock.advance(by: 0.25)
        try store.commit(
            bytes: try Data(contentsOf: seed.appendingPathComponent("character-errors.json")),
            for: TestProfileQuery(id: "1"))
        clock.advance(by: 0.125)
        try store.commit(bytes: try fixture("custom-values.json"), selections: customValueSelections)
        return store
    }

    let customValueSelections: [Selection] = [
        .field("price", type: .named("Decimal")), .field("meta", type: .named("JSON")),
        .field("tags", type: .list(.named("String"))),
    ]

    /// Writes the Swift runtime's image of `imageStore`, which the Kotlin scenario reads and compares with its own.
    /// The image saves what the environment's roots reach: both commits are retained.
    func writeSwiftImage() throws {
        let environment = BatonEnvironment(
            store: try imageStore(ScenarioClock()), transport: FixtureTransport(), log: MemoryLog(),
            clock: ScenarioClock().function)
        let retained = [
            environment.retain(TestProfileQuery(id: "1")),
            environment.retain(RetainedRoot(key: "Query", selections: customValueSelections, variables: [:])),
        ]
        try environment.saveImage(to: swiftImage)
        for retention in retained { retention.release() }
    }

    func image() throws -> [String] {
        var out: [String] = []
        let mine = try imageStore(ScenarioClock())
        let kotlinBytes = try Data(contentsOf: kotlinImage)
        out.append("the same bytes as the other runtime's image: \(kotlinBytes == (try Data(contentsOf: swiftImage)))")
        let log = MemoryLog()
        let loaded = BatonEnvironment(transport: FixtureTransport(), log: log, clock: ScenarioClock().function)
        out.append("loaded the other runtime's image: \(loaded.loadImage(from: kotlinImage))")
        out += log.lines
        out.append("the same records: \(loaded.store.snapshot().records == mine.snapshot().records)")
        let character = try loaded.store.read(TestProfileQuery(id: "1")).character
        out.append("name: " + Self.text(character?.name))
        out.append("image (@catch): " + Self.text(character?.image ?? .success(nil)))
        out.append("location.name (@catch): " + Self.text(character?.location?.name ?? .success(nil)))
        var price = "nil"
        if case .number(let literal)? = loaded.store.record("Query")?.slots["price"]?.value { price = literal }
        out.append("Query.price: " + price)
        out.append("Character:1 updatedAt: " + String(loaded.store.record("Character:1")?.updatedAt ?? -1))
        return out
    }

    func badImages() throws -> [String] {
        var out: [String] = []
        let good = try Data(contentsOf: swiftImage)
        var flipped = good
        flipped[flipped.count - 10] ^= 0x01
        let future = Data(
            String(decoding: good, as: UTF8.self).replacingOccurrences(of: "BATON-IMAGE 1 ", with: "BATON-IMAGE 2 ")
                .utf8)
        let cases: [(String, Data)] = [
            ("truncated", good.prefix(good.count / 2)), ("corrupt", flipped), ("future", future),
            ("garbage", Data("not an image at all".utf8)), ("empty", Data()),
        ]
        for (name, data) in cases {
            let file = swiftImage.deletingLastPathComponent().appendingPathComponent("swift-\(name).image")
            try data.write(to: file)
            let log = MemoryLog()
            let environment = BatonEnvironment(transport: FixtureTransport(), log: log, clock: ScenarioClock().function)
            try environment.store.commit(
                bytes: Data(#"{"data":{"x":1}}"#.utf8), selections: [.field("x", type: .named("Int"))])
            let loaded = environment.loadImage(from: file)
            out.append(
                "\(name): loaded \(loaded), records \(environment.store.snapshot().records.count), "
                    + log.lines.joined(separator: " "))
        }
        let absent = BatonEnvironment(transport: FixtureTransport(), log: MemoryLog(), clock: ScenarioClock().function)
        out.append(
            "absent: loaded \(absent.loadImage(from: swiftImage.deletingLastPathComponent().appendingPathComponent("none.image")))"
        )
        return out
    }

    /// `@throwOnFieldError` and fragment spreads (as Relay's): an operation's policy does not answer for the errors
    /// inside a fragment it spreads (the fragment reads them under its own policy), and a fragment's policy makes
    /// its own reads strict.
    func strictSpreads() async throws -> [String] {
        let transport = FixtureTransport()
        transport.answer("StrictSpreadReads", with: answer("strict-spread.json"))
        transport.answer("StrictFragmentReads", with: answer("strict-spread.json"))
        let log = MemoryLog()
        let environment = environment(transport, log)
        var out: [String] = []
        do {
            let character = try await environment.fetch(StrictSpreadReads(id: "1")).character
            out.append("StrictSpreadReads: value " + Self.text(try character?.id))
            out.append("its spread's image: " + Self.text(character?.characterImage.image))
        } catch {
            out.append("StrictSpreadReads: throws \(error)")
        }
        let strict = try await environment.fetch(StrictFragmentReads(id: "1")).character
        out.append("StrictFragmentReads: value " + Self.text(strict?.id))
        out.append("the strict fragment's name: " + attempt { try strict?.strictCharacterImage.wrappedValue.name })
        out.append("the strict fragment's image: " + attempt { try strict?.strictCharacterImage.wrappedValue.image })
        return out + log.lines
    }

    // MARK: Connections, declarative updates, optimistic responses, garbage collection (issue #15)

    /// The friends a store shows for `kind`, in order, and whether there is a next page.
    static func friends(_ store: Store, kind: String? = nil) throws -> String {
        guard let character = try store.read(CharacterFriends(id: "1", kind: kind)).character else {
            return "no character"
        }
        let names = (character.friends.edges ?? .empty).map { edge in edge.node?.name ?? "nil" }
        return names.joined(separator: ", ") + "; next \(character.friends.pageInfo.hasNextPage)"
    }

    /// Pages merged into one connection per `kind` (a repeated edge once), a friend appended to one connection,
    /// a character deleted from every connection.
    func connections() throws -> [String] {
        var out: [String] = []
        let store = Store(clock: ScenarioClock().function)
        try store.commit(bytes: try fixture("friends-page-1.json"), for: CharacterFriends(id: "1"))
        out.append("page 1: " + (try Self.friends(store)))
        let second = try store.commit(
            bytes: try fixture("friends-page-2.json"), for: CharacterFriends(id: "1", cursor: "c2"))
        out.append("page 2: \(second.changed.count) slots changed; " + (try Self.friends(store)))
        try store.commit(bytes: try fixture("friends-enemies.json"), for: CharacterFriends(id: "1", kind: "enemy"))
        out.append("kind enemy: " + (try Self.friends(store, kind: "enemy")))
        out.append("no kind: " + (try Self.friends(store)))
        let id = try store.read(CharacterFriends(id: "1")).character?.friends.connectionID
        out.append("connection: " + (id?.description ?? "nil"))
        let added = try store.commit(
            bytes: try fixture("add-friend.json"),
            for: AddFriend(id: "5", name: "Jerry", connections: id.map { [$0] } ?? []))
        out.append("addFriend: \(added.changed.count) slots changed; " + (try Self.friends(store)))
        out.append("kind enemy untouched: " + (try Self.friends(store, kind: "enemy")))
        let removed = try store.commit(bytes: try fixture("remove-character.json"), for: RemoveCharacter(id: "3"))
        out.append(
            "removeCharacter: \(removed.changed.count) slots changed; " + (try Self.friends(store))
                + "; Character:3 deleted \(store.record("Character:3")?.isDeleted ?? false)")
        return out
    }

    /// A mutation with an optimistic response refused (rolled back), then accepted (replaced by the answer).
    func optimistic() async throws -> [String] {
        var out: [String] = []
        let transport = FixtureTransport()
        transport.answer("CharacterFriends", with: answer("friends-page-1.json"))
        transport.answer("AddFriend", with: answer("add-friend-refused.json"), answer("add-friend.json"))
        let log = MemoryLog()
        let environment = environment(transport, log)
        let handle = environment.attach(CharacterFriends(id: "1"))
        await environment.settle()
        guard let id = handle.phase.data?.character?.friends.connectionID else { return ["no connection"] }
        let optimistic = AddFriend.Data.Optimistic(
            addFriend: .init(friendEdge: .init(cursor: "pending", node: .init(id: "5", name: "Jerry (sending)"))))
        let call = MutationCall<AddFriend>(environment: environment)
        do {
            try await call(id: "5", name: "Jerry", connections: [id], optimisticResponse: optimistic)
            out.append("refused: answered")
        } catch {
            out.append("refused: " + error.description)
        }
        out.append("after the refusal: " + (try Self.friends(environment.store)))
        let data = try await call(id: "5", name: "Jerry", connections: [id], optimisticResponse: optimistic)
        out.append("accepted: " + (data.addFriend?.friendEdge?.node?.name ?? "nil"))
        out.append(
            "after the answer: " + (try Self.friends(environment.store))
                + "; layers \(environment.store.optimisticLayerCount)")
        await environment.settle()
        out.append("Logged " + log.lines.joined(separator: " "))
        handle.detach()
        return out
    }

    /// A `@refetchable` fragment's connection paged from app code: pages in order, an edge already shown (the same
    /// cursor, then the same node id) not shown twice, a failed page keeping the loaded ones and carrying its error,
    /// two concurrent `loadNext` calls sharing one fetch, and a refetch starting the connection again.
    func pagination() async throws -> [String] {
        var out: [String] = []
        let fixtures = FixtureTransport()
        fixtures.answer("FriendPagesRoot", with: answer("friend-pages-1.json"))
        fixtures.answer(
            "FriendPagesQuery", with: answer("friend-pages-2.json"), answer("request-error.json"),
            answer("friend-pages-3.json"), answer("friend-pages-4.json"), answer("friend-pages-refetched.json"))
        let transport = HeldTransport(fixtures)
        let environment = BatonEnvironment(transport: transport, log: MemoryLog(), clock: ScenarioClock().function)
        let handle = environment.attach(FriendPagesRoot(id: "1"))
        await environment.settle()
        guard let fragment = handle.phase.data?.friendPages.wrappedValue else { return ["no fragment"] }
        let pages = environment.pagination(of: fragment)
        let sent = { fixtures.requestCount("FriendPagesQuery") }
        out.append("first page: " + Self.friendPages(pages))
        let same = environment.pagination(of: pages.fragment) === pages
        out.append("the same pagination for the same record and variables: \(same)")
        try await pages.loadNext(2)
        out.append("page 2: " + Self.friendPages(pages))
        do throws(FetchError) {
            try await pages.loadNext(2)
            out.append("page 3: answered")
        } catch {
            out.append("page 3 failed: " + error.description)
        }
        out.append(
            "after the failure: " + Self.friendPages(pages) + "; lastError "
                + (pages.lastError?.description ?? "nil"))
        try await pages.loadNext(2)
        let retried = pages.lastError?.description ?? "nil"
        out.append("page 3 again: " + Self.friendPages(pages) + "; lastError " + retried)
        transport.hold()
        let first = Task { try await pages.loadNext(2) }
        await transport.waitForHeld(1)
        let loading = pages.isLoadingNext
        let second = Task {
            transport.mark()
            try await pages.loadNext(2)
        }
        await transport.waitForMark()
        try await Task.sleep(nanoseconds: 50_000_000)
        transport.release()
        try await first.value
        try await second.value
        out.append("two loadNext at once: loading \(loading); \(sent() - 3) request; " + Self.friendPages(pages))
        try await pages.loadNext(2)
        out.append("no next page: \(sent() - 4) requests")
        try await pages.refetch(["count": 1])
        out.append("refetched: " + Self.friendPages(pages) + "; \(sent()) requests in all")
        let edges = handle.phase.data?.friendPages.wrappedValue.character?.friends.edges ?? .empty
        let names: [String] = edges.map { $0.node?.name ?? "nil" }
        out.append("after the refetch the handle reads " + names.joined(separator: ", "))
        handle.detach()
        return out
    }

    static func friendPages(_ pages: Pagination<FriendPages_query>) -> String {
        let friends = pages.fragment.character?.friends
        let names = (friends?.edges ?? .empty).map { edge in edge.node?.name ?? "nil" }
        let info = friends.map { "\($0.pageInfo.hasNextPage)" } ?? "nil"
        return names.joined(separator: ", ")
            + "; next \(pages.hasNext) (pageInfo \(info)); loading \(pages.isLoadingNext)"
    }

    func attempt(_ read: () throws -> String?) -> String {
        do {
            return "value " + Self.text(try read())
        } catch {
            return "throws \(error)"
        }
    }
}

/// The scenario project's `Year`: `year 1990` is 1990; any other text does not convert.
struct ScenarioYear: CustomScalar, Hashable {
    var year: Int

    init?(scalarText: String) {
        guard scalarText.hasPrefix("year "), let year = Int(scalarText.dropFirst(5)) else { return nil }
        self.year = year
    }

    static var placeholder: ScenarioYear { ScenarioYear(year: 0) }

    init(year: Int) { self.year = year }
}

/// A clock tests move by hand, starting where the Kotlin scenarios' clock starts.
final class ScenarioClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)

    func advance(by seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }

    var function: @Sendable () -> Date {
        {
            self.lock.lock()
            defer { self.lock.unlock() }
            return self.current
        }
    }
}

/// A value behind a lock, for observers called on other threads.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A transport that holds requests while `hold()` is in effect, so a scenario reads a handle's phase "at once"
/// while its fetch is still in flight: without it a fixture answers fast enough to race the read under load.
final class HeldTransport: Transport, @unchecked Sendable {
    private let inner: FixtureTransport
    private let lock = NSLock()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var marked = false

    init(_ inner: FixtureTransport) { self.inner = inner }

    func hold() { lock.withLock { held = true } }

    /// Waits (up to ten seconds) until `count` requests are held.
    func waitForHeld(_ count: Int) async {
        for _ in 0..<10_000 where lock.withLock({ waiting.count < count }) {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }

    /// A scenario's mark (the pagination's second call has started), and waiting (up to ten seconds) for it.
    func mark() { lock.withLock { marked = true } }

    func waitForMark() async {
        for _ in 0..<10_000 where !lock.withLock({ marked }) { try? await Task.sleep(nanoseconds: 1_000_000) }
    }

    func release() {
        let resumed: [CheckedContinuation<Void, Never>] = lock.withLock {
            held = false
            defer { waiting = [] }
            return waiting
        }
        for continuation in resumed { continuation.resume() }
    }

    func send(_ request: GraphQLRequest) async throws -> Data {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let run: Bool = lock.withLock {
                if held { waiting.append(continuation) }
                return !held
            }
            if run { continuation.resume() }
        }
        return try await inner.send(request)
    }
}
