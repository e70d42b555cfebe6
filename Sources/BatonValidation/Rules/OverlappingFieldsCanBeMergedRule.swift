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
package final class OverlappingFieldsCanBeMergedRule: ValidationRule {
    package static let id = "overlapping-fields-can-be-merged"
    package let context: ValidationContext
    private var comparedFragmentPairs = PairSet()
    private var cachedFieldsAndFragmentNames: [NodeKey: FieldsAndFragments] = [:]
    private var shapes: [NodeKey: (text: String, pure: Bool)] = [:]

    /// Groups at most this large are compared pair by pair, as graphql-js does.
    static let groupingThreshold = 12

    package init(context: ValidationContext) { self.context = context }

    package func enterSelectionSet(_ node: SelectionSet) {
        let conflicts = findConflictsWithinSelectionSet(
            context.parentType, node, file: context.currentFile, fileIndex: context.currentFileIndex)
        for conflict in conflicts {
            report(
                Self.message(conflict.responseName, reason: Self.reasonMessage(conflict.reason)),
                conflict.fields1 + conflict.fields2, noteMessage: "conflicting field")
        }
    }

    // MARK: Model

    struct NodeKey: Hashable {
        let file: Int
        let offset: Int
    }

    /// One selected field with its parent type and definition (a class: entries are cached per
    /// selection set and compared many times, so they are shared, not copied).
    final class FieldEntry {
        let parentType: NamedTypeDef?
        let node: Field
        let def: FieldDef?
        /// The named type of `def.type`, resolved once.
        let namedType: NamedTypeDef?
        let file: SourceFile
        let fileIndex: Int
        init(
            parentType: NamedTypeDef?, node: Field, def: FieldDef?, namedType: NamedTypeDef?, file: SourceFile,
            fileIndex: Int
        ) {
            self.parentType = parentType
            self.node = node
            self.def = def
            self.namedType = namedType
            self.file = file
            self.fileIndex = fileIndex
        }
        var key: NodeKey { NodeKey(file: fileIndex, offset: node.span.start) }
        var range: SourceRange { SourceRange(file: file, span: Span(start: node.span.start, end: node.name.span.end)) }
        /// graphql-js's `stringifyArguments`, computed on first use.
        lazy var argumentKey: String = node.arguments.isEmpty ? "{}" : ValuePrinter.canonicalArguments(node.arguments)
    }

    /// Fields by response key, keys in first-seen order (a class so identity can be compared, as
    /// graphql-js compares field maps with `===`).
    final class FieldMap {
        var keys: [String] = []
        var groups: [String: [FieldEntry]] = [:]
        func append(_ key: String, _ entry: FieldEntry) {
            if groups[key] == nil {
                keys.append(key)
                groups[key] = [entry]
            } else {
                groups[key]?.append(entry)
            }
        }
    }

    struct FieldsAndFragments {
        let fieldMap: FieldMap
        let fragmentNames: [String]
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

    /// graphql-js's `PairSet`: unordered fragment-name pairs with the mutual-exclusivity flag
    /// they were compared under.
    struct PairSet {
        private var data: [String: [String: Bool]] = [:]
        func has(_ a: String, _ b: String, _ areMutuallyExclusive: Bool) -> Bool {
            let (first, second) = a < b ? (a, b) : (b, a)
            guard let result = data[first]?[second] else { return false }
            return areMutuallyExclusive ? true : areMutuallyExclusive == result
        }
        mutating func add(_ a: String, _ b: String, _ areMutuallyExclusive: Bool) {
            let (first, second) = a < b ? (a, b) : (b, a)
            data[first, default: [:]][second] = areMutuallyExclusive
        }
    }

    // MARK: graphql-js's algorithm

    private func findConflictsWithinSelectionSet(
        _ parentType: NamedTypeDef?, _ selectionSet: SelectionSet, file: SourceFile, fileIndex: Int
    ) -> [Conflict] {
        var conflicts: [Conflict] = []
        let fields = getFieldsAndFragmentNames(parentType, selectionSet, file: file, fileIndex: fileIndex)
        collectConflictsWithin(&conflicts, fields.fieldMap)
        let names = fields.fragmentNames
        for i in names.indices {
            collectConflictsBetweenFieldsAndFragment(&conflicts, false, fields.fieldMap, names[i])
            for j in (i + 1)..<names.count {
                collectConflictsBetweenFragments(&conflicts, false, names[i], names[j])
            }
        }
        return conflicts
    }

    private func collectConflictsBetweenFieldsAndFragment(
        _ conflicts: inout [Conflict], _ areMutuallyExclusive: Bool, _ fieldMap: FieldMap, _ fragmentName: String
    ) {
        guard let fragment = getReferencedFieldsAndFragmentNames(fragmentName) else { return }
        if fieldMap === fragment.fieldMap { return }
        collectConflictsBetween(&conflicts, areMutuallyExclusive, fieldMap, fragment.fieldMap)
        for referenced in fragment.fragmentNames {
            if comparedFragmentPairs.has(referenced, fragmentName, areMutuallyExclusive) { continue }
            comparedFragmentPairs.add(referenced, fragmentName, areMutuallyExclusive)
            collectConflictsBetweenFieldsAndFragment(&conflicts, areMutuallyExclusive, fieldMap, referenced)
        }
    }

    private func collectConflictsBetweenFragments(
        _ conflicts: inout [Conflict], _ areMutuallyExclusive: Bool, _ fragmentName1: String, _ fragmentName2: String
    ) {
        if fragmentName1 == fragmentName2 { return }
        if comparedFragmentPairs.has(fragmentName1, fragmentName2, areMutuallyExclusive) { return }
        comparedFragmentPairs.add(fragmentName1, fragmentName2, areMutuallyExclusive)
        guard let fragment1 = getReferencedFieldsAndFragmentNames(fragmentName1),
            let fragment2 = getReferencedFieldsAndFragmentNames(fragmentName2)
        else { return }
        collectConflictsBetween(&conflicts, areMutuallyExclusive, fragment1.fieldMap, fragment2.fieldMap)
        for referenced2 in fragment2.fragmentNames {
            collectConflictsBetweenFragments(&conflicts, areMutuallyExclusive, fragmentName1, referenced2)
        }
        for referenced1 in fragment1.fragmentNames {
            collectConflictsBetweenFragments(&conflicts, areMutuallyExclusive, referenced1, fragmentName2)
        }
    }

    private func findConflictsBetweenSubSelectionSets(
        _ areMutuallyExclusive: Bool, _ parentType1: NamedTypeDef?, _ field1: FieldEntry, _ selectionSet1: SelectionSet,
        _ parentType2: NamedTypeDef?, _ field2: FieldEntry, _ selectionSet2: SelectionSet
    ) -> [Conflict] {
        var conflicts: [Conflict] = []
        let fields1 = getFieldsAndFragmentNames(
            parentType1, selectionSet1, file: field1.file, fileIndex: field1.fileIndex)
        let fields2 = getFieldsAndFragmentNames(
            parentType2, selectionSet2, file: field2.file, fileIndex: field2.fileIndex)
        collectConflictsBetween(&conflicts, areMutuallyExclusive, fields1.fieldMap, fields2.fieldMap)
        for name in fields2.fragmentNames {
            collectConflictsBetweenFieldsAndFragment(&conflicts, areMutuallyExclusive, fields1.fieldMap, name)
        }
        for name in fields1.fragmentNames {
            collectConflictsBetweenFieldsAndFragment(&conflicts, areMutuallyExclusive, fields2.fieldMap, name)
        }
        for name1 in fields1.fragmentNames {
            for name2 in fields2.fragmentNames {
                collectConflictsBetweenFragments(&conflicts, areMutuallyExclusive, name1, name2)
            }
        }
        return conflicts
    }

    private func collectConflictsWithin(_ conflicts: inout [Conflict], _ fieldMap: FieldMap) {
        for responseName in fieldMap.keys {
            guard let fields = fieldMap.groups[responseName], fields.count > 1 else { continue }
            if fields.count <= Self.groupingThreshold {
                for i in fields.indices {
                    for j in (i + 1)..<fields.count {
                        if let conflict = findConflict(false, responseName, fields[i], fields[j]) {
                            conflicts.append(conflict)
                        }
                    }
                }
            } else {
                compareGrouped(&conflicts, false, responseName, fields, nil)
            }
        }
    }

    private func collectConflictsBetween(
        _ conflicts: inout [Conflict], _ parentFieldsAreMutuallyExclusive: Bool, _ fieldMap1: FieldMap,
        _ fieldMap2: FieldMap
    ) {
        for responseName in fieldMap1.keys {
            guard let fields1 = fieldMap1.groups[responseName], let fields2 = fieldMap2.groups[responseName] else {
                continue
            }
            if fields1.count * fields2.count <= Self.groupingThreshold * Self.groupingThreshold {
                for field1 in fields1 {
                    for field2 in fields2 {
                        if let conflict = findConflict(parentFieldsAreMutuallyExclusive, responseName, field1, field2) {
                            conflicts.append(conflict)
                        }
                    }
                }
            } else {
                compareGrouped(&conflicts, parentFieldsAreMutuallyExclusive, responseName, fields1, fields2)
            }
        }
    }

    private func findConflict(
        _ parentFieldsAreMutuallyExclusive: Bool, _ responseName: String, _ field1: FieldEntry, _ field2: FieldEntry
    ) -> Conflict? {
        let parentType1 = field1.parentType
        let parentType2 = field2.parentType
        let node1 = field1.node
        let node2 = field2.node
        var areMutuallyExclusive = parentFieldsAreMutuallyExclusive
        if !areMutuallyExclusive, let parentType1, let parentType2, parentType1 !== parentType2,
            parentType1.kind == .object, parentType2.kind == .object
        {
            areMutuallyExclusive = true
        }
        if !areMutuallyExclusive {
            let name1 = node1.name.value
            let name2 = node2.name.value
            if name1 != name2 {
                return Conflict(
                    responseName: responseName, reason: .message("\"\(name1)\" and \"\(name2)\" are different fields"),
                    fields1: [field1.range], fields2: [field2.range])
            }
            if !sameArguments(field1, field2) {
                return Conflict(
                    responseName: responseName, reason: .message("they have differing arguments"),
                    fields1: [field1.range], fields2: [field2.range])
            }
        }
        let type1 = field1.def?.type
        let type2 = field2.def?.type
        if let type1, let type2,
            doTypesConflict(
                type1, type2, leaf: (field1.namedType?.isLeaf ?? false) || (field2.namedType?.isLeaf ?? false))
        {
            return Conflict(
                responseName: responseName,
                reason: .message("they return conflicting types \"\(type1.description)\" and \"\(type2.description)\""),
                fields1: [field1.range], fields2: [field2.range])
        }
        if let selectionSet1 = node1.selectionSet, let selectionSet2 = node2.selectionSet {
            let named1 = field1.namedType
            let named2 = field2.namedType
            let conflicts = findConflictsBetweenSubSelectionSets(
                areMutuallyExclusive, named1, field1, selectionSet1, named2, field2, selectionSet2)
            if !conflicts.isEmpty {
                return Conflict(
                    responseName: responseName, reason: .subfields(conflicts.map { ($0.responseName, $0.reason) }),
                    fields1: [field1.range] + conflicts.flatMap(\.fields1),
                    fields2: [field2.range] + conflicts.flatMap(\.fields2))
            }
        }
        return nil
    }

    /// graphql-js's `doTypesConflict`; `leaf` tells whether either named type is a leaf.
    private func doTypesConflict(_ type1: TypeRef, _ type2: TypeRef, leaf: Bool) -> Bool {
        switch (type1, type2) {
        case (.list(let inner1), .list(let inner2)): return doTypesConflict(inner1, inner2, leaf: leaf)
        case (.list, _), (_, .list): return true
        case (.nonNull(let inner1), .nonNull(let inner2)): return doTypesConflict(inner1, inner2, leaf: leaf)
        case (.nonNull, _), (_, .nonNull): return true
        case (.named(let name1), .named(let name2)): return leaf && name1 != name2
        }
    }

    private func getFieldsAndFragmentNames(
        _ parentType: NamedTypeDef?, _ selectionSet: SelectionSet, file: SourceFile, fileIndex: Int
    ) -> FieldsAndFragments {
        let key = NodeKey(file: fileIndex, offset: selectionSet.span.start)
        if let cached = cachedFieldsAndFragmentNames[key] { return cached }
        let fieldMap = FieldMap()
        var fragmentNames: [String] = []
        var seenFragments: Set<String> = []
        collectFieldsAndFragmentNames(
            parentType, selectionSet, file: file, fileIndex: fileIndex, fieldMap, &fragmentNames, &seenFragments)
        let result = FieldsAndFragments(fieldMap: fieldMap, fragmentNames: fragmentNames)
        cachedFieldsAndFragmentNames[key] = result
        return result
    }

    private func getReferencedFieldsAndFragmentNames(_ name: String) -> FieldsAndFragments? {
        guard let fragment = context.fragment(named: name) else { return nil }
        let entry = context.definitions[fragment.index]
        let key = NodeKey(file: entry.fileIndex, offset: fragment.node.selectionSet.span.start)
        if let cached = cachedFieldsAndFragmentNames[key] { return cached }
        let type = context.schema.types[fragment.node.typeCondition.name.value]
        return getFieldsAndFragmentNames(type, fragment.node.selectionSet, file: entry.file, fileIndex: entry.fileIndex)
    }

    private func collectFieldsAndFragmentNames(
        _ parentType: NamedTypeDef?, _ selectionSet: SelectionSet, file: SourceFile, fileIndex: Int,
        _ fieldMap: FieldMap, _ fragmentNames: inout [String], _ seenFragments: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                var def: FieldDef?
                if let parentType, parentType.kind == .object || parentType.kind == .interface {
                    def = parentType.field(named: field.name.value)
                }
                let namedType = def.flatMap { context.schema.types[$0.type.namedType] }
                fieldMap.append(
                    field.responseKey,
                    FieldEntry(
                        parentType: parentType, node: field, def: def, namedType: namedType, file: file,
                        fileIndex: fileIndex))
            case .fragmentSpread(let spread):
                if seenFragments.insert(spread.name.value).inserted { fragmentNames.append(spread.name.value) }
            case .inlineFragment(let inline):
                let type = inline.typeCondition.map { context.schema.types[$0.name.value] } ?? parentType
                collectFieldsAndFragmentNames(
                    type, inline.selectionSet, file: file, fileIndex: fileIndex, fieldMap, &fragmentNames,
                    &seenFragments)
            }
        }
    }

    /// graphql-js's `stringifyArguments` equality, memoized per field.
    private func sameArguments(_ field1: FieldEntry, _ field2: FieldEntry) -> Bool {
        if field1.node.arguments.isEmpty && field2.node.arguments.isEmpty { return true }
        return field1.argumentKey == field2.argumentKey
    }

    // MARK: Large groups

    /// Compares a large group of same-key fields with itself (`fields2 == nil`) or with another
    /// group, with the same result as comparing every pair in graphql-js's order.
    private func compareGrouped(
        _ conflicts: inout [Conflict], _ parentExclusive: Bool, _ responseName: String, _ fields1: [FieldEntry],
        _ fields2: [FieldEntry]?
    ) {
        var classIndex: [ClassKey: Int] = [:]
        var allPure = true
        func classify(_ fields: [FieldEntry]) -> [Int] {
            fields.map { field in
                let shape = selectionShape(field)
                if !shape.pure { allPure = false }
                let key = ClassKey(
                    parentType: field.parentType.map(ObjectIdentifier.init), name: field.node.name.value,
                    arguments: field.argumentKey, type: field.def?.type, shape: shape.text)
                if let existing = classIndex[key] { return existing }
                classIndex[key] = classIndex.count
                return classIndex.count - 1
            }
        }
        let classes1 = classify(fields1)
        let classes2 = fields2.map(classify) ?? classes1
        let other = fields2 ?? fields1
        let classCount = classIndex.count
        // The outcome of comparing a pair of classes: nil not yet compared.
        var outcome = [Bool?](repeating: nil, count: classCount * classCount)
        func slot(_ a: Int, _ b: Int) -> Int { a * classCount + b }

        if allPure {
            // No comparison can touch the fragment-pair memo, so order does not matter: compare
            // one representative pair per pair of classes, and expand only those that conflict.
            var members1: [[Int]] = Array(repeating: [], count: classCount)
            var members2: [[Int]] = Array(repeating: [], count: classCount)
            for (index, cls) in classes1.enumerated() { members1[cls].append(index) }
            for (index, cls) in classes2.enumerated() { members2[cls].append(index) }
            for a in 0..<classCount where !members1[a].isEmpty {
                for b in 0..<classCount where !members2[b].isEmpty {
                    let within = fields2 == nil
                    guard let first = firstPair(members1[a], members2[b], within: within) else { continue }
                    if within, outcome[slot(b, a)] == false { continue }
                    let probe = findConflict(parentExclusive, responseName, fields1[first.0], other[first.1])
                    outcome[slot(a, b)] = probe != nil
                    guard probe != nil else { continue }
                    // This pair of classes conflicts: compare every pair of their members.
                    for i in members1[a] {
                        for j in members2[b] where !within || i < j {
                            if let conflict = findConflict(parentExclusive, responseName, fields1[i], other[j]) {
                                conflicts.append(conflict)
                            }
                        }
                    }
                }
            }
            return
        }
        // Some comparisons may read or add fragment pairs: keep graphql-js's order, and skip a
        // pair only when an earlier pair of the same two classes compared clean.
        for i in fields1.indices {
            let start = fields2 == nil ? i + 1 : 0
            guard start < other.count else { continue }
            for j in start..<other.count {
                let a = classes1[i]
                let b = classes2[j]
                if outcome[slot(a, b)] == false { continue }
                let conflict = findConflict(parentExclusive, responseName, fields1[i], other[j])
                if outcome[slot(a, b)] == nil { outcome[slot(a, b)] = conflict != nil }
                if let conflict { conflicts.append(conflict) }
                // All fields alike and the first pair clean: every other pair is the same.
                if classCount == 1 && outcome[0] == false { return }
            }
        }
    }

    /// The first (field1, field2) index pair between two classes in graphql-js's order; within
    /// one group only pairs with the first index lower count. Members are in ascending order.
    private func firstPair(_ members1: [Int], _ members2: [Int], within: Bool) -> (Int, Int)? {
        guard let firstOf1 = members1.first, let firstOf2 = members2.first, let lastOf2 = members2.last else {
            return nil
        }
        guard within else { return (firstOf1, firstOf2) }
        for i in members1 {
            guard lastOf2 > i else { return nil }
            // The lowest member of the second class above i.
            var low = 0
            var high = members2.count - 1
            while low < high {
                let middle = (low + high) / 2
                if members2[middle] > i { high = middle } else { low = middle + 1 }
            }
            return (i, members2[low])
        }
        return nil
    }

    struct ClassKey: Hashable {
        let parentType: ObjectIdentifier?
        let name: String
        let arguments: String
        let type: TypeRef?
        let shape: String
    }

    /// The shape of a field's sub-selection for grouping: "" for a leaf, otherwise a canonical
    /// text of aliases, names, arguments, type conditions and spread fragment names; `pure` is
    /// false when it spreads a fragment (then comparisons depend on the fragment-pair memo).
    private func selectionShape(_ field: FieldEntry) -> (text: String, pure: Bool) {
        guard let selectionSet = field.node.selectionSet else { return ("", true) }
        let key = NodeKey(file: field.fileIndex, offset: selectionSet.span.start)
        if let cached = shapes[key] { return cached }
        var text = ""
        let pure = writeShape(selectionSet, into: &text)
        shapes[key] = (text, pure)
        return (text, pure)
    }

    private func writeShape(_ selectionSet: SelectionSet, into text: inout String) -> Bool {
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
