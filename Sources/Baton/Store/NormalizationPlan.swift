import Foundation

/// A selection set compiled once for the normalizer: its fields flattened in walk order, each with the guard
/// (type condition and `@include`/`@skip` of the fragments around it) that decides whether it applies, and a slot
/// ordinal per distinct storage key.
///
/// A field's plan is built with its `FieldStorage`, so a commit walks flat arrays instead of `[Selection]`
/// enums; an operation's root plan is cached by the identity of its selections array (`rootPlan(for:)`). The
/// ordinals let the normalizer write a record's slots into an array instead of hashing each storage key for every
/// object of a response; a plan whose storage keys depend on variables has no ordinals, and its records are
/// written by key.
final class NormalizationPlan: Sendable {
    struct Step: Sendable {
        /// Unretained: the selections the plan was built from hold the field (a field's `selections`, or the root
        /// plan cache's array), for at least as long as the plan.
        let field: Unmanaged<FieldStorage>
        /// The guard that must pass, or -1.
        let guardIndex: Int32
        /// The slot ordinal of the field's storage key, or -1 when the plan writes by key.
        let ordinal: Int32
    }

    /// The conditions of one inline fragment or fragment spread, inside its parent guard (-1: none).
    struct Guard: Sendable {
        let parent: Int32
        let typeCondition: TypeCondition?
        let conditions: [Condition]
    }

    let steps: [Step]
    let guards: [Guard]
    /// The storage key of each ordinal; nil when some storage key depends on variables.
    let ordinalKeys: [String]?
    /// Storage key → ordinal (when `ordinalKeys` is not nil).
    let ordinals: [String: Int32]
    /// The `hashValue` of each ordinal's storage key, for the `SlotID`s of a commit.
    let ordinalKeyHashes: [Int]
    /// A slot table with every ordinal's storage key (each slot a placeholder), and each ordinal's index in it: a
    /// new record that wrote every ordinal copies the table and sets its slots by index, hashing no key (the
    /// copy keeps the table's layout, so the indices stay valid). Empty when the plan writes by key.
    let slotTable: [String: Slot]
    let slotTableIndices: [Dictionary<String, Slot>.Index]

    init(_ selections: [Selection]) {
        var steps: [Step] = []
        var guards: [Guard] = []
        var ordinals: [String: Int32] = [:]
        var keys: [String] = []
        var variable = false
        // Fragments nest as deep as the generated selections do; the selections are already expanded.
        func add(_ selections: [Selection], guardIndex: Int32) {
            for selection in selections {
                switch selection {
                case .field(let field):
                    let storage = field.storage
                    var ordinal: Int32 = -1
                    if let key = storage.constantStorageKey {
                        if let existing = ordinals[key] {
                            ordinal = existing
                        } else {
                            ordinal = Int32(keys.count)
                            ordinals[key] = ordinal
                            keys.append(key)
                        }
                    } else {
                        variable = true
                    }
                    steps.append(
                        Step(field: Unmanaged.passUnretained(storage), guardIndex: guardIndex, ordinal: ordinal))
                case .inlineFragment(let condition, let conditions, let selections):
                    add(selections, guardIndex: guarded(condition, conditions, guardIndex))
                case .fragment(_, let condition, let conditions, let selections):
                    add(selections, guardIndex: guarded(condition, conditions, guardIndex))
                }
            }
        }
        func guarded(_ condition: TypeCondition?, _ conditions: [Condition], _ parent: Int32) -> Int32 {
            if condition == nil, conditions.isEmpty { return parent }
            guards.append(Guard(parent: parent, typeCondition: condition, conditions: conditions))
            return Int32(guards.count - 1)
        }
        add(selections, guardIndex: -1)
        if variable {
            steps = steps.map { Step(field: $0.field, guardIndex: $0.guardIndex, ordinal: -1) }
        }
        self.steps = steps
        self.guards = guards
        self.ordinalKeys = variable ? nil : keys
        self.ordinals = variable ? [:] : ordinals
        self.ordinalKeyHashes = variable ? [] : keys.map(\.hashValue)
        var table = [String: Slot](minimumCapacity: variable ? 0 : keys.count)
        if !variable { for key in keys { table[key] = Slot(value: .null) } }
        self.slotTable = table
        self.slotTableIndices = variable ? [] : keys.compactMap { table.index(forKey: $0) }
    }

    // MARK: Root plans

    /// Recently used root plans, by the selections array they were built from (held, so its buffer stays
    /// allocated and its address cannot name another array).
    private static let cache = Locked<[(selections: [Selection], plan: NormalizationPlan)]>([])
    private static let cacheSize = 16

    /// The plan of an operation's root selections: built once per selections array (generated operations pass
    /// the same static array on every commit).
    static func rootPlan(for selections: [Selection]) -> NormalizationPlan {
        let address = selections.withUnsafeBufferPointer { $0.baseAddress }
        let cached: NormalizationPlan? = cache.withLock { entries in
            guard let address else { return nil }
            for (index, entry) in entries.enumerated()
            where entry.selections.count == selections.count
                && entry.selections.withUnsafeBufferPointer({ $0.baseAddress }) == address
            {
                if index > 0 { entries.swapAt(index, index - 1) }
                return entry.plan
            }
            return nil
        }
        if let cached { return cached }
        let plan = NormalizationPlan(selections)
        if address != nil {
            cache.withLock { entries in
                if entries.count == cacheSize { entries.removeLast() }
                entries.append((selections, plan))
            }
        }
        return plan
    }
}
