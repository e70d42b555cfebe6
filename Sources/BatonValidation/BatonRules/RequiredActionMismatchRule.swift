import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// One action per `@required` path.
///
/// Every selection of one response path in an operation or fragment that is `@required` must
/// give the same action: the selections merge into one field, which can do only one thing with
/// a null. Aliases are distinct paths, inline fragments add no step (`ResponsePath`), and each
/// fragment is its own scope. Baton.
package final class RequiredActionMismatchRule: ResponsePathRuleBase, ResponsePathRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "required-action-mismatch", title: "One action per @required path.",
        summary: "Every @required selection of one response path must give the same action.", severity: .error,
        origin: .baton)
    package let context: ValidationContext

    package init(context: ValidationContext) {
        self.context = context
        super.init(tracker: context.responsePaths)
    }

    override package func check() {
        for group in tracker.repeatedFields() {
            let required = group.compactMap { selection in selection.required.flatMap { $0.action != nil ? $0 : nil } }
            guard let first = required.first, let firstAction = first.action else { continue }
            for other in required.dropFirst() where other.action != firstAction {
                guard let action = other.action else { continue }
                diagnose(
                    Self.message(group[0].field.responseKey, action: action, other: firstAction),
                    at: other.actionSpan, notes: [note(Self.noteMessage(firstAction), at: first.actionSpan)])
            }
        }
    }
}

extension RequiredActionMismatchRule {
    static func message(_ key: String, action: RequiredAction, other: RequiredAction) -> String {
        "Field \"\(key)\" is @required with action: \(action.rawValue) here and action: \(other.rawValue) elsewhere. All @required selections of a field must have the same action."
    }
    static func noteMessage(_ action: RequiredAction) -> String { "@required with action: \(action.rawValue) here" }
}
