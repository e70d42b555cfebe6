import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// A `@refetchable` fragment is on a type Baton can fetch again, under a query name of its own.
///
/// The generated query fetches the fragment's record again: from the root for a fragment on the
/// query type, and through `node(id:)` for a fragment on a type implementing `Node` (the query
/// type then has `node(id: ID!)` returning `Node`, and the type has `id`). `queryName` is a
/// GraphQL name that no operation, fragment or other `@refetchable` of the project uses, because
/// it names a generated operation. Reported at the directive or at the name. Baton, after Relay.
package final class RefetchableFragmentRule: ValidationRuleBase, ValidationRule, BatonRuleInfo {
    package static let descriptor = RuleDescriptor(
        id: "refetchable-fragment", title: "@refetchable on a fetchable type, with a query name of its own.",
        summary:
            "The fragment is on the query type or a type implementing Node (fetched by Query.node(id:)), and queryName names no other definition.",
        severity: .error, origin: .baton)
    package static let hooks: ValidationHooks = [.fragment]
    package let context: ValidationContext
    /// Operation and fragment names of the unit, gathered the first time a `@refetchable` names its query
    /// (most units have none), and the query names `@refetchable` claims (with where).
    private var definitionNames: Set<String>?
    private var queryNames: [String: Span] = [:]

    package init(context: ValidationContext) { self.context = context }

    /// The names of the unit's operations and fragments.
    private func unitDefinitionNames() -> Set<String> {
        if let definitionNames { return definitionNames }
        var names = Set<String>()
        for unit in context.definitions {
            switch unit.definition {
            case .operation(let operation): if let name = operation.name?.value { names.insert(name) }
            case .fragment(let fragment): names.insert(fragment.name.value)
            default: continue
            }
        }
        definitionNames = names
        return names
    }

    override package func enterFragment(_ node: FragmentDefinition) {
        guard let refetchable = BatonDirectives.refetchable(in: node.directives) else { return }
        if let type = context.schema.type(named: node.typeCondition.name.value),
            !Self.isFetchable(type, in: context.schema)
        {
            diagnose(Self.notFetchable(node.name.value, type: type.name), at: refetchable.directive.name.span)
        }
        guard let name = refetchable.queryName, let span = refetchable.queryNameArgument?.value.span else { return }
        if !Self.isName(name) {
            diagnose(Self.notAName(name), at: span)
        } else if unitDefinitionNames().contains(name) {
            diagnose(Self.taken(name), at: span)
        } else if let first = queryNames[name] {
            diagnose(Self.claimed(name), at: span, notes: [note("The query name is first claimed here.", at: first)])
        } else {
            queryNames[name] = span
        }
    }

    /// The query type, or a type implementing `Node` when the query type has `node(id: ID!): Node`.
    package static func isFetchable(_ type: NamedTypeDef, in schema: GraphQLSchema) -> Bool {
        if type.name == schema.rootType(for: .query)?.name { return true }
        return nodeField(in: schema) != nil && implementsNode(type, in: schema)
    }

    /// `Query.node(id: ID!): Node`, when the schema has it.
    package static func nodeField(in schema: GraphQLSchema) -> FieldDef? {
        guard let query = schema.rootType(for: .query), let field = query.field(named: "node"),
            field.type.nullable == .named("Node"),
            field.arguments.contains(where: { $0.name == "id" && $0.type.nullable == .named("ID") }),
            schema.type(named: "Node")?.kind == .interface
        else { return nil }
        return field
    }

    /// True for `Node` itself and the types that implement it, with an `id` field.
    package static func implementsNode(_ type: NamedTypeDef, in schema: GraphQLSchema) -> Bool {
        guard type.field(named: "id") != nil, type.kind == .object || type.kind == .interface else { return false }
        return type.name == "Node" || type.interfaces.contains("Node")
    }

    static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first,
            first == "_" || ("A"..."Z").contains(first) || ("a"..."z").contains(first)
        else { return false }
        return text.unicodeScalars.allSatisfy {
            $0 == "_" || ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0)
        }
    }
}

extension RefetchableFragmentRule {
    static func notFetchable(_ fragment: String, type: String) -> String {
        "@refetchable fragment \"\(fragment)\" must be on the query type, or on a type implementing Node that Query.node(id:) can fetch; \"\(type)\" is neither."
    }

    static func notAName(_ name: String) -> String {
        "The queryName of @refetchable must be a GraphQL name (letters, digits and _, not starting with a digit); \"\(name)\" is not one."
    }

    static func taken(_ name: String) -> String {
        "The queryName \"\(name)\" of @refetchable is already the name of an operation or fragment."
    }

    static func claimed(_ name: String) -> String {
        "The queryName \"\(name)\" is already claimed by another @refetchable fragment."
    }
}
