import Foundation

/// The slots one response writes to one record, before they are merged into the store.
///
/// A record reached through one selection set (the common case: every object of a list, every visit of a shared
/// record) keeps its slots in an array by the plan's ordinals, so writing a slot hashes nothing; a record reached
/// through a second selection set, or through one whose storage keys depend on variables, keeps them by key.
struct PendingRecord {
    let key: RecordKey
    let typename: String?
    /// The plan `values` follows; nil when the record is written by key (`slots`).
    private(set) var plan: NormalizationPlan?
    private(set) var values: [StoredValue?] = []
    /// Field errors of slots in `values`, by ordinal (a response with errors is the rare case).
    private var errors: [Int32: [GraphQLError]] = [:]
    private(set) var slots: [String: Slot] = [:]
    /// Whether nothing was written yet.
    private var fresh = true

    init(key: RecordKey, typename: String?) {
        self.key = key
        self.typename = typename
    }

    /// Whether writes through `plan` go into `values` by ordinal; prepares the record on its first write and
    /// moves it to writing by key when a second plan reaches it.
    @inline(__always)
    mutating func writesByOrdinal(_ plan: NormalizationPlan) -> Bool {
        if self.plan === plan { return true }
        if fresh {
            fresh = false
            guard let keys = plan.ordinalKeys else { return false }
            self.plan = plan
            values = Array(repeating: nil, count: keys.count)
            return true
        }
        if let previous = self.plan { moveToKeys(previous) }
        return false
    }

    private mutating func moveToKeys(_ previous: NormalizationPlan) {
        if let keys = previous.ordinalKeys {
            slots.reserveCapacity(slots.count + values.count)
            for (ordinal, value) in values.enumerated() {
                if let value { slots[keys[ordinal]] = Slot(value: value, errors: errors[Int32(ordinal)] ?? []) }
            }
        }
        values = []
        errors = [:]
        plan = nil
    }

    @inline(__always)
    mutating func write(_ value: StoredValue, ordinal: Int32) { values[Int(ordinal)] = value }

    @inline(__always)
    mutating func write(_ slot: Slot, key: String) { slots[key] = slot }

    /// Adds a field error to the slot under `storageKey`, if it was written.
    mutating func attach(_ error: GraphQLError, to storageKey: String) {
        if let plan, let ordinal = plan.ordinals[storageKey] {
            if values[Int(ordinal)] != nil { errors[ordinal, default: []].append(error) }
        } else {
            slots[storageKey]?.errors.append(error)
        }
    }

    /// The written slots as a table, moved out of the record.
    mutating func takeTable() -> [String: Slot] {
        guard let keys = plan?.ordinalKeys else {
            defer { slots = [:] }
            return slots
        }
        var table = [String: Slot](minimumCapacity: values.count)
        let errors = self.errors
        for ordinal in values.indices {
            guard let value = values[ordinal].take() else { continue }
            table[keys[ordinal]] = Slot(value: value, errors: errors.isEmpty ? [] : errors[Int32(ordinal)] ?? [])
        }
        return table
    }

    /// Calls `body` with every written slot and its storage key.
    @inline(__always)
    func forEachSlot(_ body: (String, Slot) -> Void) {
        guard let keys = plan?.ordinalKeys else {
            for (key, slot) in slots { body(key, slot) }
            return
        }
        for (ordinal, value) in values.enumerated() {
            if let value { body(keys[ordinal], Slot(value: value, errors: errors[Int32(ordinal)] ?? [])) }
        }
    }
}

/// What one response writes: slots per record, before they are merged into the store.
struct NormalizedWrite {
    /// Each record written, in the order first reached.
    var pending: [PendingRecord] = []
    /// Errors whose path named no slot of this response.
    var unattachedErrors: [GraphQLError] = []
    /// How many slot writes the response made (an upper bound on the slots a merge can change).
    var slotWrites = 0
}
