/// Incremental delivery's marks in the store (`IncrementalMarks`): a deferred fragment's failure on the record it
/// reads, and a "more coming" mark beside a list still being streamed.
extension Store {
    /// One mark to write (`slot`) or remove (nil).
    struct IncrementalMark {
        var record: RecordKey
        var storageKey: String
        var slot: Slot?
    }

    /// The marks a merged payload of `operation` calls for: each failure on the record at its path; a streaming mark
    /// beside each list in `streaming`, and none beside each list in `stopped` (streamed before, not any more).
    func incrementalMarks<Operation: GraphQLOperation>(
        for operation: Operation, failures: [IncrementalStep.Failure], streaming: [[PathComponent]],
        stopped: [[PathComponent]]
    ) -> [IncrementalMark] {
        let snapshot = snapshot()
        let variables = operation.resolvedVariables
        let root = Operation.rootTypename
        var marks: [IncrementalMark] = []
        for failure in failures {
            guard
                let record = Self.record(
                    at: failure.path[...], from: root, selections: Operation.Data.selections, in: snapshot,
                    variables: variables)
            else { continue }
            marks.append(
                IncrementalMark(
                    record: record.key, storageKey: IncrementalMarks.failure(label: failure.label),
                    slot: Slot(value: .null, errors: failure.errors)))
        }
        for (paths, open) in [(streaming, true), (stopped, false)] {
            for path in paths {
                guard case .key(let listKey)? = path.last,
                    let parent = Self.record(
                        at: path.dropLast(), from: root, selections: Operation.Data.selections, in: snapshot,
                        variables: variables),
                    let field = Self.fields(parent.selections).first(where: { $0.responseKey == listKey })
                else { continue }
                marks.append(
                    IncrementalMark(
                        record: parent.key,
                        storageKey: IncrementalMarks.streaming(field.readKey(variables: variables)),
                        slot: open ? Slot(value: .boolean(true)) : nil))
            }
        }
        return marks
    }

    /// Writes `marks` in one batch and notifies the subscribers of the slots they change. Marks are the delivery's
    /// state, not the server's data: they are not handed to persistence (an image never holds a stream in flight).
    func write(_ marks: [IncrementalMark]) {
        guard !marks.isEmpty else { return }
        let notify = state.withLock { state in
            var changed: [SlotID] = []
            for mark in marks {
                guard var record = state.records[mark.record], record.slots[mark.storageKey] != mark.slot else {
                    continue
                }
                record.slots[mark.storageKey] = mark.slot
                state.records[mark.record] = record
                if state.optimistic.base?[mark.record] != nil {
                    state.optimistic.base?[mark.record]?.slots[mark.storageKey] = mark.slot
                }
                changed.append(SlotID(mark.record, mark.storageKey))
            }
            return Store.notifications(state, changed)
        }
        for (callback, slots) in notify { callback(slots) }
    }

    /// The record at `path` from the root, and the selections that read it: each key a field of the selections (in
    /// fragments and inline fragments too) whose slot links a record, each index an item of a list of links.
    static func record(
        at path: ArraySlice<PathComponent>, from root: RecordKey, selections: [Selection], in snapshot: StoreSnapshot,
        variables: [String: JSONValue]
    ) -> (key: RecordKey, selections: [Selection])? {
        var key = root
        var selections = selections
        var value: StoredValue?
        for step in path {
            switch step {
            case .key(let responseKey):
                let matching = fields(selections).filter { $0.responseKey == responseKey }
                guard let field = matching.first,
                    let slot = snapshot.records[key]?.slots[field.readKey(variables: variables)]
                else { return nil }
                selections = matching.flatMap(\.selections)
                value = slot.value
            case .index(let index):
                guard case .list(let items)? = value, items.indices.contains(index) else { return nil }
                value = items[index]
            }
            if case .link(let linked)? = value { key = linked }
        }
        if case .list? = value { return nil }
        return (key, selections)
    }

    /// The fields among `selections`, those inside fragments and inline fragments included.
    static func fields(_ selections: [Selection]) -> [Field] {
        selections.flatMap { selection -> [Field] in
            switch selection {
            case .field(let field): [field]
            case .inlineFragment(_, _, let inner), .fragment(_, _, _, let inner): fields(inner)
            }
        }
    }
}
