import Baton
import BatonTesting
import Foundation
import XCTest

/// Records of a type with a declared key (`keyFields`, `@typePolicy`): keyed `Type:` + the key fields' values as
/// canonical JSON, on both commit paths, and never under a wrong key.
final class RecordKeyTests: XCTestCase {
    static let entryFields: [Selection] = [
        .field("__typename", type: .nonNull(.named("String"))),
        .field("id", type: .nonNull(.named("Int"))),
        .field("mediaId", type: .named("Int")),
        .field("progress", type: .named("Int")),
    ]
    static let keys = ["MediaList": ["id", "mediaId"]]

    static func entries(_ keys: [String: [String]] = keys) -> [Selection] {
        [.field("entries", type: .list(.named("MediaList")), selections: entryFields, keyFields: keys)]
    }

    func testARecordIsKeyedByItsDeclaredFieldsNotByIdAlone() throws {
        let store = Store()
        try store.commit(
            bytes: Data(
                #"{"data":{"entries":[{"__typename":"MediaList","id":1,"mediaId":7,"progress":3},{"__typename":"MediaList","id":1,"mediaId":8,"progress":4}]}}"#
                    .utf8), selections: Self.entries())
        let snapshot = store.snapshot()
        XCTAssertEqual(
            snapshot["Query"]?.slots["entries"]?.value,
            .list([.link(#"MediaList:{"id":1,"mediaId":7}"#), .link(#"MediaList:{"id":1,"mediaId":8}"#)]),
            "the same id with another mediaId is another record")
        XCTAssertEqual(snapshot[#"MediaList:{"id":1,"mediaId":7}"#]?.slots["progress"]?.value, .number("3"))
        XCTAssertEqual(snapshot[#"MediaList:{"id":1,"mediaId":8}"#]?.typename, "MediaList")
        XCTAssertNil(snapshot["MediaList:1"], "never keyed by id alone")

        // A later response naming the same key writes the same record, wherever it is reached.
        try store.commit(
            bytes: Data(#"{"data":{"entry":{"__typename":"MediaList","mediaId":7,"id":1,"progress":5}}}"#.utf8),
            selections: [
                .field("entry", type: .named("MediaList"), selections: Self.entryFields, keyFields: Self.keys)
            ])
        XCTAssertEqual(store.snapshot()[#"MediaList:{"id":1,"mediaId":7}"#]?.slots["progress"]?.value, .number("5"))
    }

    /// A key field absent, null or not a leaf: the object is kept under its path, as an object without an `id` is,
    /// so it can never be merged into another record's key.
    func testAnObjectMissingAKeyFieldIsKeptUnderItsPath() throws {
        let store = Store()
        try store.commit(
            bytes: Data(
                #"{"data":{"entries":[{"__typename":"MediaList","id":1,"progress":3},{"__typename":"MediaList","id":1,"mediaId":null},{"__typename":"MediaList","id":1,"mediaId":{"x":1}}]}}"#
                    .utf8), selections: Self.entries())
        XCTAssertEqual(
            store.snapshot()["Query"]?.slots["entries"]?.value,
            .list([.link("Query.entries.0"), .link("Query.entries.1"), .link("Query.entries.2")]))
        XCTAssertNil(store.snapshot()["MediaList:1"])
        XCTAssertEqual(store.snapshot()["Query.entries.0"]?.slots["progress"]?.value, .number("3"))
    }

    /// Under an abstract field the key is the concrete type's, picked by `__typename`; a type without a declared
    /// key keeps `Type:id`.
    func testTheConcreteTypesKeyAppliesUnderAnAbstractField() throws {
        let store = Store()
        let results: [Selection] = [
            .field(
                "search", type: .list(.named("SearchResult")),
                selections: [
                    .field("__typename", type: .nonNull(.named("String"))),
                    .inlineFragment(on: TypeCondition("MediaList"), selections: Self.entryFields),
                    .inlineFragment(
                        on: TypeCondition("Account"),
                        selections: [.field("id", type: .named("ID")), .field("login", type: .named("String"))]),
                    .inlineFragment(on: TypeCondition("Staff"), selections: [.field("id", type: .named("ID"))]),
                ], keyFields: ["Account": ["login"], "MediaList": ["id", "mediaId"]])
        ]
        try store.commit(
            bytes: Data(
                #"{"data":{"search":[{"__typename":"Account","id":"9","login":"é\"x"},{"__typename":"MediaList","id":2,"mediaId":3},{"__typename":"Staff","id":"4"}]}}"#
                    .utf8), selections: results)
        XCTAssertEqual(
            store.snapshot()["Query"]?.slots["search"]?.value,
            .list([.link(#"Account:{"login":"é\"x"}"#), .link(#"MediaList:{"id":2,"mediaId":3}"#), .link("Staff:4")]))
    }

    /// A response built in code is committed as bytes: the same keys, escapes and non-ASCII included.
    func testBothCommitPathsGiveTheSameKeys() throws {
        let body = #"{"data":{"entries":[{"__typename":"MediaList","id":"a\u00e9","mediaId":true},{"__typename":"MediaList","id":1.50,"mediaId":"x"}]}}"#
        let fromBytes = Store()
        try fromBytes.commit(bytes: Data(body.utf8), selections: Self.entries())
        let fromTree = Store()
        try fromTree.commit(.json(body), selections: Self.entries())
        let expected: StoredValue = .list([
            .link(#"MediaList:{"id":"aé","mediaId":true}"#), .link(#"MediaList:{"id":1.50,"mediaId":"x"}"#),
        ])
        XCTAssertEqual(fromBytes.snapshot()["Query"]?.slots["entries"]?.value, expected)
        XCTAssertEqual(fromTree.snapshot()["Query"]?.slots["entries"]?.value, expected)
    }

    /// Without a declared key for the type, nothing changes: `Type:id`.
    func testATypeWithoutADeclaredKeyKeepsTypeAndId() throws {
        let store = Store()
        try store.commit(
            bytes: Data(#"{"data":{"entries":[{"__typename":"MediaList","id":1,"mediaId":7}]}}"#.utf8),
            selections: Self.entries(["Other": ["x"]]))
        XCTAssertEqual(store.snapshot()["Query"]?.slots["entries"]?.value, .list([.link("MediaList:1")]))
    }
}

/// `mutation SaveEntry($id: ID!) { save(id: $id) { __typename id mediaId progress } }`, its field keyed as the plan
/// says; written by hand, as its keys are given here rather than by a schema.
struct SaveEntry: GraphQLOperation {
    static let operationName = "SaveEntry"
    static let document = "mutation SaveEntry { … }"
    static var operationType: OperationType { .mutation }
    var id: String
    var variables: [String: JSONValue] { ["id": .string(id)] }
    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let save = Field(
            "save", arguments: [("id", .variable("id"))], type: .named("MediaList"),
            selections: RecordKeyTests.entryFields, keyFields: RecordKeyTests.keys)
        static let selections: [Selection] = [.field(save)]
    }
}

/// An optimistic response of a keyed type in the shape generated builders give (the whole key required).
struct SaveEntryOptimistic: OptimisticResponse {
    var id: Int
    var mediaId: Int
    var progress: Int
    var responseObject: JSONObject {
        JSONObject([
            (
                "save",
                [
                    "__typename": "MediaList", "id": .number(String(id)), "mediaId": .number(String(mediaId)),
                    "progress": .number(String(progress)),
                ]
            )
        ])
    }
}

extension RecordKeyTests {
    /// An optimistic response writes the keyed record the server's answer writes: the view reading it sees the
    /// optimistic value, then the server's, and no other record appears.
    func testAnOptimisticResponseWritesTheKeyedRecord() async throws {
        let transport = FixtureTransport()
        let environment = BatonEnvironment(transport: transport)
        try environment.store.commit(
            bytes: Data(#"{"data":{"entries":[{"__typename":"MediaList","id":1,"mediaId":7,"progress":3}]}}"#.utf8),
            selections: Self.entries())
        let key = #"MediaList:{"id":1,"mediaId":7}"#
        let seen = Locked<[StoredValue?]>([])
        let store = environment.store
        let subscription = store.subscribe(to: [SlotID(key, "progress")]) { _ in
            seen.withLock { $0.append(store.record(key)?.slots["progress"]?.value) }
        }
        defer { subscription.cancel() }
        transport.answer(
            "SaveEntry",
            with: .json(#"{"data":{"save":{"__typename":"MediaList","id":1,"mediaId":7,"progress":10}}}"#))
        try await environment.perform(
            SaveEntry(id: "1"), optimisticResponse: SaveEntryOptimistic(id: 1, mediaId: 7, progress: 9))
        XCTAssertEqual(seen.withLock { $0 }, [.number("9"), .number("10")])
        XCTAssertEqual(store.snapshot().records.keys.filter { $0.hasPrefix("MediaList") }, [key])
        XCTAssertEqual(store.optimisticLayerCount, 0)
    }
}
