import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// `@appendNode` and `@prependNode` only on a field returning records, with an edge type that can hold them.
///
/// The directive wraps the returned node (or each node of a list) in a new edge of
/// `edgeTypeName` and adds it to each connection, so the field's type is an object, interface or
/// union, and `edgeTypeName` names an object type of the schema whose `node` field can hold it.
/// Reported at the directive, or at `edgeTypeName`'s value. Baton, after Relay.
package final class NodeUpdateRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "node-update", title: "@appendNode and @prependNode on records, with an edge type that holds them.",
        summary: "The field returns records, and edgeTypeName names an object type whose node field can hold them.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.fieldWithDirectives]
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        guard let update = BatonDirectives.recordUpdate(in: node.directives), update.kind.takesEdgeTypeName,
            let fieldDef = context.fieldDef
        else { return }
        let directive = update.kind.directiveName
        guard let named = context.schema.type(named: fieldDef.type.namedType), named.isComposite else {
            diagnose(
                Self.notRecords(directive, field: node.name.value, type: fieldDef.type), at: update.directive.name.span)
            return
        }
        guard let edgeTypeName = update.edgeTypeName, let span = update.edgeTypeNameArgument?.value.span else { return }
        guard let edge = context.schema.type(named: edgeTypeName), edge.kind == .object,
            let nodeField = edge.field(named: ConnectionInterface.node), !nodeField.type.isList,
            let nodeType = context.schema.type(named: nodeField.type.namedType)
        else {
            diagnose(Self.notAnEdgeType(directive, edgeTypeName: edgeTypeName), at: span)
            return
        }
        let holds =
            nodeType.name == named.name
            || Set(context.schema.possibleTypes(of: named).map(\.name)).isSubset(
                of: Set(context.schema.possibleTypes(of: nodeType).map(\.name)))
        if !holds {
            diagnose(Self.cannotHold(edgeTypeName: edgeTypeName, nodeType: nodeType.name, type: named.name), at: span)
        }
    }
}

extension NodeUpdateRule {
    static func notRecords(_ directive: String, field: String, type: TypeRef) -> String {
        "@\(directive) may only be used on a field returning records (an object, interface or union type): \"\(field)\" is \(type)."
    }

    static func notAnEdgeType(_ directive: String, edgeTypeName: String) -> String {
        "The edgeTypeName of @\(directive) must name an object type with a \"node\" field; \"\(edgeTypeName)\" is not one."
    }

    static func cannotHold(edgeTypeName: String, nodeType: String, type: String) -> String {
        "The edge type \"\(edgeTypeName)\" cannot hold a \"\(type)\": its node is of type \"\(nodeType)\"."
    }
}
