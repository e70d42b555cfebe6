import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Field selection merging.
///
/// Two fields selected under the same response key must be mergeable: the same field with the
/// same arguments (unless their parents are different object types), compatible return types,
/// and mergeable sub-selections.
/// Spec: 5.3.2 Field Selection Merging.
///
/// This follows graphql-js's algorithm step for step (so the same conflicts are reported in the
/// same places), with its two memos: the fields and fragment names of each selection set, and
/// the set of fragment pairs already compared. It adds one of its own for large groups of
/// fields under one response key (e.g. the same field selected 2,000 times): fields are put in
/// classes by parent type, name, arguments, return type and sub-selection shape, one comparison
/// per pair of classes stands for all pairs of their members, and only a pair of classes that
/// does conflict is expanded field by field. Comparisons that may touch the fragment-pair memo
/// keep graphql-js's order, so the memo evolves exactly as graphql-js's does.
///
/// The data is flat, so comparing fields copies no AST nodes and touches no reference counts:
/// every selected field is one entry of a per-unit array (interned response key and name,
/// parent type, position in the document, as small integers); a field map is a range of
/// response keys, each with a range of entry indices; fragments are referred to by their
/// interned names, and a field's sub-selection map is remembered on its entry. Names are
/// interned by a hash of their bytes and the unit's lookups are open-addressing tables of
/// integers (`IntTable`), not dictionaries hashing strings. What only a comparison needs (the
/// field's definition and return type, its arguments' text) is looked up the first time the
/// field is compared: most fields share their response key with no other and never are.
package final class OverlappingFieldsCanBeMergedRule: ValidationRuleBase, ValidationRule {
    package static let id = "overlapping-fields-can-be-merged"
    /// Its `validation-depth` report stands whatever `rules` says of this id.
    package static let affectsOtherRules = true
    package static let hooks: ValidationHooks = [.selectionSet]
    package let context: ValidationContext
    /// Only this rule's hook calls into it, never reentrantly: no dynamic exclusivity checks.
    @exclusivity(unchecked) private var merger: FieldMerger

    /// Groups at most this large are compared pair by pair, as graphql-js does.
    static let groupingThreshold = 12

    package init(context: ValidationContext) {
        self.context = context
        self.merger = FieldMerger(context: context)
    }

    /// Pairs of fields and of fragments this rule has compared in its unit so far.
    var comparisons: Int { merger.comparisons }

    override package func enterSelectionSet(_ node: SelectionSet) {
        let conflicts = merger.findConflictsWithinSelectionSet(
            context.parentType, node, fileIndex: context.currentFileIndex)
        for conflict in conflicts {
            report(
                Self.message(conflict.responseName, reason: Self.reasonMessage(conflict.reason)),
                conflict.fields1 + conflict.fields2, noteMessage: "conflicting field")
        }
    }

    indirect enum Reason {
        case message(String)
        case subfields([(String, Reason)])
    }

    struct Conflict {
        let responseName: String
        let reason: Reason
        let fields1: [SourceRange]
        let fields2: [SourceRange]
    }
}

/// A map from integers (any but `Int.min`) to integers: open addressing with linear probing in
/// one flat array, a multiplicative hash, no allocation until the first insertion.
private struct IntTable {
    private var slots: [(key: Int, value: Int)] = []
    private var count = 0
    /// 64 minus log2 of the capacity: the hash's top bits pick the slot.
    private var shift: UInt = 64

    static let empty = Int.min

    @inline(__always)
    private func home(_ key: Int) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    func value(_ key: Int) -> Int? {
        guard count > 0 else { return nil }
        let mask = slots.count - 1
        var slot = home(key)
        while true {
            let entry = slots[slot]
            if entry.key == key { return entry.value }
            if entry.key == Self.empty { return nil }
            slot = (slot + 1) & mask
        }
    }

    mutating func set(_ key: Int, _ value: Int) {
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var slot = home(key)
        while true {
            let existing = slots[slot].key
            if existing == key {
                slots[slot].value = value
                return
            }
            if existing == Self.empty {
                slots[slot] = (key, value)
                count += 1
                return
            }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        let capacity = Swift.max(16, old.count * 2)
        slots = Array(repeating: (Self.empty, 0), count: capacity)
        shift = UInt(64 - capacity.trailingZeroBitCount)
        count = 0
        for entry in old where entry.key != Self.empty { set(entry.key, entry.value) }
    }
}

/// graphql-js's algorithm on the flat model (a struct, so its arrays are accessed without
/// dynamic exclusivity checks).
private struct FieldMerger {
    typealias Conflict = OverlappingFieldsCanBeMergedRule.Conflict

    /// One selected field. Every member is a plain integer or flag; -1 means none (or, for the
    /// lazily filled members, not yet known).
    ///
    /// Stored as 32-bit integers (48 bytes instead of 96): a unit keeps one entry per selected
    /// field until it is validated, 200,000 of them on a project of 10,000 operations. Ids and
    /// indexes stay far below 2³¹; offsets are those of a `Span`, which holds 32 bits.
    struct Entry {
        private var storedParent: Int32
        private var storedResponseKey: Int32
        private var storedName: Int32
        private var storedArguments: Int32
        private var storedInfo: Int32
        private var storedSubSet: Int32
        private var storedList: Int32
        private var storedItem: Int32
        private var storedFileIndex: Int32
        private var storedStart: UInt32
        private var storedNameEnd: UInt32
        var parentIsObject: Bool
        var hasSelectionSet: Bool

        init(
            parent: Int, parentIsObject: Bool, hasSelectionSet: Bool, responseKey: Int, name: Int, arguments: Int,
            info: Int, subSet: Int, list: Int, item: Int, fileIndex: Int, start: Int, nameEnd: Int
        ) {
            storedParent = Int32(truncatingIfNeeded: parent)
            self.parentIsObject = parentIsObject
            self.hasSelectionSet = hasSelectionSet
            storedResponseKey = Int32(truncatingIfNeeded: responseKey)
            storedName = Int32(truncatingIfNeeded: name)
            storedArguments = Int32(truncatingIfNeeded: arguments)
            storedInfo = Int32(truncatingIfNeeded: info)
            storedSubSet = Int32(truncatingIfNeeded: subSet)
            storedList = Int32(truncatingIfNeeded: list)
            storedItem = Int32(truncatingIfNeeded: item)
            storedFileIndex = Int32(truncatingIfNeeded: fileIndex)
            storedStart = UInt32(clamping: start)
            storedNameEnd = UInt32(clamping: nameEnd)
        }

        /// Index in `types` of the parent type.
        var parent: Int {
            get { Int(storedParent) }
            set { storedParent = Int32(truncatingIfNeeded: newValue) }
        }
        /// Interned response key and field name.
        var responseKey: Int {
            get { Int(storedResponseKey) }
            set { storedResponseKey = Int32(truncatingIfNeeded: newValue) }
        }
        var name: Int {
            get { Int(storedName) }
            set { storedName = Int32(truncatingIfNeeded: newValue) }
        }
        /// Index in `argumentTexts` of graphql-js's `stringifyArguments` (0 is "{}", no
        /// arguments), -1 until first needed.
        var arguments: Int {
            get { Int(storedArguments) }
            set { storedArguments = Int32(truncatingIfNeeded: newValue) }
        }
        /// Index in `infos` of what the definition says (0: no definition), -1 until first needed.
        var info: Int {
            get { Int(storedInfo) }
            set { storedInfo = Int32(truncatingIfNeeded: newValue) }
        }
        /// The set of the sub-selection, -1 until first needed.
        var subSet: Int {
            get { Int(storedSubSet) }
            set { storedSubSet = Int32(truncatingIfNeeded: newValue) }
        }
        /// The field node: `lists[list][item]`.
        var list: Int {
            get { Int(storedList) }
            set { storedList = Int32(truncatingIfNeeded: newValue) }
        }
        var item: Int {
            get { Int(storedItem) }
            set { storedItem = Int32(truncatingIfNeeded: newValue) }
        }
        var fileIndex: Int {
            get { Int(storedFileIndex) }
            set { storedFileIndex = Int32(truncatingIfNeeded: newValue) }
        }
        var start: Int {
            get { Int(storedStart) }
            set { storedStart = UInt32(clamping: newValue) }
        }
        var nameEnd: Int {
            get { Int(storedNameEnd) }
            set { storedNameEnd = UInt32(clamping: newValue) }
        }
    }

    /// What the schema says about a field name on a parent type.
    struct FieldInfo {
        /// The definition's type, nil without a definition.
        var type: TypeRef?
        /// Index in `types` of the definition's named type, -1 if unknown.
        var namedType: Int
        var isLeaf: Bool
    }

    /// A field map and its fragment names: ranges of `setKeys` and `setFragments`.
    struct SetData {
        var keyStart: Int
        var keyCount: Int
        /// Whether `keyLookup` has the keys (sets with many keys, once looked up).
        var indexed: Bool
        var fragmentStart: Int
        var fragmentCount: Int
    }

    /// Per interned string: its uses as a response key, fragment name and type condition.
    struct StringState {
        /// The key's group position while a set is being built (-1 otherwise).
        var group = -1
        /// The set whose fragment names last got this name (a set's names are unique).
        var mark = -1
        /// As a fragment name: -2 not looked up, -1 no such fragment, else the fragment's set.
        var fragmentSet = -2
        /// As a type condition: -2 not looked up, else index in `types` (-1 unknown type).
        var conditionType = -2
    }

    struct ClassKey: Equatable {
        let parent: Int
        let name: Int
        let arguments: Int
        let type: Int
        let shape: Int
    }

    /// Numbers the distinct class keys of one large group, in first-seen order (open addressing
    /// sized for the group, so it never grows; no hashing of `Hasher`'s kind).
    struct ClassKeys {
        private(set) var keys: [ClassKey] = []
        private var slots: [Int]
        private let shift: UInt

        init(capacity: Int) {
            var size = 16
            while size < capacity * 2 { size *= 2 }
            slots = Array(repeating: -1, count: size)
            shift = UInt(64 - size.trailingZeroBitCount)
            keys.reserveCapacity(capacity)
        }

        var count: Int { keys.count }

        mutating func id(_ key: ClassKey) -> Int {
            var hash = UInt64(bitPattern: Int64(key.parent)) &* 0x9E37_79B9_7F4A_7C15
            hash = (hash ^ UInt64(bitPattern: Int64(key.name))) &* 0xFF51_AFD7_ED55_8CCD
            hash = (hash ^ UInt64(bitPattern: Int64(key.arguments))) &* 0xC4CE_B9FE_1A85_EC53
            hash = (hash ^ UInt64(bitPattern: Int64(key.type))) &* 0x9E37_79B9_7F4A_7C15
            hash = (hash ^ UInt64(bitPattern: Int64(key.shape))) &* 0xFF51_AFD7_ED55_8CCD
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: hash >> UInt64(shift))
            while true {
                let id = slots[slot]
                if id < 0 {
                    slots[slot] = keys.count
                    keys.append(key)
                    return keys.count - 1
                }
                if keys[id] == key { return id }
                slot = (slot + 1) & mask
            }
        }
    }

    let context: ValidationContext
    let files: [SourceFile]

    // Interned strings: names, aliases, fragment names, type conditions.
    var strings: [String] = []
    var stringHashes: [Int] = []
    var stringStates: [StringState] = []
    /// Open addressing by `stringHashes`: string ids, -1 empty.
    var stringSlots: [Int] = []
    var stringShift: UInt = 64

    var argumentIds: [String: Int] = ["{}": 0]
    var typeIds = IntTable()
    var types: [NamedTypeDef] = []
    /// By parent type << 32 | field name: index in `infos`.
    var infoIds = IntTable()
    var infos: [FieldInfo] = [FieldInfo(type: nil, namedType: -1, isLeaf: false)]

    // Fields and field maps.
    var entries: [Entry] = []
    /// The selection lists the entries' nodes are in.
    var lists: [[Selection]] = []
    var sets: [SetData] = []
    /// By file index << 40 | the selection set's start offset.
    var setByNode = IntTable()
    /// Per key position: the response key, and its range of `members`.
    var setKeys: [Int] = []
    var groupStart: [Int] = []
    var groupCount: [Int] = []
    var members: [Int] = []
    var setFragments: [Int] = []
    /// Key positions of sets with many keys, by set << 32 | response key.
    var keyLookup = IntTable()
    static let linearLookupLimit = 16
    /// The collector's work list (selection lists open: parent type, list, next item), kept
    /// between calls for its storage.
    var collectWork: [(parent: Int, list: Int, next: Int)] = []

    /// graphql-js's `PairSet` by fragment name ids: 1 mutually exclusive, 0 not.
    var comparedFragmentPairs = IntTable()
    /// By file index << 40 | start offset of a sub-selection: shape << 1 | pure.
    var shapes = IntTable()
    var shapeIds: [String: Int] = [:]
    var typeRefIds: [TypeRef: Int] = [:]
    /// Per info: `typeRefId(ofInfo:)`, -2 until first needed.
    var infoTypeIds: [Int] = []

    /// Pairs compared so far: fields (`findConflict`) and fragments past the fragment-pair memo.
    /// The measure of the rule's work that tests bound (`OverlappingFieldsWorstCaseTests`).
    var comparisons = 0

    init(context: ValidationContext) {
        self.context = context
        self.files = context.documents.map(\.source)
    }

    // MARK: Stack

    /// Levels of recursion open: sub-selections compared, fragments followed along a chain.
    /// Both can be as deep as documents make them, more than a small thread's stack holds.
    var comparisonDepth = 0
    var reportedDepth = false
    var stackGuard: StackGuard?
    /// The depth from which the stack is checked.
    static let stackCheckDepth = 16

    /// Opens one level of recursion: false when the thread's stack is nearly used up (then
    /// report with `reportTooDeep`). Close a level opened with `comparisonDepth -= 1`.
    mutating func enterComparison() -> Bool {
        comparisonDepth += 1
        if comparisonDepth < Self.stackCheckDepth { return true }
        if stackGuard == nil { stackGuard = StackGuard() }
        if stackGuard?.hasRoom() ?? true { return true }
        comparisonDepth -= 1
        return false
    }

    /// A `validation-depth` error, once per unit.
    mutating func reportTooDeep(at range: SourceRange?) {
        guard !reportedDepth else { return }
        reportedDepth = true
        context.report(
            "The document is nested too deeply to validate (\(comparisonDepth + 1) levels of fields or fragments "
                + "compared exhaust this thread's stack).", rule: "validation-depth", places: range.map { [$0] } ?? [])
    }

    /// The name of a fragment's definition, where a comparison cut short is reported.
    func fragmentRange(_ fragment: Int) -> SourceRange? {
        guard let found = context.fragment(named: strings[fragment]) else { return nil }
        return SourceRange(file: context.definitions[found.index].file, span: found.node.name.span)
    }

    // MARK: Interning

    /// The schema's name hash (BatonSchema's `nameHash`: eight ASCII bytes at a time, Swift's
    /// own hash for anything else, so it agrees with `String.==`).
    @inline(__always)
    static func hash(_ string: String) -> Int { nameHash(string) }

    @inline(__always)
    func stringHome(_ hash: Int) -> Int {
        Int(truncatingIfNeeded: (UInt(bitPattern: hash) &* 0x9E37_79B9_7F4A_7C15) >> stringShift)
    }

    mutating func stringId(_ string: String) -> Int {
        if strings.count * 2 >= stringSlots.count { growStrings() }
        let hash = Self.hash(string)
        let mask = stringSlots.count - 1
        var slot = stringHome(hash)
        while true {
            let id = stringSlots[slot]
            if id < 0 { break }
            if stringHashes[id] == hash && strings[id] == string { return id }
            slot = (slot + 1) & mask
        }
        let id = strings.count
        stringSlots[slot] = id
        strings.append(string)
        stringHashes.append(hash)
        stringStates.append(StringState())
        return id
    }

    mutating func growStrings() {
        let capacity = Swift.max(64, stringSlots.count * 2)
        stringSlots = Array(repeating: -1, count: capacity)
        stringShift = UInt(64 - capacity.trailingZeroBitCount)
        let mask = capacity - 1
        for id in strings.indices {
            var slot = stringHome(stringHashes[id])
            while stringSlots[slot] >= 0 { slot = (slot + 1) & mask }
            stringSlots[slot] = id
        }
    }

    mutating func typeIndex(_ type: NamedTypeDef?) -> Int {
        guard let type else { return -1 }
        let key = Int(bitPattern: UInt(bitPattern: ObjectIdentifier(type)))
        if let id = typeIds.value(key) { return id }
        let id = types.count
        typeIds.set(key, id)
        types.append(type)
        return id
    }

    /// A schema type by name (index in `types`, -1 if unknown), remembered by interned name.
    mutating func typeByName(_ name: String) -> Int {
        let id = stringId(name)
        let known = stringStates[id].conditionType
        if known != -2 { return known }
        let type = typeIndex(context.schema.types[name])
        stringStates[id].conditionType = type
        return type
    }

    /// What the definition of an entry's field says (index in `infos`), looked up the first
    /// time the entry is compared.
    mutating func info(_ index: Int) -> Int {
        let known = entries[index].info
        if known >= 0 { return known }
        let parent = entries[index].parent
        let name = entries[index].name
        var id = 0
        if parent >= 0 {
            let key = parent << 32 | name
            if let cached = infoIds.value(key) {
                id = cached
            } else {
                let parentType = types[parent]
                if parentType.kind == .object || parentType.kind == .interface,
                    let type = parentType.field(named: strings[name])?.type
                {
                    let named = typeByName(type.namedType)
                    id = infos.count
                    infos.append(
                        FieldInfo(type: type, namedType: named, isLeaf: named >= 0 && types[named].isLeaf))
                }
                infoIds.set(key, id)
            }
        }
        entries[index].info = id
        return id
    }

    /// The sub-selection of an entry's field.
    func selectionSet(_ index: Int) -> SelectionSet? {
        Self.selectionSet(lists[entries[index].list], entries[index].item)
    }

    // Reading selections: each switch is on an array element in a function that writes nothing,
    // so the node is borrowed, not copied (copying a `Selection` retains every array and string
    // in it, and the collector would pay that for every field).

    /// What the collector needs of one selection.
    struct SelectionSummary {
        enum Kind { case field, fragmentSpread, inlineFragment }
        var kind: Kind
        /// The field's name, the spread fragment's name or the inline fragment's type condition.
        var name: String?
        var alias: String?
        var hasArguments = false
        var hasSelectionSet = false
        var start = 0
        var nameEnd = 0
    }

    static func summary(_ selections: [Selection], _ item: Int) -> SelectionSummary {
        switch selections[item] {
        case .field(let field):
            SelectionSummary(
                kind: .field, name: field.name.value, alias: field.alias?.value, hasArguments: !field.arguments.isEmpty,
                hasSelectionSet: field.selectionSet != nil, start: field.span.start, nameEnd: field.name.span.end)
        case .fragmentSpread(let spread): SelectionSummary(kind: .fragmentSpread, name: spread.name.value)
        case .inlineFragment(let inline):
            SelectionSummary(kind: .inlineFragment, name: inline.typeCondition?.name.value)
        }
    }

    /// True when a selection set that was not collected yet has nothing to compare: it spreads
    /// no fragment and no response key repeats (inline fragments flattened), so graphql-js's
    /// `findConflictsWithinSelectionSet` finds nothing and changes nothing. Response keys are
    /// compared by hash; a collision only sends the set down the full path.
    static func cannotConflict(_ selections: [Selection]) -> Bool {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: Self.scanLimit) { hashes in
            var count = 0
            // Inline fragments are entered with a work list (allocated only when there is one).
            var work: [(selections: [Selection], next: Int)] = []
            var current = selections
            var next = 0
            while true {
                while next < current.count {
                    let item = next
                    next += 1
                    switch scanKey(current, item) {
                    case .fragmentSpread: return false
                    case .inlineFragment:
                        work.append((current, next))
                        current = inlineSelections(current, item)
                        next = 0
                    case .field(let hash):
                        // Sets this large are rare: the full path's tables handle them.
                        guard count < Self.scanLimit else { return false }
                        for earlier in 0..<count where hashes[earlier] == hash { return false }
                        hashes[count] = hash
                        count += 1
                    }
                }
                guard let resume = work.popLast() else { return true }
                current = resume.selections
                next = resume.next
            }
        }
    }

    static let scanLimit = 32

    enum ScanKey {
        case field(hash: Int)
        case fragmentSpread
        case inlineFragment
    }

    /// A selection's kind and, for a field, the hash of its response key.
    static func scanKey(_ selections: [Selection], _ item: Int) -> ScanKey {
        switch selections[item] {
        // The key hashed where it lies (`??` would copy it first).
        case .field(let field):
            if let alias = field.alias { .field(hash: hash(alias.value)) } else { .field(hash: hash(field.name.value)) }
        case .fragmentSpread: .fragmentSpread
        case .inlineFragment: .inlineFragment
        }
    }

    /// The selections of an inline fragment.
    static func inlineSelections(_ selections: [Selection], _ item: Int) -> [Selection] {
        guard case .inlineFragment(let inline) = selections[item] else { return [] }
        return inline.selectionSet.selections
    }

    static func selectionSet(_ selections: [Selection], _ item: Int) -> SelectionSet? {
        guard case .field(let field) = selections[item] else { return nil }
        return field.selectionSet
    }

    static func arguments(_ selections: [Selection], _ item: Int) -> [Argument] {
        guard case .field(let field) = selections[item] else { return [] }
        return field.arguments
    }

    /// graphql-js's `stringifyArguments` of an entry, interned.
    mutating func argumentId(_ index: Int) -> Int {
        let known = entries[index].arguments
        if known >= 0 { return known }
        let text = ValuePrinter.canonicalArguments(Self.arguments(lists[entries[index].list], entries[index].item))
        let id: Int
        if let existing = argumentIds[text] {
            id = existing
        } else {
            id = argumentIds.count
            argumentIds[text] = id
        }
        entries[index].arguments = id
        return id
    }

    func range(_ index: Int) -> SourceRange {
        let entry = entries[index]
        return SourceRange(file: files[entry.fileIndex], span: Span(start: entry.start, end: entry.nameEnd))
    }

    // MARK: Field maps

    static func nodeKey(_ fileIndex: Int, _ selectionSet: SelectionSet) -> Int {
        fileIndex << 40 | selectionSet.span.start
    }

    /// Not inlined: comparisons recurse through its callers, whose frames should stay small.
    @inline(never)
    mutating func fieldsAndFragmentNames(_ parent: Int, _ selectionSet: SelectionSet, fileIndex: Int) -> Int {
        let key = Self.nodeKey(fileIndex, selectionSet)
        if let cached = setByNode.value(key) { return cached }
        if sets.isEmpty { reserveStorage() }
        let setIndex = sets.count
        let first = entries.count
        let fragmentStart = setFragments.count
        collectFieldsAndFragmentNames(parent, selectionSet, fileIndex: fileIndex, setIndex)
        let end = entries.count
        // Group the new entries by response key, keys in first-seen order.
        let keyStart = setKeys.count
        var repeated = false
        for index in first..<end {
            let responseKey = entries[index].responseKey
            let known = stringStates[responseKey].group
            if known < 0 {
                stringStates[responseKey].group = setKeys.count
                setKeys.append(responseKey)
                groupCount.append(1)
                groupStart.append(0)
            } else {
                groupCount[known] += 1
                repeated = true
            }
        }
        let keyEnd = setKeys.count
        if !repeated {
            // One field per key, in order.
            for position in keyStart..<keyEnd { groupStart[position] = members.count + (position - keyStart) }
            members.append(contentsOf: first..<end)
        } else {
            var offset = members.count
            for position in keyStart..<keyEnd {
                groupStart[position] = offset
                offset += groupCount[position]
                groupCount[position] = 0
            }
            members.append(contentsOf: repeatElement(0, count: end - first))
            for index in first..<end {
                let position = stringStates[entries[index].responseKey].group
                members[groupStart[position] + groupCount[position]] = index
                groupCount[position] += 1
            }
        }
        for position in keyStart..<keyEnd { stringStates[setKeys[position]].group = -1 }
        sets.append(
            SetData(
                keyStart: keyStart, keyCount: keyEnd - keyStart, indexed: false, fragmentStart: fragmentStart,
                fragmentCount: setFragments.count - fragmentStart))
        setByNode.set(key, setIndex)
        return setIndex
    }

    /// Room for a small unit's sets at once, rather than growing each array step by step.
    mutating func reserveStorage() {
        entries.reserveCapacity(64)
        lists.reserveCapacity(32)
        sets.reserveCapacity(32)
        setKeys.reserveCapacity(64)
        groupStart.reserveCapacity(64)
        groupCount.reserveCapacity(64)
        members.reserveCapacity(64)
        setFragments.reserveCapacity(16)
    }

    /// Appends the fields of a selection set (inline fragments flattened) to `entries` and the
    /// names of the fragments it spreads, each once, to `setFragments`.
    mutating func collectFieldsAndFragmentNames(
        _ parent: Int, _ selectionSet: SelectionSet, fileIndex: Int, _ setIndex: Int
    ) {
        // Inline fragments are entered with a work list, not recursion: they nest as deep as the
        // parser allows. The order is the recursive walk's (depth first, in document order).
        collectWork.removeAll(keepingCapacity: true)
        lists.append(selectionSet.selections)
        collectWork.append((parent, lists.count - 1, 0))
        outer: while let top = collectWork.indices.last {
            let parent = collectWork[top].parent
            let list = collectWork[top].list
            let parentIsObject = parent >= 0 && types[parent].kind == .object
            let selections = lists[list]
            var next = collectWork[top].next
            while next < selections.count {
                let item = next
                next += 1
                let selection = Self.summary(selections, item)
                switch selection.kind {
                case .field:
                    let name = stringId(selection.name ?? "")
                    let responseKey = selection.alias.map { stringId($0) } ?? name
                    entries.append(
                        Entry(
                            parent: parent, parentIsObject: parentIsObject, hasSelectionSet: selection.hasSelectionSet,
                            responseKey: responseKey, name: name, arguments: selection.hasArguments ? -1 : 0,
                            info: -1, subSet: -1, list: list, item: item, fileIndex: fileIndex,
                            start: selection.start, nameEnd: selection.nameEnd))
                case .fragmentSpread:
                    let id = stringId(selection.name ?? "")
                    if stringStates[id].mark != setIndex {
                        stringStates[id].mark = setIndex
                        setFragments.append(id)
                    }
                case .inlineFragment:
                    let type = selection.name.map { typeByName($0) } ?? parent
                    collectWork[top].next = next
                    lists.append(Self.inlineSelections(selections, item))
                    collectWork.append((type, lists.count - 1, 0))
                    continue outer
                }
            }
            collectWork.removeLast()
        }
    }

    /// The set of a fragment's selection (graphql-js's `getReferencedFieldsAndFragmentNames`).
    mutating func referencedSet(_ fragment: Int) -> Int? {
        let known = stringStates[fragment].fragmentSet
        if known != -2 { return known >= 0 ? known : nil }
        guard let found = context.fragment(named: strings[fragment]) else {
            stringStates[fragment].fragmentSet = -1
            return nil
        }
        let fileIndex = context.definitions[found.index].fileIndex
        let set: Int
        if let cached = setByNode.value(Self.nodeKey(fileIndex, found.node.selectionSet)) {
            set = cached
        } else {
            let type = typeByName(found.node.typeCondition.name.value)
            set = fieldsAndFragmentNames(type, found.node.selectionSet, fileIndex: fileIndex)
        }
        stringStates[fragment].fragmentSet = set
        return set
    }

    /// The set of an entry's sub-selection (the entry must have one).
    mutating func subSet(_ index: Int) -> Int {
        let known = entries[index].subSet
        if known >= 0 { return known }
        guard let selectionSet = selectionSet(index) else { return -1 }
        let namedType = infos[info(index)].namedType
        let set = fieldsAndFragmentNames(namedType, selectionSet, fileIndex: entries[index].fileIndex)
        entries[index].subSet = set
        return set
    }

    /// The key position of `responseKey` in a set.
    mutating func position(in set: Int, _ responseKey: Int) -> Int? {
        let data = sets[set]
        if data.keyCount > Self.linearLookupLimit {
            if !data.indexed { indexKeys(of: set) }
            return keyLookup.value(set << 32 | responseKey)
        }
        var position = data.keyStart
        let end = data.keyStart + data.keyCount
        while position < end {
            if setKeys[position] == responseKey { return position }
            position += 1
        }
        return nil
    }

    /// Puts a large set's keys in `keyLookup` (not inlined: comparisons recurse through the
    /// caller, whose frame should stay small).
    @inline(never)
    mutating func indexKeys(of set: Int) {
        let data = sets[set]
        for position in data.keyStart..<(data.keyStart + data.keyCount) {
            keyLookup.set(set << 32 | setKeys[position], position)
        }
        sets[set].indexed = true
    }

    /// The positions in `setFragments` of a set's fragment names (iterated by index: the
    /// arrays grow while they are compared, and a slice held across that would copy them).
    func fragments(of set: Int) -> Range<Int> {
        let data = sets[set]
        return data.fragmentStart..<(data.fragmentStart + data.fragmentCount)
    }

    func group(_ position: Int) -> [Int] {
        Array(members[groupStart[position]..<(groupStart[position] + groupCount[position])])
    }

    // MARK: graphql-js's algorithm

    func pairKey(_ a: Int, _ b: Int) -> Int { a < b ? a << 32 | b : b << 32 | a }

    func hasPair(_ a: Int, _ b: Int, _ areMutuallyExclusive: Bool) -> Bool {
        guard let result = comparedFragmentPairs.value(pairKey(a, b)) else { return false }
        return areMutuallyExclusive ? true : result == 0
    }

    mutating func addPair(_ a: Int, _ b: Int, _ areMutuallyExclusive: Bool) {
        comparedFragmentPairs.set(pairKey(a, b), areMutuallyExclusive ? 1 : 0)
    }

    mutating func findConflictsWithinSelectionSet(
        _ parentType: NamedTypeDef?, _ selectionSet: SelectionSet, fileIndex: Int
    ) -> [Conflict] {
        // Fields only, no key repeated (as the parser found them): graphql-js compares nothing here, collected or not.
        if selectionSet.keysAreDistinct { return [] }
        if setByNode.value(Self.nodeKey(fileIndex, selectionSet)) == nil,
            Self.cannotConflict(selectionSet.selections)
        {
            // Nothing to compare; the set is collected if a comparison ever needs it.
            return []
        }
        var conflicts: [Conflict] = []
        let set = fieldsAndFragmentNames(typeIndex(parentType), selectionSet, fileIndex: fileIndex)
        collectConflictsWithin(&conflicts, set)
        let names = fragments(of: set)
        for i in names {
            collectConflictsBetweenFieldsAndFragment(&conflicts, false, set, setFragments[i])
            for j in (i + 1)..<names.upperBound {
                collectConflictsBetweenFragments(&conflicts, false, setFragments[i], setFragments[j])
            }
        }
        return conflicts
    }

    mutating func collectConflictsBetweenFieldsAndFragment(
        _ conflicts: inout [Conflict], _ areMutuallyExclusive: Bool, _ set: Int, _ fragment: Int
    ) {
        guard let fragmentSet = referencedSet(fragment) else { return }
        if set == fragmentSet { return }
        collectConflictsBetween(&conflicts, areMutuallyExclusive, set, fragmentSet)
        if fragments(of: fragmentSet).isEmpty { return }
        // graphql-js recurses into the fragments each fragment spreads. A chain of fragments is
        // as long as the document makes it, so it is followed with a work list, in the same order.
        var work: [(fragment: Int, positions: Range<Int>, offset: Int)] = [(fragment, fragments(of: fragmentSet), 0)]
        while let top = work.indices.last {
            let position = work[top].positions.lowerBound + work[top].offset
            guard position < work[top].positions.upperBound else {
                work.removeLast()
                continue
            }
            work[top].offset += 1
            let current = work[top].fragment
            let referenced = setFragments[position]
            if hasPair(referenced, current, areMutuallyExclusive) { continue }
            addPair(referenced, current, areMutuallyExclusive)
            guard let referencedSet = referencedSet(referenced) else { continue }
            if set == referencedSet { continue }
            collectConflictsBetween(&conflicts, areMutuallyExclusive, set, referencedSet)
            work.append((referenced, fragments(of: referencedSet), 0))
        }
    }

    mutating func collectConflictsBetweenFragments(
        _ conflicts: inout [Conflict], _ areMutuallyExclusive: Bool, _ fragment1: Int, _ fragment2: Int
    ) {
        if fragment1 == fragment2 { return }
        if hasPair(fragment1, fragment2, areMutuallyExclusive) { return }
        addPair(fragment1, fragment2, areMutuallyExclusive)
        comparisons += 1
        guard enterComparison() else { return reportTooDeep(at: fragmentRange(fragment1)) }
        defer { comparisonDepth -= 1 }
        guard let set1 = referencedSet(fragment1), let set2 = referencedSet(fragment2) else { return }
        collectConflictsBetween(&conflicts, areMutuallyExclusive, set1, set2)
        for position in fragments(of: set2) {
            let referenced2 = setFragments[position]
            collectConflictsBetweenFragments(&conflicts, areMutuallyExclusive, fragment1, referenced2)
        }
        for position in fragments(of: set1) {
            let referenced1 = setFragments[position]
            collectConflictsBetweenFragments(&conflicts, areMutuallyExclusive, referenced1, fragment2)
        }
    }

    mutating func findConflictsBetweenSubSelectionSets(
        _ areMutuallyExclusive: Bool, _ set1: Int, _ set2: Int
    ) -> [Conflict] {
        var conflicts: [Conflict] = []
        collectConflictsBetween(&conflicts, areMutuallyExclusive, set1, set2)
        for position in fragments(of: set2) {
            collectConflictsBetweenFieldsAndFragment(
                &conflicts, areMutuallyExclusive, set1, setFragments[position])
        }
        for position in fragments(of: set1) {
            collectConflictsBetweenFieldsAndFragment(
                &conflicts, areMutuallyExclusive, set2, setFragments[position])
        }
        for position1 in fragments(of: set1) {
            for position2 in fragments(of: set2) {
                collectConflictsBetweenFragments(
                    &conflicts, areMutuallyExclusive, setFragments[position1], setFragments[position2])
            }
        }
        return conflicts
    }

    mutating func collectConflictsWithin(_ conflicts: inout [Conflict], _ set: Int) {
        let data = sets[set]
        for position in data.keyStart..<(data.keyStart + data.keyCount) {
            let count = groupCount[position]
            guard count > 1 else { continue }
            let start = groupStart[position]
            let responseKey = setKeys[position]
            if count <= OverlappingFieldsCanBeMergedRule.groupingThreshold {
                for i in 0..<count {
                    for j in (i + 1)..<count {
                        if let conflict = findConflict(false, responseKey, members[start + i], members[start + j]) {
                            conflicts.append(conflict)
                        }
                    }
                }
            } else {
                compareGrouped(&conflicts, false, responseKey, group(position), nil)
            }
        }
    }

    mutating func collectConflictsBetween(
        _ conflicts: inout [Conflict], _ parentFieldsAreMutuallyExclusive: Bool, _ set1: Int, _ set2: Int
    ) {
        let data = sets[set1]
        for position1 in data.keyStart..<(data.keyStart + data.keyCount) {
            let responseKey = setKeys[position1]
            guard let position2 = position(in: set2, responseKey) else { continue }
            let count1 = groupCount[position1]
            let count2 = groupCount[position2]
            let start1 = groupStart[position1]
            let start2 = groupStart[position2]
            let threshold = OverlappingFieldsCanBeMergedRule.groupingThreshold
            if count1 * count2 <= threshold * threshold {
                for i in 0..<count1 {
                    for j in 0..<count2 {
                        if let conflict = findConflict(
                            parentFieldsAreMutuallyExclusive, responseKey, members[start1 + i], members[start2 + j])
                        {
                            conflicts.append(conflict)
                        }
                    }
                }
            } else {
                compareGrouped(
                    &conflicts, parentFieldsAreMutuallyExclusive, responseKey, group(position1), group(position2))
            }
        }
    }

    mutating func findConflict(
        _ parentFieldsAreMutuallyExclusive: Bool, _ responseKey: Int, _ index1: Int, _ index2: Int
    ) -> Conflict? {
        comparisons += 1
        let field1 = entries[index1]
        let field2 = entries[index2]
        var areMutuallyExclusive = parentFieldsAreMutuallyExclusive
        if !areMutuallyExclusive, field1.parent >= 0, field2.parent >= 0, field1.parent != field2.parent,
            field1.parentIsObject, field2.parentIsObject
        {
            areMutuallyExclusive = true
        }
        if !areMutuallyExclusive {
            if field1.name != field2.name {
                return Conflict(
                    responseName: strings[responseKey],
                    reason: .message(
                        "\"\(strings[field1.name])\" and \"\(strings[field2.name])\" are different fields"),
                    fields1: [range(index1)], fields2: [range(index2)])
            }
            if !(field1.arguments == 0 && field2.arguments == 0) && argumentId(index1) != argumentId(index2) {
                return Conflict(
                    responseName: strings[responseKey], reason: .message("they have differing arguments"),
                    fields1: [range(index1)], fields2: [range(index2)])
            }
        }
        // The same definition has the same type; equal types never conflict.
        let info1 = info(index1)
        let info2 = info(index2)
        if info1 != info2, let type1 = infos[info1].type, let type2 = infos[info2].type {
            if Self.doTypesConflict(type1, type2, leaf: infos[info1].isLeaf || infos[info2].isLeaf) {
                return Conflict(
                    responseName: strings[responseKey],
                    reason: .message(
                        "they return conflicting types \"\(type1.description)\" and \"\(type2.description)\""),
                    fields1: [range(index1)], fields2: [range(index2)])
            }
        }
        if field1.hasSelectionSet && field2.hasSelectionSet {
            // Sub-selections are compared by recursion, one level per level of fields.
            guard enterComparison() else {
                reportTooDeep(at: range(index1))
                return nil
            }
            defer { comparisonDepth -= 1 }
            let set1 = subSet(index1)
            let set2 = subSet(index2)
            let conflicts = findConflictsBetweenSubSelectionSets(areMutuallyExclusive, set1, set2)
            if !conflicts.isEmpty {
                return Conflict(
                    responseName: strings[responseKey],
                    reason: .subfields(conflicts.map { ($0.responseName, $0.reason) }),
                    fields1: [range(index1)] + conflicts.flatMap(\.fields1),
                    fields2: [range(index2)] + conflicts.flatMap(\.fields2))
            }
        }
        return nil
    }

    /// graphql-js's `doTypesConflict`; `leaf` tells whether either named type is a leaf. Equal
    /// types never conflict.
    static func doTypesConflict(_ type1: TypeRef, _ type2: TypeRef, leaf: Bool) -> Bool {
        switch (type1, type2) {
        case (.list(let inner1), .list(let inner2)): return doTypesConflict(inner1, inner2, leaf: leaf)
        case (.list, _), (_, .list): return true
        case (.nonNull(let inner1), .nonNull(let inner2)): return doTypesConflict(inner1, inner2, leaf: leaf)
        case (.nonNull, _), (_, .nonNull): return true
        case (.named(let name1), .named(let name2)): return leaf && name1 != name2
        }
    }

    // MARK: Large groups

    /// Compares a large group of same-key fields with itself (`fields2 == nil`) or with another
    /// group, with the same result as comparing every pair in graphql-js's order. Fields are
    /// put in classes by parent type, name, arguments, return type and sub-selection shape; one
    /// comparison per pair of classes stands for all pairs of their members, and only a pair of
    /// classes that does conflict is expanded field by field. Classes that differ only in their
    /// parent object type are of one kind: a comparison reads nothing of the parents but whether
    /// they make the fields exclusive, so one comparison per pair of kinds, exclusive or not,
    /// stands for all their pairs of classes (25 inline fragments on as many types, each
    /// selecting `actor { login }`). When a comparison may touch the fragment-pair memo,
    /// graphql-js's order is kept so the memo evolves exactly as its does.
    mutating func compareGrouped(
        _ conflicts: inout [Conflict], _ parentExclusive: Bool, _ responseKey: Int, _ fields1: [Int],
        _ fields2: [Int]?
    ) {
        let within = fields2 == nil
        let other = fields2 ?? fields1
        var classIndex = ClassKeys(capacity: fields1.count + (fields2?.count ?? 0))
        var kindIndex = ClassKeys(capacity: fields1.count + (fields2?.count ?? 0))
        var allPure = true
        var classes1: [Int] = []
        classes1.reserveCapacity(fields1.count)
        var classes2: [Int] = []
        // Per class: its kind, and its parent if that is an object type (else -1).
        var classKind: [Int] = []
        var objectParent: [Int] = []
        for pass in 0..<2 {
            guard let fields = pass == 0 ? fields1 : fields2 else { continue }
            for field in fields {
                let shape = selectionShape(field)
                if !shape.pure { allPure = false }
                let entry = entries[field]
                let arguments = argumentId(field)
                let info = info(field)
                let key = ClassKey(
                    parent: entry.parent, name: entry.name, arguments: arguments, type: info, shape: shape.shape)
                let cls = classIndex.id(key)
                if cls == objectParent.count {
                    objectParent.append(entry.parentIsObject ? entry.parent : -1)
                    classKind.append(
                        kindIndex.id(
                            ClassKey(
                                parent: entry.parentIsObject ? -2 : entry.parent, name: entry.name,
                                arguments: arguments, type: typeRefId(ofInfo: info), shape: shape.shape)))
                }
                if pass == 0 { classes1.append(cls) } else { classes2.append(cls) }
            }
        }
        if within { classes2 = classes1 }
        let classCount = classIndex.count
        let kindCount = kindIndex.count
        // Outcomes (-1 not yet compared, 0 clean, 1 conflict) of comparing a pair of classes, and
        // a pair of kinds exclusive or not.
        var outcome = [Int8](repeating: -1, count: classCount * classCount)
        var kindOutcome = [Int8](repeating: -1, count: kindCount * kindCount * 2)
        @inline(__always) func kindSlot(_ a: Int, _ b: Int) -> Int {
            let exclusive =
                parentExclusive || (objectParent[a] >= 0 && objectParent[b] >= 0 && objectParent[a] != objectParent[b])
            return (classKind[a] * kindCount + classKind[b]) &* 2 &+ (exclusive ? 1 : 0)
        }

        if allPure {
            // No comparison can touch the fragment-pair memo, so order does not matter: compare
            // one representative pair per pair of classes, and expand only those that conflict.
            let (order1, start1, count1) = Self.membersByClass(classes1, classCount)
            let (order2, start2, count2) = within ? (order1, start1, count1) : Self.membersByClass(classes2, classCount)
            for a in 0..<classCount where count1[a] > 0 {
                let members1 = order1[start1[a]..<(start1[a] + count1[a])]
                for b in 0..<classCount where count2[b] > 0 {
                    let kind = kindSlot(a, b)
                    if kindOutcome[kind] == 0 || (within && kindOutcome[kindSlot(b, a)] == 0) { continue }
                    if within, outcome[b * classCount + a] == 0 { continue }
                    let members2 = order2[start2[b]..<(start2[b] + count2[b])]
                    guard let first = Self.firstPair(members1, members2, within: within) else { continue }
                    let probe = findConflict(parentExclusive, responseKey, fields1[first.0], other[first.1])
                    outcome[a * classCount + b] = probe != nil ? 1 : 0
                    if kindOutcome[kind] < 0 { kindOutcome[kind] = probe != nil ? 1 : 0 }
                    guard probe != nil else { continue }
                    // This pair of classes conflicts: compare every pair of their members.
                    for i in members1 {
                        for j in members2 where !within || i < j {
                            if let conflict = findConflict(parentExclusive, responseKey, fields1[i], other[j]) {
                                conflicts.append(conflict)
                            }
                        }
                    }
                }
            }
            return
        }
        // Some comparisons may read or add fragment pairs: keep graphql-js's order, and skip a
        // pair only when an earlier pair of the same two classes (or kinds) compared clean.
        for i in fields1.indices {
            let start = within ? i + 1 : 0
            guard start < other.count else { continue }
            for j in start..<other.count {
                let a = classes1[i]
                let b = classes2[j]
                let slot = a * classCount + b
                if outcome[slot] == 0 { continue }
                let kind = kindSlot(a, b)
                if kindOutcome[kind] == 0 {
                    outcome[slot] = 0
                    continue
                }
                let conflict = findConflict(parentExclusive, responseKey, fields1[i], other[j])
                if outcome[slot] < 0 { outcome[slot] = conflict != nil ? 1 : 0 }
                if kindOutcome[kind] < 0 { kindOutcome[kind] = conflict != nil ? 1 : 0 }
                if let conflict { conflicts.append(conflict) }
                // All fields alike and the first pair clean: every other pair is the same.
                if classCount == 1 && outcome[0] == 0 { return }
            }
        }
    }

    /// The indices of a group's fields ordered by class (ascending within a class), with each
    /// class's range in that order.
    static func membersByClass(_ classes: [Int], _ classCount: Int) -> (order: [Int], start: [Int], count: [Int]) {
        var count = [Int](repeating: 0, count: classCount)
        for cls in classes { count[cls] += 1 }
        var start = [Int](repeating: 0, count: classCount)
        var offset = 0
        for cls in 0..<classCount {
            start[cls] = offset
            offset += count[cls]
        }
        var fill = start
        var order = [Int](repeating: 0, count: classes.count)
        for (index, cls) in classes.enumerated() {
            order[fill[cls]] = index
            fill[cls] += 1
        }
        return (order, start, count)
    }

    /// An id of an info's type reference (equal ids for equal references; -1 for none), for
    /// grouping.
    mutating func typeRefId(ofInfo info: Int) -> Int {
        while infoTypeIds.count < infos.count { infoTypeIds.append(-2) }
        if infoTypeIds[info] != -2 { return infoTypeIds[info] }
        var id = -1
        if let type = infos[info].type {
            if let existing = typeRefIds[type] {
                id = existing
            } else {
                id = typeRefIds.count
                typeRefIds[type] = id
            }
        }
        infoTypeIds[info] = id
        return id
    }

    /// The first (field1, field2) index pair between two classes in graphql-js's order; within
    /// one group only pairs with the first index lower count. Members are in ascending order.
    static func firstPair(_ members1: ArraySlice<Int>, _ members2: ArraySlice<Int>, within: Bool) -> (Int, Int)? {
        guard let firstOf1 = members1.first, let firstOf2 = members2.first, let lastOf2 = members2.last else {
            return nil
        }
        guard within else { return (firstOf1, firstOf2) }
        for i in members1 {
            guard lastOf2 > i else { return nil }
            // The lowest member of the second class above i.
            var low = members2.startIndex
            var high = members2.endIndex - 1
            while low < high {
                let middle = (low + high) / 2
                if members2[middle] > i { high = middle } else { low = middle + 1 }
            }
            return (i, members2[low])
        }
        return nil
    }

    /// The shape of a field's sub-selection for grouping (interned): "" for a leaf, otherwise a
    /// canonical text of aliases, names, arguments, type conditions and spread fragment names;
    /// `pure` is false when it spreads a fragment (then comparisons depend on the fragment-pair
    /// memo).
    mutating func selectionShape(_ index: Int) -> (shape: Int, pure: Bool) {
        guard let selectionSet = selectionSet(index) else { return (0, true) }
        let key = Self.nodeKey(entries[index].fileIndex, selectionSet)
        if let cached = shapes.value(key) { return (cached >> 1, cached & 1 == 1) }
        var text = ""
        let pure = Self.writeShape(selectionSet, into: &text)
        // Id 0 is the empty shape of a leaf; a selection's text is never empty.
        let id: Int
        if let existing = shapeIds[text] {
            id = existing
        } else {
            id = shapeIds.count + 1
            shapeIds[text] = id
        }
        shapes.set(key, id << 1 | (pure ? 1 : 0))
        return (id, pure)
    }

    static func writeShape(_ selectionSet: SelectionSet, into text: inout String) -> Bool {
        var pure = true
        text += "{"
        for selection in selectionSet.selections {
            switch selection {
            case .fragmentSpread(let spread):
                pure = false
                text += "..." + spread.name.value + " "
            case .field(let field):
                text += field.responseKey
                text += ":"
                text += field.name.value
                if !field.arguments.isEmpty { text += ValuePrinter.canonicalArguments(field.arguments) }
                if let inner = field.selectionSet, !writeShape(inner, into: &text) { pure = false }
                text += " "
            case .inlineFragment(let inline):
                text += "... on " + (inline.typeCondition?.name.value ?? "") + " "
                if !writeShape(inline.selectionSet, into: &text) { pure = false }
            }
        }
        text += "}"
        return pure
    }
}

extension OverlappingFieldsCanBeMergedRule {
    static func message(_ responseName: String, reason: String) -> String {
        "Fields \"\(responseName)\" conflict because \(reason). Use different aliases on the fields to fetch both if this was intentional."
    }

    static func reasonMessage(_ reason: Reason) -> String {
        switch reason {
        case .message(let text): text
        case .subfields(let list):
            list.map { "subfields \"\($0.0)\" conflict because " + reasonMessage($0.1) }.joined(separator: " and ")
        }
    }
}
