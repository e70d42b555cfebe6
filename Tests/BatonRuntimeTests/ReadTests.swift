import Baton
import Foundation
import XCTest

/// The issue's read rules, each directive on a value, a null and an error.
///
/// `query Reads { a: item(id: "1") {...} b: item(id: "2") {...} c: item(id: "3") {...} }` over a made-up schema
/// where `Item.title: String`, `Item.count: Int!`, `Item.state: State`, `Item.price: Decimal`, `Item.created: DateTime`.
enum ReadSchema {
    static let title = Field("title", type: .named("String"))
    static let count = Field("count", type: .nonNull(.named("Int")))
    static let state = Field("state", type: .named("State"))
    static let price = Field("price", type: .named("Decimal"))
    static let created = Field("created", type: .named("DateTime"))
    static let site = Field("site", type: .named("URL"))
    static let uuid = Field("uuid", type: .named("UUID"))
    static let owner = Field(
        "owner", type: .named("User"), selections: [.field("login", type: .nonNull(.named("String")))])
    static let itemSelections: [Selection] = [
        .field("id", type: .named("ID")), .field(title), .field(count), .field(state), .field(price), .field(created),
        .field(site), .field(uuid), .field(owner),
    ]
    static let selections: [Selection] = ["1", "2", "3"].map { id in
        .field(
            "item", alias: ["1": "a", "2": "b", "3": "c"][id], arguments: [("id", .literal(.string(id)))],
            type: .named("Item"), selections: itemSelections)
    }

    static let response = #"""
        {"data":{
          "a":{"id":"1","title":"Hello","count":12,"state":"OPEN","price":1.10,"created":"2017-11-04T18:48:46.250Z",
               "site":"https://example.com/x","uuid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","owner":{"login":"ada"}},
          "b":{"id":"2","title":null,"count":"twelve","state":"ARCHIVED","price":"lots","created":"yesterday",
               "site":"","uuid":"not-a-uuid","owner":null},
          "c":{"id":"3","title":null,"count":null,"state":null,"price":null,"created":null,"site":null,"uuid":null,"owner":null}
        },
        "errors":[{"message":"title failed","path":["c","title"],"extensions":{"code":"INTERNAL"}},
                  {"message":"owner failed","path":["c","owner"]}]}
        """#

    static func lenses(reporter: any ReadReporter = SilentReporter()) throws -> (Lens, Lens, Lens) {
        let store = Store()
        try store.commit(.json(response), selections: selections)
        let snapshot = store.snapshot()
        let context = ReadContext(reporter: reporter)
        return (
            Lens(snapshot: snapshot, key: "Item:1", context: context),
            Lens(snapshot: snapshot, key: "Item:2", context: context),
            Lens(snapshot: snapshot, key: "Item:3", context: context)
        )
    }
}

/// A generated enum.
enum State: GraphQLEnum {
    case OPEN, CLOSED
    case unknown(String)
    init(rawText: String) {
        switch rawText {
        case "OPEN": self = .OPEN
        case "CLOSED": self = .CLOSED
        default: self = .unknown(rawText)
        }
    }
    var rawText: String {
        switch self {
        case .OPEN: "OPEN"
        case .CLOSED: "CLOSED"
        case .unknown(let text): text
        }
    }
}

struct User: LensType {
    let lens: Lens
    init(lens: Lens) { self.lens = lens }
    static let login = Field("login", type: .nonNull(.named("String")))
    static let selections: [Selection] = [.field(login)]
    var login: String { lens.read(Self.login) }
}

final class DirectiveReadTests: XCTestCase {
    func testPlainReadsFollowTheSchemasNullability() throws {
        let reporter = CollectingReporter()
        let (value, null, error) = try ReadSchema.lenses(reporter: reporter)
        XCTAssertEqual(value.read(ReadSchema.title) as String?, "Hello")
        XCTAssertNil(null.read(ReadSchema.title) as String?)
        XCTAssertNil(error.read(ReadSchema.title) as String?, "a plain read sees a field error as nil")
        XCTAssertEqual(value.read(ReadSchema.count) as Int, 12)
        XCTAssertTrue(reporter.events.isEmpty, "\(reporter.events)")
        XCTAssertEqual((value.read(ReadSchema.owner) as User?)?.login, "ada")
        XCTAssertNil(error.read(ReadSchema.owner) as User?)
    }

    func testCatchReadsAResult() throws {
        let (value, null, error) = try ReadSchema.lenses()
        XCTAssertEqual(value.caught(ReadSchema.title) as Result<String?, FieldErrors>, .success("Hello"))
        XCTAssertEqual(null.caught(ReadSchema.title) as Result<String?, FieldErrors>, .success(nil))
        guard case .failure(let errors) = error.caught(ReadSchema.title) as Result<String?, FieldErrors> else {
            return XCTFail("expected the field error")
        }
        XCTAssertEqual(errors.errors.first?.message, "title failed")
        XCTAssertEqual(errors.errors.first?.path, [.key("c"), .key("title")])
        XCTAssertEqual(errors.errors.first?.extensions?["code"], "INTERNAL")
        XCTAssertEqual(errors.description, "title failed")
        guard case .failure = error.caught(ReadSchema.owner) as Result<User?, FieldErrors> else {
            return XCTFail("owner")
        }
        XCTAssertEqual(try (value.caught(ReadSchema.owner) as Result<User?, FieldErrors>).get()?.login, "ada")
    }

    /// `@catch` on a composite field, as Relay's: an error on a field inside it (through a link, a list item and a
    /// matching inline fragment) fails it, unless a closer `@catch` catches it; a fragment spread keeps its own.
    func testCatchOnACompositeFieldCatchesErrorsInside() throws {
        let login = Field("login", type: .named("String"))
        let innerCatch = Field("owner", type: .named("User"), selections: [.field(login)], catchTo: .null)
        let plainOwner = Field("owner", type: .named("User"), selections: [.field(login)])
        let inline = Selection.inlineFragment(on: TypeCondition("Item"), selections: [.field(plainOwner)])
        let spread = Selection.fragment(
            name: "Owned", typeCondition: TypeCondition("Item"), conditions: [], selections: [.field(plainOwner)])
        func items(_ selections: [Selection], catchTo: CatchTarget) -> Field {
            Field(
                "items", type: .list(.named("Item")), selections: [.field("id", type: .named("ID"))] + selections,
                catchTo: catchTo)
        }
        let store = Store()
        let response = #"""
            {"data":{"items":[{"id":"1","owner":{"login":"ada"}},{"id":"2","owner":{"login":null}}]},
             "errors":[{"message":"login hidden","path":["items",1,"owner","login"]}]}
            """#
        try store.commit(.json(response), selections: [.field(items([.field(plainOwner)], catchTo: .result))])
        let root = Lens(snapshot: store.snapshot(), key: "Query", context: ReadContext())
        func outcome(_ field: Field) -> String {
            switch root.caught(field) as Result<LensList<NullableItem<Row>>?, FieldErrors> {
            case .success(let rows): "success \(rows?.count ?? -1)"
            case .failure(let errors): "failure " + errors.errors.map(\.message).joined(separator: "; ")
            }
        }
        XCTAssertEqual(outcome(items([.field(plainOwner)], catchTo: .result)), "failure login hidden")
        XCTAssertEqual(outcome(items([inline], catchTo: .result)), "failure login hidden")
        XCTAssertEqual(outcome(items([.field(innerCatch)], catchTo: .result)), "success 2", "the closer @catch has it")
        XCTAssertEqual(outcome(items([spread], catchTo: .result)), "success 2", "the fragment handles its own")
        let toNull: LensList<NullableItem<Row>>? = root.caughtToNull(items([.field(plainOwner)], catchTo: .null))
        XCTAssertNil(toNull, "@catch(to: NULL) reads nil for an error inside")
        let caughtInside: LensList<NullableItem<Row>>? = root.caughtToNull(items([.field(innerCatch)], catchTo: .null))
        XCTAssertEqual(caughtInside?.count, 2)
    }

    struct Row: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let selections: [Selection] = [.field("id", type: .named("ID"))]
    }

    func testCatchToNullReadsErrorsAsNil() throws {
        let reporter = CollectingReporter()
        let (value, null, error) = try ReadSchema.lenses(reporter: reporter)
        XCTAssertEqual(value.caughtToNull(ReadSchema.title) as String?, "Hello")
        XCTAssertNil(null.caughtToNull(ReadSchema.title) as String?)
        XCTAssertNil(error.caughtToNull(ReadSchema.title) as String?)
        XCTAssertTrue(reporter.events.isEmpty)
    }

    func testStrictReadsThrowFieldErrors() throws {
        let (value, null, error) = try ReadSchema.lenses()
        XCTAssertEqual(try value.strict(ReadSchema.title) as String?, "Hello")
        XCTAssertNil(try null.strict(ReadSchema.title) as String?)
        XCTAssertThrowsError(try error.strict(ReadSchema.title) as String?) { thrown in
            guard case .fieldErrors(let errors)? = thrown as? ReadError else { return XCTFail("\(thrown)") }
            XCTAssertEqual(errors.errors.map(\.message), ["title failed"])
        }
        // @semanticNonNull under @throwOnFieldError reads non-optional: a value, or a throw.
        XCTAssertEqual(try value.strict(ReadSchema.title) as String, "Hello")
        XCTAssertThrowsError(try null.strict(ReadSchema.title) as String)
        XCTAssertThrowsError(try error.strict(ReadSchema.title) as String)
    }

    func testRequiredThrowThrowsAtTheRead() throws {
        let (value, null, error) = try ReadSchema.lenses()
        XCTAssertEqual(try value.requiredOrThrow(ReadSchema.title) as String, "Hello")
        XCTAssertThrowsError(try null.requiredOrThrow(ReadSchema.title) as String) { thrown in
            XCTAssertEqual(thrown as? ReadError, .requiredFieldNull(path: "title"))
        }
        XCTAssertThrowsError(try error.requiredOrThrow(ReadSchema.title) as String)
    }

    func testUnexpectedValuesAreReportedAndNeverCoerced() throws {
        let reporter = CollectingReporter()
        let (_, null, error) = try ReadSchema.lenses(reporter: reporter)
        XCTAssertEqual(null.read(ReadSchema.count) as Int, 0, "a string where an Int was promised reads as zero")
        XCTAssertNil(null.read(ReadSchema.count) as Int?, "or as nil where the type has one")
        XCTAssertEqual(error.read(ReadSchema.count) as Int, 0, "a null in a non-null field reads as zero")
        XCTAssertEqual(
            reporter.events,
            [
                .unexpectedValue(
                    type: "Item", field: "count", reason: "expected an Int, found string \"twelve\"", path: "count"),
                .unexpectedValue(
                    type: "Item", field: "count", reason: "expected an Int, found string \"twelve\"", path: "count"),
                .unexpectedValue(type: "Item", field: "count", reason: "null in a non-null field", path: "count"),
            ])
    }

    func testEnumsKeepUnknownValues() throws {
        let (value, null, error) = try ReadSchema.lenses()
        XCTAssertEqual(value.read(ReadSchema.state) as State?, .OPEN)
        XCTAssertEqual(null.read(ReadSchema.state) as State?, .unknown("ARCHIVED"))
        XCTAssertNil(error.read(ReadSchema.state) as State?)
    }

    func testCustomScalarsConvertAtTheReadOrReportAndReadNil() throws {
        let reporter = CollectingReporter()
        let (value, bad, null) = try ReadSchema.lenses(reporter: reporter)
        XCTAssertEqual(value.read(ReadSchema.price) as Decimal?, Decimal(string: "1.10"))
        XCTAssertEqual(value.read(ReadSchema.price) as String?, "1.10", "read unmapped, a custom scalar is its text")
        XCTAssertEqual((value.read(ReadSchema.created) as Date?)?.timeIntervalSince1970, 1_509_821_326.25)
        XCTAssertEqual(value.read(ReadSchema.site) as URL?, URL(string: "https://example.com/x"))
        XCTAssertEqual(value.read(ReadSchema.uuid) as UUID?, UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        reporter.clear()
        XCTAssertNil(bad.read(ReadSchema.price) as Decimal?)
        XCTAssertNil(bad.read(ReadSchema.created) as Date?)
        XCTAssertNil(bad.read(ReadSchema.site) as URL?)
        XCTAssertNil(bad.read(ReadSchema.uuid) as UUID?)
        XCTAssertEqual(
            reporter.events.map {
                if case .unexpectedValue(_, let field, let reason, _) = $0 { "\(field): \(reason)" } else { "\($0)" }
            },
            [
                "price: \"lots\" does not convert to Decimal", "created: \"yesterday\" does not convert to Date",
                "site: \"\" does not convert to URL", "uuid: \"not-a-uuid\" does not convert to UUID",
            ])
        XCTAssertNil(null.read(ReadSchema.created) as Date?)
        // The text itself is always readable as written.
        XCTAssertEqual(bad.read(ReadSchema.created) as String?, "yesterday")
    }

    func testMissingDataReadsNilAndIsReported() throws {
        let reporter = CollectingReporter()
        let (value, _, _) = try ReadSchema.lenses(reporter: reporter)
        let dimension = Field("dimension", type: .named("String"))
        XCTAssertNil(value.read(dimension) as String?)
        XCTAssertFalse(value.has(dimension))
        XCTAssertEqual(
            reporter.events, [.missingData(type: "Item", field: "dimension", record: "Item:1", path: "dimension")])
    }
}

// MARK: @required

/// `fragment RowOfItem on Item { title @required(action: LOG) owner @required(action: NONE) { login } }`
struct RequiredRow: FragmentLensType {
    let lens: Lens
    init(lens: Lens) { self.lens = lens }
    static let title = Field("title", type: .named("String"), required: .log)
    static let owner = Field("owner", type: .named("User"), selections: User.selections, required: RequiredAction.none)
    static let selections: [Selection] = [.field(title), .field(owner)]
    static var typeCondition: TypeCondition? { TypeCondition("Item") }
    static var fragmentName: String? { "RowOfItem" }
    var title: String { lens.read(Self.title) }
    var owner: User { lens.read(Self.owner) }
}

/// `fragment DatedItem on Item { created @required(action: NONE) }` with `DateTime` mapped to `Date`.
struct DatedItem: LensType {
    let lens: Lens
    init(lens: Lens) { self.lens = lens }
    static let created = Field("created", type: .named("DateTime"), required: RequiredAction.none, scalar: Date.self)
    static let selections: [Selection] = [.field(created)]
    var created: Date { lens.read(Self.created) }
}

/// `query RootRequired { item(id: "2") @required(action: NONE) { title @required(action: LOG) } }`
struct RootRequired: GraphQLOperation {
    static let operationName = "RootRequired"
    static let document =
        #"query RootRequired { item(id: "2") @required(action: NONE) { title @required(action: LOG) } }"#
    var variables: [String: JSONValue] { [:] }
    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let item = Field(
            "item", arguments: [("id", .literal("2"))], type: .named("Item"), selections: RequiredRow.selections,
            required: RequiredAction.none)
        static let selections: [Selection] = [.field(item)]
        var item: RequiredRow { lens.read(Self.item) }
    }
}

/// `query StrictItem @throwOnFieldError { item(id: "3") { title owner @catch { login } } }`
struct StrictItem: GraphQLOperation {
    static let operationName = "StrictItem"
    static let document = #"query StrictItem @throwOnFieldError { item(id: "3") { title } }"#
    static var throwOnFieldError: Bool { true }
    var catchTitle: Bool
    var variables: [String: JSONValue] { [:] }
    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let item = Field(
            "item", arguments: [("id", .literal("3"))], type: .named("Item"),
            selections: [
                .field("title", type: .named("String")),
                .field("owner", type: .named("User"), selections: User.selections, catchTo: .result),
            ])
        static let selections: [Selection] = [.field(item)]
    }
}

struct LenientItem: GraphQLOperation {
    static let operationName = "LenientItem"
    static let document =
        #"query LenientItem @throwOnFieldError { item(id: "3") { title @catch owner @catch { login } } }"#
    static var throwOnFieldError: Bool { true }
    var variables: [String: JSONValue] { [:] }
    struct Data: LensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let item = Field(
            "item", arguments: [("id", .literal("3"))], type: .named("Item"),
            selections: [
                .field("title", type: .named("String"), catchTo: .result),
                .field("owner", type: .named("User"), selections: User.selections, catchTo: .result),
            ])
        static let selections: [Selection] = [.field(item)]
    }
}

final class RequiredReadTests: XCTestCase {
    /// The store with items 1 (title and owner), 2 (title null) and 3 (title and owner errors), read at the root.
    func root(_ reporter: any ReadReporter) throws -> Lens {
        let store = Store()
        try store.commit(.json(ReadSchema.response), selections: ReadSchema.selections)
        return Lens(snapshot: store.snapshot(), key: "Query", context: ReadContext(reporter: reporter))
    }

    func item(_ id: String, _ alias: String) -> Field {
        Field(
            "item", alias: alias, arguments: [("id", .literal(.string(id)))], type: .named("Item"),
            selections: RequiredRow.selections)
    }

    func testARequiredNullMakesTheLensBoundaryNil() throws {
        let reporter = CollectingReporter()
        let root = try root(reporter)
        let row: RequiredRow? = root.read(item("1", "a"))
        XCTAssertEqual(row?.title, "Hello")
        XCTAssertEqual(row?.owner.login, "ada")
        XCTAssertTrue(reporter.events.isEmpty)
        XCTAssertNil(root.read(item("2", "b")) as RequiredRow?, "title is null: the accessor producing the lens is nil")
        XCTAssertEqual(reporter.events, [.requiredFieldNull(path: "b.title")], "LOG reports the path")
        reporter.clear()
        XCTAssertNil(root.read(item("3", "c")) as RequiredRow?, "a field error is a null to @required")
        XCTAssertEqual(reporter.events, [.requiredFieldNull(path: "c.title")])
    }

    func testRequiredNoneBubblesWithoutALog() throws {
        let store = Store()
        try store.commit(
            .json(#"{"data":{"a":{"id":"9","title":"t","count":1,"owner":null}}}"#),
            selections: [
                .field(
                    "item", alias: "a", arguments: [("id", .literal("9"))], type: .named("Item"),
                    selections: RequiredRow.selections)
            ])
        let reporter = CollectingReporter()
        let lens = Lens(snapshot: store.snapshot(), key: "Query", context: ReadContext(reporter: reporter))
        XCTAssertNil(
            lens.read(
                Field(
                    "item", alias: "a", arguments: [("id", .literal("9"))], type: .named("Item"),
                    selections: RequiredRow.selections)) as RequiredRow?)
        XCTAssertTrue(reporter.events.isEmpty)
    }

    func testAFragmentSpreadIsABoundary() throws {
        let (value, null, error) = try ReadSchema.lenses()
        XCTAssertEqual(value.fragment(RequiredRow.self)?.title, "Hello")
        XCTAssertNil(null.fragment(RequiredRow.self))
        XCTAssertNil(error.fragment(RequiredRow.self))
        XCTAssertNil(value.fragment(Wrong.self), "a type condition that does not match reads nil")
    }

    /// A type condition and a fragment's name are requirements of `LensType`'s refinements only (issue 34): generic
    /// code finds them through `conditionOfType` and `nameOfFragment`, and a plain lens has neither.
    func testGenericCodeFindsTheRefinementsConditionAndName() {
        func condition<L: LensType>(_ type: L.Type) -> String? { L.conditionOfType?.name }
        func name<L: LensType>(_ type: L.Type) -> String? { L.nameOfFragment }
        XCTAssertNil(condition(User.self))
        XCTAssertNil(name(User.self))
        XCTAssertEqual(condition(Wrong.self), "Location")
        XCTAssertNil(name(Wrong.self), "an inline fragment's lens has a condition and no name")
        XCTAssertEqual(condition(RequiredRow.self), "Item")
        XCTAssertEqual(name(RequiredRow.self), "RowOfItem")
        guard case .fragment(let spread, let spreadCondition, _, _) = Selection.fragment(RequiredRow.self) else {
            return XCTFail("a fragment spread")
        }
        XCTAssertEqual(spread, "RowOfItem")
        XCTAssertEqual(spreadCondition.name, "Item")
    }

    func testAMappedScalarThatDoesNotConvertBubblesUnderRequired() throws {
        let (value, bad, null) = try ReadSchema.lenses()
        XCTAssertEqual(value.fragment(DatedItem.self)?.created.timeIntervalSince1970, 1_509_821_326.25)
        XCTAssertNil(bad.fragment(DatedItem.self), "\"yesterday\" never reads as a zero date")
        XCTAssertNil(null.fragment(DatedItem.self))
    }

    func testARequiredNullAtTheRootFailsTheOperation() throws {
        let store = Store()
        try store.commit(.json(ReadSchema.response), selections: ReadSchema.selections)
        XCTAssertThrowsError(try store.read(RootRequired())) { error in
            XCTAssertEqual(error as? ReadError, .requiredFieldNull(path: "item.title"))
        }
    }

    func testThrowOnFieldErrorFailsTheOperationUnlessCaught() throws {
        let store = Store()
        try store.commit(.json(ReadSchema.response), selections: ReadSchema.selections)
        XCTAssertThrowsError(try store.read(StrictItem(catchTitle: false))) { error in
            guard case .fieldErrors(let errors)? = error as? ReadError else { return XCTFail("\(error)") }
            XCTAssertEqual(errors.errors.map(\.message), ["title failed"], "owner's error is caught")
        }
        XCTAssertNoThrow(try store.read(LenientItem()))
    }
}

struct Wrong: ConditionalLensType {
    let lens: Lens
    init(lens: Lens) { self.lens = lens }
    static let selections: [Selection] = []
    static var typeCondition: TypeCondition? { TypeCondition("Location") }
}

extension CollectingReporter {
    func clear() { _ = take() }
}
