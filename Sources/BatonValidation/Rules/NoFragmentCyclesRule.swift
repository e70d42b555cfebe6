import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// No fragment cycles.
///
/// A fragment must not spread itself, directly or through other fragments.
/// Spec: 5.5.2.2 Fragment spreads must not form cycles.
package final class NoFragmentCyclesRule: ValidationRuleBase, ValidationRule {
    package static let id = "no-fragment-cycles"
    package static let hooks: ValidationHooks = [.fragment]
    package let context: ValidationContext
    // Only this rule's hook reads and writes its state, never reentrantly: no dynamic exclusivity checks.

    /// Per definition index, true once cycles were looked for from the fragment of that name (a
    /// name stands for its last definition: `fragmentIndexByName`).
    @exclusivity(unchecked) private var visited: [Bool] = []
    /// The spreads from the fragment the search started at to the current one: the definition
    /// each is in and its position among that definition's spreads (`spreadTargets(ofDefinition:)`, and
    /// `fragmentSpreads(ofDefinition:)` for a cycle's report).
    @exclusivity(unchecked) private var spreadPath: [(definition: Int, spread: Int)] = []
    /// Per definition index, where the fragment of that name starts in `spreadPath` while the
    /// search is inside it (-1 otherwise).
    @exclusivity(unchecked) private var spreadPathIndex: [Int] = []
    @exclusivity(unchecked) private var stack: [Frame] = []

    package init(context: ValidationContext) { self.context = context }

    override package func enterFragment(_ node: FragmentDefinition) {
        detectCycles(from: context.currentDefinitionIndex, node)
    }

    private struct Frame {
        /// The definition index the fragment's name stands for (marked in `visited`, `spreadPathIndex`).
        let fragment: Int
        /// The definition whose spreads are followed: `fragment`, except where the search starts at an
        /// earlier definition of the same name (as graphql-js, which starts at the node it enters).
        let definition: Int
        let spreadCount: Int
        var next = 0
    }

    /// graphql-js's recursive `detectCycleRecursive`, with an explicit stack so a long chain of
    /// fragments cannot exhaust the call stack. Fragments are marked by definition index, and
    /// each spread is followed by the definition index it names (`spreadTargets`, looked up once
    /// per unit), so the search hashes no name.
    private func detectCycles(from start: Int, _ node: FragmentDefinition) {
        if visited.isEmpty {
            visited = Array(repeating: false, count: context.definitions.count)
            spreadPathIndex = Array(repeating: -1, count: context.definitions.count)
        }
        guard push(start, named: context.fragmentIndexByName[node.name.value] ?? start) else { return }
        while let top = stack.last {
            if top.next == top.spreadCount {
                spreadPathIndex[top.fragment] = -1
                stack.removeLast()
                if !stack.isEmpty { spreadPath.removeLast() }
                continue
            }
            let spread = top.next
            stack[stack.count - 1].next += 1
            spreadPath.append((top.definition, spread))
            let target = context.spreadTarget(ofDefinition: top.definition, spread)
            if target >= 0, spreadPathIndex[target] >= 0 {
                reportCycle(from: spreadPathIndex[target])
            } else if target >= 0, push(target, named: target) {
                continue  // the path entry is removed when that fragment's frame finishes
            }
            spreadPath.removeLast()
        }
    }

    /// Marks the fragment `named` visited and enters `definition` (a definition of that name), unless it
    /// was visited or has no spreads.
    private func push(_ definition: Int, named: Int) -> Bool {
        guard !visited[named] else { return false }
        visited[named] = true
        let count = context.spreadTargets(ofDefinition: definition).count
        guard count > 0 else { return false }
        spreadPathIndex[named] = spreadPath.count
        stack.append(Frame(fragment: named, definition: definition, spreadCount: count))
        return true
    }

    private func reportCycle(from start: Int) {
        let cyclePath = spreadPath[start...].map { step in
            (
                spread: context.fragmentSpreads(ofDefinition: step.definition)[step.spread],
                file: context.definitions[step.definition].file
            )
        }
        guard let last = cyclePath.last else { return }
        let via = cyclePath.dropLast().map { "\"\($0.spread.name.value)\"" }.joined(separator: ", ")
        report(
            Self.message(last.spread.name.value, via: via),
            cyclePath.map { SourceRange(file: $0.file, span: $0.spread.span) })
    }
}

extension NoFragmentCyclesRule {
    static func message(_ name: String, via: String) -> String {
        "Cannot spread fragment \"\(name)\" within itself" + (via.isEmpty ? "." : " via \(via).")
    }
}
