// The child process of the SQLite kill tests (Tests/BatonSQLiteTests/KillTests.swift).
//
// `BatonSQLiteKillHelper write PATH` opens the cache at PATH and writes steps until it is killed, printing
// `step S` once step S is written (flushed); it resumes after whatever step the cache holds.
// `BatonSQLiteKillHelper verify PATH` opens the cache and prints `consistent S` when its records are exactly what
// steps 1...S make from an empty store (records, slots, field errors, ages, invalidations), otherwise `torn …`.
//
// Step by step: batch k commits a response that writes 8 of 40 items (`v` = k, `w` a text of 100–200 bytes
// made from k, a field error on one `w` every 7th batch) and the root's `batch` = k, on a clock that reads k; after
// every 5th batch a second step invalidates one item.
import Baton
import BatonTesting
import BatonSQLite
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The steps the writer makes and the verifier replays.
enum Scenario {
    static let items = 40

    static let selections: [Selection] = [
        .field("batch", type: .named("Int")),
        .field(
            "items", type: .list(.named("Item")),
            selections: [
                .field("__typename", type: .named("String")), .field("id", type: .named("ID")),
                .field("v", type: .named("Int")), .field("w", type: .named("String")),
            ]),
    ]

    /// The response of batch `k`.
    static func response(_ k: Int) -> Data {
        let items = (0..<8).map { j -> String in
            let id = (k * 3 + j) % Scenario.items
            let failed = k % 7 == 0 && j == 0
            let text = String(String(repeating: "\(k)-", count: 50 + k % 50).prefix(100 + k % 100))
            let w = failed ? "null" : "\"" + text + "\""
            return #"{"__typename":"Item","id":"\#(id)","v":\#(k),"w":\#(w)}"#
        }
        var body = #"{"data":{"batch":\#(k),"items":[\#(items.joined(separator: ","))]}"#
        if k % 7 == 0 { body += #","errors":[{"message":"w failed in \#(k)","path":["items",0,"w"]}]"# }
        return Data((body + "}").utf8)
    }

    /// Whether batch `k` is followed by an invalidation step.
    static func invalidates(_ k: Int) -> Bool { k % 5 == 0 }

    /// Runs the steps of batch `k` on `environment` whose clock reads `clock`; `afterStep` after each one.
    static func run(_ k: Int, on environment: BatonEnvironment, clock: Clock, afterStep: () -> Void) {
        clock.now = Double(k)
        _ = try? environment.store.commit(bytes: response(k), selections: selections)
        afterStep()
        if invalidates(k) {
            environment.invalidate(record: "Item:\(k % Scenario.items)")
            afterStep()
        }
    }

    /// The number of steps through batch `k` (and its invalidation when `invalidated`).
    static func steps(through k: Int, invalidated: Bool) -> Int {
        k + (k / 5) - (invalidates(k) && !invalidated ? 1 : 0)
    }
}

/// The clock the store stamps ages with.
final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0.0
    var now: Double {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// Writes a line to standard output at once (unbuffered), so the parent sees every step before a kill.
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

/// The batch the store holds (its root's `batch`), 0 when empty.
func batch(in store: Store) -> Int {
    guard case .number(let text)? = store.record("Query")?.slots["batch"]?.value else { return 0 }
    return Int(text) ?? 0
}

let arguments = CommandLine.arguments
guard arguments.count == 3, ["write", "verify"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: BatonSQLiteKillHelper write|verify PATH\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: arguments[2])
let clock = Clock()
let environment = BatonEnvironment(
    transport: FixtureTransport(), log: MemoryLog(), clock: { Date(timeIntervalSince1970: clock.now) })
let cache: SQLiteCache
do {
    cache = try environment.openSQLiteCache(at: url)
} catch {
    say("error \(error)")
    exit(1)
}
if case .setAside(let problem, _) = cache.opening {
    say("set aside: \(problem)")
    exit(1)
}
let held = batch(in: environment.store)

if arguments[1] == "write" {
    // Resume after the held step: the kill may have come between a batch's commit and its invalidation (the
    // invalidated item is the last thing a full batch touches, so its flag tells).
    let item = "Item:\(held % Scenario.items)"
    let complete = held == 0 || !Scenario.invalidates(held) || environment.store.record(item)?.invalidated == true
    var step = Scenario.steps(through: held, invalidated: complete)
    if !complete {
        clock.now = Double(held)
        environment.invalidate(record: item)
        cache.flush()
        step += 1
        say("step \(step)")
    }
    var k = held
    while true {
        k += 1
        Scenario.run(k, on: environment, clock: clock) {
            cache.flush()
            step += 1
            say("step \(step)")
        }
    }
}

// Verify: replay from an empty store and compare; the held batch may lack its invalidation step.
let records = environment.store.snapshot().records
func replay(through k: Int, invalidated: Bool) -> [RecordKey: Record] {
    let replayClock = Clock()
    let replayed = BatonEnvironment(
        transport: FixtureTransport(), log: MemoryLog(), clock: { Date(timeIntervalSince1970: replayClock.now) })
    var index = 0
    while index < k {
        index += 1
        replayClock.now = Double(index)
        _ = try? replayed.store.commit(bytes: Scenario.response(index), selections: Scenario.selections)
        if Scenario.invalidates(index), index < k || invalidated {
            replayed.invalidate(record: "Item:\(index % Scenario.items)")
        }
    }
    return replayed.store.snapshot().records
}
if records == replay(through: held, invalidated: true) {
    say("consistent \(Scenario.steps(through: held, invalidated: true))")
} else if Scenario.invalidates(held), records == replay(through: held, invalidated: false) {
    say("consistent \(Scenario.steps(through: held, invalidated: false))")
} else {
    say("torn: \(records.count) records do not match any step of batch \(held)")
}
