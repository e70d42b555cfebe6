import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// Two schema types, by identity (the schema holds one object per type): a key hashed without
/// reading their names.
struct TypePair: Hashable {
    var parent: ObjectIdentifier
    var condition: ObjectIdentifier
}

/// One place a selection with a given accessor key appears, with the conditions on the path to it.
struct Occurrence {
    enum Node {
        case field(Field, scopeType: NamedTypeDef)
        case spread(FragmentSpread)
        case inline(InlineFragment, condition: NamedTypeDef)
    }
    var node: Node
    /// Every condition on the path to this place: a conjunction.
    var presence: Presence
    var span: Span
}

/// The occurrences of one accessor in a selection, in document order: never empty, and most
/// often one, kept without an array of its own (one allocation less per field of every selection set).
struct Occurrences: RandomAccessCollection {
    private var head: Occurrence
    private var rest: [Occurrence] = []

    init(_ first: Occurrence) { head = first }

    var startIndex: Int { 0 }
    var endIndex: Int { rest.count + 1 }
    subscript(position: Int) -> Occurrence { position == 0 ? head : rest[position - 1] }

    mutating func append(_ occurrence: Occurrence) { rest.append(occurrence) }
}

/// The occurrences of one accessor in a selection, in document order.
struct OccurrenceGroup {
    var key: SelectionKey
    var occurrences: Occurrences

    /// The first answer `read` gives for a field occurrence, in document order (validation made
    /// the selections of one key agree on their directives).
    func firstField<T>(_ read: (Field) -> T?) -> T? {
        for occurrence in occurrences {
            if case .field(let field, _) = occurrence.node, let found = read(field) { return found }
        }
        return nil
    }

    /// True when a field occurrence has directives: only then can `firstField` find one.
    var hasFieldDirectives: Bool {
        occurrences.contains { occurrence in
            if case .field(let field, _) = occurrence.node { return !field.directives.isEmpty }
            return false
        }
    }

    /// True when the accessor has a nested lens (a field with selections, an inline fragment).
    var nests: Bool {
        switch occurrences.first?.node {
        case .field(let field, _)?: field.selectionSet != nil
        case .inline?: true
        case .spread?, nil: false
        }
    }
}

/// Groups in order of first appearance, by `SelectionKey`: the grouping the validation rules'
/// response paths are made of.
struct OrderedGroups {
    var groups: [OccurrenceGroup] = []
    var index = SmallIndex<SelectionKey>()
    /// Room for `count` more groups (a selection set's selections, at most one group each).
    mutating func reserve(_ count: Int) {
        groups.reserveCapacity(groups.count + count)
        index.reserve(count)
    }

    mutating func add(_ key: SelectionKey, _ occurrence: Occurrence) {
        if let position = index.position(of: key) {
            groups[position].occurrences.append(occurrence)
        } else {
            index.append(key)
            groups.append(OccurrenceGroup(key: key, occurrences: Occurrences(occurrence)))
        }
    }
}

/// Positions of keys in order of appending, found by comparing while there are few (most
/// selections have a handful of fields, where hashing every key costs more than comparing them)
/// and through a hash table once there are more than `linearLimit`.
struct SmallIndex<Key: Hashable> {
    private var keys: [Key] = []
    private var table: [Key: Int]?
    static var linearLimit: Int { 12 }

    /// The position `key` was appended at, if it was.
    func position(of key: Key) -> Int? {
        if let table { return table[key] }
        return keys.firstIndex(of: key)
    }

    /// Room for `count` more keys while they are compared (a hash table grows by itself).
    mutating func reserve(_ count: Int) {
        if table == nil { keys.reserveCapacity(keys.count + min(count, Self.linearLimit + 1)) }
    }

    /// Appends `key`, which must not be in the index yet, at the next position.
    mutating func append(_ key: Key) {
        if table != nil {
            table?[key] = keys.count
        } else if keys.count == Self.linearLimit {
            var built = [Key: Int](minimumCapacity: keys.count * 2)
            for (position, known) in keys.enumerated() { built[known] = position }
            built[key] = keys.count
            table = built
        }
        keys.append(key)
    }
}

extension LensBuildContext {
    /// Adds the selections of `set` on `parent` to `groups`: fields by response key, spreads by
    /// fragment, inline fragments on a narrower type by type; inline fragments that always match
    /// are flattened into the parent with their conditions.
    ///
    /// `scope` is the type the selections are written on (fields are looked up on it): the lens's
    /// record type, or the wider type of an inline fragment flattened into it (`... on Node { id }`
    /// in a union's lens).
    func collect(
        _ set: SelectionSet, parent: NamedTypeDef, scope: NamedTypeDef? = nil, inherited: Presence,
        into groups: inout OrderedGroups, depth: Int
    ) {
        guard depth <= LensModelBuilder.maximumDepth, depth < 8 || stackGuard.hasRoom() else {
            return reportCut()
        }
        let scope = scope ?? parent
        groups.reserve(set.selections.count)
        for selection in set.selections {
            switch selection {
            case .field(let field):
                let presence = Self.presence(field.directives, inside: inherited)
                groups.add(
                    .of(field), Occurrence(node: .field(field, scopeType: scope), presence: presence, span: field.span))
            case .fragmentSpread(let spread):
                guard fragmentNodes[spread.name.value] != nil else { continue }
                let presence = Self.presence(spread.directives, inside: inherited)
                groups.add(
                    .spread(fragment: spread.name.value),
                    Occurrence(node: .spread(spread), presence: presence, span: spread.span))
            case .inlineFragment(let inline):
                let presence = Self.presence(inline.directives, inside: inherited)
                let condition = inline.typeCondition.flatMap { schema.type(named: $0.name.value) } ?? parent
                guard condition.isComposite else { continue }
                // A deferred inline fragment is an accessor of its own even on the same type: it reads as a phase.
                if alwaysMatches(parent: parent, condition: condition), !Self.isDeferred(inline.directives) {
                    collect(
                        inline.selectionSet, parent: parent, scope: inline.typeCondition == nil ? scope : condition,
                        inherited: presence, into: &groups, depth: depth + 1)
                } else {
                    groups.add(
                        .inlineFragment(typeCondition: condition.name),
                        Occurrence(node: .inline(inline, condition: condition), presence: presence, span: inline.span))
                }
            }
        }
    }

    /// True when a selection's own directives defer it (`@defer`, unless `if: false`).
    static func isDeferred(_ directives: [Directive]) -> Bool {
        if directives.isEmpty { return false }
        if case .deferred = Delivery.of(directives, isList: false) { return true }
        return false
    }

    /// The conjunction of the presence conditions a selection's own directives add, as
    /// `BatonSemantics` decodes them.
    static func presence(_ directives: [Directive]) -> Presence {
        Presence(conditions: BatonDirectives.presence(directives))
    }

    /// The presence of a selection with `directives` written where `inherited` holds: `inherited`
    /// itself when the selection has no directives (most do not), without decoding or combining.
    @inline(__always)
    static func presence(_ directives: [Directive], inside inherited: Presence) -> Presence {
        directives.isEmpty ? inherited : inherited.and(presence(directives))
    }

    /// True when every record of `parent` is a `condition`: the same type, or a wider one.
    func alwaysMatches(parent: NamedTypeDef, condition: NamedTypeDef) -> Bool {
        if parent === condition || parent.name == condition.name { return true }
        let key = TypePair(parent: ObjectIdentifier(parent), condition: ObjectIdentifier(condition))
        if let known = matchCache[key] { return known }
        let answer = Bubbling.alwaysMatches(parent, condition, in: schema)
        matchCache[key] = answer
        return answer
    }

    /// The names of the object types a record of `type` can be.
    func possibleNames(_ type: NamedTypeDef) -> Set<String> {
        if let known = possibleTypeNames[ObjectIdentifier(type)] { return known }
        let names = Set(schema.possibleTypes(of: type).map(\.name))
        possibleTypeNames[ObjectIdentifier(type)] = names
        return names
    }

    /// The concrete types a record of `parent` can be when it is also a `condition`, sorted.
    func matchingTypes(parent: NamedTypeDef, condition: NamedTypeDef) -> [String] {
        possibleNames(parent).intersection(possibleNames(condition)).sorted()
    }
}
