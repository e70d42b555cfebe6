import Baton
import BatonTesting
import Foundation
import XCTest

// What the SwiftUI wrappers give a view, tested without SwiftUI: lists of lenses (`LensList`, `NullableItem`), a
// spread's `Fragment` and its equality, and a query value's attachment (`phase`, `isStale`, `retry()`).

/// `query Issues { repository { description issues { nodes { id ...Row } } } }` and `fragment Row on Issue { title
/// author @required(action: LOG) { login } }`, written in the shape the Swift generator writes.
struct IssuesQuery: DefaultVariablesOperation {
    static let operationName = "Issues"
    static let document = "query Issues { … }"
    var variables: [String: JSONValue] { [:] }
    var attachment = Attachment<IssuesQuery>()

    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let repository = Field("repository", type: .named("Repository"), selections: Repository.selections)
        static let selections: [Selection] = [.field(repository)]
        var repository: Repository? { lens.read(Self.repository) }
    }

    struct Repository: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let description = Field.leaf("description", "String")
        static let nodes = Field.composite("nodes", "[Issue]", Node.selections)
        static let pinned = Field.composite("pinned", "[Issue!]", Node.selections)
        static let selections: [Selection] = [.field(description), .field(nodes), .field(pinned)]
        var description: String? { lens.read(Self.description) }
        var nodes: LensList<NullableItem<Node>>? { lens.read(Self.nodes) }
        var pinned: LensList<Node>? { lens.read(Self.pinned) }
    }

    struct Node: LensType, Identifiable {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let id = Field.leaf("id", "ID!")
        static let selections: [Selection] = [.field(id), .fragment(Row.self)]
        var id: String { lens.read(Self.id) }
        var row: Fragment<Row>? { lens.spread(Row.self) }
    }

    struct Row: FragmentLensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let fragmentName: String? = "Row"
        static let typeCondition: TypeCondition? = TypeCondition("Issue")
        static let title = Field.leaf("title", "String!")
        static let author = Field("author", type: .named("User"), selections: Author.selections, required: .log)
        static let selections: [Selection] = [.field(title), .field(author)]
        var title: String { lens.read(Self.title) }
        var author: Author { lens.read(Self.author) }
    }

    struct Author: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let login = Field.leaf("login", "String!")
        static let selections: [Selection] = [.field(login)]
        var login: String { lens.read(Self.login) }
    }
}

final class ViewValueTests: XCTestCase {
    static func issue(_ id: String, _ title: String, author: String?) -> String {
        let login = author.map { #"{"__typename":"User","login":"\#($0)"}"# } ?? "null"
        return #"{"__typename":"Issue","id":"\#(id)","title":"\#(title)","author":\#(login)}"#
    }

    static func response(description: String = "Swift", first: String = "Crash", pinned: String? = nil) -> String {
        let nodes = [issue("1", first, author: "ann"), issue("2", "Typo", author: nil), "null"].joined(separator: ",")
        return #"""
            {"data":{"repository":{"__typename":"Repository","description":"\#(description)",
              "nodes":[\#(nodes)],"pinned":\#(pinned ?? "[" + issue("1", first, author: "ann") + "]")}}}
            """#
    }

    func read(_ store: Store, reporter: any ReadReporter = SilentReporter()) throws -> IssuesQuery.Repository {
        try XCTUnwrap(try store.read(IssuesQuery(), reporter: reporter).repository)
    }

    // MARK: Lists

    func testANullableListKeepsEveryItemWithItsIndexAndIdentity() throws {
        let store = Store()
        try store.commit(.json(Self.response()), for: IssuesQuery())
        let reporter = CollectingReporter()
        let nodes = try XCTUnwrap(try read(store, reporter: reporter).nodes)
        XCTAssertEqual(nodes.count, 3, "the null item is in the list")
        XCTAssertEqual(nodes.map(\.index), [0, 1, 2])
        XCTAssertEqual(nodes.map(\.id), [.value("1"), .value("2"), .null(index: 2)])
        XCTAssertEqual(nodes.map { $0.value?.id }, ["1", "2", nil])
        // The guide's loop: `if let row = issue.row` gives a row for the first item only.
        XCTAssertEqual(nodes.map { $0.row?.title }, ["Crash", nil, nil])
        XCTAssertEqual(
            reporter.take(), [.requiredFieldNull(path: "repository.nodes.1.author")],
            "the row skipped for its author is logged; the null item is the server's")
        XCTAssertEqual((nil as LensList<NullableItem<IssuesQuery.Node>>? ?? .empty).count, 0)
    }

    func testANonNullListIsNullWhenAnItemIsNull() throws {
        let store = Store()
        try store.commit(.json(Self.response(pinned: "[null]")), for: IssuesQuery())
        XCTAssertNil(
            try read(store).pinned, "a null item where the schema says [Issue!] nulls the list, as GraphQL does")
        try store.commit(.json(Self.response()), for: IssuesQuery())
        XCTAssertEqual(try read(store).pinned?.map(\.id), ["1"])
    }

    // MARK: Fragments

    func testAFragmentIsEqualUntilItsOwnSlotsChange() throws {
        let store = Store()
        try store.commit(.json(Self.response()), for: IssuesQuery())
        let before = try XCTUnwrap(try read(store).nodes?.first?.row)
        try store.commit(.json(Self.response(description: "The Swift Programming Language")), for: IssuesQuery())
        let unrelated = try XCTUnwrap(try read(store).nodes?.first?.row)
        XCTAssertEqual(before, unrelated, "another field of the repository changed, not the row's")
        try store.commit(.json(Self.response(first: "Crash in the type checker")), for: IssuesQuery())
        let retitled = try XCTUnwrap(try read(store).nodes?.first?.row)
        XCTAssertNotEqual(before, retitled, "the row's title changed")
        XCTAssertEqual(retitled.title, "Crash in the type checker")
        let errors = #"""
            {"data":{"repository":{"__typename":"Repository","description":"x","nodes":[
              {"__typename":"Issue","id":"1","title":"Crash in the type checker","author":{"__typename":"User","login":null}}],
              "pinned":[]}},
             "errors":[{"message":"login hidden","path":["repository","nodes",0,"author","login"]}]}
            """#
        try store.commit(.json(errors), for: IssuesQuery())
        let snapshot = store.snapshot()
        XCTAssertNotEqual(
            retitled, Fragment<IssuesQuery.Row>(lens: Lens(snapshot: snapshot, key: "Issue:1", context: ReadContext())),
            "a slot inside the fragment got an error")
        XCTAssertNotEqual(
            retitled, Fragment<IssuesQuery.Row>(lens: Lens(snapshot: snapshot, key: "Issue:2", context: ReadContext())),
            "another record")
        XCTAssertNotEqual(retitled, Fragment<IssuesQuery.Row>("fragment Row on Issue { … }"))
        XCTAssertEqual(Fragment<IssuesQuery.Row>("…"), Fragment<IssuesQuery.Row>("…"))
    }

    func testAFragmentMadeWithoutItsRecordReadsMissingData() {
        let row = Fragment<IssuesQuery.Row>("fragment Row on Issue { title }")
        XCTAssertEqual(row.title, "", "no record: the type's zero value, reported on standard error")
    }

    // MARK: The query value

    func testAQueryValueReadsItsAttachedHandle() async throws {
        XCTAssertEqual(IssuesQuery().phase.failure?.description.hasPrefix("Issues is not attached"), true)
        let transport = FixtureTransport()
        transport.answer("Issues", with: .failure("offline"), .json(Self.response()))
        let environment = BatonEnvironment(transport: transport)
        let handle = environment.attach(IssuesQuery(), policy: .networkOnly)
        let value = handle.attachedOperation
        await environment.settle()
        XCTAssertEqual(value.phase.failure, .transportFailed("offline"))
        XCTAssertEqual(value.lastFetchError, .transportFailed("offline"))
        XCTAssertFalse(value.isStale)
        value.retry()
        await environment.settle()
        XCTAssertEqual(try XCTUnwrap(value.phase.data?.repository).description, "Swift")
        XCTAssertNil(value.lastFetchError)
        XCTAssertEqual(transport.requestCount("Issues"), 2, "retry() fetched through the value's handle")
        environment.invalidate(operation: IssuesQuery())
        XCTAssertTrue(value.isStale)
        handle.detach()
    }
}

extension Phase {
    var failure: FetchError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
