import Foundation

/// The slots one response writes to one record, before they are merged into the store.
///
/// A record reached through one selection set (the common case: every object of a list, every visit of a shared
/// record) keeps its slots by the plan's ordinals, in a run of `NormalizedWrite.ordinals`, so writing a slot hashes
/// and allocates nothing; a record reached through a second selection set, or through one whose storage keys
/// depend on variables, keeps them by key.
struct PendingRecord {
    let key: RecordKey
    let typename: String?
    /// The plan whose ordinals the record's run of `NormalizedWrite.ordinals` follows (from `base`); nil when the
    /// record is written by key (`slots`) or not yet written.
    fileprivate(set) var plan: NormalizationPlan?
    fileprivate(set) var base = 0
    fileprivate(set) var slots: [String: Slot] = [:]
    /// Field errors of slots written by ordinal (a response with errors is the rare case).
    fileprivate(set) var errors: [Int32: [GraphQLError]] = [:]
    /// How many distinct slots were written.
    fileprivate(set) var written = 0
    /// Whether nothing was written yet.
    fileprivate(set) var fresh = true

    init(key: RecordKey, typename: String?) {
        self.key = key
        self.typename = typename
    }
}

/// What one response writes: slots per record, before they are merged into the store.
struct NormalizedWrite {
    /// A slot written by ordinal: a value, or (`source` ≥ 0) the tape entry of a scalar not decoded yet. A scalar
    /// is decoded once, when normalization ends (`decodeScalars`), so a record seen again neither decodes again
    /// what it repeats nor decodes what a later visit replaces.
    struct OrdinalSlot {
        var value: StoredValue?
        var source: Int32

        var isWritten: Bool { value != nil || source >= 0 }
    }

    /// The tape being normalized, for scalars still to decode.
    var tape: JSONTape.View?

    /// Each record written, in the order first reached.
    var pending: [PendingRecord] = []
    /// The slots of every record written by ordinal, a run per record.
    var ordinals: [OrdinalSlot] = []
    /// Errors whose path named no slot of this response.
    var unattachedErrors: [GraphQLError] = []
    /// The `@connection` pages and declarative updates the response carries, applied after its records (see
    /// `ConnectionWrites`), and the variables they resolve their arguments with.
    var connectionWrites: [ConnectionWrite] = []
    var variables: [String: JSONValue] = [:]

    /// Notes a `@connection` page or a declarative update of `field`, written to `parent`'s slot `storageKey`.
    mutating func noteConnectionWrite(_ field: FieldStorage, parent: RecordKey, storageKey: String) {
        connectionWrites.append(ConnectionWrite(field: field, parent: parent, storageKey: storageKey))
    }

    init() {
        pending.reserveCapacity(64)
        ordinals.reserveCapacity(512)
    }

    /// How many distinct slots the response wrote (an upper bound on the slots a merge can change).
    var slotCount: Int { pending.reduce(0) { $0 + $1.written } }

    /// Whether writes to `record` through `plan` go by ordinal; prepares the record on its first write and moves
    /// it to writing by key when a second plan reaches it.
    @inline(__always)
    mutating func writesByOrdinal(_ record: Int, _ plan: NormalizationPlan) -> Bool {
        if pending[record].plan === plan { return true }
        return firstWrite(record, plan)
    }

    private mutating func firstWrite(_ record: Int, _ plan: NormalizationPlan) -> Bool {
        if pending[record].fresh {
            pending[record].fresh = false
            guard let keys = plan.ordinalKeys else { return false }
            pending[record].plan = plan
            pending[record].base = ordinals.count
            ordinals.append(contentsOf: repeatElement(OrdinalSlot(value: nil, source: -1), count: keys.count))
            return true
        }
        moveToKeys(record)
        return false
    }

    /// Moves a record written by ordinal to writing by key.
    private mutating func moveToKeys(_ record: Int) {
        guard let keys = pending[record].plan?.ordinalKeys else { return }
        let base = pending[record].base
        var slots = pending[record].slots
        slots.reserveCapacity(slots.count + keys.count)
        for ordinal in keys.indices {
            decode(base + ordinal)
            if let value = ordinals[base + ordinal].value.take() { slots[keys[ordinal]] = Slot(value: value) }
        }
        pending[record].slots = slots
        pending[record].plan = nil
    }

    /// Writes the scalar at tape entry `entry` (not an object or array) at `ordinal` of `plan`, to be decoded when
    /// normalization ends; false (nothing written) when the record is not written by `plan`'s ordinals.
    @inline(__always)
    mutating func writeScalar(
        _ record: Int, _ entry: Int32, in tape: JSONTape.View, ordinal: Int32, plan: NormalizationPlan
    ) -> Bool {
        guard writesByOrdinal(record, plan) else { return false }
        let index = pending[record].base + Int(ordinal)
        let source = ordinals[index].source
        if source >= 0 {
            // Seen before with the same bytes: nothing to do.
            let old = tape[source]
            let token = tape[entry]
            if old.kind == token.kind, old.flags == token.flags,
                JSONTape.equal(tape.rawBytes(old), tape.rawBytes(token))
            {
                return true
            }
        } else if ordinals[index].value == nil {
            pending[record].written += 1
        }
        ordinals[index] = OrdinalSlot(value: nil, source: entry)
        return true
    }

    /// Decodes the scalar at `index` of `ordinals` if it is still a tape entry.
    private mutating func decode(_ index: Int) {
        let source = ordinals[index].source
        guard source >= 0, ordinals[index].value == nil, let tape else { return }
        let value: StoredValue
        switch tape[source].kind {
        case .null: value = .null
        case .true: value = .boolean(true)
        case .false: value = .boolean(false)
        case .number: value = .number(tape.numberText(source))
        default: value = .string(tape.text(source))
        }
        ordinals[index] = OrdinalSlot(value: value, source: -1)
    }

    /// Decodes every scalar still waiting, once normalization is done; the tape is not used after.
    mutating func decodeScalars() {
        for index in ordinals.indices where ordinals[index].source >= 0 { decode(index) }
        tape = nil
    }

    /// Writes `value` (a list, a link or JSON) at `ordinal`, after `writesByOrdinal` said so.
    @inline(__always)
    mutating func write(_ record: Int, _ value: StoredValue, ordinal: Int32) {
        let index = pending[record].base + Int(ordinal)
        if !ordinals[index].isWritten { pending[record].written += 1 }
        ordinals[index] = OrdinalSlot(value: value, source: -1)
    }

    /// Writes a slot by key (the record writes by key from here on).
    mutating func write(_ record: Int, _ slot: Slot, key: String) {
        pending[record].fresh = false
        if pending[record].plan != nil { moveToKeys(record) }
        if pending[record].slots.updateValue(slot, forKey: key) == nil { pending[record].written += 1 }
    }

    /// Adds a field error to the slot under `storageKey` of `record`, if it was written.
    mutating func attach(_ error: GraphQLError, to storageKey: String, of record: Int) {
        if let plan = pending[record].plan, let ordinal = plan.ordinals[storageKey] {
            if ordinals[pending[record].base + Int(ordinal)].isWritten {
                pending[record].errors[ordinal, default: []].append(error)
            }
        } else {
            pending[record].slots[storageKey]?.errors.append(error)
        }
    }

    /// The slots of `record` as a table, moved out; each one's `SlotID` is appended to `changed` (for a record the
    /// store did not have, where every slot written is a change).
    mutating func takeTable(_ record: Int, recordingChangesIn changed: inout [SlotID]) -> [String: Slot] {
        let key = pending[record].key
        guard let keys = pending[record].plan?.ordinalKeys else {
            let slots = pending[record].slots
            pending[record].slots = [:]
            let recordHash = key.hashValue
            for storageKey in slots.keys {
                changed.append(SlotID(key, storageKey, recordHash: recordHash, storageKeyHash: storageKey.hashValue))
            }
            return slots
        }
        let errors = pending[record].errors
        let base = pending[record].base
        let keyHashes = pending[record].plan?.ordinalKeyHashes ?? []
        let recordHash = key.hashValue
        if pending[record].written == keys.count, let plan = pending[record].plan,
            plan.slotTableIndices.count == keys.count
        {
            // Every ordinal written (a list's objects, as a rule): the plan's table, its slots set by index.
            var table = plan.slotTable
            var unwritten: [String] = []
            for ordinal in keys.indices {
                guard let value = ordinals[base + ordinal].value.take() else {
                    unwritten.append(keys[ordinal])
                    continue
                }
                table.values[plan.slotTableIndices[ordinal]] = Slot(
                    value: value, errors: errors.isEmpty ? [] : errors[Int32(ordinal)] ?? [])
                changed.append(
                    SlotID(key, keys[ordinal], recordHash: recordHash, storageKeyHash: keyHashes[ordinal]))
            }
            // Never when `written` counts right; removed only after every slot is set (removing moves indices).
            for storageKey in unwritten { table.removeValue(forKey: storageKey) }
            return table
        }
        var table = [String: Slot](minimumCapacity: pending[record].written)
        for ordinal in keys.indices {
            guard let value = ordinals[base + ordinal].value.take() else { continue }
            let storageKey = keys[ordinal]
            table[storageKey] = Slot(value: value, errors: errors.isEmpty ? [] : errors[Int32(ordinal)] ?? [])
            changed.append(SlotID(key, storageKey, recordHash: recordHash, storageKeyHash: keyHashes[ordinal]))
        }
        return table
    }

    /// Calls `body` with every written slot of `record` and its storage key.
    func forEachSlot(_ record: Int, _ body: (String, Slot) -> Void) {
        guard let keys = pending[record].plan?.ordinalKeys else {
            for (key, slot) in pending[record].slots { body(key, slot) }
            return
        }
        let base = pending[record].base
        let errors = pending[record].errors
        for ordinal in keys.indices {
            if let value = ordinals[base + ordinal].value {
                body(keys[ordinal], Slot(value: value, errors: errors[Int32(ordinal)] ?? []))
            }
        }
    }
}
