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

/// What reading a response body found: the tape and where `data` is, the errors, or why it cannot be committed.
enum TapeResponse {
    case response(tape: JSONTape, data: Int32, errors: [GraphQLError])
    case requestFailed([GraphQLError])
    /// Not JSON, or not a GraphQL response: why, as `ResponseError.malformed` says it (`tooDeep`: the body nests
    /// more than `JSONParser.maximumDepth` levels).
    case malformed(String, tooDeep: Bool = false)
}

/// Turns a response's `data` into records and slots by walking the operation's selections over a `JSONTape` of
/// the body: the one normalizer, for a body's bytes and (written out first) for a `GraphQLResponse`.
///
/// Aliases map back to storage keys, `__typename` picks the record's type and which fragments apply, and
/// each error is attached to the deepest slot its path reaches. Pure: the store merges the result under its lock.
/// Only the values the store keeps are decoded, and member names are compared as bytes.
struct TapeNormalizer {
    let variables: [String: JSONValue]
    /// The tape and the body, unowned: the caller keeps them alive while normalizing.
    let tape: JSONTape.View
    /// Response path → slot, kept only when the response has errors to attach.
    private var pathIndex: [String: SlotID]?
    private var write = NormalizedWrite()

    /// Reads a body into a tape and finds `data` and `errors` (in either order); `GraphQLResponse(bytes:)` reads
    /// a body with it too, so both say the same about every body.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> TapeResponse {
        let tape: JSONTape
        switch JSONTape.read(bytes) {
        case .failure(let failure):
            return .malformed(
                JSONParseError(message: failure.message, offset: failure.offset).description, tooDeep: failure.isTooDeep
            )
        case .success(let read): tape = read
        }
        let view = tape.view(bytes)
        guard view[0].kind == .object else { return .malformed("the response is not a JSON object") }
        var data: Int32?
        if let index = view.member(of: 0, named: "data"), view[index].kind == .object { data = index }
        var errors: [GraphQLError] = []
        if let index = view.member(of: 0, named: "errors"), view[index].kind == .array {
            if case .array(let items) = view.jsonValue(index) { errors = items.map(GraphQLError.init(json:)) }
        }
        guard let data else {
            return errors.isEmpty ? .malformed("the response has neither data nor errors") : .requestFailed(errors)
        }
        return .response(tape: tape, data: data, errors: errors)
    }

    static func normalize(
        tape: JSONTape, data: Int32, errors: [GraphQLError], bytes: UnsafeBufferPointer<UInt8>, rootKey: RecordKey,
        rootTypename: String, selections: [Selection], variables: [String: JSONValue]
    ) -> NormalizedWrite {
        withExtendedLifetime(tape) {
            var normalizer = TapeNormalizer(variables: variables, tape: tape.view(bytes))
            if !errors.isEmpty { normalizer.pathIndex = [:] }
            normalizer.write.records[rootKey] = 0
            normalizer.write.pending.append(
                PendingRecord(key: rootKey, typename: rootTypename, capacity: selections.count))
            normalizer.object(data, record: 0, key: rootKey, selections: selections, path: "")
            for error in errors { normalizer.attach(error) }
            return normalizer.write
        }
    }

    private init(variables: [String: JSONValue], tape: JSONTape.View) {
        self.variables = variables
        self.tape = tape
    }

    private func typename(of object: Int32) -> String? {
        tape.stringValue(tape.member(of: object, named: "__typename"))
    }

    private mutating func object(_ object: Int32, record: Int, key: RecordKey, selections: [Selection], path: String) {
        // Responses list members in the order the selections ask for them: each search starts after the last hit.
        var hint: Int32 = 0
        for selection in selections {
            switch selection {
            case .field(let field):
                let storage = field.storage
                if storage.hasConditions, !storage.conditions.allSatisfy({ $0.passes(variables) }) { continue }
                guard
                    let (value, nextKey) = tape.member(
                        of: object, named: storage.responseKeyBytes, ascii: storage.responseKeyIsASCII,
                        nameText: storage.responseKey, from: hint)
                else { continue }
                hint = nextKey
                let storageKey = field.storageKey(variables: variables)
                var fieldPath = ""
                if pathIndex != nil {
                    fieldPath = path.isEmpty ? storage.responseKey : path + "." + storage.responseKey
                    pathIndex?[fieldPath] = SlotID(key, storageKey)
                }
                let stored = self.value(
                    value, listDepth: storage.listDepth, field: storage, parent: key, storageKey: storageKey,
                    suffix: "",
                    index: -1, path: fieldPath)
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

    /// Stores one response value of `field`. An object without an `id` gets the derived key
    /// `parent.storageKey` + `suffix` + `.index` (the list indices that led to it, `.0.3`; `index` is -1 outside a
    /// list), built only then.
    private mutating func value(
        _ value: Int32, listDepth: Int, field: FieldStorage, parent: RecordKey, storageKey: String, suffix: String,
        index: Int, path: String
    ) -> StoredValue {
        let entry = tape[value]
        switch entry.kind {
        case .null: return .null
        case .string, .key, .deadKey: return .string(tape.text(value))
        case .number: return .number(tape.numberText(value))
        case .true: return .boolean(true)
        case .false: return .boolean(false)
        case .array:
            guard listDepth > 0 else { return .json(tape.jsonValue(value)) }
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
                        item, listDepth: listDepth - 1, field: field, parent: parent, storageKey: storageKey,
                        suffix: listSuffix,
                        index: itemIndex, path: itemPath))
                item = tape[item].next
            }
            return .list(stored)
        case .object:
            if field.selections.isEmpty { return .json(tape.jsonValue(value)) }
            let typename = self.typename(of: value) ?? field.namedType
            var key: RecordKey
            let id = tape.member(of: value, named: "id")
            switch id.map({ tape[$0].kind }) {
            case .string?, .number?:
                let idEntry = tape[id ?? 0]
                let idText = idEntry.kind == .string ? tape.text(id ?? 0) : tape.numberText(id ?? 0)
                key = typename
                key.reserveCapacity(typename.utf8.count + 1 + idText.utf8.count)
                key += ":"
                key += idText
            default: key = parent + "." + storageKey + (index < 0 ? suffix : suffix + "." + String(index))
            }
            // One hash: the record's index, inserted as the next one when the key is new.
            let next = write.pending.count
            let record = TapeNormalizer.value(of: &write.records[key, default: next])
            if record == next {
                write.pending.append(PendingRecord(key: key, typename: typename, capacity: field.selections.count))
            }
            self.object(value, record: record, key: key, selections: field.selections, path: path)
            return .link(key)
        }
    }

    private static func value(of slot: inout Int) -> Int { slot }

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
