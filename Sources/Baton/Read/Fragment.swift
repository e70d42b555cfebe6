import Foundation

/// A fragment spread's record, read through the fragment: what a parent passes to the view that declared the
/// fragment (`IssueRow(issue: row)`), and, as a property wrapper, what that view reads (`@Fragment("…") var issue`).
///
/// Generated code reads a spread as a `Fragment` (`issue.issueRow` is a `Fragment<IssueRow_issue>?`); its members
/// read through it (`row.title`), and `wrappedValue` is the fragment's lens. Two `Fragment`s are equal when they
/// read the same record and every slot the fragment's selections reach holds the same value and errors in both
/// snapshots, so SwiftUI, which compares a view's stored properties by `==` where they have one, re-evaluates a
/// child view's body only when its fragment's data changed.
///
/// The literal in `@Fragment("fragment IssueRow_issue on Issue { … }")` is what `baton` reads; at run time the
/// generated type carries the text. Swift gives a wrapper attribute with arguments a default, so a view can also
/// be made without its record (`IssueRow()`): its reads then report missing data to standard error and give the
/// types' zero values. Pass the record from the parent instead.
@propertyWrapper
@dynamicMemberLookup
public struct Fragment<Value: LensType>: Sendable {
    /// The record, or nil for a view made without one.
    private let lens: Lens?

    /// The fragment's lens of the record.
    public var wrappedValue: Value { Value(lens: lens ?? Self.unbound) }

    /// The record the generated spread accessor read.
    public init(lens: Lens) { self.lens = lens }

    /// A view's `@Fragment("…") var issue: IssueRow_issue`, given its record (`_issue = Fragment(wrappedValue: x, "…")`).
    public init(wrappedValue: Value, _ document: String) { lens = wrappedValue.lens }

    /// The default Swift gives `@Fragment("…")` when the parent passes nothing: a fragment without a record.
    public init(_ document: String) { lens = nil }

    /// A member of the fragment's lens.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
        wrappedValue[keyPath: keyPath]
    }

    /// The lens a fragment without a record reads: no record, every read reported as missing.
    private static var unbound: Lens {
        Lens(
            snapshot: StoreSnapshot(), key: "",
            context: ReadContext(reporter: UnboundFragmentReporter(fragment: Value.nameOfFragment ?? "\(Value.self)")))
    }
}

extension Fragment: Equatable {
    /// Whether both read the same record and the fragment's slots hold the same data in both snapshots.
    public static func == (lhs: Fragment, rhs: Fragment) -> Bool {
        switch (lhs.lens, rhs.lens) {
        case (nil, nil): return true
        case (let left?, let right?): return FragmentData.same(left, right, selections: Value.selections)
        default: return false
        }
    }
}

extension Lens {
    /// A named fragment spread: the fragment's reference to this record, or nil when the type does not match or a
    /// `@required` null inside bubbled to the fragment's boundary (see `fragment`).
    @inlinable
    public func spread<L: LensType>(_ type: L.Type) -> Fragment<L>? {
        fragment(type).map { Fragment(lens: $0.lens) }
    }
}

/// Compares what a fragment reads in two snapshots.
enum FragmentData {
    static func same(_ left: Lens, _ right: Lens, selections: [Selection]) -> Bool {
        guard left.key == right.key, left.context.variables == right.context.variables else { return false }
        let walk = OperationWalk(
            snapshot: left.snapshot, variables: left.context.variables, root: left.key, selections: selections)
        let other = OperationWalk(
            snapshot: right.snapshot, variables: right.context.variables, root: right.key, selections: selections)
        guard walk.dependencies == other.dependencies, walk.records == other.records else { return false }
        for key in walk.records where left.snapshot[key]?.typename != right.snapshot[key]?.typename { return false }
        for slot in walk.dependencies
        where left.snapshot[slot.record]?.slots[slot.storageKey] != right.snapshot[slot.record]?.slots[slot.storageKey]
        {
            return false
        }
        return true
    }
}

/// Reports the reads of a fragment without a record on standard error, once per fragment: a programming error (the
/// view was made without the record its parent should pass), not data.
struct UnboundFragmentReporter: ReadReporter {
    let fragment: String

    private static let reported = Locked<Set<String>>([])

    func report(_ event: ReadEvent) {
        guard Self.reported.withLock({ $0.insert(fragment).inserted }) else { return }
        let line =
            "baton: fragment \(fragment) was read without a record: the view holding `@Fragment` was made "
            + "without the record its parent passes (`IssueRow(issue: row)` in the guide)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
