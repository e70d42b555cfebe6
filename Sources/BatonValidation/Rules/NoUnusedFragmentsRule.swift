import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Fragments must be used.
///
/// Every fragment must be spread, directly or through other fragments, by some operation.
/// Spec: 5.5.1.4 Fragments Must Be Used.
package final class NoUnusedFragmentsRule: ValidationRuleBase, ValidationRule {
    package static let id = "no-unused-fragments"
    package static let hooks: ValidationHooks = [.document]
    package let context: ValidationContext
    package init(context: ValidationContext) { self.context = context }

    override package func leaveDocument() {
        // By definition index; a name stands for its last definition (`fragmentIndexByName`). One search
        // from every operation marks the fragments any of them reaches.
        var used = Array(repeating: false, count: context.definitions.count)
        var toVisit: [Int] = []
        for (index, entry) in context.definitions.enumerated() {
            guard case .operation = entry.definition else { continue }
            toVisit.append(index)
            while let next = toVisit.popLast() {
                for target in context.spreadTargets(ofDefinition: next) where target >= 0 && !used[target] {
                    used[target] = true
                    toVisit.append(target)
                }
            }
        }
        for entry in context.definitions {
            guard case .fragment(let fragment) = entry.definition else { continue }
            if let index = context.fragmentIndexByName[fragment.name.value], used[index] { continue }
            context.report(
                Diagnostic(
                    .error, Self.message(fragment.name.value), rule: Self.id,
                    range: SourceRange(
                        file: entry.file, span: Span(start: fragment.span.start, end: fragment.name.span.end)),
                    notes: [DiagnosticNote(message: Self.setting, range: nil)]))
        }
    }
}

extension NoUnusedFragmentsRule {
    static func message(_ name: String) -> String { "Fragment \"\(name)\" is never used." }

    /// What a project that keeps fragments for other apps or for later can do (saleor's apps share
    /// fragment files no operation of theirs uses).
    static let setting =
        "Remove it, or, to keep unused fragments (shared with other apps, kept for later), set \"rules\": {\"no-unused-fragments\": \"warning\"} in baton.json: gen then runs and generates their types too."
}
