/// A deferred fragment's phase (`@defer` on a spread or an inline fragment), as the generated accessor reads it:
/// pending until its payload has filled every slot the fragment reads, ready with its lens then, or failed with the
/// errors the server completed it with. What a view switches on to show a fragment still arriving.
public enum DeferredPhase<Value: Sendable>: Sendable {
    /// Its payload has not arrived (or not all of it).
    case pending
    /// Every slot the fragment reads is in the store.
    case ready(Value)
    /// The server completed the fragment with errors: they stay, where the fragment is, until a response writes it.
    case failed(FieldErrors)

    /// The lens when ready, nil otherwise.
    public var value: Value? {
        if case .ready(let value) = self { return value }
        return nil
    }

    /// True while the payload is still to come.
    public var isPending: Bool {
        if case .pending = self { return true }
        return false
    }
}

extension DeferredPhase: Equatable where Value: Equatable {}

/// `initialCount:` of a `@stream`, as the plan says it: a literal, or a variable of the request.
public enum StreamCount: Sendable, Hashable {
    case literal(Int)
    case variable(String)

    /// The count for a request with `variables` (0 when the variable is missing or not a whole number).
    public func value(in variables: [String: JSONValue]) -> Int {
        switch self {
        case .literal(let count): return count
        case .variable(let name):
            if case .number(let text)? = variables[name], let count = Int(text) { return count }
            return 0
        }
    }
}

/// A `@stream` list as the generated accessor reads it: the items so far, whether more are coming, and the initial
/// count the request asked for.
public struct Streamed<Value: Sendable>: Sendable {
    /// The list as the store has it now, typed as without `@stream`.
    public var items: Value
    /// True while the server has said more items of this list will follow.
    public var moreComing: Bool
    /// How many items the first payload holds.
    public var initialCount: Int

    public init(items: Value, moreComing: Bool, initialCount: Int) {
        self.items = items
        self.moreComing = moreComing
        self.initialCount = initialCount
    }
}

extension Streamed: Equatable where Value: Equatable {}

extension Streamed where Value: ExpressibleByNilLiteral {
    /// A list its `@include`/`@skip` conditions left out of the request: nil, and nothing coming.
    public static var absent: Streamed { Streamed(items: nil, moreComing: false, initialCount: 0) }
}

/// Incremental delivery's marks in the store: slots under storage keys no field can have (a GraphQL name never
/// starts with `@`), so they persist, notify and age as any slot does, and a response writing the record again
/// replaces them.
public enum IncrementalMarks {
    /// The slot, on the record a deferred fragment reads, holding the errors the server completed it with.
    public static func failure(label: String?) -> String { "@defer:" + (label ?? "") }
    /// The slot, beside a streamed list's slot (its storage key), present while more items are coming.
    public static func streaming(_ storageKey: String) -> String { "@stream:" + storageKey }
}

extension Lens {
    /// A named fragment's spread under `@defer`: its phase, or nil when the record's type does not match or a
    /// `@required` null inside bubbled to the fragment's boundary.
    public func deferred<L: LensType>(_ type: L.Type, label: String?) -> DeferredPhase<Fragment<L>>? {
        switch deferredAs(L.self, label: label) {
        case nil: return nil
        case .pending?: return .pending
        case .failed(let errors)?: return .failed(errors)
        case .ready(let lens)?: return .ready(Fragment(lens: lens.lens))
        }
    }

    /// An inline fragment under `@defer`: its phase, or nil as for `deferred`.
    public func deferredAs<L: LensType>(_ type: L.Type, label: String?) -> DeferredPhase<L>? {
        if let condition = L.conditionOfType, !condition.matches(record?.typename) { return nil }
        if let slot = record?.slots[IncrementalMarks.failure(label: label)], !slot.errors.isEmpty {
            return .failed(FieldErrors(slot.errors))
        }
        let walk = OperationWalk(snapshot: snapshot, variables: context.variables, root: key, selections: L.selections)
        guard walk.isComplete else { return .pending }
        return fragment(L.self).map { .ready($0) }
    }

    /// A list under `@stream`: the items so far (read as `read` reads them), and whether more are coming.
    public func streamed<T: SlotDecodable>(_ field: Field, initialCount: StreamCount) -> Streamed<T> {
        let items: T = read(field)
        let mark = IncrementalMarks.streaming(field.readKey(variables: context.variables))
        return Streamed(
            items: items, moreComing: record?.slots[mark] != nil,
            initialCount: initialCount.value(in: context.variables))
    }
}
