import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// A `@connection` field selects what the connection record is made of.
///
/// The runtime merges pages by their edges' cursors and nodes and learns where the next page
/// starts from the page info, so the field selects `edges { cursor node }` and, for each way it
/// pages, `pageInfo { endCursor hasNextPage }` (with `first`) and `pageInfo { startCursor
/// hasPreviousPage }` (with `last`), directly (or in inline fragments without a type
/// condition). Reported at the field's name with what is missing, on a type that has these
/// parts (`connection-field-type` reports a type that lacks them). Baton: Relay adds these
/// selections silently; Baton sends only what the document says.
package final class ConnectionSelectionRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "connection-selection",
        title: "A @connection field selects its edges' cursors and nodes and its page info.",
        summary:
            "A connection field selects edges { cursor node } and the pageInfo fields its paging needs (endCursor hasNextPage with first, startCursor hasPreviousPage with last).",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.fieldWithDirectives]
    package let context: ValidationContext

    package init(context: ValidationContext) { self.context = context }

    override package func enterField(_ node: Field) {
        // Only on a connection type: `connection-field-type` reports the parts a type lacks.
        guard BatonDirectives.connection(in: node.directives) != nil, let set = node.selectionSet,
            let fieldDef = context.fieldDef, !fieldDef.type.isList,
            let named = context.schema.type(named: fieldDef.type.namedType),
            ConnectionShape(named, schema: context.schema).isValid
        else { return }
        let given = Set(node.arguments.map(\.name.value))
        var wanted: [(String, [String])] = [
            (ConnectionInterface.edges, [ConnectionInterface.cursor, ConnectionInterface.node])
        ]
        var pageInfo: [String] = []
        if given.contains(ConnectionInterface.first) || !given.contains(ConnectionInterface.last) {
            pageInfo += [ConnectionInterface.endCursor, ConnectionInterface.hasNextPage]
        }
        if given.contains(ConnectionInterface.last) {
            pageInfo += [ConnectionInterface.startCursor, ConnectionInterface.hasPreviousPage]
        }
        wanted.append((ConnectionInterface.pageInfo, pageInfo))
        var missing: [String] = []
        for (part, children) in wanted {
            let selected = Self.fields(named: part, in: set)
            if selected.isEmpty {
                missing.append(part)
                continue
            }
            let inner = selected.compactMap(\.selectionSet)
            for child in children where !inner.contains(where: { !Self.fields(named: child, in: $0).isEmpty }) {
                missing.append(part + "." + child)
            }
        }
        guard !missing.isEmpty else { return }
        let shape =
            "edges { cursor node { … } } and pageInfo { " + pageInfo.joined(separator: " ") + " }"
        diagnose(Self.message(node.name.value, shape: shape, missing: missing), at: node.name.span)
    }

    /// The unaliased fields named `name` directly in `set` or in its inline fragments without a type condition.
    static func fields(named name: String, in set: SelectionSet) -> [Field] {
        var found: [Field] = []
        var pending = set.selections
        while let selection = pending.popLast() {
            switch selection {
            case .field(let field): if field.name.value == name, field.alias == nil { found.append(field) }
            case .inlineFragment(let inline) where inline.typeCondition == nil:
                pending.append(contentsOf: inline.selectionSet.selections)
            default: break
            }
        }
        return found
    }
}

extension ConnectionSelectionRule {
    static func message(_ field: String, shape: String, missing: [String]) -> String {
        "The connection field \"\(field)\" must select \(shape): the connection record is made of them. Missing: \(missing.joined(separator: ", "))."
    }
}
