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
            Self.markOptimistic(&operations[index].lens, enclosing: [operations[index].typeName, "Data"])
            fragments.formUnion(operations[index].fragmentsUsed)
        }
        for name in fragments {
            // Changed where the dictionary holds it (not copied out and back: its lenses would then be held twice,
            // and each level copied as it changes).
            guard let position = fragmentModels.index(forKey: name) else { continue }
            let typeName = fragmentModels.values[position].typeName
            Self.markOptimistic(&fragmentModels.values[position].lens, enclosing: [typeName])
        }
    }

    static func markOptimistic(_ lens: inout Lens, enclosing: Set<String>) {
        var taken = enclosing.union([lens.typeName])
        for accessor in lens.accessors {
            taken.insert(accessor.name)
            if let nested = accessor.lens?.typeName { taken.insert(nested) }
        }
        var name = optimisticBuilderName
        var number = 2
        while taken.contains(name) {
            name = optimisticBuilderName + String(number)
            number += 1
        }
        lens.optimisticTypeName = name
        var inner: Set<String>?
        for index in lens.accessors.indices {
            guard case .lens(var nested) = lens.accessors[index].base else { continue }
            // The accessor lets go of its lens while it changes (a placeholder no one reads), so the nested lens's
            // accessors are held once and changed in place, not copied at every level.
            lens.accessors[index].base = .enumeration("")
            // The enclosing names of every nested lens: made once per lens, not once per nested lens.
            let nestedEnclosing = inner ?? enclosing.union([lens.typeName])
            inner = nestedEnclosing
            markOptimistic(&nested, enclosing: nestedEnclosing)
            lens.accessors[index].base = .lens(nested)
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
