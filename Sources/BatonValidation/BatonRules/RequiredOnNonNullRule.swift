import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// `@required` only on nullable fields.
///
/// A field the schema already makes non-null is never null in a valid response, so `@required`
/// on it does nothing but mislead the reader. Baton: `@required` moves a null the schema allows.
/// Two exceptions, where the directive is not redundant and removing it would change behaviour:
/// a custom scalar that `customScalarTypes` maps to an app type can fail to convert even where
/// the schema makes it non-null, and `@required` says what that failure does (the guide's "unless
/// @required or @throwOnFieldError says what a failure does"); and a field whose own `@required`
/// children can bubble a null into it (`address @required(action: LOG) { street @required(action:
/// LOG) }`), where the directive passes that null on to the field's parent instead of making the
/// field nil (Relay skips such fields too). On a list field the children's nulls stop at the
/// items either way, so there the rule still applies.
package final class RequiredOnNonNullRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "required-on-non-null", title: "@required only on nullable fields.",
        summary: "A field the schema already makes non-null must not carry @required.", severity: .error, origin: .baton
    )
    package static let hooks: ValidationHooks = [.fieldWithDirectives]
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        guard let required = BatonDirectives.required(in: node.directives), let fieldDef = context.fieldDef,
            let parent = context.parentType, fieldDef.type.isNonNull
        else { return }
        if let mappings = context.options?.scalarMappings, let languages = mappings[fieldDef.type.namedType],
            !languages.isEmpty
        {
            return
        }
        if Self.decidesWhereChildNullsGo(node, fieldDef, required, context.schema) { return }
        diagnose(
            Self.message(node.name.value, type: parent.name, fieldType: fieldDef.type), at: required.directive.span,
            fixIts: [
                BatonDirectives.removal(
                    of: required.directive.span, in: context.currentFile, message: "remove the directive")
            ])
    }
}

extension RequiredOnNonNullRule {
    /// True when the field's `@required` passes a null from its own `@required` children on to its
    /// parent: then it is not redundant, whatever the schema says of the field.
    static func decidesWhereChildNullsGo(
        _ node: Field, _ fieldDef: FieldDef, _ required: RequiredUse, _ schema: GraphQLSchema
    ) -> Bool {
        guard Bubbling.passesNullOn(required: required.action, type: fieldDef.type), let set = node.selectionSet,
            let type = schema.type(named: fieldDef.type.namedType)
        else { return false }
        return Bubbling.childrenCanBubble(set, on: type, in: schema)
    }

    static func message(_ field: String, type: String, fieldType: TypeRef) -> String {
        "Field \"\(field)\" is already non-null in the schema (\(type).\(field) is \(fieldType)), so @required has no effect."
    }
}
