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
        // As `run()`: the first operation of each name counts; its variables reach input objects.
        var seen: Set<String> = []
        var variables: [VariableModel] = []
        var conflicts: [OperationModel] = []
        for document in documents {
            for definition in document.definitions {
                guard case .operation(let operation) = definition,
                    let model = operationModel(operation, source: document.source),
                    seen.insert(model.name).inserted
                else { continue }
                variables += model.variables
                if fragmentNodes[model.name] != nil { conflicts.append(model) }
            }
        }
        for operation in conflicts.sorted(by: { $0.name < $1.name }) {
            guard let (node, source) = fragmentNodes[operation.name] else { continue }
            diagnostics.append(
                Self.nameConflict(
                    operation: operation.name, at: operation.location,
                    fragmentAt: SourceRange(file: source, span: node.name.span)))
        }
        diagnostics.sort(by: Diagnostic.sortKey)
        checkInputFields(inputObjectNames(variables: variables))
        return diagnostics
    }

    /// Names every fragment as built (`spreadAccessorNames`) and screens each: returns the
    /// fragments the screen does not clear, in the documents' order, or nil when `run()` would not
    /// build every fragment before the fragments that spread it (a type condition that is not a
    /// composite type, a spread cycle) or builds more of one (a `@refetchable` fragment's query);
    /// then no fragment is named as built, as `run()` starts.
    func screenFragments() -> [String]? {
        var order: [String] = []
        var names: [String: String] = [:]
        for document in documents {
            for definition in document.definitions {
                guard case .fragment(let fragment) = definition,
                    fragmentNodes[fragment.name.value]?.0 === fragment
                else { continue }
                guard let type = schema.type(named: fragment.typeCondition.name.value), type.isComposite,
                    BatonDirectives.refetchable(in: fragment.directives) == nil
                else { return nil }
                order.append(fragment.name.value)
                names[fragment.name.value] = LensNaming.spreadAccessorName(fragment: fragment.name.value)
            }
        }
        spreadAccessorNames = names
        var unscreened: [String] = []
        var position: [String: Int] = [:]
        position.reserveCapacity(order.count)
        for (index, name) in order.enumerated() { position[name] = index }
        var spreads: [[Int]] = Array(repeating: [], count: order.count)
        for (index, name) in order.enumerated() {
            guard let (node, _) = fragmentNodes[name] else { continue }
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
        if RefusalScreen.clearedLevels - 1 <= DocumentText.unguardedDepth {
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
