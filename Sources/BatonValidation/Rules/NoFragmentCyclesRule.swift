import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// No fragment cycles.
///
/// A fragment must not spread itself, directly or through other fragments.
/// Spec: 5.5.2.2 Fragment spreads must not form cycles.
package final class NoFragmentCyclesRule: ValidationRule {
    package static let id = "no-fragment-cycles"
    package static let hooks: ValidationHooks = [.fragment]
    package let context: ValidationContext
    /// Per definition index, true once cycles were looked for from the fragment of that name (a
    /// name stands for its last definition: `fragmentIndexByName`).
    private var visited: [Bool] = []
    /// The spreads from the fragment the search started at to the current one.
    private var spreadPath: [(spread: FragmentSpread, file: SourceFile)] = []
    /// Per definition index, where the fragment of that name starts in `spreadPath` while the
    /// search is inside it (-1 otherwise).
    private var spreadPathIndex: [Int] = []

    package init(context: ValidationContext) { self.context = context }

    package func enterFragment(_ node: FragmentDefinition) {
        detectCycles(from: context.currentDefinitionIndex)
    }

    private struct Frame {
        /// The definition index the fragment's name stands for.
        let fragment: Int
        let file: SourceFile
        let spreads: [FragmentSpread]
        var next = 0
    }

    /// graphql-js's recursive `detectCycleRecursive`, with an explicit stack so a long chain of
    /// fragments cannot exhaust the call stack. Fragments are marked by definition index, so each
    /// spread costs one name lookup.
    private func detectCycles(from start: Int) {
        if visited.isEmpty {
            visited = Array(repeating: false, count: context.definitions.count)
            spreadPathIndex = Array(repeating: -1, count: context.definitions.count)
        }
        var stack: [Frame] = []
        func push(_ index: Int) -> Bool {
            guard case .fragment(let fragment) = context.definitions[index].definition else { return false }
            let named = context.fragmentIndexByName[fragment.name.value] ?? index
            guard !visited[named] else { return false }
            visited[named] = true
            let spreads = context.fragmentSpreads(ofDefinition: index)
            guard !spreads.isEmpty else { return false }
            spreadPathIndex[named] = spreadPath.count
            stack.append(Frame(fragment: named, file: context.definitions[index].file, spreads: spreads))
            return true
        }
        guard push(start) else { return }
        while let top = stack.last {
            if top.next == top.spreads.count {
                spreadPathIndex[top.fragment] = -1
                stack.removeLast()
                if !stack.isEmpty { spreadPath.removeLast() }
                continue
            }
            let spread = top.spreads[top.next]
            stack[stack.count - 1].next += 1
            let spreadName = spread.name.value
            spreadPath.append((spread, top.file))
            let target = context.fragmentIndexByName[spreadName]
            if let target, spreadPathIndex[target] >= 0 {
                let cyclePath = spreadPath[spreadPathIndex[target]...]
                let via = cyclePath.dropLast().map { "\"\($0.spread.name.value)\"" }.joined(separator: ", ")
                report(
                    Self.message(spreadName, via: via),
                    cyclePath.map { SourceRange(file: $0.file, span: $0.spread.span) })
            } else if let target, push(target) {
                continue  // the path entry is removed when that fragment's frame finishes
            }
            spreadPath.removeLast()
        }
    }
}

extension NoFragmentCyclesRule {
    static func message(_ name: String, via: String) -> String {
        "Cannot spread fragment \"\(name)\" within itself" + (via.isEmpty ? "." : " via \(via).")
    }
}
