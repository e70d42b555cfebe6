import Baton
import Foundation

/// The runtime's benchmark: commit throughput at three response sizes (to show linear growth), a small commit into
/// a large store with and without a snapshot held, and the rate of scalar reads through a lens. Figures go in
/// Docs/Performance.md under "## Runtime".
///
/// Each figure is the best of several runs, as wall-clock time and as this thread's CPU time: the machine is
/// shared, so the CPU time is what the work costs and the wall time what it took under the load of the moment.
func runRuntimeBenchmark() {
    print("## Runtime")
    let selections = runtimeBenchmarkSelections()

    // `commit(bytes:)` is what the environment calls with a transport's body; `commit(GraphQLResponse(bytes:))`
    // parses a `JSONValue` tree first (the path every commit took before the byte-level normalizer).
    for fromBytes in [true, false] {
        for targetBytes in [256 * 1024, 1024 * 1024, 4 * 1024 * 1024] {
            let body = runtimeBenchmarkResponse(bytes: targetBytes)
            var best = RuntimeTiming()
            var changed = 0
            for _ in 0..<7 {
                let store = Store()
                let timing = RuntimeTiming.measure {
                    if fromBytes {
                        guard let result = try? store.commit(bytes: body, selections: selections) else { return }
                        changed = result.changedSlots.count
                    } else {
                        guard let response = try? GraphQLResponse(bytes: body),
                            let result = try? store.commit(response, selections: selections)
                        else { return }
                        changed = result.changedSlots.count
                    }
                }
                best.keepBest(timing)
                withExtendedLifetime(store) {}
            }
            let megabytes = Double(body.count) / 1_048_576
            print(
                String(
                    format: "commit%@ %5.2f MB: %7.2f ms, %6.1f MB/s; CPU %7.2f ms, %6.1f MB/s (%d slots)",
                    fromBytes ? "(bytes:)  " : "(response)", megabytes, best.wall * 1000, megabytes / best.wall,
                    best.cpu * 1000, megabytes / best.cpu, changed))
        }
    }

    runConnectionCommitBenchmark()

    // A small commit (one character) into a store holding the 4 MB response, with and without a snapshot held:
    // a held snapshot should not make a commit copy the store.
    let large = Store()
    _ = try? large.commit(bytes: runtimeBenchmarkResponse(bytes: 4 * 1024 * 1024), selections: selections)
    let smallBodies = [runtimeBenchmarkResponse(bytes: 1), runtimeBenchmarkResponse(bytes: 1, status: "Dead")]
    for holdSnapshot in [false, true] {
        var best = RuntimeTiming()
        for round in 0..<40 {
            let held = holdSnapshot ? large.snapshot() : nil
            // Alternate two bodies so every commit changes slots.
            let body = smallBodies[round % 2]
            best.keepBest(RuntimeTiming.measure { _ = try? large.commit(bytes: body, selections: selections) })
            withExtendedLifetime(held) {}
        }
        print(
            String(
                format: "small commit into %d records, %@: %.1f µs; CPU %.1f µs", large.snapshot().records.count,
                holdSnapshot ? "snapshot held" : "no snapshot held", best.wall * 1e6, best.cpu * 1e6))
    }

    // 1,000,000 scalar reads through one lens.
    let store = Store()
    let name = Field("name", type: .named("String"))
    let status = Field("status", type: .named("String"))
    _ = try? store.commit(
        GraphQLResponse(
            bytes: Data(
                #"{"data":{"character":{"__typename":"Character","id":"1","name":"Rick Sanchez","status":"Alive"}}}"#
                    .utf8)),
        selections: [
            .field(
                "character", arguments: [("id", .literal("1"))], type: .named("Character"),
                selections: [
                    .field("__typename", type: .named("String")), .field("id", type: .named("ID")), .field(name),
                    .field(status),
                ])
        ])
    let lens = Lens(snapshot: store.snapshot(), key: "Character:1", context: ReadContext())
    let reads = 1_000_000
    var bestReads = RuntimeTiming()
    var characters = 0
    for _ in 0..<5 {
        bestReads.keepBest(
            RuntimeTiming.measure {
                for index in 0..<reads {
                    let value: String? = lens.read(index & 1 == 0 ? name : status)
                    characters &+= value?.utf8.count ?? 0
                }
            })
    }
    print(
        String(
            format:
                "reads: %d scalar reads in %.2f ms, %.1f million reads/s; CPU %.2f ms, %.1f million reads/s (checksum %d)",
            reads, bestReads.wall * 1000, Double(reads) / bestReads.wall / 1e6, bestReads.cpu * 1000,
            Double(reads) / bestReads.cpu / 1e6, characters))
}

/// Commits of a connection page: edges without ids (each a record keyed by its path,
/// `Query.characters(first:N).edges.I`) around small character records, the shape of the network benchmark's
/// 10.7 MB response. Sizes up to 16 MB show whether many path-keyed records grow linearly.
/// `BatonBenchmark connection` runs it alone.
func runConnectionCommitBenchmark() {
    let connection = connectionBenchmarkSelections()
    for targetBytes in [1024 * 1024, 4 * 1024 * 1024, 16 * 1024 * 1024] {
        let body = connectionBenchmarkResponse(bytes: targetBytes)
        var best = RuntimeTiming()
        var changed = 0
        for _ in 0..<(targetBytes > 4 * 1024 * 1024 ? 3 : 7) {
            let store = Store()
            let timing = RuntimeTiming.measure {
                changed = (try? store.commit(bytes: body, selections: connection))?.changedSlots.count ?? 0
            }
            best.keepBest(timing)
            withExtendedLifetime(store) {}
        }
        let megabytes = Double(body.count) / 1_048_576
        print(
            String(
                format: "commit(bytes:) connection %5.2f MB: %7.2f ms, %6.1f MB/s; CPU %7.2f ms, %6.1f MB/s (%d slots)",
                megabytes, best.wall * 1000, megabytes / best.wall, best.cpu * 1000, megabytes / best.cpu, changed))
    }
}

/// `BatonBenchmark runtime-loop [N] [MB] [connection]`: commits the benchmark's response (default 1 MB) from bytes into N fresh
/// stores (default 50) and prints the total: a steady workload for callgrind (`--toggle-collect` on
/// `runRuntimeLoopCommits` counts only the commits).
func runRuntimeLoop(_ arguments: [String]) {
    let count = arguments.first.flatMap { Int($0) } ?? 50
    let megabytes = arguments.dropFirst().first.flatMap { Double($0) } ?? 1
    // A third argument `connection` commits the connection page instead (`runConnectionCommitBenchmark`);
    // `subscribed` has each store watch every slot the commit writes (a handle showing the response), so the
    // commit notifies a subscriber.
    let isConnection = arguments.dropFirst(2).first == "connection"
    let isSubscribed = arguments.dropFirst(2).first == "subscribed"
    let body =
        isConnection
        ? connectionBenchmarkResponse(bytes: Int(megabytes * 1_048_576))
        : runtimeBenchmarkResponse(bytes: Int(megabytes * 1_048_576))
    let selections = isConnection ? connectionBenchmarkSelections() : runtimeBenchmarkSelections()
    let clock = ContinuousClock()
    var changed = 0
    var stores: [Store] = []
    var watched = Set<SlotID>()
    if isSubscribed { watched = (try? Store().commit(bytes: body, selections: selections))?.changed ?? [] }
    let elapsed = clock.measure { (changed, stores) = runRuntimeLoopCommits(count, body, selections, watched) }
    // The stores are freed after the clock stops, as the runtime section frees them outside its timing.
    withExtendedLifetime(stores) {}
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(
        String(
            format: "runtime-loop: %d commits of %.2f MB in %.1f ms, %.1f MB/s (%d slots changed in all)", count,
            Double(body.count) / 1_048_576, seconds * 1000, Double(count * body.count) / 1_048_576 / seconds, changed))
}

/// The commits `runtime-loop` times, in a function of their own for callgrind's `--toggle-collect`.
@inline(never)
func runRuntimeLoopCommits(_ count: Int, _ body: Data, _ selections: [Selection], _ watched: Set<SlotID>) -> (
    Int, [Store]
) {
    var changed = 0
    var stores: [Store] = []
    stores.reserveCapacity(count)
    let heard = RuntimeLoopCounter()
    for _ in 0..<count {
        let store = Store()
        if !watched.isEmpty { _ = store.subscribe(to: watched) { slots in heard.add(slots.count) } }
        changed += (try? store.commit(bytes: body, selections: selections))?.changedSlots.count ?? 0
        stores.append(store)
    }
    // A subscriber hears every slot the commit changed.
    if !watched.isEmpty, heard.total != changed { print("runtime-loop: the subscriber heard \(heard.total) slots") }
    return (changed, stores)
}

/// What `runtime-loop subscribed`'s subscribers heard.
private final class RuntimeLoopCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ slots: Int) { lock.withLock { count += slots } }
    var total: Int { lock.withLock { count } }
}

/// The benchmark's operation: a page of Rick-and-Morty characters with their origin and episodes.
private func runtimeBenchmarkSelections() -> [Selection] {
    let character = Field(
        "characters", arguments: [("page", .literal(1))], type: .named("Characters"),
        selections: [
            .field(
                "results", type: .list(.named("Character")),
                selections: [
                    .field("__typename", type: .nonNull(.named("String"))), .field("id", type: .named("ID")),
                    .field("name", type: .named("String")), .field("status", type: .named("String")),
                    .field("species", type: .named("String")), .field("gender", type: .named("String")),
                    .field("image", type: .named("String")), .field("created", type: .named("String")),
                    .field(
                        "origin", type: .named("Location"),
                        selections: [
                            .field("__typename", type: .nonNull(.named("String"))), .field("id", type: .named("ID")),
                            .field("name", type: .named("String")), .field("dimension", type: .named("String")),
                        ]),
                    .field(
                        "episode", type: .nonNull(.list(.named("Episode"))),
                        selections: [
                            .field("__typename", type: .nonNull(.named("String"))), .field("id", type: .named("ID")),
                            .field("air_date", type: .named("String")),
                        ]),
                ])
        ])
    return [.field(character)]
}

/// The best wall-clock and thread-CPU times seen, in seconds.
private struct RuntimeTiming {
    var wall = Double.infinity
    var cpu = Double.infinity

    mutating func keepBest(_ other: RuntimeTiming) {
        wall = min(wall, other.wall)
        cpu = min(cpu, other.cpu)
    }

    static func measure(_ body: () -> Void) -> RuntimeTiming {
        let cpuStart = threadCPUSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return RuntimeTiming(wall: wall, cpu: threadCPUSeconds() - cpuStart)
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A Rick-and-Morty-shaped `characters` response of about `bytes` bytes.
private func runtimeBenchmarkResponse(bytes: Int, status: String = "Alive") -> Data {
    var text = #"{"data":{"characters":{"results":["#
    var index = 0
    while text.utf8.count < bytes || index == 0 {
        if index > 0 { text += "," }
        let episodes = (0..<8).map { episode in
            #"{"__typename":"Episode","id":"\#(index % 51 + episode)","air_date":"December \#(episode + 1), 2013"}"#
        }.joined(separator: ",")
        text +=
            #"{"__typename":"Character","id":"\#(index)","name":"Character number \#(index)","status":"\#(status)","species":"Human","gender":"Male","image":"https://rickandmortyapi.com/api/character/avatar/\#(index).jpeg","created":"2017-11-04T18:48:46.250Z","origin":{"__typename":"Location","id":"\#(index % 126)","name":"Earth (C-137)","dimension":"Dimension C-137"},"episode":[\#(episodes)]}"#
        index += 1
    }
    text += "]}}}"
    return Data(text.utf8)
}

/// A page of characters whose edges have no id: this benchmark's connection shape and the network benchmark's
/// `LargePageQuery` (there `first` is a variable).
func connectionBenchmarkSelections(first: InputValue = .literal(45000)) -> [Selection] {
    [
        .field(
            Field(
                "characters", arguments: [("first", first)], type: .named("CharacterConnection"),
                selections: [
                    .field("totalCount", type: .nonNull(.named("Int"))),
                    .field(
                        "edges", type: .nonNull(.list(.nonNull(.named("CharacterEdge")))),
                        selections: [
                            .field("cursor", type: .nonNull(.named("String"))),
                            .field(
                                "node", type: .nonNull(.named("Character")),
                                selections: [
                                    .field("id", type: .nonNull(.named("ID"))),
                                    .field("name", type: .nonNull(.named("String"))),
                                    .field("species", type: .nonNull(.named("String"))),
                                    .field("status", type: .nonNull(.named("Status"))),
                                    .field(
                                        "location", type: .named("Location"),
                                        selections: [
                                            .field("id", type: .nonNull(.named("ID"))),
                                            .field("name", type: .nonNull(.named("String"))),
                                            .field("dimension", type: .named("String")),
                                            .field("__typename", type: .nonNull(.named("String"))),
                                        ]),
                                    .field("__typename", type: .nonNull(.named("String"))),
                                ]),
                            .field("__typename", type: .nonNull(.named("String"))),
                        ]),
                    .field("__typename", type: .nonNull(.named("String"))),
                ]))
    ]
}

/// A `characters(first:)` page of about `bytes` bytes as the test server answers it (about 230 bytes an edge).
private func connectionBenchmarkResponse(bytes: Int) -> Data {
    var text = #"{"data":{"characters":{"totalCount":100000,"edges":["#
    var index = 1
    while text.utf8.count < bytes || index == 1 {
        if index > 1 { text += "," }
        let location = index * 7 % 126 + 1
        text +=
            #"{"cursor":"\#(index)","node":{"id":"\#(index)","name":"Character \#(index)","species":"Human","status":"ALIVE","location":{"id":"\#(location)","name":"Location \#(location)","dimension":"Dimension C-\#(location)","__typename":"Location"},"__typename":"Character"},"__typename":"CharacterEdge"}"#
        index += 1
    }
    text += #"],"__typename":"CharacterConnection"}}}"#
    return Data(text.utf8)
}
