import Baton
import Foundation
import XCTest

final class JSONParserTests: XCTestCase {
    func testNumbersKeepTheirLiteralText() throws {
        let value = try JSONParser.parse(#"{"a": 1.10, "b": 12345678901234567890, "c": -3e5, "d": 0}"#)
        XCTAssertEqual(value["a"], .number("1.10"))
        XCTAssertEqual(value["b"], .number("12345678901234567890"))
        XCTAssertEqual(value["c"], .number("-3e5"))
        XCTAssertEqual(value["d"], .number("0"))
    }

    func testStringsDecodeEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(#"["a\"b\\c\n", "\u00e9\ud83d\ude00", "plain é"]"#)
        XCTAssertEqual(value, .array([.string("a\"b\\c\n"), .string("é😀"), .string("plain é")]))
    }

    func testMembersKeepOrderAndSerializeCompactly() throws {
        let value = try JSONParser.parse(#" { "kind" : "server", "changed" : 1 } "#)
        XCTAssertEqual(value.compactText, #"{"kind":"server","changed":1}"#)
        XCTAssertEqual(value.canonicalText, #"{"changed":1,"kind":"server"}"#)
    }

    func testMalformedInputThrowsWithAnOffset() {
        for text in [#"{"a": "#, #"{"a" 1}"#, "[1,]", "01", #""\x""#, "nul", "{} x", ""] {
            XCTAssertThrowsError(try JSONParser.parse(text), text)
        }
        XCTAssertThrowsError(try JSONParser.parse(String(repeating: "[", count: 10_000))) { error in
            XCTAssertEqual((error as? JSONParseError)?.message, "nesting too deep")
        }
    }
}

extension JSONParserTests {
    /// Past 32 members an object finds repeated names with a dictionary: the same semantics (first position, last
    /// value; names compared as Strings), both when parsing and when committing from bytes.
    func testRepeatedNamesInLargeObjectsKeepTheFirstPositionAndTheLastValue() throws {
        var members = (0..<100).map { #""m\#($0)":\#($0)"# }
        members.append(#""m5":"five""#)  // a repeat past the linear limit
        members.append(#""m\u0037":"seven""#)  // an escaped repeat of m7
        members.insert(#""m99":"early""#, at: 3)  // m99 first at position 3, repeated later
        let value = try JSONParser.parse("{" + members.joined(separator: ",") + "}")
        guard case .object(let object) = value else { return XCTFail("not an object") }
        XCTAssertEqual(object.count, 100)
        XCTAssertEqual(object.keys[3], "m99")
        XCTAssertEqual(object["m99"], .number("99"))
        XCTAssertEqual(object["m5"], .string("five"))
        XCTAssertEqual(object["m7"], .string("seven"))
        XCTAssertEqual(object.keys.firstIndex(of: "m5"), 6)
        let store = Store()
        try store.commit(
            bytes: Data(("{\"data\":{" + members.joined(separator: ",") + "}}").utf8),
            selections: [
                .field("m5", type: .named("String")), .field("m7", type: .named("String")),
                .field("m99", type: .named("Int")),
            ])
        XCTAssertEqual(store.record("Query")?.slots["m5"]?.value, .string("five"))
        XCTAssertEqual(store.record("Query")?.slots["m7"]?.value, .string("seven"))
        XCTAssertEqual(store.record("Query")?.slots["m99"]?.value, .number("99"))
    }
}

final class StorageKeyTests: XCTestCase {
    func testArgumentsAreSortedWithVariablesResolved() {
        let field = Field(
            "repository", arguments: [("owner", .variable("owner")), ("name", .literal("x"))],
            type: .named("Repository"))
        XCTAssertEqual(field.storageKey(variables: ["owner": "y"]), #"repository({"name":"x","owner":"y"})"#)
        XCTAssertEqual(field.storageKey(variables: [:]), #"repository({"name":"x"})"#, "an unset variable is left out")
        let nested = Field(
            "search", arguments: [("filter", .object([("z", .literal(1)), ("a", .variable("a"))]))], type: .named("X"))
        XCTAssertEqual(nested.storageKey(variables: ["a": true]), #"search({"filter":{"a":true,"z":1}})"#)
        XCTAssertEqual(Field("name", type: .named("String")).storageKey(variables: [:]), "name")
    }
}

final class NormalizationTests: XCTestCase {
    func testRecordsAreKeyedByTypeAndIdOrByPath() throws {
        let store = Store()
        let selections: [Selection] = [
            .field(
                "character", arguments: [("id", .literal("1"))], type: .named("Character"),
                selections: [
                    .field("name", alias: "title", type: .named("String")),
                    .field("origin", type: .named("Location"), selections: [.field("name", type: .named("String"))]),
                    .field(
                        "episode", type: .nonNull(.list(.named("Episode"))),
                        selections: [.field("id", type: .named("ID")), .field("air_date", type: .named("String"))]),
                ])
        ]
        try store.commit(
            .json(
                #"{"data":{"character":{"title":"Rick","origin":{"name":"Earth"},"episode":[{"id":"1","air_date":"x"},null]}}}"#
            ),
            selections: selections)
        let snapshot = store.snapshot()
        XCTAssertEqual(
            snapshot["Query"]?.slots[#"character({"id":"1"})"#]?.value, .link(#"Query.character({"id":"1"})"#))
        let character = try XCTUnwrap(snapshot[#"Query.character({"id":"1"})"#])
        XCTAssertEqual(
            character.slots["name"]?.value, .string("Rick"), "the alias maps back to the field's storage key")
        XCTAssertEqual(character.slots["origin"]?.value, .link(#"Query.character({"id":"1"}).origin"#))
        XCTAssertEqual(character.slots["episode"]?.value, .list([.link("Episode:1"), .null]))
        XCTAssertEqual(snapshot[#"Query.character({"id":"1"}).origin"#]?.slots["name"]?.value, .string("Earth"))
        XCTAssertEqual(snapshot["Episode:1"]?.typename, "Episode")
    }

    func testAbstractTypesResolveByTypename() throws {
        let store = Store()
        let node = Field(
            "nodes", type: .list(.named("Node")),
            selections: [
                .field("__typename", type: .nonNull(.named("String"))),
                .field("id", type: .nonNull(.named("ID"))),
                .inlineFragment(
                    on: TypeCondition("Character"), selections: [.field("name", type: .named("String"))]),
                .inlineFragment(
                    on: TypeCondition("Location"), selections: [.field("dimension", type: .named("String"))]),
            ])
        try store.commit(
            .json(
                #"{"data":{"nodes":[{"__typename":"Character","id":"1","name":"Rick","dimension":"ignored"},{"__typename":"Location","id":"1","dimension":"C-137"}]}}"#
            ), selections: [.field(node)])
        let snapshot = store.snapshot()
        XCTAssertEqual(snapshot["Character:1"]?.slots["name"]?.value, .string("Rick"))
        XCTAssertNil(snapshot["Character:1"]?.slots["dimension"], "a fragment on another type does not apply")
        XCTAssertEqual(snapshot["Character:1"]?.slots["__typename"]?.value, .string("Character"))
        XCTAssertEqual(snapshot["Location:1"]?.slots["dimension"]?.value, .string("C-137"))
        XCTAssertEqual(snapshot["Location:1"]?.typename, "Location")
    }

    func testScalarsAreStoredAsWritten() throws {
        let store = Store()
        try store.commit(
            .json(#"{"data":{"price":1.10,"big":12345678901234567890,"meta":{"b":[1,2]},"tags":["a","b"],"ok":true}}"#),
            selections: [
                .field("price", type: .named("Decimal")), .field("big", type: .named("BigInt")),
                .field("meta", type: .named("JSON")), .field("tags", type: .list(.named("String"))),
                .field("ok", type: .named("Boolean")),
            ])
        let root = try XCTUnwrap(store.record("Query"))
        XCTAssertEqual(root.slots["price"]?.value, .number("1.10"))
        XCTAssertEqual(root.slots["big"]?.value, .number("12345678901234567890"))
        XCTAssertEqual(root.slots["meta"]?.value, .json(["b": [1, 2]]))
        XCTAssertEqual(root.slots["tags"]?.value, .list([.string("a"), .string("b")]))
        XCTAssertEqual(root.slots["ok"]?.value, .boolean(true))
    }

    func testFieldErrorsAttachToTheSlotTheirPathNames() throws {
        let store = Store()
        let result = try store.commit(try Fixtures.response("character-errors.json"), for: TestProfileQuery(id: "1"))
        let snapshot = store.snapshot()
        let image = try XCTUnwrap(snapshot["Character:1"]?.slots["image"])
        XCTAssertEqual(image.value, .null)
        XCTAssertEqual(
            image.errors,
            [
                GraphQLError(
                    message: "image service unavailable", path: [.key("character"), .key("image")],
                    locations: [.init(line: 1, column: 1)])
            ])
        XCTAssertEqual(snapshot["Location:20"]?.slots["name"]?.errors.map(\.message), ["location name redacted"])
        XCTAssertEqual(snapshot["Character:1"]?.slots["gender"]?.errors.map(\.message), ["gender is private"])
        XCTAssertEqual(snapshot["Character:1"]?.slots["type"]?.errors, [], "a plain null carries no error")
        XCTAssertTrue(result.unattachedErrors.isEmpty)
    }
}

/// Plate 3 of the guide. The rule: a commit notifies the slots whose content (value or errors) changed. The
/// plate's store already holds TestProfileQuery(id: "1")'s earlier answer, with values in the three fields that
/// now fail; character-errors.json repeats every other value, so exactly the three slots that turned into
/// errors change.
final class PlateThreeTests: XCTestCase {
    static let earlierAnswer = #"""
        {"data":{"character":{"id":"1","name":"Rick Sanchez","origin":{"id":"1","name":"Earth (C-137)"},"status":"Alive",
        "image":"https://rickandmortyapi.com/api/character/avatar/1.jpeg",
        "location":{"id":"20","name":"Earth (Replacement Dimension)","dimension":"Replacement Dimension"},
        "gender":"Male","species":"Human","type":null}}}
        """#

    func testCommittingFieldErrorsNotifiesExactlyTheirSlots() throws {
        let store = Store()
        let operation = TestProfileQuery(id: "1")
        try store.commit(.json(Self.earlierAnswer), for: operation)
        let notifications = Guarded([String]())
        let subscription = store.subscribe(to: Set(store.allSlotIDs())) { changed in
            notifications.withLock { $0.append(changed.sorted().map(\.description).joined(separator: " ")) }
        }
        defer { subscription.cancel() }

        let result = try store.commit(try Fixtures.response("character-errors.json"), for: operation)
        XCTAssertEqual(result.changedDescription, "Character:1.gender Character:1.image Location:20.name")
        print("Notified \(result.changedDescription)")
        XCTAssertEqual(
            notifications.withLock { $0 }, ["Character:1.gender Character:1.image Location:20.name"], "once per batch")

        var character = try XCTUnwrap(try store.read(operation).character)
        XCTAssertEqual(
            character.lens.caught(try Self.field("gender", of: TestProfileQuery.Data.Character.self))
                as Result<String?, FieldErrors>,
            .failure(
                FieldErrors([GraphQLError(message: "gender is private", path: [.key("character"), .key("gender")])])))

        // A later response that answers the three notifies them again, and @catch sees the value.
        let again = try store.commit(.json(Self.earlierAnswer), for: operation)
        XCTAssertEqual(again.changedDescription, "Character:1.gender Character:1.image Location:20.name")
        XCTAssertEqual(notifications.withLock { $0.count }, 2)
        character = try XCTUnwrap(try store.read(operation).character)
        XCTAssertEqual(
            character.lens.caught(try Self.field("gender", of: TestProfileQuery.Data.Character.self))
                as Result<String?, FieldErrors>,
            .success("Male"))
        XCTAssertEqual(
            character.location?.lens.caught(try Self.field("name", of: TestProfileQuery.Data.Character.Location.self)),
            .success("Earth (Replacement Dimension)") as Result<String?, FieldErrors>)
    }

    /// A generated lens's field description by its response key (a lens keeps them in its `selections`).
    private static func field<L: LensType>(_ key: String, of lens: L.Type) throws -> Field {
        let fields = L.selections.compactMap { selection -> Field? in
            if case .field(let field) = selection { return field } else { return nil }
        }
        return try XCTUnwrap(fields.first { $0.responseKey == key }, "\(L.self) selects no field \(key)")
    }

    func testIntoAnEmptyStoreEverySlotWrittenIsChanged() throws {
        let store = Store()
        let result = try store.commit(try Fixtures.response("character-errors.json"), for: TestProfileQuery(id: "1"))
        XCTAssertEqual(result.changed.count, 15)
        XCTAssertTrue(result.changed.contains(SlotID("Query", #"character({"id":"1"})"#)))
    }

    func testARequestErrorChangesNothing() throws {
        let store = Store()
        try store.commit(.json(Self.earlierAnswer), for: TestProfileQuery(id: "1"))
        let before = store.snapshot().records
        let notified = Guarded(0)
        let subscription = store.subscribe(to: Set(store.allSlotIDs())) { _ in notified.withLock { $0 += 1 } }
        defer { subscription.cancel() }
        let response = try GraphQLResponse.json(#"{"errors":[{"message":"rate limited"}],"data":null}"#)
        XCTAssertTrue(response.isRequestError)
        XCTAssertThrowsError(try store.commit(response, for: TestProfileQuery(id: "1"))) { error in
            XCTAssertEqual(error as? ResponseError, .requestFailed([GraphQLError(message: "rate limited")]))
        }
        XCTAssertEqual(store.snapshot().records, before)
        XCTAssertEqual(notified.withLock { $0 }, 0)
    }

    func testAMalformedResponseIsRejected() {
        for text in ["[]", "{}", #"{"data": "#] {
            XCTAssertThrowsError(try GraphQLResponse.json(text), text)
        }
    }
}

final class ConcurrencyTests: XCTestCase {
    func testCommitsAndReadsFromManyTasks() async throws {
        let store = Store()
        let answer = try GraphQLResponse.json(PlateThreeTests.earlierAnswer)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    for round in 0..<50 {
                        let operation = TestProfileQuery(id: "1")
                        if (index + round) % 2 == 0 {
                            _ = try? store.commit(answer, for: operation)
                        } else if let data = try? store.read(operation) {
                            _ = data.character?.name
                        }
                    }
                }
            }
        }
        XCTAssertEqual(try store.read(TestProfileQuery(id: "1")).character?.name, "Rick Sanchez")
    }
}

extension Store {
    /// Every slot in the store, for subscribing to everything in tests.
    func allSlotIDs() -> [SlotID] {
        snapshot().records.flatMap { key, record in record.slots.keys.map { SlotID(key, $0) } }
    }
}
