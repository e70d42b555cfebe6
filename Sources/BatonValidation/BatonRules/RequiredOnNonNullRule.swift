import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// `@required` only on nullable fields.
///
/// A field the schema already makes non-null is never null in a valid response, so `@required`
/// on it does nothing but mislead the reader. Baton: `@required` moves a null the schema allows.
/// One exception: a custom scalar that `customScalarTypes` maps to an app type can fail to
/// convert even where the schema makes it non-null, and `@required` says what that failure does
/// (the guide's "unless @required or @throwOnFieldError says what a failure does").
package final class RequiredOnNonNullRule: ValidationRule, BatonRuleInfo {
    package static let id = "required-on-non-null"
    package static let hooks: ValidationHooks = [.field]
    package static let severity = Severity.error
    package static let summary =
        "@required only on nullable fields. A field the schema already makes non-null must not carry @required."
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    package func enterField(_ node: Field) {
        guard let required = BatonDirectives.required(in: node.directives), let fieldDef = context.fieldDef,
            let parent = context.parentType, fieldDef.type.isNonNull
        else { return }
        if let mappings = context.options?.scalarMappings, let languages = mappings[fieldDef.type.namedType],
            !languages.isEmpty
        {
            return
        }
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
