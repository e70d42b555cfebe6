import Baton
import Foundation
import XCTest

/// `Store.commit(bytes:)` must do exactly what committing the parsed `GraphQLResponse` does (the same records,
/// slots, errors, changed set and unattached errors, the same request errors and malformed-body errors), and
/// what the plain reading of Docs/Runtime.md's rules does (`ReferenceNormalizer`, over the parsed tree).
final class TapeCommitTests: XCTestCase {
    private static let epoch: @Sendable () -> Date = { Date(timeIntervalSince1970: 0) }

    private static let node: [Selection] = [
        .field("__typename", type: .named("String")), .field("id", type: .named("ID")),
        .field("name", type: .named("String")), .field("name", alias: "title", type: .named("String")),
        .field("n", type: .named("Float")), .field("tags", type: .list(.named("String"))),
        .field("meta", type: .named("JSON")),
        .field("size", arguments: [("unit", .variable("unit"))], type: .named("Int")),
        .inlineFragment(on: TypeCondition("Cat"), selections: [.field("lives", type: .named("Int"))]),
        .inlineFragment(
            on: TypeCondition("Pet", possibleTypes: ["Dog", "Cat"]),
            selections: [.field("owner", type: .named("Person"), selections: [.field("name", type: .named("String"))])]),
        .field("skipped", type: .named("String"), conditions: [.skip("hide")]),
    ]

    private static let selections: [Selection] = [
        .field("node", arguments: [("id", .variable("id"))], type: .named("Node"), selections: node),
        .field("nodes", type: .list(.list(.named("Node"))), selections: node),
        .field("count", type: .named("Int")),
        .field("plain", type: .named("String")),
    ]

    private static let variables: [String: JSONValue] = ["id": "1", "unit": "CM", "hide": false]

    /// Commits `body` both ways into stores that already hold `prior` (committed the tree way), and compares.
    private func assertSame(
        _ body: String, prior: String? = nil, selections: [Selection] = selections,
        variables: [String: JSONValue] = variables, file: StaticString = #filePath, line: UInt = #line
    ) {
        let tree = Store(clock: Self.epoch)
        let bytes = Store(clock: Self.epoch)
        if let prior {
            for store in [tree, bytes] {
                _ = try? store.commit(
                    GraphQLResponse(bytes: Data(prior.utf8)), selections: selections, variables: variables)
            }
        }
        let expected: Result<CommitResult, ResponseError>
        do {
            expected = .success(
                try tree.commit(GraphQLResponse(bytes: Data(body.utf8)), selections: selections, variables: variables))
        } catch {
            expected = .failure(error)
        }
        let actual: Result<CommitResult, ResponseError>
        do {
            actual = .success(try bytes.commit(bytes: Data(body.utf8), selections: selections, variables: variables))
        } catch {
            actual = .failure(error)
        }
        XCTAssertEqual(actual, expected, body, file: file, line: line)
        XCTAssertEqual(bytes.snapshot().records, tree.snapshot().records, body, file: file, line: line)
        // The oracle: the same records and result from the rules written the plain way.
        var records: [RecordKey: Record] = [:]
        if let prior, let response = try? GraphQLResponse(bytes: Data(prior.utf8)) {
            _ = ReferenceNormalizer.commit(
                response, selections: selections, variables: variables, into: &records, now: 0)
        }
        if case .success(let result) = actual, let response = try? GraphQLResponse(bytes: Data(body.utf8)) {
            let reference = ReferenceNormalizer.commit(
                response, selections: selections, variables: variables, into: &records, now: 0)
            XCTAssertEqual(result, reference, "reference: \(body)", file: file, line: line)
            XCTAssertEqual(bytes.snapshot().records, records, "reference: \(body)", file: file, line: line)
        }
    }

    func testTheSeedFixturesCommitTheSameBothWays() throws {
        for name in ["character-errors.json", "conditions-included.json"] {
            let body = String(decoding: try Fixtures.data(name), as: UTF8.self)
            assertSame(
                body, selections: TestProfileQuery.Data.selections, variables: TestProfileQuery(id: "1").variables)
            assertSame(
                body, selections: TestConditions.Data.selections,
                variables: TestConditions(id: "1", withOrigin: true, hideStatus: false).variables)
        }
    }

    func testValuesKeysAndFragmentsCommitTheSameBothWays() {
        assertSame(
            #"{"data":{"node":{"__typename":"Cat","id":"1","name":"Tom","title":"Sir","n":1.10,"tags":["a",null],"meta":{"z":[1,{"y":2}],"a":true},"size":12345678901234567890,"lives":9,"owner":{"name":"Ann"},"skipped":"no"},"count":3,"plain":"x"}}"#
        )
        // No __typename (fragments apply), a number id, members in another order, an object where a scalar was.
        assertSame(
            #"{"data":{"count":-3e5,"node":{"owner":{"name":"B"},"id":7,"lives":1,"name":{"x":1}},"plain":null}}"#)
        // A Dog skips the Cat fragment; lists of lists with derived keys; nulls inside lists.
        assertSame(
            #"{"data":{"nodes":[[{"__typename":"Dog","name":"a","owner":{"name":"o"}},null],[],[{"__typename":"Cat","id":"2","lives":3}]],"node":null}}"#
        )
        // Escapes, non-ASCII text and keys, repeated members (the last value wins), whitespace.
        assertSame(
            " {\"data\" : { \"node\" : {\"id\":\"1\",\"na\\u006de\":\"\\u00e9\\n\\\"q\\\" \\ud83d\\ude00 \\/\", \"title\":\"é\", \"title\":\"second\", \"n\":1,\"n\":2 } , \"plain\":\"\\t\" } }\n"
        )
        // A key that is canonically equivalent to an ASCII name (U+212A KELVIN SIGN is K): String equality decides.
        assertSame(
            #"{"data":{"K":"kelvin"}}"#.replacingOccurrences(of: "K\"", with: "\u{212A}\""),
            selections: [.field("K", type: .named("String"))])
        assertSame(#"{"data":{"\u212a":"kelvin","K":"k"}}"#, selections: [.field("K", type: .named("String"))])
        // A list where a scalar was declared, and a scalar where a list was declared.
        assertSame(#"{"data":{"plain":[1,"a"],"nodes":"x","count":[]}}"#)
        // Merging into a store that holds an earlier answer.
        assertSame(
            #"{"data":{"node":{"__typename":"Cat","id":"1","name":"Tom","lives":8}}}"#,
            prior: #"{"data":{"node":{"__typename":"Cat","id":"1","name":"Tom","lives":9,"title":"x"}}}"#)
    }

    func testErrorsAttachTheSameInEitherOrder() {
        let data =
            #""data":{"node":{"__typename":"Cat","id":"1","name":null,"tags":["a",null],"owner":null},"nodes":[[{"name":null}]]}"#
        let errors =
            #""errors":[{"message":"no name","path":["node","name"],"locations":[{"line":1,"column":2}],"extensions":{"code":"X"}},{"message":"tag","path":["node","tags",1]},{"message":"deep","path":["nodes",0,0,"name"]},{"message":"nowhere","path":["missing",3]},{"message":"no path"},{"message":"owner","path":["node","owner","name"]}]"#
        assertSame("{\(data),\(errors)}")
        assertSame("{\(errors),\(data)}")
        assertSame("{\(errors),\(data),\"extensions\":{\"cost\":1}}")
        assertSame(#"{"data":{"count":1},"errors":[]}"#)
        assertSame(#"{"data":{"count":1},"errors":{"message":"not a list"}}"#)
    }

    func testRequestErrorsAndMalformedBodiesFailTheSameBothWays() {
        for body in [
            #"{"errors":[{"message":"rate limited"}]}"#, #"{"data":null,"errors":[{"message":"x","path":["a"]}]}"#,
            #"{"data":"text","errors":[{"message":"x"}]}"#, #"{"data":null}"#, #"{}"#, "[]", "", "nul",
            #"{"data":{"a":1}"#,
            #"{"data":{"a":[1,2}}}"#, #"{"data":{"a":"\x"}}"#, #"{"data":{"a":"\u12"}}"#,
            #"{"data":{"a":"\ud800\u12zz"}}"#,
            "{\"data\":{\"a\":\"\u{1}\"}}", #"{"data":{"a":01}}"#, #"{"data":{"a":1.}}"#, #"{"data":{"a":-}}"#,
            #"{"data":{"a":1e}}"#, #"{"data":{"a":tru}}"#, #"{"data":{}} x"#, #"{"data":{"a":1,}}"#, #"{"data" "a"}"#,
            String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
            #"{"data":"# + String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 601),
        ] {
            assertSame(body)
        }
        // Accepted both ways: a lone high surrogate, an unknown member, nesting just under the limit.
        assertSame(#"{"data":{"plain":"\ud800x","other":[{"a":[]}]}}"#)
        assertSame(
            #"{"data":{"meta":"# + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}}",
            selections: [.field("meta", type: .named("JSON"))])
    }

    /// Random responses (a fixed seed) over the same selections, with members shuffled, repeated and left out.
    func testRandomResponsesCommitTheSameBothWays() {
        var random = SeededRandom(seed: 0xBA70)
        for _ in 0..<300 {
            var text = "{\"data\":{"
            text += Self.members(["node", "nodes", "count", "plain", "extra"], depth: 0, random: &random)
            text += "}"
            if random.next(4) == 0 {
                text +=
                    #","errors":[{"message":"e","path":["node","name"]},{"message":"f","path":["nodes",0,1,"owner","name"]}]"#
            }
            text += "}"
            assertSame(text)
        }
    }

    private static func members(_ names: [String], depth: Int, random: inout SeededRandom) -> String {
        var parts: [String] = []
        for name in names.shuffled(using: &random) where random.next(5) != 0 {
            parts.append("\"\(name)\":" + value(for: name, depth: depth, random: &random))
            if random.next(12) == 0 { parts.append("\"\(name)\":" + value(for: name, depth: depth, random: &random)) }
        }
        return parts.joined(separator: ",")
    }

    private static func value(for name: String, depth: Int, random: inout SeededRandom) -> String {
        if random.next(10) == 0 { return "null" }
        switch name {
        case "node", "owner":
            if depth > 3 { return "null" }
            let typename = ["Cat", "Dog", "Person"][random.next(3)]
            var text = "{"
            if random.next(4) != 0 { text += "\"__typename\":\"\(typename)\"," }
            if random.next(3) != 0 {
                text += random.next(2) == 0 ? "\"id\":\"\(random.next(4))\"," : "\"id\":\(random.next(4)),"
            }
            text += members(
                ["name", "title", "n", "tags", "meta", "size", "lives", "owner", "skipped"], depth: depth + 1,
                random: &random)
            if text.hasSuffix(",") { text.removeLast() }
            return text + "}"
        case "nodes":
            let outer = (0..<random.next(3)).map { _ in
                "["
                    + (0..<random.next(3)).map { _ in value(for: "node", depth: depth + 1, random: &random) }.joined(
                        separator: ",") + "]"
            }
            return "[" + outer.joined(separator: ",") + "]"
        case "tags": return "[\"a\",\"b\\\"\",null]"
        case "meta": return ["{\"k\":[1,2.50]}", "[true,false]", "\"scalar\"", "1e3"][random.next(4)]
        case "n", "size", "lives", "count": return ["1", "1.10", "-0", "12345678901234567890"][random.next(4)]
        default: return ["\"x\"", "\"é\\u00e9\"", "true", "{\"a\":1}"][random.next(4)]
        }
    }
}

/// A small deterministic generator (SplitMix64), so the random test is the same on every run.
private struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
