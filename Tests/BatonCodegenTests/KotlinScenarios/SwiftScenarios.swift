import Baton
import BatonTesting
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The runtime scenarios still written twice (Kotlin/tests/baton/tests/Scenarios.kt; the rest are stated once in
/// Scenarios.json), on the Swift runtime: the image in both directions and bad images, each returning the lines the
/// Kotlin scenario of the same name prints, so the test can compare what the two runtimes do with the same records.
struct SwiftScenarios {
    let fixtures: URL
    let seed: URL
    let swiftImage: URL
    let kotlinImage: URL

    func fixture(_ name: String) throws -> Data { try Data(contentsOf: fixtures.appendingPathComponent(name)) }

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
        out.append("name: " + ScenarioShow.text(character?.name))
        out.append("image (@catch): " + ScenarioShow.text(character?.image ?? .success(nil)))
        out.append("location.name (@catch): " + ScenarioShow.text(character?.location?.name ?? .success(nil)))
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

/// The scenario project's `JSON`: any value as its JSON text (the text the runtime stores it as).
struct ScenarioJSON: CustomScalar, Hashable {
    var text: String

    init?(scalarText: String) { text = scalarText }

    static var placeholder: ScenarioJSON { ScenarioJSON(text: "") }

    init(text: String) { self.text = text }
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
