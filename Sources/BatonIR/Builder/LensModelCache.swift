import BatonSyntax

/// The definitions of one model build, kept for the next build of the same project (a watch
/// session's, through `Compilation`): a definition is taken from here instead of being built
/// again when it is the same syntax node as then and every fragment name it reaches, directly or
/// not, still names the same fragment node (or still none). Decisions, made here once:
///
/// - **What a definition's model depends on**: its own node, the nodes of the fragments it
///   reaches, the schema and the options. Nodes are compared by identity: a document read again
///   is new nodes, so nothing of it is reused; a document kept is the same nodes. The schema and
///   the options are the caller's to keep the same (a new schema needs a new cache); `checksOnly`
///   is checked here.
/// - **What is kept**: each definition's model as built, before the steps that look at all of
///   them (`@optimistic` builders of mutations, the operations' order, top-level naming, used
///   types, name conflicts), which run on every build.
/// - **Diagnostics**: a build whose definitions reported anything is not kept (the cache stays
///   as it was), so a reused definition reports nothing, as it did when it was built.
/// - **Refetch queries** of `@refetchable` fragments are built again every time (they are few).
package final class LensModelCache {
    struct Entry<Model> {
        /// The definition's node, held so its identity is not reused.
        let node: AnyObject
        /// Every fragment name the definition reaches, with the node it named then (nil: none).
        let reached: [String: FragmentDefinition?]
        let model: Model
    }

    var checksOnly: Bool?
    var fragments: [String: Entry<FragmentModel>] = [:]
    var operations: [ObjectIdentifier: Entry<OperationModel>] = [:]
    /// How many definitions the last build with this cache took from it.
    package internal(set) var reused = 0
    /// How many definitions the last build with this cache built.
    package internal(set) var built = 0

    package init() {}
}

extension LensBuildContext {
    /// The cache's entries, when they were built with these options.
    var reusable: LensModelCache? {
        guard let cache, cache.checksOnly == options.checksOnly else { return nil }
        return cache
    }

    /// The cached model of fragment `name`, when its node and every fragment it reaches are the same.
    func cachedFragment(_ name: String) -> FragmentModel? {
        guard let entry = reusable?.fragments[name], let node = fragmentNodes[name]?.0, entry.node === node,
            isCurrent(entry.reached)
        else { return nil }
        return entry.model
    }

    /// The cached model of `node`, when every fragment it reaches is the same.
    func cachedOperation(_ node: OperationDefinition) -> OperationModel? {
        guard let entry = reusable?.operations[ObjectIdentifier(node)], entry.node === node, isCurrent(entry.reached)
        else { return nil }
        return entry.model
    }

    /// Keeps this build's definitions for the next build, unless one of them reported something.
    /// `operations` are the operations built or reused, with their nodes.
    func keepDefinitions(_ operations: [(OperationDefinition, OperationModel)]) {
        guard let cache, diagnostics.isEmpty else { return }
        let previous = reusable
        var fragments: [String: LensModelCache.Entry<FragmentModel>] = [:]
        for (name, model) in fragmentModels {
            guard let node = fragmentNodes[name]?.0 else { continue }
            if let entry = previous?.fragments[name], entry.node === node, isCurrent(entry.reached) {
                fragments[name] = LensModelCache.Entry(node: node, reached: entry.reached, model: model)
            } else {
                fragments[name] = LensModelCache.Entry(
                    node: node, reached: reachedFragments(node.selectionSet), model: model)
            }
        }
        var entries: [ObjectIdentifier: LensModelCache.Entry<OperationModel>] = [:]
        for (node, model) in operations {
            let id = ObjectIdentifier(node)
            let kept = previous?.operations[id].map(\.reached).flatMap { isCurrent($0) ? $0 : nil }
            let reached = kept ?? reachedFragments(node.selectionSet)
            entries[id] = LensModelCache.Entry(node: node, reached: reached, model: model)
        }
        cache.fragments = fragments
        cache.operations = entries
        cache.checksOnly = options.checksOnly
    }

    /// True when every name still names the node it named.
    private func isCurrent(_ reached: [String: FragmentDefinition?]) -> Bool {
        reached.allSatisfy { fragmentNodes[$0.key]?.0 === $0.value }
    }

    /// Every fragment name `set` reaches through spreads, directly or through other fragments,
    /// with the node it names now (nil for a name no fragment has); without recursion.
    private func reachedFragments(_ set: SelectionSet) -> [String: FragmentDefinition?] {
        var reached: [String: FragmentDefinition?] = [:]
        var pending = [set]
        while let next = pending.popLast() {
            var stack: [Selection] = next.selections
            while let selection = stack.popLast() {
                switch selection {
                case .field(let field): if let child = field.selectionSet { stack.append(contentsOf: child.selections) }
                case .inlineFragment(let inline): stack.append(contentsOf: inline.selectionSet.selections)
                case .fragmentSpread(let spread):
                    let name = spread.name.value
                    guard reached.index(forKey: name) == nil else { continue }
                    let node = fragmentNodes[name]?.0
                    reached[name] = .some(node)
                    if let node { pending.append(node.selectionSet) }
                }
            }
        }
        return reached
    }
}
