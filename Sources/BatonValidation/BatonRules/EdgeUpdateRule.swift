import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// `@appendEdge` and `@prependEdge` only on an edge field.
///
/// The directive adds the returned edge to each connection named by `connections:`, so the
/// field returns an edge (or a list of edges): an object or interface type with a `node` and a
/// scalar `cursor`, and selects the `node`. Reported at the directive. Baton, after Relay.
package final class EdgeUpdateRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "edge-update", title: "@appendEdge and @prependEdge only on an edge field.",
        summary:
            "The field returns an edge (a type with a node and a scalar cursor), or a list of them, and selects its node.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.fieldWithDirectives]
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        guard let update = BatonDirectives.recordUpdate(in: node.directives), update.kind.onEdge,
            let fieldDef = context.fieldDef
        else { return }
        let named = context.schema.type(named: fieldDef.type.namedType)
        let isEdge =
            named.map { type in
                guard type.kind == .object || type.kind == .interface,
                    let nodeField = type.field(named: ConnectionInterface.node), !nodeField.type.isList,
                    context.schema.type(named: nodeField.type.namedType)?.isComposite == true,
                    let cursor = type.field(named: ConnectionInterface.cursor), !cursor.type.isList,
                    context.schema.type(named: cursor.type.namedType)?.kind == .scalar
                else { return false }
                return true
            } ?? false
        if !isEdge {
            diagnose(
                Self.notAnEdge(update.kind.directiveName, field: node.name.value, type: fieldDef.type),
                at: update.directive.name.span)
            return
        }
        let selectsNode =
            node.selectionSet.map { !ConnectionSelectionRule.fields(named: ConnectionInterface.node, in: $0).isEmpty }
            ?? false
        if !selectsNode {
            diagnose(Self.noNode(update.kind.directiveName, field: node.name.value), at: update.directive.name.span)
        }
    }
}

extension EdgeUpdateRule {
    static func notAnEdge(_ directive: String, field: String, type: TypeRef) -> String {
        "@\(directive) may only be used on a field returning an edge (a type with a \"node\" and a scalar \"cursor\"), or a list of edges: \"\(field)\" is \(type)."
    }

    static func noNode(_ directive: String, field: String) -> String {
        "The edge field \"\(field)\" with @\(directive) must select \"node\": the connection shows the edge's node."
    }
}
