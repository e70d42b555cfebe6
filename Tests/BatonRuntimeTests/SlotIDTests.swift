import Baton
import XCTest

/// `SlotID` hashes its two strings' hashes with its own finalizer (`_rawHashValue(seed:)`): equal IDs must hash
/// alike however they were built, and sets of many IDs must keep every distinct one exactly once. A commit lists
/// every slot it changed exactly once, and subscribers hear exactly the changed slots they watch.
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

    /// Characters with a name: `items` objects, ids modulo 200, each named `prefix` and its index modulo `modulo`.
    private let selections: [Selection] = [
        .field(
            "characters", type: .list(.named("Character")),
            selections: [
                .field("__typename", type: .nonNull(.named("String"))), .field("id", type: .named("ID")),
                .field("name", type: .named("String")),
            ])
    ]

    private func characters(_ prefix: String, modulo: Int = 300) -> Data {
        let items = (0..<300).map {
            #"{"__typename":"Character","id":"\#($0 % 200)","name":"\#(prefix)\#($0 % modulo)"}"#
        }
        return Data(#"{"data":{"characters":[\#(items.joined(separator: ","))]}}"#.utf8)
    }

    func testACommitReportsEverySlotItWroteOnce() throws {
        let store = Store()
        let result = try store.commit(bytes: characters("n"), selections: selections)
        // 200 records of three slots, and the root's list.
        XCTAssertEqual(result.changed.count, 200 * 3 + 1)
        XCTAssertTrue(result.changed.contains(SlotID("Character:199", "name")))
        XCTAssertTrue(result.changed.contains(SlotID("Query", "characters")))
        XCTAssertEqual(store.record("Character:5")?.slots["name"]?.value, .string("n205"))
        // The list holds each slot once, as the set does.
        XCTAssertEqual(result.changedSlots.count, result.changed.count)
        // Again into records the store has: only the names that differ, each once.
        let again = try store.commit(bytes: characters("m", modulo: 7), selections: selections)
        XCTAssertEqual(again.changedSlots.count, 200)
        XCTAssertEqual(Set(again.changedSlots), Set((0..<200).map { SlotID("Character:\($0)", "name") }))
        XCTAssertEqual(again.changedDescription.split(separator: " ").count, 200)
    }

    /// A subscriber watching fewer slots than changed, and one watching more: each hears exactly the changed slots
    /// it watches (the store looks them up one way or the other).
    func testSubscribersHearTheChangedSlotsTheyWatchWhateverTheirSize() throws {
        let store = Store()
        try store.commit(bytes: characters("n"), selections: selections)
        let small: Set<SlotID> = [SlotID("Character:3", "name"), SlotID("Character:999", "name")]
        var large = Set((0..<200).map { SlotID("Character:\($0)", "name") })
        large.remove(SlotID("Character:7", "name"))
        for index in 0..<500 { large.insert(SlotID("Other:\(index)", "name")) }
        large.insert(SlotID("Character:8", "id"))
        let heardSmall = Locked<[Set<SlotID>]>([])
        let heardLarge = Locked<[Set<SlotID>]>([])
        let first = store.subscribe(to: small) { slots in heardSmall.withLock { $0.append(slots) } }
        let second = store.subscribe(to: large) { slots in heardLarge.withLock { $0.append(slots) } }
        defer {
            first.cancel()
            second.cancel()
        }
        let result = try store.commit(bytes: characters("m", modulo: 7), selections: selections)
        XCTAssertEqual(result.changedSlots.count, 200)
        XCTAssertLessThan(small.count, result.changedSlots.count)
        XCTAssertGreaterThan(large.count, result.changedSlots.count)
        XCTAssertEqual(heardSmall.withLock { $0 }, [[SlotID("Character:3", "name")]])
        var expected = Set((0..<200).map { SlotID("Character:\($0)", "name") })
        expected.remove(SlotID("Character:7", "name"))
        XCTAssertEqual(heardLarge.withLock { $0 }, [expected])
        // Nothing changed: nobody hears anything.
        try store.commit(bytes: characters("m", modulo: 7), selections: selections)
        XCTAssertEqual(heardSmall.withLock { $0.count }, 1)
        XCTAssertEqual(heardLarge.withLock { $0.count }, 1)
    }
}
