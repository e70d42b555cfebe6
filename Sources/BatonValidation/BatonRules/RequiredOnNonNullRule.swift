import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// `@required` only on nullable fields.
///
/// A field the schema already makes non-null is never null in a valid response, so `@required`
/// on it does nothing but mislead the reader. Baton: `@required` moves a null the schema allows.
package final class RequiredOnNonNullRule: ValidationRule, BatonRuleInfo {
    package static let id = "required-on-non-null"
    package static let severity = Severity.error
    package static let summary =
        "@required only on nullable fields. A field the schema already makes non-null must not carry @required."
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    package func enterField(_ node: Field) {
        guard let required = BatonDirectives.required(in: node.directives), let fieldDef = context.fieldDef,
            let parent = context.parentType, fieldDef.type.isNonNull
        else { return }
        diagnose(
            Self.message(node.name.value, type: parent.name, fieldType: fieldDef.type), at: required.directive.span,
            fixIts: [
                BatonDirectives.removal(
                    of: required.directive.span, in: context.currentFile, message: "remove the directive")
            ])
    }
}

extension RequiredOnNonNullRule {
    static func message(_ field: String, type: String, fieldType: TypeRef) -> String {
        "Field \"\(field)\" is already non-null in the schema (\(type).\(field) is \(fieldType)), so @required has no effect."
    }
}
