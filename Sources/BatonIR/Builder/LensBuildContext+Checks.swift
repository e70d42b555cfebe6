import BatonDiagnostics
import BatonSemantics
import BatonSyntax

/// `check`'s plan for its diagnostics only (`LensModelBuilder.checkDiagnostics`): `run()`'s
/// diagnostics, in `run()`'s order, without what only the model holds.
///
/// `run()` builds every fragment in the order of the spread graph (a fragment after those it
/// spreads), so that a fragment's screen and walk find every fragment it spreads built; a
/// fragment the screen clears is then a lens without accessors, which reports nothing. When every
/// fragment's type condition is a composite type of the schema, no fragment is `@refetchable` (its
/// query is built as an operation) and the spreads make no cycle, every fragment builds, and a
/// fragment's screen and walk ask only for fragments it reaches, which `run()` built before it: so
/// this build names every fragment built before screening any, walks only the fragments the screen
/// does not clear (in the documents' order: their diagnostics are sorted as `run()`'s are, and each
/// lies in its own definition's text), and builds no model of the others, no order and no sorted
/// list. The operations are built as `run()` builds them. Otherwise it is `run()`.
extension LensBuildContext {
    /// The plan's diagnostics, as `run().1` gives them.
    func runChecks() -> [Diagnostic] {
        screenedDiagnostics() ?? run().1
    }

    /// The diagnostics of the screened build, or nil when it cannot be the same as `run()`'s.
    func screenedDiagnostics() -> [Diagnostic]? {
        guard options.checksOnly, cache == nil, let unscreened = screenFragments() else { return nil }
        for name in unscreened { _ = fragmentModel(named: name) }
        // Of each operation, only what the closing checks read (its model is let go here).
        var planned = FirstOfEachName<OperationOutline>(capacity: documents.reduce(0) { $0 + $1.definitions.count })
        for document in documents {
            for definition in document.definitions {
                guard case .operation(let operation) = definition,
                    let model = operationModel(operation, source: document.source)
                else { continue }
                planned.keep(OperationOutline(model), named: model.name)
            }
        }
        // Every fragment is defined here and builds (`screenFragments`): a fragment's name is where
        // `run()`'s model of it is.
        finishDefinitions(planned.kept) { name in
            self.fragmentNodes[name].map { SourceRange(file: $0.1, span: $0.0.name.span) }
        }
        return diagnostics
    }

    /// What follows the definitions' builds, in `run()` and in the screened build alike: an
    /// operation named as a fragment is reported (`nameConflict`, in the names' order; `fragmentAt`
    /// gives the fragment's place, nil when no fragment has the name), the diagnostics are sorted,
    /// and for `check` (`checksOnly`) the input objects the operations' variables reach are
    /// checked (of the used types only input objects can refuse, a field nested too deeply, and
    /// only variables reach them).
    func finishDefinitions<Operation: PlannedOperation>(
        _ operations: [Operation], fragmentAt: (String) -> SourceRange?
    ) {
        var conflicts: [(name: String, at: SourceRange, fragment: SourceRange)] = []
        for operation in operations {
            if let fragment = fragmentAt(operation.name) {
                conflicts.append((operation.name, operation.location, fragment))
            }
        }
        // An operation and a fragment may share a name in GraphQL, but not as generated types.
        for conflict in conflicts.sorted(by: { $0.name < $1.name }) {
            diagnostics.append(
                Self.nameConflict(operation: conflict.name, at: conflict.at, fragmentAt: conflict.fragment))
        }
        diagnostics.sort(by: Diagnostic.sortKey)
        if options.checksOnly {
            checkInputFields(inputObjectNames(variables: operations.flatMap(\.variables)))
        }
    }

    /// Names every fragment as built (`spreadAccessorNames`) and screens each: returns the
    /// fragments the screen does not clear, in the documents' order, or nil when `run()` would not
    /// build every fragment before the fragments that spread it (a type condition that is not a
    /// composite type, a spread cycle) or builds more of one (a `@refetchable` fragment's query);
    /// then no fragment is named as built, as `run()` starts.
    func screenFragments() -> [String]? {
        var order: [(name: String, node: FragmentDefinition)] = []
        var names: [String: String] = [:]
        names.reserveCapacity(fragmentNodes.count)
        for document in documents {
            for definition in document.definitions {
                guard case .fragment(let fragment) = definition,
                    fragmentNodes[fragment.name.value]?.0 === fragment
                else { continue }
                guard let type = schema.type(named: fragment.typeCondition.name.value), type.isComposite,
                    BatonDirectives.refetchable(in: fragment.directives) == nil
                else { return nil }
                order.append((fragment.name.value, fragment))
                names[fragment.name.value] = LensNaming.spreadAccessorName(fragment: fragment.name.value)
            }
        }
        spreadAccessorNames = names
        var unscreened: [String] = []
        var position: [String: Int] = [:]
        position.reserveCapacity(order.count)
        for (index, entry) in order.enumerated() { position[entry.name] = index }
        var spreads: [[Int]] = Array(repeating: [], count: order.count)
        for (index, (name, node)) in order.enumerated() {
            if skipsWalk(of: node.selectionSet) {
                refusalScreen?.forEachSpreadFragment { if let child = position[$0] { spreads[index].append(child) } }
            } else {
                unscreened.append(name)
                spreads[index] = directSpreads(of: name).compactMap { position[$0] }
            }
        }
        if Self.hasCycle(spreads) {
            spreadAccessorNames = [:]
            return nil
        }
        // A fragment the screen clears nests fewer than `RefusalScreen.clearedLevels` selection
        // levels (counted as `nestingDepth` counts them): only the others can nest past the text's
        // `unguardedDepth` (`someFragmentNestsPastText`).
        if Self.screenedSetsStayUnguarded {
            fragmentsNestPastText = unscreened.contains { name in
                fragmentNodes[name].map { Self.nestingDepth($0.0.selectionSet) > DocumentText.unguardedDepth } ?? false
            }
        }
        return unscreened
    }

    /// True when the graph of `edges` (each node's successors, by index) has a cycle; without
    /// recursion.
    static func hasCycle(_ edges: [[Int]]) -> Bool {
        // 0: not reached; 1: on the path; 2: done.
        var state = [UInt8](repeating: 0, count: edges.count)
        var stack: [(node: Int, next: Int)] = []
        for root in edges.indices where state[root] == 0 {
            state[root] = 1
            stack.append((root, 0))
            while let (node, next) = stack.last {
                if next < edges[node].count {
                    stack[stack.count - 1].next += 1
                    let child = edges[node][next]
                    if state[child] == 1 { return true }
                    if state[child] == 0 {
                        state[child] = 1
                        stack.append((child, 0))
                    }
                } else {
                    state[node] = 2
                    stack.removeLast()
                }
            }
        }
        return false
    }

    /// `lens-definition-name-conflict`: an operation and a fragment of one name.
    static func nameConflict(operation name: String, at location: SourceRange, fragmentAt fragment: SourceRange)
        -> Diagnostic
    {
        Diagnostic(
            .error,
            "The operation \"\(name)\" and the fragment \"\(name)\" would generate types of the same name; rename one of them: the fragment, say to \"\(name)Fields\" with its spreads (only the app sees a fragment's name), or the operation (the server, plates and the persisted-query manifest see it).",
            rule: LensDiagnosticRule.definitionNameConflict, range: location,
            notes: [DiagnosticNote(message: "The fragment is here.", range: fragment)])
    }
}

/// The plan's operations: the first of each name, in the order built (validation reports the
/// others). `run()` keeps each model it builds here (`PlannedOperations`), `check`'s screened
/// build what the closing checks read of each (`OperationOutline`).
struct FirstOfEachName<Kept> {
    private(set) var kept: [Kept] = []
    private(set) var names: Set<String> = []

    /// Room for `capacity` operations at once, rather than growing the names' table step by step.
    init(capacity: Int = 0) {
        kept.reserveCapacity(capacity)
        names.reserveCapacity(capacity)
    }

    /// Keeps `item` unless an operation named `name` was kept before.
    mutating func keep(_ item: Kept, named name: String) {
        if names.insert(name).inserted { kept.append(item) }
    }

    /// True when an operation named `name` was kept.
    func has(_ name: String) -> Bool { names.contains(name) }
}

typealias PlannedOperations = FirstOfEachName<OperationModel>

extension FirstOfEachName where Kept == OperationModel {
    /// Keeps `model` unless an operation of its name was kept before.
    mutating func keep(_ model: OperationModel) { keep(model, named: model.name) }
}

/// What the plan's closing checks (`finishDefinitions`) read of an operation.
protocol PlannedOperation {
    var name: String { get }
    var location: SourceRange { get }
    var variables: [VariableModel] { get }
}

extension OperationModel: PlannedOperation {}

/// An operation's name, place and variables, without its model.
struct OperationOutline: PlannedOperation {
    let name: String
    let location: SourceRange
    let variables: [VariableModel]

    init(_ model: OperationModel) {
        (name, location, variables) = (model.name, model.location, model.variables)
    }
}
