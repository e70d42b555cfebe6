import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// A `@required` child in every selection of its parent.
///
/// When a parent field is selected several times at one response path, a `@required` field inside
/// one of its selections (directly or through inline fragments, which add no step to the path)
/// must be selected in every other selection too: the selections merge, and the parent's null
/// depends on the child. Aliases are distinct paths; each fragment is its own scope, so a spread
/// does not count as selecting the child. Reported at the child's `@required`, with a note at each selection of
/// the parent that lacks it. Baton.
package final class RequiredMissingInParentRule: ResponsePathRuleBase, ResponsePathRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "required-missing-in-parent", title: "A @required child in every selection of its parent.",
        summary: "A parent selected several times must select its @required children in each selection.",
        severity: .error, origin: .baton)
    package let context: ValidationContext

    package init(context: ValidationContext) {
        self.context = context
        super.init(tracker: context.responsePaths)
    }

    override package func check() {
        for group in tracker.repeatedParents() {
            var reported: Set<String> = []
            for parent in group {
                for child in parent.requiredChildren {
                    let key = child.field.responseKey
                    guard let required = child.required, !reported.contains(key) else { continue }
                    let lacking = group.filter { !$0.childKeys.contains(key) }
                    guard !lacking.isEmpty else { continue }
                    reported.insert(key)
                    diagnose(
                        Self.message(key), at: required.directive.span,
                        notes: lacking.map { note(Self.noteMessage(key), at: $0.anchor) })
                }
            }
        }
    }
}

extension RequiredMissingInParentRule {
    static func message(_ key: String) -> String {
        "Field \"\(key)\" is @required here but missing from another selection of its parent. Select it, with the same @required, in every selection of the parent."
    }
    static func noteMessage(_ key: String) -> String { "the parent is selected here without \"\(key)\"" }
}
