import BatonSemantics

/// Where a `@required(action: NONE | LOG)` null in the lens being built stops: the accessors
/// producing that lens, from the definition's root, and whether each passes an arriving null on.
///
/// A null moves up through enclosing accessors that are non-list `@required(action: NONE | LOG)`
/// fields (`Bubbling.passesNullOn`, the rule the validation rules read too) to the first that is
/// not, which reads nil (or, for `THROW`, throws); with none, to the definition's root: the
/// fragment's spreads read nil, or the operation fails.
struct BubbleTracker {
    private var producers: [(name: String, passesNullOn: Bool)] = []

    /// Enters the lens an accessor produces.
    mutating func enter(_ accessor: String, passesNullOn: Bool) {
        producers.append((accessor, passesNullOn))
    }

    /// Leaves the lens entered last.
    mutating func leave() { producers.removeLast() }

    /// Where a null in the current lens goes, in the definition `scope`.
    func target(in scope: DefinitionScope) -> BubbleTarget {
        var position = producers.count - 1
        while position >= 0, producers[position].passesNullOn { position -= 1 }
        if position >= 0 { return .accessor(path: producers[0...position].map(\.name)) }
        if scope.isOperation { return .operationRoot }
        return .fragmentSpread(fragment: scope.name, accessorName: LensNaming.spreadAccessorName(fragment: scope.name))
    }
}

extension Lens {
    /// True when a `@required(action: NONE | LOG)` null inside makes the whole lens nil.
    package var bubblesOut: Bool {
        accessors.contains { $0.required?.action.bubbles == true }
    }
}
