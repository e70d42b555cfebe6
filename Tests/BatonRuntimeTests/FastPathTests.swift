import Baton
import Foundation
import XCTest

/// The paths the performance work changed keep their meaning: storage keys cached across variables, the reads'
/// quiet fast path against the reporting path, response paths built only for reports (nested lists included),
/// derived keys of list items without an `id`, merges into records that already exist, and the parser's
/// shared member stacks on nested and repeated members.
final class FastPathTests: XCTestCase {
    func testAVariableStorageKeyFollowsTheVariables() {
        let field = Field("character", arguments: [("id", .variable("id"))], type: .named("Character"))
        XCTAssertEqual(field.storageKey(variables: ["id": "1"]), #"character({"id":"1"})"#)
        XCTAssertEqual(field.storageKey(variables: ["id": "1"]), #"character({"id":"1"})"#, "a cached key")
        XCTAssertEqual(field.storageKey(variables: ["id": "2"]), #"character({"id":"2"})"#, "new values, a new key")
        XCTAssertEqual(field.storageKey(variables: [:]), "character", "an unset variable is left out")
        XCTAssertEqual(field.storageKey(variables: ["id": "1", "other": true]), #"character({"id":"1"})"#)
        XCTAssertEqual(field, Field("character", arguments: [("id", .variable("id"))], type: .named("Character")))
    }

    func testReadsUnderTwoContextsSeeTheirOwnSlots() throws {
        let name = Field("name", type: .named("String"))
        let character = Field(
            "character", arguments: [("id", .variable("id"))], type: .named("Character"), selections: [.field(name)])
        let store = Store()
        for id in ["1", "2"] {
            try store.commit(
                .json(#"{"data":{"character":{"name":"N\#(id)"}}}"#), selections: [.field(character)],
                variables: ["id": .string(id)])
        }
        let snapshot = store.snapshot()
        for _ in 0..<2 {
            for id in ["1", "2"] {
                let root = Lens(snapshot: snapshot, key: "Query", context: ReadContext(variables: ["id": .string(id)]))
                let link: StoredValue? = root.record?.slots[#"character({"id":"\#(id)"})"#]?.value
                XCTAssertEqual(link, .link(#"Query.character({"id":"\#(id)"})"#))
                XCTAssertTrue(root.has(character))
                let lens = Lens(snapshot: snapshot, key: #"Query.character({"id":"\#(id)"})"#, context: root.context)
                XCTAssertEqual(lens.read(name) as String?, "N\(id)")
            }
        }
    }

    func testQuietAndReportingReadsAgree() throws {
        let ints = Field("ints", type: .list(.named("Int")))
        let matrix = Field("matrix", type: .list(.list(.named("Int"))))
        let flag = Field("flag", type: .named("Boolean"))
        let ratio = Field("ratio", type: .named("Float"))
        let store = Store()
        try store.commit(
            .json(#"{"data":{"ints":[1,null,3],"matrix":[[1,2],[3,"x"]],"flag":true,"ratio":0.5}}"#),
            selections: [.field(ints), .field(matrix), .field(flag), .field(ratio)])
        let reporter = CollectingReporter()
        let lens = Lens(snapshot: store.snapshot(), key: "Query", context: ReadContext(reporter: reporter))
        XCTAssertEqual(lens.read(ints) as [Int?]?, [1, nil, 3])
        XCTAssertEqual(lens.read(flag) as Bool, true)
        XCTAssertEqual(lens.read(ratio) as Double?, 0.5)
        XCTAssertEqual(lens.caughtToNull(ratio) as Double?, 0.5)
        XCTAssertEqual(try lens.strict(flag) as Bool, true)
        XCTAssertEqual(try lens.requiredOrThrow(flag) as Bool, true)
        XCTAssertEqual(reporter.take(), [], "quiet reads report nothing")

        // A null item where the item type has no nil: the list reads nil (or `[]` where it has no nil), and each read
        // reports the item, at its path, once.
        XCTAssertEqual(lens.read(ints) as [Int]?, nil)
        XCTAssertEqual(lens.read(ints) as [Int], [])
        let item = ReadEvent.unexpectedValue(
            type: "Query", field: "ints", reason: "null in a non-null list item", path: "ints.1")
        XCTAssertEqual(reporter.take(), [item, item])

        // A string inside a nested list: reported with the item's path, built only now.
        XCTAssertEqual(lens.read(matrix) as [[Int?]]?, [[1, 2], [3, nil]])
        XCTAssertEqual(
            reporter.take(),
            [
                .unexpectedValue(
                    type: "Query", field: "matrix", reason: "expected an Int, found string \"x\"", path: "matrix.1.1")
            ])
    }

    func testItemsWithoutAnIdGetDerivedKeysAndMergesKeepUnchangedSlotsQuiet() throws {
        let matrix = Field(
            "grid", type: .list(.list(.named("Cell"))), selections: [.field("v", type: .named("Int"))])
        let store = Store()
        let first = try store.commit(
            .json(#"{"data":{"grid":[[{"v":1}],[{"v":2},{"v":3}]]}}"#), selections: [.field(matrix)])
        XCTAssertEqual(
            first.changedDescription, "Query.grid Query.grid.0.0.v Query.grid.1.0.v Query.grid.1.1.v")
        XCTAssertEqual(store.record("Query.grid.1.1")?.slots["v"]?.value, .number("3"))
        let second = try store.commit(
            .json(#"{"data":{"grid":[[{"v":1}],[{"v":2},{"v":4}]]}}"#), selections: [.field(matrix)])
        XCTAssertEqual(second.changedDescription, "Query.grid.1.1.v", "only the slot whose content changed")
        let third = try store.commit(
            .json(#"{"data":{"grid":[[{"v":1}],[{"v":2},{"v":4}]]}}"#), selections: [.field(matrix)])
        XCTAssertEqual(third.changed, [])
    }

    func testTheSameRecordTwiceInOneResponseKeepsTheLastValue() throws {
        let friend = Field(
            "friend", type: .named("P"),
            selections: [.field("id", type: .named("ID")), .field("n", type: .named("String"))])
        let store = Store()
        let result = try store.commit(
            .json(#"{"data":{"a":{"id":"1","n":"x"},"b":{"id":"1","n":"y"}}}"#),
            selections: [
                .field("friend", alias: "a", type: .named("P"), selections: friend.selections),
                .field(
                    "friend", alias: "b", arguments: [("k", .literal(1))], type: .named("P"),
                    selections: friend.selections),
            ])
        XCTAssertEqual(store.record("P:1")?.slots["n"]?.value, .string("y"))
        XCTAssertTrue(result.changed.contains(SlotID("P:1", "n")))
    }

    func testNestedObjectsAndRepeatedMembersParse() throws {
        let value = try JSONParser.parse(#"{"a":{"b":[{"c":1,"c":2},[],{}],"d":"e"},"a2":[1,[2,[3]]],"f":null}"#)
        XCTAssertEqual(value.compactText, #"{"a":{"b":[{"c":2},[],{}],"d":"e"},"a2":[1,[2,[3]]],"f":null}"#)
        XCTAssertThrowsError(try JSONParser.parse(#"{"a":[1,2}"#))
        XCTAssertThrowsError(try JSONParser.parse(#"{"a":{"b":1]"#))
    }
}
