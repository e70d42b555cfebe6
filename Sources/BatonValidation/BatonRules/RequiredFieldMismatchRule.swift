import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// `@required` on every selection of a path or none.
///
/// When one response path of an operation or fragment is selected several times, either every
/// selection is `@required` or none is: the selections merge into one field, which is either
/// required or not. Aliases are distinct paths, inline fragments add no step (`ResponsePath`),
/// and each fragment is its own scope. Reported at the first `@required`, with a note at each
/// selection without it. Baton.
package final class RequiredFieldMismatchRule: ResponsePathRuleBase, ResponsePathRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "required-field-mismatch", title: "@required on every selection of a path or none.",
        summary: "A response path selected several times must be @required in all of its selections or in none.",
        severity: .error, origin: .baton)
    package let context: ValidationContext

    package init(context: ValidationContext) {
        self.context = context
        super.init(tracker: context.responsePaths)
    }

    override package func check() {
        for group in tracker.repeatedFields() {
            guard let first = group.first(where: { $0.required != nil }), let required = first.required else {
                continue
            }
            let without = group.filter { $0.required == nil }
            guard !without.isEmpty else { continue }
            diagnose(
                Self.message(first.field.responseKey), at: required.directive.span,
                notes: without.map { note(Self.noteMessage, at: $0.field.name.span) })
        }
    }
}

extension RequiredFieldMismatchRule {
    static func message(_ key: String) -> String {
        "Field \"\(key)\" is @required here but selected without @required elsewhere. All selections of a field must agree on @required."
    }
    static let noteMessage = "selected without @required here"
}
