import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Fragments must be used.
///
/// Every fragment must be spread, directly or through other fragments, by some operation.
/// Spec: 5.5.1.4 Fragments Must Be Used.
package final class NoUnusedFragmentsRule: ValidationRule {
    package static let id = "no-unused-fragments"
    package static let hooks: ValidationHooks = [.document]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    package func leaveDocument() {
        var used: Set<String> = []
        var fragments: [(UnitDefinition, FragmentDefinition)] = []
        for (index, entry) in context.definitions.enumerated() {
            switch entry.definition {
            case .operation:
                for fragment in context.recursivelyReferencedFragments(ofDefinition: index) {
                    if case .fragment(let node) = context.definitions[fragment].definition {
                        used.insert(node.name.value)
                    }
                }
            case .fragment(let node):
                fragments.append((entry, node))
            default: break
            }
        }
        for (entry, fragment) in fragments where !used.contains(fragment.name.value) {
            report(
                Self.message(fragment.name.value),
                [SourceRange(file: entry.file, span: Span(start: fragment.span.start, end: fragment.name.span.end))])
        }
    }
}

extension NoUnusedFragmentsRule {
    static func message(_ name: String) -> String { "Fragment \"\(name)\" is never used." }
}
