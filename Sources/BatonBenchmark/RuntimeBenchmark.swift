import Baton
import Foundation

/// The runtime's benchmark: commit throughput at three response sizes (to show linear growth) and the rate of
/// scalar reads through a lens. Figures go in Docs/Performance.md under "## Runtime".
func runRuntimeBenchmark() {
    print("## Runtime")
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
    let selections: [Selection] = [.field(character)]

    for targetBytes in [256 * 1024, 1024 * 1024, 4 * 1024 * 1024] {
        let body = runtimeBenchmarkResponse(bytes: targetBytes)
        var best = Double.infinity
        var changed = 0
        for _ in 0..<5 {
            let store = Store()
            let start = DispatchTime.now().uptimeNanoseconds
            guard let response = try? GraphQLResponse(bytes: body), let result = try? store.commit(response, selections: selections)
            else {
                print("commit failed")
                return
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            best = min(best, seconds)
            changed = result.changed.count
        }
        let megabytes = Double(body.count) / 1_048_576
        print(
            String(
                format: "commit %7.2f MB: %7.2f ms, %6.1f MB/s (%d slots)", megabytes, best * 1000, megabytes / best, changed))
    }

    // A small commit (one character) into a store holding the 4 MB response, with and without a snapshot held:
    // a held snapshot must not make a commit copy the store.
    let large = Store()
    _ = try? large.commit(GraphQLResponse(bytes: runtimeBenchmarkResponse(bytes: 4 * 1024 * 1024)), selections: selections)
    let small = runtimeBenchmarkResponse(bytes: 1)
    for holdSnapshot in [false, true] {
        var bestSmall = Double.infinity
        for round in 0..<20 {
            let held = holdSnapshot ? large.snapshot() : nil
            // Alternate two bodies so every commit changes slots.
            let body = round % 2 == 0 ? small : runtimeBenchmarkResponse(bytes: 1, status: "Dead")
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try? large.commit(GraphQLResponse(bytes: body), selections: selections)
            bestSmall = min(bestSmall, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            withExtendedLifetime(held) {}
        }
        print(
            String(
                format: "small commit into %d records, %@: %.1f µs", large.snapshot().records.count,
                holdSnapshot ? "snapshot held" : "no snapshot held", bestSmall * 1e6))
    }

    // 1,000,000 scalar reads through one lens.
    let store = Store()
    let name = Field("name", type: .named("String"))
    let status = Field("status", type: .named("String"))
    _ = try? store.commit(
        GraphQLResponse(bytes: Data(#"{"data":{"character":{"__typename":"Character","id":"1","name":"Rick Sanchez","status":"Alive"}}}"#.utf8)),
        selections: [
            .field(
                "character", arguments: [("id", .literal("1"))], type: .named("Character"),
                selections: [.field("__typename", type: .named("String")), .field("id", type: .named("ID")), .field(name), .field(status)])
        ])
    let lens = Lens(snapshot: store.snapshot(), key: "Character:1", context: ReadContext())
    let reads = 1_000_000
    var bestReads = Double.infinity
    var characters = 0
    for _ in 0..<3 {
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<reads {
            let value: String? = lens.read(index & 1 == 0 ? name : status)
            characters &+= value?.utf8.count ?? 0
        }
        bestReads = min(bestReads, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    print(String(format: "reads: %d scalar reads in %.2f ms, %.1f million reads/s (checksum %d)", reads, bestReads * 1000, Double(reads) / bestReads / 1e6, characters))
}

/// A Rick-and-Morty-shaped `characters` response of about `bytes` bytes.
private func runtimeBenchmarkResponse(bytes: Int, status: String = "Alive") -> Data {
    var text = #"{"data":{"characters":{"results":["#
    var index = 0
    while text.utf8.count < bytes {
        if index > 0 { text += "," }
        let episodes = (0..<8).map { episode in
            #"{"__typename":"Episode","id":"\#(index % 51 + episode)","air_date":"December \#(episode + 1), 2013"}"#
        }.joined(separator: ",")
        text += #"{"__typename":"Character","id":"\#(index)","name":"Character number \#(index)","status":"\#(status)","species":"Human","gender":"Male","image":"https://rickandmortyapi.com/api/character/avatar/\#(index).jpeg","created":"2017-11-04T18:48:46.250Z","origin":{"__typename":"Location","id":"\#(index % 126)","name":"Earth (C-137)","dimension":"Dimension C-137"},"episode":[\#(episodes)]}"#
        index += 1
    }
    text += "]}}}"
    return Data(text.utf8)
}
