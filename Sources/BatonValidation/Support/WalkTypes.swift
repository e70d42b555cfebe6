import BatonSchema

// What the walk knows of types, looked up once per unit rather than at every node: a field's definition and
// type by (parent type, name), an argument's or input field's type by its definition, and every type
// reference the walk tracks kept in storage of the unit's own, so that TypeInfo's stacks and the rules copy
// a `ResolvedType` (two words) without retaining or releasing anything.

/// The type references of one walk, each in storage that stays put until the walk's context goes: a
/// `ResolvedType` points into it. Each reference is stored once per source (a field definition, an argument,
/// a named type, a variable definition, a list type's item), so a unit stores a few hundred.
struct TypeRefStorage {
    private var blocks: [UnsafeMutablePointer<TypeRef>] = []
    private var used = 0
    private static let blockSize = 64

    /// Stores `ref`; the pointer stays valid until `release()`.
    mutating func store(_ ref: TypeRef) -> UnsafePointer<TypeRef> {
        if blocks.isEmpty || used == Self.blockSize {
            blocks.append(.allocate(capacity: Self.blockSize))
            used = 0
        }
        let slot = blocks[blocks.count - 1] + used
        slot.initialize(to: ref)
        used += 1
        return UnsafePointer(slot)
    }

    /// Frees every reference stored.
    mutating func release() {
        for (position, block) in blocks.enumerated() {
            block.deinitialize(count: position == blocks.count - 1 ? used : Self.blockSize)
            block.deallocate()
        }
        blocks = []
        used = 0
    }
}

/// A map from addresses (an object's identity, `key(_:)`, or a `ResolvedType`'s storage; the caller keeps
/// what they point to alive) to values: open addressing with linear probing, a multiplicative hash of the
/// address, no allocation until the first insertion.
struct IdentityTable<Value> {
    private var keys: [UInt] = []
    private var values: [Value?] = []
    private var count = 0
    /// 64 minus log2 of the capacity: the hash's top bits pick the slot.
    private var shift: UInt = 64

    @inline(__always)
    static func key<Object: AnyObject>(_ object: Object) -> UInt { UInt(bitPattern: ObjectIdentifier(object)) }

    @inline(__always)
    private func home(_ key: UInt) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    /// The value kept for the object whose `key` this is; nil when there is none.
    @inline(__always)
    func value(_ key: UInt) -> Value? {
        guard count > 0 else { return nil }
        let mask = keys.count - 1
        var slot = home(key)
        while true {
            let found = keys[slot]
            if found == key { return values[slot] }
            if found == 0 { return nil }
            slot = (slot + 1) & mask
        }
    }

    mutating func set(_ key: UInt, _ value: Value) {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var slot = home(key)
        while keys[slot] != 0 && keys[slot] != key { slot = (slot + 1) & mask }
        if keys[slot] == 0 { count += 1 }
        keys[slot] = key
        values[slot] = value
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        let capacity = Swift.max(64, oldKeys.count * 2)
        keys = Array(repeating: 0, count: capacity)
        values = Array(repeating: nil, count: capacity)
        shift = UInt(64 - capacity.trailingZeroBitCount)
        count = 0
        for slot in oldKeys.indices where oldKeys[slot] != 0 {
            if let value = oldValues[slot] { set(oldKeys[slot], value) }
        }
    }
}

/// What TypeInfo knows on entering a field, by parent type and field name: graphql-js's `getFieldDef` and
/// the field's output type (nil when the definition is unknown or its type is not an output type).
struct FieldLookup {
    let definition: SchemaReference<FieldDef>?
    let type: ResolvedType?
}

/// `FieldLookup`s by (parent type, field name), found once per unit: the name hashed as the schema hashes names
/// (`nameHash`), compared with `String.==`, so the answers are those of looking the field up on the parent each
/// time. The entries are kept in order of insertion and the hash table holds their positions (4 bytes a slot),
/// so a unit's table costs about 60 bytes per pair it looked up: it is among what a one-file check holds at its
/// peak.
struct FieldTable {
    private struct Entry {
        var parent: UInt
        var hash: Int
        var name: String
        var lookup: FieldLookup
    }
    private var entries: [Entry] = []
    /// Position + 1 in `entries` of the entry hashed to each slot; 0 for an empty slot.
    private var slots: [Int32] = []
    /// 64 minus log2 of the slot count: the hash's top bits pick the slot.
    private var shift: UInt = 64

    @inline(__always)
    private static func hash(_ name: String, _ parent: UInt) -> Int {
        nameHash(name) ^ Int(bitPattern: parent &* 0xFF51_AFD7_ED55_8CCD)
    }

    @inline(__always)
    private func home(_ hash: Int) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: hash) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The lookup of `name` on the parent whose identity key is `parent`, or `make()`'s (then kept).
    @inline(__always)
    mutating func lookup(_ name: String, parent: UInt, _ make: () -> FieldLookup) -> FieldLookup {
        let hash = Self.hash(name, parent)
        if !entries.isEmpty {
            let start = home(hash)
            // Read in place: copying an entry out would retain its name.
            let found = slots.withUnsafeBufferPointer { slots in
                entries.withUnsafeBufferPointer { entries -> FieldLookup? in
                    let mask = slots.count - 1
                    var slot = start
                    while slots[slot] != 0 {
                        let position = Int(slots[slot]) - 1
                        if entries[position].parent == parent && entries[position].hash == hash
                            && entries[position].name == name
                        {
                            return entries[position].lookup
                        }
                        slot = (slot + 1) & mask
                    }
                    return nil
                }
            }
            if let found { return found }
        }
        let made = make()
        if (entries.count + 1) * 2 > slots.count { grow() }
        entries.append(Entry(parent: parent, hash: hash, name: name, lookup: made))
        place(entries.count - 1)
        return made
    }

    /// Puts the entry at `position` in its slot.
    private mutating func place(_ position: Int) {
        let mask = slots.count - 1
        var slot = home(entries[position].hash)
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(truncatingIfNeeded: position + 1)
    }

    private mutating func grow() {
        // A unit looks up a few hundred (parent, name) pairs: room for 512 at once.
        let capacity = Swift.max(1024, slots.count * 2)
        slots = Array(repeating: 0, count: capacity)
        shift = UInt(64 - capacity.trailingZeroBitCount)
        for position in entries.indices { place(position) }
    }
}
