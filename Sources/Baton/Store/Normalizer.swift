import Foundation

/// The slots one response writes to one record, before they are merged into the store.
struct PendingRecord {
    let key: RecordKey
    let typename: String?
    var slots: [String: Slot]

    init(key: RecordKey, typename: String?, capacity: Int) {
        self.key = key
        self.typename = typename
        slots = Dictionary(minimumCapacity: capacity)
    }
}

/// What one response writes: slots per record, before they are merged into the store.
///
/// The normalizer looks a record up once per response object and then writes its slots in place by index.
struct NormalizedWrite {
    /// Each record written, in the order first reached.
    var pending: [PendingRecord] = []
    /// Record key → index in `pending`.
    var records: [RecordKey: Int] = [:]
    /// Errors whose path named no slot of this response.
    var unattachedErrors: [GraphQLError] = []
    /// How many slot writes the response made (an upper bound on the slots a merge can change).
    var slotWrites = 0
}

/// Turns a response's `data` into records and slots by walking the operation's selections.
///
/// Aliases map back to storage keys, `__typename` picks the record's type and which fragments apply, and
/// each error is attached to the deepest slot its path reaches. Pure: the store merges the result under its lock.
///
/// Cost: one record-key lookup per response object and one slot write per field; a derived record key
/// (`parent.field.0`) is built only for an object without an `id`, and response paths only when the response
/// has errors to attach.
struct Normalizer {
    let variables: [String: JSONValue]
    /// Response path → slot, kept only when the response has errors to attach.
    private var pathIndex: [String: SlotID]?
    private var write = NormalizedWrite()

    init(variables: [String: JSONValue]) { self.variables = variables }

    static func normalize(
        _ response: GraphQLResponse, rootKey: RecordKey, rootTypename: String, selections: [Selection],
        variables: [String: JSONValue]
    ) -> NormalizedWrite {
        var normalizer = Normalizer(variables: variables)
        guard let data = response.data else { return normalizer.write }
        if !response.errors.isEmpty { normalizer.pathIndex = [:] }
        normalizer.write.records[rootKey] = 0
        normalizer.write.pending.append(PendingRecord(key: rootKey, typename: rootTypename, capacity: selections.count))
        normalizer.object(data, record: 0, key: rootKey, selections: selections, path: "")
        for error in response.errors { normalizer.attach(error) }
        return normalizer.write
    }

    private mutating func object(
        _ object: JSONObject, record: Int, key: RecordKey, selections: [Selection], path: String
    ) {
        // Responses list members in the order the selections ask for them: each search starts after the last hit.
        var hint = 0
        for selection in selections {
            switch selection {
            case .field(let field):
                if !field.conditions.isEmpty, !field.conditions.allSatisfy({ $0.passes(variables) }) { continue }
                guard let index = object.index(of: field.responseKey, from: hint) else { continue }
                hint = index + 1
                let value = object.values[index]
                let storageKey = field.storageKey(variables: variables)
                var fieldPath = ""
                if pathIndex != nil {
                    fieldPath = path.isEmpty ? field.responseKey : path + "." + field.responseKey
                    pathIndex?[fieldPath] = SlotID(key, storageKey)
                }
                let stored = self.value(
                    value, type: field.type, field: field, parent: key, storageKey: storageKey, suffix: "", index: -1,
                    path: fieldPath)
                write.pending[record].slots[storageKey] = Slot(value: stored)
                write.slotWrites += 1
            case .inlineFragment(let condition, let conditions, let selections):
                if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                if let condition, !condition.matches(object["__typename"]?.stringValue) { continue }
                self.object(object, record: record, key: key, selections: selections, path: path)
            case .fragment(_, let condition, let conditions, let selections):
                if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                if !condition.matches(object["__typename"]?.stringValue) { continue }
                self.object(object, record: record, key: key, selections: selections, path: path)
            }
        }
    }

    /// Stores one response value of `field`. An object without an `id` gets the derived key
    /// `parent.storageKey` + `suffix` + `.index` (the list indices that led to it, `.0.3`; `index` is -1 outside a
    /// list), built only then.
    private mutating func value(
        _ value: JSONValue, type: GraphQLType, field: Field, parent: RecordKey, storageKey: String, suffix: String,
        index: Int, path: String
    ) -> StoredValue {
        switch value {
        case .null:
            return .null
        case .string(let text): return .string(text)
        case .number(let text): return .number(text)
        case .bool(let flag): return .boolean(flag)
        case .array(let items):
            guard let itemType = type.listItem else { return .json(value) }
            var stored: [StoredValue] = []
            stored.reserveCapacity(items.count)
            let listSuffix = index < 0 ? suffix : suffix + "." + String(index)
            for (itemIndex, item) in items.enumerated() {
                var itemPath = ""
                if pathIndex != nil {
                    itemPath = path + "." + String(itemIndex)
                    let listSlot = pathIndex?[path]
                    pathIndex?[itemPath] = listSlot
                }
                stored.append(
                    self.value(
                        item, type: itemType, field: field, parent: parent, storageKey: storageKey, suffix: listSuffix,
                        index: itemIndex, path: itemPath))
            }
            return .list(stored)
        case .object(let object):
            if field.selections.isEmpty { return .json(value) }
            let typename = object["__typename"]?.stringValue ?? type.namedType
            let key: RecordKey
            switch object["id"] {
            case .string(let id)?: key = typename + ":" + id
            case .number(let id)?: key = typename + ":" + id
            default: key = parent + "." + storageKey + (index < 0 ? suffix : suffix + "." + String(index))
            }
            let record: Int
            if let existing = write.records[key] {
                record = existing
            } else {
                record = write.pending.count
                write.pending.append(PendingRecord(key: key, typename: typename, capacity: field.selections.count))
                write.records[key] = record
            }
            self.object(object, record: record, key: key, selections: field.selections, path: path)
            return .link(key)
        }
    }

    /// Attaches an error to the deepest slot its path reaches.
    private mutating func attach(_ error: GraphQLError) {
        guard let path = error.path, !path.isEmpty, let index = pathIndex else {
            write.unattachedErrors.append(error)
            return
        }
        var components = path.map(\.description)
        while !components.isEmpty {
            if let slot = index[components.joined(separator: ".")] {
                if let record = write.records[slot.record] {
                    write.pending[record].slots[slot.storageKey]?.errors.append(error)
                }
                return
            }
            components.removeLast()
        }
        write.unattachedErrors.append(error)
    }
}
