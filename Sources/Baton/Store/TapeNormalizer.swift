import Foundation

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
///
/// Cost, per response object: one walk of its field's `NormalizationPlan` (flat, compiled once), one lookup of
/// its record by the bytes of its `__typename` and `id` (`RecordKeyIndex`; a key `String` is built only for a new
/// record, and a derived key `parent.field.0` only for an object without an `id`); per field: one member lookup
/// by bytes (starting after the last hit, as responses list members in selection order) and a slot written by
/// ordinal. Only the values the store keeps are decoded; response paths are built only when the response has
/// errors to attach.
struct TapeNormalizer {
    let variables: [String: JSONValue]
    /// The tape and the body, unowned: the caller keeps them alive while normalizing.
    let tape: JSONTape.View
    /// Response path → (pending record, storage key), kept only when the response has errors to attach.
    private var pathIndex: [String: (record: Int, storageKey: String)]?
    private var write = NormalizedWrite()
    private var index = RecordKeyIndex()
    /// Per open object, the state of each guard of its plan (0 not yet decided, 1 passes, 2 fails).
    private var guardStates: [UInt8] = []

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
            normalizer.write.tape = normalizer.tape
            if !errors.isEmpty { normalizer.pathIndex = [:] }
            normalizer.write.pending.append(PendingRecord(key: rootKey, typename: rootTypename))
            normalizer.remember(0, key: rootKey, ascii: rootKey.utf8.allSatisfy { $0 < 0x80 })
            normalizer.object(data, record: 0, plan: NormalizationPlan.rootPlan(for: selections), path: "")
            normalizer.write.decodeScalars()
            for error in errors { normalizer.attach(error) }
            if !normalizer.write.connectionWrites.isEmpty { normalizer.write.variables = variables }
            return normalizer.write
        }
    }

    private init(variables: [String: JSONValue], tape: JSONTape.View) {
        self.variables = variables
        self.tape = tape
    }

    /// The `__typename` member's text, when it is a string.
    private func typename(of object: Int32) -> String? {
        tape.stringValue(tape.member(of: object, named: "__typename"))
    }

    private mutating func object(_ object: Int32, record: Int, plan: NormalizationPlan, path: String) {
        let guardBase = guardStates.count
        if !plan.guards.isEmpty { guardStates.append(contentsOf: repeatElement(0, count: plan.guards.count)) }
        defer { if !plan.guards.isEmpty { guardStates.removeSubrange(guardBase...) } }
        // Responses list members in the order the selections ask for them: each search starts after the last hit.
        var hint: Int32 = 0
        for step in plan.steps {
            if step.guardIndex >= 0, !passes(step.guardIndex, plan: plan, base: guardBase, object: object) { continue }
            // The plan's selections hold the field, so it is read without retaining it.
            step.field._withUnsafeGuaranteedRef { storage in
                visit(step, storage, of: object, record: record, plan: plan, path: path, hint: &hint)
            }
        }
    }

    /// Writes one field of a response object to its pending record.
    @inline(__always)
    private mutating func visit(
        _ step: NormalizationPlan.Step, _ storage: FieldStorage, of object: Int32, record: Int,
        plan: NormalizationPlan, path: String, hint: inout Int32
    ) {
        if storage.hasConditions, !storage.conditions.allSatisfy({ $0.passes(variables) }) { return }
        guard let (value, nextKey) = tape.member(of: object, responseKeyOf: storage, from: hint) else { return }
        hint = nextKey
        if pathIndex != nil { remember(path, of: storage, in: record) }
        if storage.writesConnection {
            let storageKey =
                storage.hasVariableStorageKey ? storage.variableStorageKey(variables) : storage.constantStorageKey ?? ""
            write.noteConnectionWrite(storage, parent: write.pending[record].key, storageKey: storageKey)
        }
        // A scalar written by ordinal, in place (and not decoded again when the slot holds the same bytes).
        if step.ordinal >= 0, tape[value].kind.rawValue < JSONTape.Kind.object.rawValue,
            write.writeScalar(record, value, in: tape, ordinal: step.ordinal, plan: plan)
        {
            return
        }
        // A storage key is a String only where it is needed: by key, for a path, for a variable.
        let variableKey = storage.hasVariableStorageKey ? storage.variableStorageKey(variables) : nil
        let fieldPath = pathIndex == nil ? "" : Self.path(path, storage)
        let stored = self.value(
            value, listDepth: storage.listDepth, field: storage, parent: record, variableKey: variableKey,
            suffix: "", index: -1, path: fieldPath)
        if step.ordinal >= 0, write.writesByOrdinal(record, plan) {
            write.write(record, stored, ordinal: step.ordinal)
        } else {
            write.write(record, Slot(value: stored), key: variableKey ?? storage.constantStorageKey ?? "")
        }
    }

    /// The response path of a field below `path`.
    private static func path(_ path: String, _ storage: FieldStorage) -> String {
        path.isEmpty ? storage.responseKey : path + "." + storage.responseKey
    }

    /// Records where a field's slot is, for errors whose path names it.
    private mutating func remember(_ path: String, of storage: FieldStorage, in record: Int) {
        let key =
            storage.hasVariableStorageKey ? storage.variableStorageKey(variables) : storage.constantStorageKey ?? ""
        pathIndex?[Self.path(path, storage)] = (record, key)
    }

    /// Whether guard `guardIndex` of `plan` passes for `object`: its fragment's `@include`/`@skip` and type
    /// condition, inside its parent's. Decided once per object.
    private mutating func passes(_ guardIndex: Int32, plan: NormalizationPlan, base: Int, object: Int32) -> Bool {
        let state = guardStates[base + Int(guardIndex)]
        if state != 0 { return state == 1 }
        let guarded = plan.guards[Int(guardIndex)]
        var result = guarded.parent < 0 || passes(guarded.parent, plan: plan, base: base, object: object)
        if result, !guarded.conditions.allSatisfy({ $0.passes(variables) }) { result = false }
        if result, let condition = guarded.typeCondition, !condition.matches(typename(of: object)) { result = false }
        guardStates[base + Int(guardIndex)] = result ? 1 : 2
        return result
    }

    /// Stores one response value of `field`, written to the pending record `parent`. An object without an `id`
    /// gets the derived key `parent.storageKey` + `suffix` + `.index` (the list indices that led to it, `.0.3`;
    /// `index` is -1 outside a list), built only then.
    private mutating func value(
        _ value: Int32, listDepth: Int, field: FieldStorage, parent: Int, variableKey: String?, suffix: String,
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
                        item, listDepth: listDepth - 1, field: field, parent: parent, variableKey: variableKey,
                        suffix: listSuffix, index: itemIndex, path: itemPath))
                item = tape[item].next
            }
            return .list(stored)
        case .object:
            guard let plan = field.plan else { return .json(tape.jsonValue(value)) }
            let (record, key) = self.record(
                of: value, field: field, parent: parent, variableKey: variableKey, suffix: suffix, index: index)
            self.object(value, record: record, plan: plan, path: path)
            return .link(key)
        }
    }

    /// The pending record of a response object, added when new: `Type:id` when it has an `id` (a string or a
    /// number), otherwise `parent.storageKey` + `suffix` + `.index`.
    private mutating func record(
        of object: Int32, field: FieldStorage, parent: Int, variableKey: String?, suffix: String, index position: Int
    ) -> (Int, RecordKey) {
        let identity = tape.identity(of: object)
        let typenameEntry = identity.typename.flatMap { tape[$0].kind == .string ? $0 : nil }
        // A type with a declared key other than `id` is keyed by it, or (a key field missing or not a leaf)
        // under its path as an object without an `id` is: never by `id` alone.
        var declared = false
        if !field.keyFields.isEmpty {
            let typename = typenameEntry.map { tape.text($0) } ?? field.namedType
            if let fields = field.keyFields[typename] {
                declared = true
                if let key = declaredKey(typename, fields, of: object) {
                    return record(key: key, typename: typename, ascii: key.utf8.allSatisfy { $0 < 0x80 })
                }
            }
        }
        let id =
            declared ? nil : identity.id.flatMap { tape[$0].kind == .string || tape[$0].kind == .number ? $0 : nil }
        if let id {
            let idEntry = tape[id]
            // The type's bytes: the `__typename` member's, or the field's named type.
            var typeBytes: UnsafeBufferPointer<UInt8>?
            if let typenameEntry {
                if tape[typenameEntry].flags == 0 { typeBytes = tape.rawBytes(tape[typenameEntry]) }
            } else {
                typeBytes = field.namedTypeBytes
            }
            if index.comparesBytes, let typeBytes, idEntry.flags == 0 {
                let idBytes = tape.rawBytes(idEntry)
                let hash = RecordKeyIndex.hash(typeBytes, idBytes)
                if let found = index.find(hash: hash, typeBytes, idBytes) { return (found, write.pending[found].key) }
                let typename = typenameEntry == nil ? field.namedType : self.typename(typeBytes, field: field)
                // `Type:id` in one allocation from the bytes (all ASCII: checked above).
                let key = String(unsafeUninitializedCapacity: typeBytes.count + 1 + idBytes.count) { buffer in
                    guard let base = buffer.baseAddress else { return 0 }
                    if let type = typeBytes.baseAddress { base.initialize(from: type, count: typeBytes.count) }
                    base[typeBytes.count] = UInt8(ascii: ":")
                    if let id = idBytes.baseAddress {
                        (base + typeBytes.count + 1).initialize(from: id, count: idBytes.count)
                    }
                    return typeBytes.count + 1 + idBytes.count
                }
                let record = write.pending.count
                write.pending.append(PendingRecord(key: key, typename: typename))
                index.insert(record, hash: hash, typeBytes, idBytes)
                return (record, key)
            }
            // A type or id with escapes or non-ASCII bytes: the key is compared as a String from here on.
            let typename = typenameEntry.map { tape.text($0) } ?? field.namedType
            let idText = idEntry.kind == .string ? tape.text(id) : tape.numberText(id)
            return record(key: typename + ":" + idText, typename: typename, ascii: false)
        }
        let typename = typenameEntry.map { tape.text($0) } ?? field.namedType
        let storageKey = variableKey ?? field.constantStorageKey ?? ""
        let storageKeyIsASCII =
            variableKey == nil ? field.constantStorageKeyIsASCII : storageKey.utf8.allSatisfy { $0 < 0x80 }
        // While keys compare as bytes every key so far is ASCII, the parent's too.
        let ascii = index.comparesBytes && storageKeyIsASCII
        var key = write.pending[parent].key + "." + storageKey + suffix
        if position >= 0 { key += "." + String(position) }
        return record(key: key, typename: typename, ascii: ascii)
    }

    /// `Type:` + the key fields' values as canonical JSON (`MediaList:{"id":1,"mediaId":7}`), the Kotlin runtime's
    /// spelling too; nil when a key field is missing, null or not a leaf value.
    private func declaredKey(_ typename: String, _ fields: [String], of object: Int32) -> RecordKey? {
        var members: [(String, JSONValue)] = []
        for name in fields {
            guard let member = tape.member(of: object, field: name) else { return nil }
            switch tape[member].kind {
            case .string, .number, .true, .false: members.append((name, tape.jsonValue(member)))
            default: return nil
            }
        }
        return typename + ":" + JSONValue.object(JSONObject(members)).canonicalText
    }

    /// The pending record under a key built as a `String`, added when new.
    private mutating func record(key: RecordKey, typename: String, ascii: Bool) -> (Int, RecordKey) {
        if ascii, index.comparesBytes {
            var spelled = key
            return spelled.withUTF8 { bytes in
                let hash = RecordKeyIndex.hash(bytes, nil)
                if let found = index.find(hash: hash, bytes, nil) { return (found, write.pending[found].key) }
                let record = write.pending.count
                write.pending.append(PendingRecord(key: key, typename: typename))
                index.insert(record, hash: hash, bytes, nil)
                return (record, key)
            }
        }
        if index.comparesBytes { index.compareTexts(write.pending.map(\.key)) }
        if let found = index.find(text: key) { return (found, write.pending[found].key) }
        let record = write.pending.count
        write.pending.append(PendingRecord(key: key, typename: typename))
        index.insert(record, text: key)
        return (record, key)
    }

    /// Registers the root record's key.
    private mutating func remember(_ record: Int, key: RecordKey, ascii: Bool) {
        if ascii {
            var key = key
            key.withUTF8 { bytes in index.insert(record, hash: RecordKeyIndex.hash(bytes, nil), bytes, nil) }
        } else {
            index.compareTexts([])
            index.insert(record, text: key)
        }
    }

    /// A `__typename`'s text: the field's named type when the bytes spell it (no decoding), otherwise decoded.
    @inline(__always)
    private func typename(_ bytes: UnsafeBufferPointer<UInt8>, field: FieldStorage) -> String {
        if let named = field.namedTypeBytes, JSONTape.equal(named, bytes) { return field.namedType }
        return String(decoding: bytes, as: UTF8.self)
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
                write.attach(error, to: slot.storageKey, of: slot.record)
                return
            }
            components.removeLast()
        }
        write.unattachedErrors.append(error)
    }
}
