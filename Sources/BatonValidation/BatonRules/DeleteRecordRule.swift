import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// `@deleteRecord` and `@deleteEdge` only on a field returning IDs.
///
/// Both read the returned ID (or each ID of a list): `@deleteRecord` deletes the record of that
/// ID (of `typeName` when given, which must name an object or interface type with an `id`
/// field), `@deleteEdge` removes the edges whose node has it from each connection. Reported at
/// the directive, or at `typeName`'s value. Baton, after Relay.
package final class DeleteRecordRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "delete-record", title: "@deleteRecord and @deleteEdge only on a field returning IDs.",
        summary: "The field's type is ID or a list of ID; @deleteRecord's typeName names a type with an id field.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.fieldWithDirectives]
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        guard let update = BatonDirectives.recordUpdate(in: node.directives), update.kind.onIdentifier,
            let fieldDef = context.fieldDef
        else { return }
        if fieldDef.type.namedType != "ID" || Self.listDepth(fieldDef.type) > 1 {
            diagnose(
                Self.notAnID(update.kind.directiveName, field: node.name.value, type: fieldDef.type),
                at: update.directive.name.span)
        }
        if let typeName = update.typeName, let span = update.typeNameArgument?.value.span {
            let type = context.schema.type(named: typeName)
            if type == nil || !(type?.kind == .object || type?.kind == .interface) || type?.field(named: "id") == nil {
                diagnose(Self.badTypeName(typeName), at: span)
            }
        }
    }

    static func listDepth(_ type: TypeRef) -> Int {
        var depth = 0
        var current = type
        while true {
            switch current {
            case .named: return depth
            case .nonNull(let inner): current = inner
            case .list(let inner):
                depth += 1
                current = inner
            }
        }
    }
}

extension DeleteRecordRule {
    static func notAnID(_ directive: String, field: String, type: TypeRef) -> String {
        "@\(directive) may only be used on a field of type ID or [ID]: \"\(field)\" is \(type)."
    }

    static func badTypeName(_ typeName: String) -> String {
        "The typeName of @deleteRecord must name an object or interface type with an \"id\" field; \"\(typeName)\" is not one."
    }
}
