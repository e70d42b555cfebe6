import Foundation

/// What reading a response body found: the tape and where `data` is, the errors, or why it cannot be committed.
enum TapeResponse {
    case response(tape: JSONTape, data: Int32, errors: [GraphQLError])
    case requestFailed([GraphQLError])
    /// Not JSON, or not a GraphQL response: the caller reads the body with `GraphQLResponse(bytes:)` for the error.
    case malformed
}

/// The byte-level twin of `Normalizer`: normalizes a response body from its `JSONTape` by the operation's
/// selections, without building a `JSONValue` tree. Same rules, same result (`NormalizedWrite`) as `Normalizer`
/// on the parsed response: only the values the store keeps are decoded, and member names are compared as bytes.
struct TapeNormalizer {
    let variables: [String: JSONValue]
    let tape: JSONTape
    let bytes: UnsafeBufferPointer<UInt8>
    /// Response path → slot, kept only when the response has errors to attach.
    private var pathIndex: [String: SlotID]?
    private var write = NormalizedWrite()

    /// Reads a body into a tape and finds `data` and `errors` (in either order), as `GraphQLResponse(bytes:)` does.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> TapeResponse {
        guard let tape = JSONTape.read(bytes), tape.entries.first?.kind == .object else { return .malformed }
        var data: Int32?
        if let index = tape.member(of: 0, named: "data", bytes), tape.entries[Int(index)].kind == .object { data = index }
        var errors: [GraphQLError] = []
        if let index = tape.member(of: 0, named: "errors", bytes), tape.entries[Int(index)].kind == .array {
            if case .array(let items) = tape.jsonValue(index, bytes) { errors = items.map(GraphQLError.init(json:)) }
        }
        guard let data else { return errors.isEmpty ? .malformed : .requestFailed(errors) }
        return .response(tape: tape, data: data, errors: errors)
    }

    static func normalize(
        tape: JSONTape, data: Int32, errors: [GraphQLError], bytes: UnsafeBufferPointer<UInt8>, rootKey: RecordKey,
        rootTypename: String, selections: [Selection], variables: [String: JSONValue]
    ) -> NormalizedWrite {
        var normalizer = TapeNormalizer(variables: variables, tape: tape, bytes: bytes)
        if !errors.isEmpty { normalizer.pathIndex = [:] }
        normalizer.write.records[rootKey] = 0
        normalizer.write.pending.append(PendingRecord(key: rootKey, typename: rootTypename, capacity: selections.count))
        normalizer.object(data, record: 0, key: rootKey, selections: selections, path: "")
        for error in errors { normalizer.attach(error) }
        return normalizer.write
    }

    private init(variables: [String: JSONValue], tape: JSONTape, bytes: UnsafeBufferPointer<UInt8>) {
        self.variables = variables
        self.tape = tape
        self.bytes = bytes
    }

    private func typename(of object: Int32) -> String? {
        tape.stringValue(tape.member(of: object, named: "__typename", bytes), bytes)
    }

    private mutating func object(_ object: Int32, record: Int, key: RecordKey, selections: [Selection], path: String) {
        // Responses list members in the order the selections ask for them: each search starts after the last hit.
        var hint: Int32 = 0
        for selection in selections {
            switch selection {
            case .field(let field):
                if !field.conditions.isEmpty, !field.conditions.allSatisfy({ $0.passes(variables) }) { continue }
                let storage = field.storage
                let found = storage.responseKeyBytes.withUnsafeBufferPointer { name in
                    tape.member(
                        of: object, named: name, ascii: storage.responseKeyIsASCII, nameText: storage.responseKey, from: hint,
                        bytes)
                }
                guard let (value, nextKey) = found else { continue }
                hint = nextKey
                let storageKey = field.storageKey(variables: variables)
                var fieldPath = ""
                if pathIndex != nil {
                    fieldPath = path.isEmpty ? field.responseKey : path + "." + field.responseKey
                    pathIndex?[fieldPath] = SlotID(key, storageKey)
                }
                let stored = self.value(
                    value, type: field.type, field: field, parent: key, storageKey: storageKey, suffix: "", index: -1, path: fieldPath)
                write.pending[record].slots[storageKey] = Slot(value: stored)
                write.slotWrites += 1
            case .inlineFragment(let condition, let conditions, let selections):
                if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                if let condition, !condition.matches(typename(of: object)) { continue }
                self.object(object, record: record, key: key, selections: selections, path: path)
            case .fragment(_, let condition, let conditions, let selections):
                if !conditions.allSatisfy({ $0.passes(variables) }) { continue }
                if !condition.matches(typename(of: object)) { continue }
                self.object(object, record: record, key: key, selections: selections, path: path)
            }
        }
    }

    /// Stores one response value of `field`, as `Normalizer.value` does.
    private mutating func value(
        _ value: Int32, type: GraphQLType, field: Field, parent: RecordKey, storageKey: String, suffix: String,
        index: Int, path: String
    ) -> StoredValue {
        let entry = tape.entries[Int(value)]
        switch entry.kind {
        case .null: return .null
        case .string, .key, .deadKey: return .string(tape.text(value, bytes))
        case .number: return .number(tape.numberText(value, bytes))
        case .true: return .boolean(true)
        case .false: return .boolean(false)
        case .array:
            guard let itemType = type.listItem else { return .json(tape.jsonValue(value, bytes)) }
            var stored: [StoredValue] = []
            stored.reserveCapacity(Int(entry.start))
            let listSuffix = index < 0 ? suffix : suffix + "." + String(index)
            var item = value + 1
            for itemIndex in 0..<Int(entry.start) {
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
                item = tape.entries[Int(item)].next
            }
            return .list(stored)
        case .object:
            if field.selections.isEmpty { return .json(tape.jsonValue(value, bytes)) }
            let typename = self.typename(of: value) ?? type.namedType
            let key: RecordKey
            let id = tape.member(of: value, named: "id", bytes)
            switch id.map({ tape.entries[Int($0)].kind }) {
            case .string?: key = typename + ":" + tape.text(id ?? 0, bytes)
            case .number?: key = typename + ":" + tape.numberText(id ?? 0, bytes)
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
            self.object(value, record: record, key: key, selections: field.selections, path: path)
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
