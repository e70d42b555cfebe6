import Baton
import XCTest

/// `SlotID` is plain `Hashable` over its two strings: equal IDs must hash alike however they were built, sets of
/// many IDs must keep every distinct one exactly once, and a commit lists every slot it changed exactly once.
final class SlotIDTests: XCTestCase {
    func testEqualSlotIDsHashAlikeHoweverTheyWereBuilt() {
        var mutated = SlotID("Character:2", "status")
        mutated.record = "Character:1"
        mutated.storageKey = "name"
        let built = SlotID("Character:" + String(1), "na" + "me")
        XCTAssertEqual(mutated, built)
        XCTAssertEqual(mutated.hashValue, built.hashValue)
        var hasher = Hasher()
        hasher.combine(Set([mutated]))
        var other = Hasher()
        other.combine(Set([built]))
        XCTAssertEqual(hasher.finalize(), other.finalize())
    }

    func testASetKeepsEveryDistinctSlotIDOnce() {
        let records = (0..<1_000).map { "Character:\($0)" }
        let keys = (0..<20).map { "field\($0)" } + records.prefix(5)
        var set = Set<SlotID>()
        for record in records { for key in keys { set.insert(SlotID(record, key)) } }
        // The record and the storage key swapped are another slot.
        XCTAssertFalse(set.contains(SlotID("field1", "Character:1")))
        set.insert(SlotID("field1", "Character:1"))
        XCTAssertEqual(set.count, records.count * keys.count + 1)
        for record in records { for key in keys { XCTAssertTrue(set.contains(SlotID(record, key))) } }
        for record in records.prefix(10) { set.insert(SlotID(String(record), "field3")) }
        XCTAssertEqual(set.count, records.count * keys.count + 1)
    }

    func testACommitReportsEverySlotItWroteOnce() throws {
        let store = Store()
        let selections: [Selection] = [
            .field(
                "characters", type: .list(.named("Character")),
                selections: [
                    .field("__typename", type: .nonNull(.named("String"))), .field("id", type: .named("ID")),
                    .field("name", type: .named("String")),
                ])
        ]
        let items = (0..<300).map { #"{"__typename":"Character","id":"\#($0 % 200)","name":"n\#($0)"}"# }
        let body = #"{"data":{"characters":[\#(items.joined(separator: ","))]}}"#
        let result = try store.commit(bytes: Data(body.utf8), selections: selections)
        // 200 records of three slots, and the root's list.
        XCTAssertEqual(result.changed.count, 200 * 3 + 1)
        XCTAssertTrue(result.changed.contains(SlotID("Character:199", "name")))
        XCTAssertTrue(result.changed.contains(SlotID("Query", "characters")))
        XCTAssertEqual(store.record("Character:5")?.slots["name"]?.value, .string("n205"))
        // The list holds each slot once, as the set does.
        XCTAssertEqual(result.changedSlots.count, result.changed.count)
        // Again into records the store has: only the names that differ, each once.
        let renamed = (0..<300).map { #"{"__typename":"Character","id":"\#($0 % 200)","name":"m\#($0 % 7)"}"# }
        let again = try store.commit(
            bytes: Data(#"{"data":{"characters":[\#(renamed.joined(separator: ","))]}}"#.utf8), selections: selections)
        XCTAssertEqual(again.changedSlots.count, 200)
        XCTAssertEqual(Set(again.changedSlots), Set((0..<200).map { SlotID("Character:\($0)", "name") }))
        XCTAssertEqual(again.changedDescription.split(separator: " ").count, 200)
    }
}
