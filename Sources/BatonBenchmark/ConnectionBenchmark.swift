import Baton
import Foundation

/// Issue 15's two costs, each at two sizes in one run so the ratio shows how it grows: a page of 100 edges merged
/// into a connection of 1,000 and of 10,000 edges (`loadNext`'s commit: the page after the end cursor appended,
/// edges already shown skipped), and a garbage collection over 10,000 and 100,000 records, half of them
/// unreachable. Linear means the ratio is about 10 (the merge copies the connection's edge list once; the
/// collection marks what the roots reach and sweeps the table once).
func runConnectionBenchmark() {
    print("## Connections and garbage collection")
    var merges: [Int: Double] = [:]
    for size in [1_000, 10_000] { merges[size] = mergeSeconds(connectionSize: size) }
    print(
        String(
            format: "merge 100 edges into a connection of 1,000: %.3f ms, of 10,000: %.3f ms (%.1fx for 10x edges)",
            (merges[1_000] ?? 0) * 1000, (merges[10_000] ?? 0) * 1000, (merges[10_000] ?? 0) / (merges[1_000] ?? 1)))
    var collections: [Int: Double] = [:]
    for size in [10_000, 100_000] { collections[size] = collectionSeconds(records: size) }
    print(
        String(
            format: "garbage collection over 10,000 records: %.2f ms, over 100,000: %.2f ms (%.1fx for 10x records)",
            (collections[10_000] ?? 0) * 1000, (collections[100_000] ?? 0) * 1000,
            (collections[100_000] ?? 0) / (collections[10_000] ?? 1)))
}

/// `friends(first: $count, after: $cursor) @connection(key: "Bench_friends") { edges { cursor node { id } } pageInfo
/// { endCursor hasNextPage } }` on the root.
private let benchNode = Field.composite("node", "Character", [.field(Field.leaf("id", "ID!"))])
private let benchEdges = Field.composite(
    "edges", "[Edge]", [.field(Field.leaf("cursor", "String!")), .field(benchNode)])
private let benchPageInfo = Field.composite(
    "pageInfo", "PageInfo!", [.field(Field.leaf("endCursor", "String")), .field(Field.leaf("hasNextPage", "Boolean!"))])
private let benchFriends = Field(
    "friends", arguments: [("after", .variable("cursor")), ("first", .variable("count"))],
    type: .nonNull(.named("FriendConnection")), selections: [.field(benchEdges), .field(benchPageInfo)],
    connection: ConnectionSpec(key: "Bench_friends"))

/// A page of `count` edges from `start`, as a server sends it.
private func page(from start: Int, count: Int) -> Data {
    var text = #"{"data":{"friends":{"__typename":"FriendConnection","edges":["#
    for index in start..<(start + count) {
        if index > start { text += "," }
        text += #"{"__typename":"Edge","cursor":"c\#(index)","node":{"__typename":"Character","id":"\#(index)"}}"#
    }
    text += #"],"pageInfo":{"__typename":"PageInfo","endCursor":"c\#(start + count - 1)","hasNextPage":true}}}}"#
    return Data(text.utf8)
}

/// The best of five commits of a 100-edge page after a connection of `connectionSize` edges.
private func mergeSeconds(connectionSize: Int) -> Double {
    var best = Double.infinity
    for _ in 0..<5 {
        let store = Store()
        _ = try? store.commit(
            bytes: page(from: 0, count: connectionSize), selections: [.field(benchFriends)],
            variables: ["count": .number(String(connectionSize))])
        let next = page(from: connectionSize, count: 100)
        let variables: [String: JSONValue] = ["count": .number("100"), "cursor": .string("c\(connectionSize - 1)")]
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try? store.commit(bytes: next, selections: [.field(benchFriends)], variables: variables)
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return best
}

/// The best of three collections over `records` records: half under `kept` (reachable), half under `dropped`.
private func collectionSeconds(records: Int) -> Double {
    let item = [Selection.field(Field.leaf("id", "ID!")), .field(Field.leaf("name", "String"))]
    let kept = Field.composite("kept", "[Character]", item)
    let dropped = Field.composite("dropped", "[Character]", item)
    func list(_ name: String, from start: Int) -> String {
        var text = #""\#(name)":["#
        for index in start..<(start + records / 2) {
            if index > start { text += "," }
            text += #"{"__typename":"Character","id":"\#(index)","name":"C\#(index)"}"#
        }
        return text + "]"
    }
    let body = Data(("{\"data\":{" + list("kept", from: 0) + "," + list("dropped", from: records) + "}}").utf8)
    var best = Double.infinity
    var removed = 0
    for _ in 0..<3 {
        let store = Store()
        _ = try? store.commit(bytes: body, selections: [.field(kept), .field(dropped)])
        let roots = [RetainedRoot(key: "Query", selections: [.field(kept)], variables: [:])]
        let start = DispatchTime.now().uptimeNanoseconds
        removed = store.collectGarbage(keeping: roots)
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    if removed != records / 2 { print("  (collected \(removed) records, expected \(records / 2))") }
    return best
}
