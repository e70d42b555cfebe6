import Foundation

@testable import Baton

/// Docs/Runtime.md's normalization and merge rules written the plain way, over a parsed response tree: the
/// oracle the store's one normalizer (plans, ordinals, byte-keyed record index) is compared with. It is the tree
/// normalizer the store had before it had one normalizer, with the store's merge beside it.
struct ReferenceNormalizer {
    let variables: [String: JSONValue]
    private var order: [RecordKey] = []
    private var pending: [RecordKey: (typename: String?, slots: [String: Slot])] = [:]
    private var pathIndex: [String: SlotID]?
    private var unattached: [GraphQLError] = []

    /// Commits `response` into `records` as the store does; returns the changed slots and unattached errors.
    static func commit(
        _ response: GraphQLResponse, selections: [Selection], variables: [String: JSONValue],
        rootKey: RecordKey = "Query", rootTypename: String = "Query", into records: inout [RecordKey: Record],
        now: Double
    ) -> CommitResult {
        var normalizer = ReferenceNormalizer(variables: variables)
        guard let data = response.data else { return CommitResult(changed: [], unattachedErrors: response.errors) }
        if !response.errors.isEmpty { normalizer.pathIndex = [:] }
        normalizer.add(rootKey, typename: rootTypename)
        normalizer.object(data, key: rootKey, selections: selections, path: "")
        for error in response.errors { normalizer.attach(error) }
        var changed = Set<SlotID>()
        for key in normalizer.order {
            guard let written = normalizer.pending[key] else { continue }
            var record = records[key] ?? Record(typename: written.typename)
            if let typename = written.typename { record.typename = typename }
            for (storageKey, slot) in written.slots where record.slots[storageKey] != slot {
                record.slots[storageKey] = slot
                changed.insert(SlotID(key, storageKey))
            }
            record.updatedAt = now
            record.invalidated = false
            records[key] = record
        }
        return CommitResult(changed: changed, unattachedErrors: normalizer.unattached)
    }

    private init(variables: [String: JSONValue]) { self.variables = variables }

    private mutating func add(_ key: RecordKey, typename: String?) {
        guard pending[key] == nil else { return }
        order.append(key)
        pending[key] = (typename, [:])
    }

    private mutating func object(_ object: JSONObject, key: RecordKey, selections: [Selection], path: String) {
        for selection in selections {
            switch selection {
            case .field(let field):
                if !field.conditions.allSatisfy({ $0.passes(variables) }) { continue }
                guard let value = object[field.responseKey] else { continue }
                let storageKey = field.storageKey(variables: variables)
                var fieldPath = ""
                if pathIndex != nil {
                    fieldPath = path.isEmpty ? field.responseKey : path + "." + field.responseKey
                    pathIndex?[fieldPath] = SlotID(key, storageKey)
                }
                let stored = self.value(
                    value, type: field.type, field: field, parent: key, storageKey: storageKey, suffix: "", index: -1,
                    path: fieldPath)
                pending[key]?.slots[storageKey] = Slot(value: stored)
            case .inlineFragment(let condition, let conditions, let selections):
                if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                if let condition, !condition.matches(object["__typename"]?.stringValue) { continue }
                self.object(object, key: key, selections: selections, path: path)
            case .fragment(_, let condition, let conditions, let selections):
                if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                if !condition.matches(object["__typename"]?.stringValue) { continue }
                self.object(object, key: key, selections: selections, path: path)
            }
        }
    }

    private mutating func value(
        _ value: JSONValue, type: GraphQLType, field: Field, parent: RecordKey, storageKey: String, suffix: String,
        index: Int, path: String
    ) -> StoredValue {
        switch value {
        case .null: return .null
        case .string(let text): return .string(text)
        case .number(let text): return .number(text)
        case .bool(let flag): return .boolean(flag)
        case .array(let items):
            guard let itemType = type.listItem else { return .json(value) }
            let listSuffix = index < 0 ? suffix : suffix + "." + String(index)
            var stored: [StoredValue] = []
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
            add(key, typename: typename)
            self.object(object, key: key, selections: field.selections, path: path)
            return .link(key)
        }
    }

    private mutating func attach(_ error: GraphQLError) {
        guard let path = error.path, !path.isEmpty, let index = pathIndex else {
            unattached.append(error)
            return
        }
        var components = path.map(\.description)
        while !components.isEmpty {
            if let slot = index[components.joined(separator: ".")] {
                pending[slot.record]?.slots[slot.storageKey]?.errors.append(error)
                return
            }
            components.removeLast()
        }
        unattached.append(error)
    }
}
