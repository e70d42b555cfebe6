import Baton
import XCTest

/// How a deferred fragment's phase and a streamed list read from the store (what `Baton.DeferredPhase` and
/// `Baton.Streamed` accessors call): pending while a slot the fragment reads is missing, ready once every one is
/// there, failed while the record holds the failure mark of its label; a streamed list's items and its mark.
final class IncrementalReadTests: XCTestCase {
    /// `fragment Issues_repository on Repository { issues }`, as generated.
    struct Issues: FragmentLensType {
        let lens: Lens
        init(lens: Lens) { self.lens = lens }
        static let issues = Field("issues", type: .list(.nonNull(.named("String"))))
        static let selections: [Selection] = [.field(issues)]
        static let fragmentName: String? = "Issues_repository"
        static let typeCondition: TypeCondition? = TypeCondition("Repository")
        var issues: [String]? { lens.read(Self.issues) }
    }

    static let name = Field("name", type: .nonNull(.named("String")))
    static let tags = Field("tags", type: .list(.nonNull(.named("String"))))

    func record(_ slots: [String: Slot]) -> Lens {
        let snapshot = StoreSnapshot(records: ["Repository:1": Record(typename: "Repository", slots: slots)])
        return Lens(snapshot: snapshot, key: "Repository:1", context: ReadContext())
    }

    func testAFragmentIsPendingUntilItsSlotsArriveThenReady() {
        let first = record(["name": Slot(value: .string("baton"))])
        XCTAssertEqual(first.deferred(Issues.self, label: "issues").map(describe), "pending")
        let second = record([
            "name": Slot(value: .string("baton")), "issues": Slot(value: .list([.string("#1"), .string("#2")])),
        ])
        XCTAssertEqual(second.deferred(Issues.self, label: "issues").map(describe), "ready #1, #2")
    }

    func testAFailedFragmentReadsFailedWhileTheRestStays() {
        let error = GraphQLError(message: "issues are unavailable", path: [.key("repository"), .key("issues")])
        let lens = record([
            "name": Slot(value: .string("baton")),
            IncrementalMarks.failure(label: "issues"): Slot(value: .null, errors: [error]),
        ])
        XCTAssertEqual(lens.deferred(Issues.self, label: "issues").map(describe), "failed issues are unavailable")
        XCTAssertEqual(lens.read(Self.name) as String, "baton")
        // Another label's failure is not this fragment's.
        XCTAssertEqual(lens.deferred(Issues.self, label: "other").map(describe), "pending")
    }

    func testATypeThatDoesNotMatchReadsNil() {
        let snapshot = StoreSnapshot(records: ["User:1": Record(typename: "User", slots: [:])])
        let lens = Lens(snapshot: snapshot, key: "User:1", context: ReadContext())
        XCTAssertNil(lens.deferred(Issues.self, label: nil))
    }

    func testAStreamedListReadsItsItemsAndWhetherMoreAreComing() {
        let streaming = record([
            "tags": Slot(value: .list([.string("swift")])),
            IncrementalMarks.streaming("tags"): Slot(value: .boolean(true)),
        ])
        let partial: Streamed<[String]?> = streaming.streamed(Self.tags, initialCount: .literal(1))
        XCTAssertEqual(partial, Streamed(items: ["swift"], moreComing: true, initialCount: 1))
        let done = record(["tags": Slot(value: .list([.string("swift"), .string("kotlin")]))])
        let whole: Streamed<[String]?> = done.streamed(Self.tags, initialCount: .variable("count"))
        XCTAssertEqual(whole, Streamed(items: ["swift", "kotlin"], moreComing: false, initialCount: 0))
        XCTAssertEqual(StreamCount.variable("count").value(in: ["count": .number("3")]), 3)
    }

    private func describe(_ phase: DeferredPhase<Fragment<Issues>>) -> String {
        switch phase {
        case .pending: "pending"
        case .ready(let fragment): "ready " + (fragment.issues ?? []).joined(separator: ", ")
        case .failed(let errors): "failed " + errors.description
        }
    }
}
