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
        // By definition index; a name stands for its last definition (`fragmentIndexByName`).
        var used = Array(repeating: false, count: context.definitions.count)
        for (index, entry) in context.definitions.enumerated() {
            guard case .operation = entry.definition else { continue }
            for fragment in context.recursivelyReferencedFragments(ofDefinition: index) { used[fragment] = true }
        }
        for entry in context.definitions {
            guard case .fragment(let fragment) = entry.definition else { continue }
            if let index = context.fragmentIndexByName[fragment.name.value], used[index] { continue }
            report(
                Self.message(fragment.name.value),
                [SourceRange(file: entry.file, span: Span(start: fragment.span.start, end: fragment.name.span.end))])
        }
    }
}

extension NoUnusedFragmentsRule {
    static func message(_ name: String) -> String { "Fragment \"\(name)\" is never used." }
}
