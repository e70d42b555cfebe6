import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// No `@required(action: THROW)` in a mutation's response.
///
/// A mutation's side effects have happened by the time its response is read; a throwing read
/// would hide the result of a change that was made. Checked in the mutation's own selections
/// and in every fragment it spreads (directly or through other fragments); a fragment's use is
/// reported once, with a note at each mutation that spreads it. Baton.
package final class RequiredThrowInMutationRule: ValidationRule, BatonRuleInfo {
    package static let id = "required-throw-in-mutation"
    package static let hooks: ValidationHooks = [.field, .document]
    package static let severity = Severity.error
    package static let summary =
        "No @required(action: THROW) in a mutation's response, including the fragments it spreads."
    package let context: ValidationContext
    /// The `@required(action: THROW)` uses of each definition, by definition index.
    private var throwing: [Int: [RequiredUse]] = [:]

    package init(context: ValidationContext) { self.context = context }

    package func enterField(_ node: Field) {
        guard let required = BatonDirectives.required(in: node.directives), required.action == .throw else { return }
        throwing[context.currentDefinitionIndex, default: []].append(required)
    }

    package func leaveDocument() {
        guard !throwing.isEmpty else { return }
        // Fragments reached from mutations, with the mutations that reach them, in order.
        var mutationsByFragment: [Int: [SourceRange]] = [:]
        for (index, entry) in context.definitions.enumerated() {
            guard case .operation(let operation) = entry.definition, operation.operation == .mutation else { continue }
            let head = SourceRange(file: entry.file, span: BatonDirectives.headSpan(of: operation))
            for use in throwing[index] ?? [] {
                diagnose(Self.message, range: SourceRange(file: entry.file, span: use.actionSpan))
            }
            for fragment in context.recursivelyReferencedFragments(ofDefinition: index) where throwing[fragment] != nil
            {
                mutationsByFragment[fragment, default: []].append(head)
            }
        }
        for fragment in mutationsByFragment.keys.sorted() {
            let file = context.definitions[fragment].file
            for use in throwing[fragment] ?? [] {
                diagnose(
                    Self.fragmentMessage, range: SourceRange(file: file, span: use.actionSpan),
                    notes: (mutationsByFragment[fragment] ?? []).map {
                        DiagnosticNote(message: Self.noteMessage, range: $0)
                    })
            }
        }
    }
}

extension RequiredThrowInMutationRule {
    static let message =
        "@required(action: THROW) may not be used in a mutation's response: the mutation has already happened when a read throws. Use action: LOG or NONE."
    static let fragmentMessage =
        "@required(action: THROW) may not be used in a fragment spread in a mutation: the mutation has already happened when a read throws. Use action: LOG or NONE."
    static let noteMessage = "the fragment is part of this mutation's response"
}
