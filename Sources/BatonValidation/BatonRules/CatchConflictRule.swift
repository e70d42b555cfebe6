import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// One `@catch` setting per response path.
///
/// The selections of one response path in an operation or fragment merge into one field, which
/// reads one way: every selection must have the same `@catch` setting (none, `to: RESULT`, the
/// default, or `to: NULL`). Aliases are distinct paths, inline fragments add no step
/// (`ResponsePath`), and each fragment is its own scope.
/// Reported at each selection that differs from the first. Baton.
package final class CatchConflictRule: ResponsePathRuleBase, ResponsePathRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "catch-conflict", title: "One @catch setting per response path.",
        summary: "Every selection of one response path must have the same @catch setting.", severity: .error,
        origin: .baton)
    package let context: ValidationContext

    package init(context: ValidationContext) {
        self.context = context
        super.init(tracker: context.responsePaths)
    }

    override package func check() {
        for group in tracker.repeatedFields() {
            // A `to:` given as a variable is left to the argument checks.
            if group.contains(where: { $0.catchUse != nil && $0.catchUse?.target == nil }) { continue }
            guard let first = group.first else { continue }
            let firstSetting = Self.setting(first.catchUse)
            for other in group.dropFirst() where Self.setting(other.catchUse) != firstSetting {
                diagnose(
                    Self.message(first.field.responseKey, Self.setting(other.catchUse), firstSetting),
                    at: other.catchUse?.directive.span ?? other.field.name.span,
                    notes: [
                        note(
                            Self.noteMessage(firstSetting), at: first.catchUse?.directive.span ?? first.field.name.span)
                    ])
            }
        }
    }

    static func setting(_ use: CatchUse?) -> String {
        guard let use else { return "no @catch" }
        return "@catch(to: \((use.target ?? .result).rawValue))"
    }
}

extension CatchConflictRule {
    static func message(_ key: String, _ setting: String, _ other: String) -> String {
        "Field \"\(key)\" is selected with \(setting) here and \(other) elsewhere. All selections of a field must have the same @catch setting."
    }
    static func noteMessage(_ setting: String) -> String { "selected with \(setting) here" }
}
