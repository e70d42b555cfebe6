import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// `@connection` only on a field whose type is a connection.
///
/// The connection record Baton keeps is made of the type's parts, as the Relay cursor
/// connections specification names them: the field's type is an object or interface (not a
/// list) with `edges`, a list of objects each with a `node` (an object, interface or union) and a
/// scalar `cursor`, and `pageInfo`, an object with scalar `endCursor`, `hasNextPage`,
/// `hasPreviousPage` and `startCursor`. Reported at the directive, once per missing part. Baton,
/// after Relay's connection validation.
package final class ConnectionFieldTypeRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "connection-field-type", title: "@connection only on a field whose type is a connection.",
        summary:
            "The field's type has edges (each with a node and a cursor) and a pageInfo with endCursor, hasNextPage, hasPreviousPage and startCursor.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.fieldWithDirectives]
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        guard let connection = BatonDirectives.connection(in: node.directives), let fieldDef = context.fieldDef,
            let named = context.schema.type(named: fieldDef.type.namedType)
        else { return }
        let at = connection.directive.name.span
        let field = node.name.value
        guard !fieldDef.type.isList, named.kind == .object || named.kind == .interface else {
            diagnose(Self.notAConnection(field, type: fieldDef.type), at: at)
            return
        }
        let shape = ConnectionShape(named, schema: context.schema)
        if shape.edgeType == nil { diagnose(Self.noEdges(field, type: named.name), at: at) }
        if let edge = shape.edgeType {
            if shape.nodeType == nil { diagnose(Self.noNode(field, type: named.name, edge: edge.name), at: at) }
            if !shape.hasCursor { diagnose(Self.noCursor(field, type: named.name, edge: edge.name), at: at) }
        }
        guard let pageInfo = shape.pageInfoType else {
            diagnose(Self.noPageInfo(field, type: named.name), at: at)
            return
        }
        for missing in shape.missingPageInfoFields {
            diagnose(Self.noPageInfoField(field, pageInfo: pageInfo.name, missing: missing), at: at)
        }
    }
}

extension ConnectionFieldTypeRule {
    static func notAConnection(_ field: String, type: TypeRef) -> String {
        "@connection may only be used on a field whose type is a connection (an object or interface type, not a list): \"\(field)\" is \(type)."
    }

    static func noEdges(_ field: String, type: String) -> String {
        "Expected the connection type \"\(type)\" of field \"\(field)\" to have a field \"edges\" listing objects."
    }

    static func noNode(_ field: String, type: String, edge: String) -> String {
        "Expected the edge type \"\(edge)\" of the connection type \"\(type)\" of field \"\(field)\" to have a field \"node\" of an object, interface or union type."
    }

    static func noCursor(_ field: String, type: String, edge: String) -> String {
        "Expected the edge type \"\(edge)\" of the connection type \"\(type)\" of field \"\(field)\" to have a scalar field \"cursor\"."
    }

    static func noPageInfo(_ field: String, type: String) -> String {
        "Expected the connection type \"\(type)\" of field \"\(field)\" to have a field \"pageInfo\" of an object type."
    }

    static func noPageInfoField(_ field: String, pageInfo: String, missing: String) -> String {
        "Expected the page info type \"\(pageInfo)\" of the connection field \"\(field)\" to have a scalar field \"\(missing)\"."
    }
}
