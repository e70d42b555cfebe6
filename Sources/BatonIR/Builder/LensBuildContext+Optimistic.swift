import BatonSyntax

/// Which lenses declare a typed optimistic-response builder, and under what name.
///
/// A mutation's optimistic response is written with the mutation's own data types: each lens of a
/// mutation (and of every fragment a mutation spreads) declares a nested builder type with a
/// property per field accessor, typed as the response holds it (the schema's nullability, not the
/// lens's: a response is what the server would send), a builder per fragment spread and inline
/// fragment, and `__typename` (a parameter where the record type is abstract). Its name is
/// `Optimistic`, numbered when that would repeat one of the lens's accessor or nested type names,
/// or an enclosing type's.
extension LensBuildContext {
    static let optimisticBuilderName = "Optimistic"

    func markOptimisticBuilders(_ operations: inout [OperationModel], skipping summarized: Set<String> = []) {
        var fragments = Set<String>()
        for index in operations.indices
        where operations[index].kind == .mutation && !summarized.contains(operations[index].name) {
            var enclosing = [operations[index].typeName, "Data"]
            Self.markOptimistic(&operations[index].lens, enclosing: &enclosing)
            fragments.formUnion(operations[index].fragmentsUsed)
        }
        for name in fragments {
            // Changed where the dictionary holds it (not copied out and back: its lenses would then be held twice,
            // and each level copied as it changes).
            guard let position = fragmentModels.index(forKey: name) else { continue }
            var enclosing = [fragmentModels.values[position].typeName]
            Self.markOptimistic(&fragmentModels.values[position].lens, enclosing: &enclosing)
        }
    }

    /// Names `lens`'s builder and those of its nested lenses. `enclosing` holds the names of the types enclosing
    /// the lens (as it was on entry when this returns): a list, searched, not a set hashed per lens, since a
    /// builder's name is compared with a few names only.
    static func markOptimistic(_ lens: inout Lens, enclosing: inout [String]) {
        var name = optimisticBuilderName
        var number = 2
        while isTaken(name, in: lens, enclosing: enclosing) {
            name = optimisticBuilderName + String(number)
            number += 1
        }
        lens.optimisticTypeName = name
        enclosing.append(lens.typeName)
        for index in lens.accessors.indices {
            guard case .lens(var nested) = lens.accessors[index].base else { continue }
            // The accessor lets go of its lens while it changes (a placeholder no one reads), so the nested lens's
            // accessors are held once and changed in place, not copied at every level.
            lens.accessors[index].base = .enumeration("")
            markOptimistic(&nested, enclosing: &enclosing)
            lens.accessors[index].base = .lens(nested)
        }
        enclosing.removeLast()
    }

    /// True when `name` is an enclosing type's, the lens's own, one of its accessors' or nested types'.
    private static func isTaken(_ name: String, in lens: Lens, enclosing: [String]) -> Bool {
        if name == lens.typeName || enclosing.contains(name) { return true }
        return lens.accessors.contains { accessor in
            if accessor.name == name { return true }
            if case .lens(let nested) = accessor.base { return nested.typeName == name }
            return false
        }
    }
}

extension Accessor {
    /// Whether a typed optimistic-response builder may leave this accessor's part out, decided here once for
    /// every generator: a field whose presence is conditional (under `@include`/`@skip`) is absent unless
    /// given; a fragment spread or inline fragment is optional when it is conditional, when it applies only
    /// to some record types, or when it is read through a nested lens.
    package var optimisticPartIsOptional: Bool {
        switch reads {
        case .field: return !presence.isAlways
        case .parentRecord(let read):
            if case .lens = base { return true }
            return !presence.isAlways || read.matchingTypes != nil
        }
    }
}
