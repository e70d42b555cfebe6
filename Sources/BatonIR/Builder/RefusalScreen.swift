import BatonSyntax

/// `check`'s screen of one definition's selections (`LensModelOptions.checksOnly`): true only when
/// the plan's walk of them can refuse nothing, so `check` skips that walk (grouping the selections
/// by response key, lens by lens) and keeps the definition's lens without accessors, as
/// `checksOnly` keeps every lens anyway.
///
/// It decides no refusal: it over-approximates where each of the walk's refusals can come from, in
/// one pass over the syntax with no schema lookup per field, and a definition it does not clear is
/// walked as before, so every diagnostic stays the walk's own (`CheckingPlanTests`). What the walk
/// of a definition's selections can report, and what the screen asks of it:
/// - `lens-nesting-too-deep` at a lens or a cut selection: only at a depth of 8 or more (the
///   stack is asked from there, `LensModelBuilder.maximumDepth` is 200), and the walk's depth never
///   exceeds the selections' nesting: the screen clears no selection set nested 8 levels deep.
/// - `lens-nesting-too-deep` for a field's type of `maximumListLevels` lists: none when no field
///   of the schema nests that many (`GraphQLSchema.deepestFieldListNesting`).
/// - `lens-nesting-too-deep` for an argument's value: every argument's depth is measured.
/// - `lens-key-field-taken`: only an aliased field, or one with arguments, whose response key
///   is a key field of some type.
/// - `lens-accessor-name-conflict`: two groups of one lens with one accessor name. A response
///   key is one group, so a conflict needs a spread's or an inline fragment's accessor name
///   equal to another group's. Every group of a lens has the lens's response path (the keys of
///   the fields enclosing it; an inline fragment adds none, whether flattened or a lens of its
///   own), so the screen compares each spread fragment's and each inline fragment's type
///   condition's name with the others and with every response key on the same path.
/// - a spread of a fragment not built yet, or an inline fragment whose accessor name is unknown
///   (a type the schema lacks, or no type condition and `@defer`): not cleared.
package struct RefusalScreen {
    /// Nesting levels the screen clears: the walk asks the stack from depth 8.
    package static let clearedLevels = 8
    /// `@defer`, which makes an inline fragment an accessor of its own even on its parent's type.
    static let deferName = "defer"
    /// Every field name some type's record key is made of.
    let keyFieldNames: Set<String>
    /// True when some field of the schema nests `maximumListLevels` lists or more.
    let someFieldNestsTooManyLists: Bool
    /// Selection sets still to read, with their nesting level and response path: reused
    /// definition after definition.
    private var pending: [(set: SelectionSet, level: Int, path: Int)] = []
    /// The response paths of the definition's selection sets, one per field with selections (its
    /// key inside the enclosing path, and how many keys the path has; the definition's root is 0),
    /// in the order read: every group of a lens has the lens's path, so only names on one path can
    /// meet. Paths are compared key by key, and only for names that meet.
    private var paths: [(parent: Int, key: String, depth: Int)] = []
    /// The accessor names of the definition's spreads and inline fragments, each fragment and
    /// type condition once (`isSpread`, `source`).
    private var names: [(isSpread: Bool, source: String, name: String)] = []
    /// Where each spread and inline fragment is: its name's place in `names`, and its path.
    private var places: [(name: Int, path: Int)] = []

    package init(keyFieldNames: Set<String>, someFieldNestsTooManyLists: Bool) {
        self.keyFieldNames = keyFieldNames
        self.someFieldNestsTooManyLists = someFieldNestsTooManyLists
    }

    /// True when the plan's walk of `set` can refuse nothing. `spreadAccessorName` gives a built
    /// fragment's accessor name (nil if not built), `inlineAccessorName` a type condition's (nil
    /// for a type the schema lacks).
    package mutating func clears(
        _ set: SelectionSet, spreadAccessorName: (String) -> String?, inlineAccessorName: (String) -> String?
    ) -> Bool {
        if someFieldNestsTooManyLists { return false }
        // Emptied only when not empty: `removeAll(keepingCapacity:)` costs a generic splice even then.
        if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }
        paths.removeAll(keepingCapacity: true)
        if !names.isEmpty { names.removeAll(keepingCapacity: true) }
        if !places.isEmpty { places.removeAll(keepingCapacity: true) }
        paths.append((0, "", 0))
        pending.append((set, 0, 0))
        // The most keys on a path with a spread or an inline fragment: a key on a longer path meets none.
        var placeDepth = 0
        while let (current, level, path) = pending.popLast() {
            for selection in current.selections {
                switch selection {
                case .field(let field):
                    guard fieldClears(field) else { return false }
                    if let child = field.selectionSet {
                        guard level + 1 < Self.clearedLevels else { return false }
                        // Cleared as a whole, with no spread or inline fragment to name; its paths, if the
                        // second pass needs them, are numbered there.
                        if Self.clearsBare(child, at: level) { continue }
                        paths.append((path, field.responseKey, paths[path].depth + 1))
                        pending.append((child, level + 1, paths.count - 1))
                    }
                case .fragmentSpread(let spread):
                    let fragment = spread.name.value
                    if let known = names.firstIndex(where: { $0.isSpread && Self.same($0.source, fragment) }) {
                        places.append((known, path))
                    } else {
                        guard let name = spreadAccessorName(fragment) else { return false }
                        names.append((true, fragment, name))
                        places.append((names.count - 1, path))
                    }
                    placeDepth = max(placeDepth, paths[path].depth)
                case .inlineFragment(let inline):
                    guard level + 1 < Self.clearedLevels else { return false }
                    if let condition = inline.typeCondition?.name.value {
                        if let known = names.firstIndex(where: { !$0.isSpread && Self.same($0.source, condition) }) {
                            places.append((known, path))
                        } else {
                            guard let name = inlineAccessorName(condition) else { return false }
                            names.append((false, condition, name))
                            places.append((names.count - 1, path))
                        }
                        placeDepth = max(placeDepth, paths[path].depth)
                    } else if inline.directives.contains(where: { $0.name.value == Self.deferName }) {
                        // Deferred, it is an accessor named after the parent type.
                        return false
                    }
                    pending.append((inline.selectionSet, level + 1, path))
                }
            }
        }
        if names.isEmpty { return true }
        // Two fragments or type conditions of one accessor name, on one path.
        for index in names.indices.dropFirst() {
            let name = names[index].name
            for other in names[..<index].indices where Self.same(names[other].name, name) {
                for place in places where place.name == index {
                    if places.contains(where: { $0.name == other && samePath(place.path, $0.path) }) { return false }
                }
            }
        }
        // A response key that is a spread's or an inline fragment's name, on its path. The fields
        // are read in the first pass's order, so their paths have the same numbers; the sets the
        // first pass cleared whole (`clearsBare`) are numbered after those, and only read where their
        // keys' paths are no longer than `placeDepth` (their own sets are all cleared whole too).
        var next = 1
        pending.append((set, 0, 0))
        while let (current, level, path) = pending.popLast() {
            for selection in current.selections {
                switch selection {
                case .field(let field):
                    let key = field.responseKey
                    if names.contains(where: { Self.same($0.name, key) }),
                        places.contains(where: { Self.same(names[$0.name].name, key) && samePath($0.path, path) })
                    {
                        return false
                    }
                    if let child = field.selectionSet {
                        if Self.clearsBare(child, at: level) {
                            let depth = paths[path].depth + 1
                            guard depth <= placeDepth else { continue }
                            paths.append((path, key, depth))
                            pending.append((child, level + 1, paths.count - 1))
                        } else {
                            pending.append((child, level + 1, next))
                            next += 1
                        }
                    }
                case .inlineFragment(let inline): pending.append((inline.selectionSet, level + 1, path))
                case .fragmentSpread: break
                }
            }
        }
        return true
    }

    /// Calls `body` with each fragment the last definition cleared spreads, once each: read only
    /// after `clears` returned true (it reads every selection then).
    package func forEachSpreadFragment(_ body: (String) -> Void) {
        for name in names where name.isSpread { body(name.source) }
    }

    /// True when a field's selections `child`, in a set at `level`, clear as a whole: only fields
    /// without aliases or arguments at any depth (`SelectionSet.bareLevels`), so none can take a key
    /// field's name or nest an argument too deep, and no spread or inline fragment names an accessor,
    /// nested fewer than `clearedLevels` levels. Both passes skip such a set alike.
    private static func clearsBare(_ child: SelectionSet, at level: Int) -> Bool {
        let levels = Int(child.bareLevels)
        return levels > 0 && level + levels < clearedLevels
    }

    /// `a == b`, told at once by the lengths when they differ, as most names compared here do (`==`
    /// compares the texts without looking at their lengths first).
    private static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a == b
    }

    /// True when the paths numbered `first` and `second` are made of the same keys.
    private func samePath(_ first: Int, _ second: Int) -> Bool {
        var (first, second) = (first, second)
        while first != second {
            guard first != 0, second != 0, Self.same(paths[first].key, paths[second].key) else { return false }
            (first, second) = (paths[first].parent, paths[second].parent)
        }
        return true
    }

    /// True when `field` itself can refuse nothing: no argument value nests too deep, and it
    /// takes no key field's name.
    private func fieldClears(_ field: Field) -> Bool {
        for argument in field.arguments {
            switch argument.value {
            case .list, .object:
                if LensModelBuilder.valueDepth(argument.value) > LensModelBuilder.maximumValueDepth { return false }
            default: continue
            }
        }
        if field.alias != nil || !field.arguments.isEmpty, !keyFieldNames.isEmpty,
            keyFieldNames.contains(field.responseKey)
        {
            return false
        }
        return true
    }
}
