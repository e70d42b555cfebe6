import Baton
import Foundation
import XCTest

/// One nesting limit for everything the runtime reads: what `commit` accepts, the image writes and reads back,
/// at every depth it accepts; one level more is refused with nothing committed. Every JSON path (tape, tree,
/// writer, image) runs here on a 512 KiB thread, in the debug build `swift test` makes.
final class DepthTests: XCTestCase {
    static let limit = JSONParser.maximumDepth
    static let epoch: @Sendable () -> Date = { Date(timeIntervalSince1970: 0) }

    /// `levels` nested containers, arrays and objects alternating, around a string.
    static func nested(_ levels: Int) -> String {
        var open = ""
        var close = ""
        for level in 0..<levels {
            open += level % 2 == 0 ? "[" : #"{"k":"#
            close = (level % 2 == 0 ? "]" : "}") + close
        }
        return open + #""leaf""# + close
    }

    static let selections: [Selection] = [
        .field("v", type: .named("JSON")),
        // The Example's plain `name`, a String the server filled with nested objects.
        .field("name", type: .named("String")),
        .field("lists", type: .list(.list(.list(.named("JSON"))))),
        .field(
            "node", type: .named("Node"),
            selections: [.field("id", type: .named("ID")), .field("v", type: .named("JSON"))]),
    ]

    /// Bodies whose deepest container is at level `depth` from the body's root, one per place a deep value can be.
    static func bodies(depth: Int) -> [(String, String)] {
        [
            ("a custom scalar at data's top", #"{"data":{"v":\#(nested(depth - 2))}}"#),
            ("a String holding objects", #"{"data":{"name":\#(nested(depth - 2))}}"#),
            ("inside three list levels", #"{"data":{"lists":[[[\#(nested(depth - 5))]]]}}"#),
            ("in a record below data", #"{"data":{"node":{"id":"1","v":\#(nested(depth - 3))}}}"#),
            (
                "in an error's extensions",
                #"{"data":{"v":1},"errors":[{"message":"m","path":["v"],"extensions":\#(nested(depth - 3))}]}"#
            ),
        ]
    }

    func testTheLimitIsCommittedSavedAndReloadedOnASmallStack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-depth-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        onThread {
            for (name, body) in Self.bodies(depth: Self.limit) {
                let bytes = Store(clock: Self.epoch)
                let tree = Store(clock: Self.epoch)
                do {
                    try bytes.commit(bytes: Data(body.utf8), selections: Self.selections)
                    try tree.commit(GraphQLResponse(bytes: Data(body.utf8)), selections: Self.selections)
                } catch {
                    XCTFail("\(name): \(error)")
                    continue
                }
                // (`XCTAssertEqual` would print the values on a failure: a recursion of its own.)
                XCTAssertTrue(bytes.snapshot().records == tree.snapshot().records, name)
                XCTAssertEqual(bytes.snapshot().records.hashValue, tree.snapshot().records.hashValue, name)
                let url = directory.appendingPathComponent("store.image")
                XCTAssertNoThrow(try bytes.saveImage(to: url), name)
                let reloaded = Store()
                switch reloaded.loadImage(from: url) {
                case .success: XCTAssertTrue(reloaded.snapshot().records == bytes.snapshot().records, name)
                case .failure(let error): XCTFail("\(name): \(error)")
                }
            }
            // The deepest value reads back as the tree the parser builds, and writes out as the text it came from.
            let store = Store()
            let body = Self.bodies(depth: Self.limit)[0].1
            _ = try? store.commit(bytes: Data(body.utf8), selections: Self.selections)
            guard case .json(let value)? = store.record("Query")?.slots["v"]?.value else {
                return XCTFail("no JSON value stored")
            }
            XCTAssertEqual(value.compactText, Self.nested(Self.limit - 2))
            XCTAssertTrue((try? JSONParser.parse(value.compactText)) == value)
            XCTAssertEqual(value.canonicalText, value.compactText)
        }
    }

    func testOneLevelMoreIsRejectedAndNothingIsCommitted() throws {
        onThread {
            for (name, body) in Self.bodies(depth: Self.limit + 1) {
                let store = Store()
                _ = try? store.commit(bytes: Data(#"{"data":{"v":1}}"#.utf8), selections: Self.selections)
                let before = store.snapshot().records
                XCTAssertThrowsError(try store.commit(bytes: Data(body.utf8), selections: Self.selections), name) {
                    guard case .malformed(let reason) = $0 as? ResponseError else { return XCTFail("\(name): \($0)") }
                    XCTAssertTrue(reason.hasSuffix("nesting too deep"), "\(name): \(reason)")
                }
                XCTAssertThrowsError(try GraphQLResponse(bytes: Data(body.utf8)), name)
                XCTAssertTrue(store.snapshot().records == before, name)
            }
            // A tree built in code is held to the same limit: committed as the body it spells.
            let store = Store()
            let deep = try? JSONParser.parse(Self.nested(Self.limit - 1))
            let response = GraphQLResponse(data: JSONObject([("v", deep ?? .null)]))
            XCTAssertThrowsError(try store.commit(response, selections: Self.selections)) {
                XCTAssertEqual(
                    $0 as? ResponseError, .malformed("the response nests more than \(Self.limit) levels"))
            }
            XCTAssertTrue(store.snapshot().records.isEmpty)
            let fits = GraphQLResponse(
                data: JSONObject([("v", (try? JSONParser.parse(Self.nested(Self.limit - 2))) ?? .null)]))
            XCTAssertNoThrow(try store.commit(fits, selections: Self.selections))
        }
    }

    func testAnImageOneLevelDeeperThanACommitCanMakeIsCorrupt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-depth-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The deepest image a commit makes: a custom scalar at data's top, at the limit, four levels deeper.
        let store = Store()
        try store.commit(bytes: Data(Self.bodies(depth: Self.limit)[0].1.utf8), selections: Self.selections)
        let url = directory.appendingPathComponent("store.image")
        try store.saveImage(to: url)
        let image = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        let body = String(image[image.index(after: image.firstIndex(of: "\n") ?? image.startIndex)...])
        XCTAssertEqual(Self.nesting(body), Self.limit + 4)
        // One level more, with a correct header: refused as corrupt, not half-loaded.
        let deeper = body.replacingOccurrences(of: #""leaf""#, with: #"["leaf"]"#)
        let header = "BATON-IMAGE 1 \(deeper.utf8.count) \(String(fnv1a(Data(deeper.utf8)), radix: 16))\n"
        try Data((header + deeper).utf8).write(to: url)
        onThread {
            let reloaded = Store()
            guard case .failure(.corrupt(let reason)) = reloaded.loadImage(from: url) else {
                return XCTFail("an image too deep was loaded")
            }
            XCTAssertTrue(reason.hasSuffix("nesting too deep"), reason)
            XCTAssertTrue(reloaded.snapshot().records.isEmpty)
        }
    }

    /// Far past the limit: refused with an error, never a crash, on the small stack.
    func testHostileNestingFailsCleanlyOnASmallStack() {
        onThread {
            for text in [
                String(repeating: "[", count: 100_000), String(repeating: #"{"a":"#, count: 100_000),
                #"{"data":"# + String(repeating: "[", count: 300),
                String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
            ] {
                let data = Data(text.utf8)
                XCTAssertThrowsError(try JSONParser.parse(data))
                XCTAssertThrowsError(try GraphQLResponse(bytes: data))
                XCTAssertThrowsError(try Store().commit(bytes: data, selections: Self.selections))
            }
        }
    }

    /// The deepest nesting of brackets and braces in a JSON text (outside strings).
    static func nesting(_ text: String) -> Int {
        var level = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in text.utf8 {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                level += 1
                deepest = max(deepest, level)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): level -= 1
            default: break
            }
        }
        return deepest
    }

    private func fnv1a(_ data: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
