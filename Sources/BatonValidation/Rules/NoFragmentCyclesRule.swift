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
    /// Fragments whose cycles were already looked for.
    private var visited: Set<String> = []
    /// The spreads from the fragment the search started at to the current one.
    private var spreadPath: [(spread: FragmentSpread, file: SourceFile)] = []
    private var spreadPathIndexByName: [String: Int] = [:]

    package init(context: ValidationContext) { self.context = context }

    package func enterFragment(_ node: FragmentDefinition) {
        detectCycles(from: context.currentDefinitionIndex)
    }

    private struct Frame {
        let name: String
        let file: SourceFile
        let spreads: [FragmentSpread]
        var next = 0
    }

    /// graphql-js's recursive `detectCycleRecursive`, with an explicit stack so a long chain of
    /// fragments cannot exhaust the call stack.
    private func detectCycles(from start: Int) {
        var stack: [Frame] = []
        func push(_ index: Int) -> Bool {
            guard case .fragment(let fragment) = context.definitions[index].definition else { return false }
            let name = fragment.name.value
            guard visited.insert(name).inserted else { return false }
            let spreads = context.fragmentSpreads(ofDefinition: index)
            guard !spreads.isEmpty else { return false }
            spreadPathIndexByName[name] = spreadPath.count
            stack.append(Frame(name: name, file: context.definitions[index].file, spreads: spreads))
            return true
        }
        guard push(start) else { return }
        while let top = stack.last {
            if top.next == top.spreads.count {
                spreadPathIndexByName[top.name] = nil
                stack.removeLast()
                if !stack.isEmpty { spreadPath.removeLast() }
                continue
            }
            let spread = top.spreads[top.next]
            stack[stack.count - 1].next += 1
            let spreadName = spread.name.value
            spreadPath.append((spread, top.file))
            if let cycleIndex = spreadPathIndexByName[spreadName] {
                let cyclePath = spreadPath[cycleIndex...]
                let via = cyclePath.dropLast().map { "\"\($0.spread.name.value)\"" }.joined(separator: ", ")
                report(
                    Self.message(spreadName, via: via),
                    cyclePath.map { SourceRange(file: $0.file, span: $0.spread.span) })
            } else if let fragmentIndex = context.fragmentIndexByName[spreadName], push(fragmentIndex) {
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
