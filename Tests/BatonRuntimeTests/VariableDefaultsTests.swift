import Baton
import BatonTesting
import Foundation
import XCTest

/// `query Items($first: Int = 10, $withName: Boolean = true) { items(first: $first) { id name @include(if: $withName) } }`,
/// as the Swift generator writes it: an unset variable is absent from `variables`, its default is in `variableDefaults`.
struct DefaultedItems: GraphQLOperation {
    static let operationName = "Items"
    static let document =
        "query Items($first: Int = 10, $withName: Boolean = true) { items(first: $first) { id name @include(if: $withName) } }"
    static let variableDefaults: [String: JSONValue] = ["first": .number("10"), "withName": .bool(true)]
    var first: Int?
    var withName: Bool?
    init(first: Int? = nil, withName: Bool? = nil) {
        self.first = first
        self.withName = withName
    }
    var variables: [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        if let first { values["first"] = .number(first.description) }
        if let withName { values["withName"] = .bool(withName) }
        return values
    }

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let items = Field(
            "items", arguments: [("first", .variable("first"))], type: .list(.named("Item")),
            selections: [
                .field("id", type: .named("ID")),
                .field("name", type: .named("String"), conditions: [.include("withName")]),
            ])
        static let selections: [Selection] = [.field(items)]
        var ids: [String?]? {
            let items: [Item?]? = lens.read(Self.items)
            return items?.map { $0?.id }
        }
        var names: [String?]? {
            let items: [Item?]? = lens.read(Self.items)
            return items?.map { $0?.name }
        }
    }

    struct Item: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let selections: [Selection] = DefaultedItems.Data.items.selections
        var id: String? { lens.read(Field("id", type: .named("ID"))) }
        var name: String? { lens.read(Field("name", type: .named("String"), conditions: [.include("withName")])) }
    }
}

final class VariableDefaultsTests: XCTestCase {
    static let body = #"{"data":{"items":[{"id":"1","name":"One"},{"id":"2","name":"Two"}]}}"#
    static let bodyWithoutNames = #"{"data":{"items":[{"id":"3"}]}}"#

    func testResolvedVariablesApplyDefaultsUnderSetValues() {
        XCTAssertEqual(DefaultedItems().variables, [:], "the request sends only what the app set")
        XCTAssertEqual(DefaultedItems().resolvedVariables, ["first": .number("10"), "withName": .bool(true)])
        XCTAssertEqual(
            DefaultedItems(first: 3, withName: false).resolvedVariables,
            ["first": .number("3"), "withName": .bool(false)])
        XCTAssertEqual(GraphQLRequest(DefaultedItems()).variables, [:], "an unset defaulted variable stays absent")
        XCTAssertEqual(TestConditions(id: "1", withOrigin: true, hideStatus: false).resolvedVariables.count, 3)
        XCTAssertEqual(LocationList.variableDefaults, [:], "an operation without defaults keeps the default of [:]")
    }

    func testCommitAndReadKeyAnAbsentDefaultedVariableByItsDefault() throws {
        for fromBytes in [false, true] {
            let store = Store()
            if fromBytes {
                try store.commit(bytes: Data(Self.body.utf8), for: DefaultedItems())
            } else {
                try store.commit(try GraphQLResponse.json(Self.body), for: DefaultedItems())
            }
            let root = try XCTUnwrap(store.record("Query"))
            XCTAssertEqual(Array(root.slots.keys), [#"items({"first":10})"#], "fromBytes: \(fromBytes)")
            let data = try store.read(DefaultedItems())
            XCTAssertEqual(data.ids, ["1", "2"])
            XCTAssertEqual(data.names, ["One", "Two"], "@include(if: $withName) sees the default true")
            // Setting the variable to its default reads the same slot; another value reads another (missing) slot.
            XCTAssertEqual(try store.read(DefaultedItems(first: 10)).ids, ["1", "2"])
            XCTAssertNil(try store.read(DefaultedItems(first: 3)).ids)
        }
    }

    func testASetVariableOverridesItsDefault() throws {
        for fromBytes in [false, true] {
            let store = Store()
            let operation = DefaultedItems(first: 3, withName: false)
            if fromBytes {
                try store.commit(bytes: Data(Self.bodyWithoutNames.utf8), for: operation)
            } else {
                try store.commit(try GraphQLResponse.json(Self.bodyWithoutNames), for: operation)
            }
            XCTAssertEqual(Array(try XCTUnwrap(store.record("Query")).slots.keys), [#"items({"first":3})"#])
            XCTAssertNil(store.record("Item:3")?.slots["name"], "@include(if: false) leaves name out")
            let data = try store.read(operation)
            XCTAssertEqual(data.ids, ["3"])
            XCTAssertEqual(data.names, [nil])
            XCTAssertNil(try store.read(DefaultedItems()).ids, "the default's slot was never written")
        }
    }

    func testAHandleReadsAndDependsOnTheDefaultedSlot() async throws {
        let transport = FixtureTransport()
        transport.answer("Items", with: .json(Self.body))
        let environment = BatonEnvironment(transport: transport, log: MemoryLog())
        let handle = environment.attach(DefaultedItems(), policy: .storeOrNetwork)
        await environment.settle()
        XCTAssertEqual(handle.phase.data?.ids, ["1", "2"])
        XCTAssertEqual(handle.phase.data?.names, ["One", "Two"])
        XCTAssertEqual(transport.requestCount("Items"), 1)
        // A second attach finds everything under the default's key and does not fetch.
        let again = environment.attach(DefaultedItems(), policy: .storeOrNetwork)
        await environment.settle()
        XCTAssertEqual(again.phase.data?.ids, ["1", "2"])
        XCTAssertEqual(transport.requestCount("Items"), 1)
    }
}
