import Foundation

/// What one response writes: slots per record, before they are merged into the store.
struct NormalizedWrite: Sendable {
    var records: [RecordKey: (typename: String?, slots: [String: Slot])] = [:]
    /// Errors whose path named no slot of this response.
    var unattachedErrors: [GraphQLError] = []
}

/// Turns a response's `data` into records and slots by walking the operation's selections.
///
/// Aliases map back to storage keys, `__typename` picks the record's type and which fragments apply, and
/// each error is attached to the deepest slot its path reaches. Pure: the store merges the result under its lock.
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
        normalizer.write.records[rootKey] = (rootTypename, [:])
        normalizer.object(data, key: rootKey, typename: rootTypename, selections: selections, path: "")
        for error in response.errors { normalizer.attach(error) }
        return normalizer.write
    }

    private mutating func object(_ object: JSONObject, key: RecordKey, typename: String?, selections: [Selection], path: String) {
        for selection in selections {
            switch selection {
            case .field(let field):
                if !field.conditions.isEmpty, !field.conditions.allSatisfy({ $0.passes(variables) }) { continue }
                guard let value = object[field.responseKey] else { continue }
                let storageKey = field.storageKey(variables: variables)
                let fieldPath = pathIndex == nil ? "" : (path.isEmpty ? field.responseKey : path + "." + field.responseKey)
                if pathIndex != nil { pathIndex?[fieldPath] = SlotID(key, storageKey) }
                let stored = self.value(value, type: field.type, field: field, base: key + "." + storageKey, path: fieldPath)
                write.records[key, default: (typename, [:])].slots[storageKey] = Slot(value: stored)
            case .inlineFragment(let condition, let conditions, let selections):
                if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                if let condition, !condition.matches(object["__typename"]?.stringValue) { continue }
                self.object(object, key: key, typename: typename, selections: selections, path: path)
            case .fragment(_, let condition, let conditions, let selections):
                if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                if !condition.matches(object["__typename"]?.stringValue) { continue }
                self.object(object, key: key, typename: typename, selections: selections, path: path)
            }
        }
    }

    private mutating func value(_ value: JSONValue, type: GraphQLType, field: Field, base: String, path: String) -> StoredValue {
        switch value {
        case .null:
            return .null
        case .array(let items) where type.listItem != nil:
            let itemType = type.listItem ?? type
            var stored: [StoredValue] = []
            stored.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                let itemPath: String
                if pathIndex != nil {
                    itemPath = path + "." + String(index)
                    let listSlot = pathIndex?[path]
                    pathIndex?[itemPath] = listSlot
                } else {
                    itemPath = ""
                }
                stored.append(self.value(item, type: itemType, field: field, base: base + "." + String(index), path: itemPath))
            }
            return .list(stored)
        case .object(let object) where !field.selections.isEmpty:
            let typename = object["__typename"]?.stringValue ?? type.namedType
            let key: RecordKey
            switch object["id"] {
            case .string(let id)?: key = typename + ":" + id
            case .number(let id)?: key = typename + ":" + id
            default: key = base
            }
            if write.records[key] == nil { write.records[key] = (typename, [:]) }
            self.object(object, key: key, typename: typename, selections: field.selections, path: path)
            return .link(key)
        case .string(let text): return .string(text)
        case .number(let text): return .number(text)
        case .bool(let flag): return .boolean(flag)
        case .array, .object: return .json(value)
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
                write.records[slot.record]?.slots[slot.storageKey]?.errors.append(error)
                return
            }
            components.removeLast()
        }
        write.unattachedErrors.append(error)
    }
}
