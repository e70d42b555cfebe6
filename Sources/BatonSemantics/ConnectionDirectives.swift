import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// The names of a Relay-style connection's parts (the Relay cursor connections specification): what a
/// `@connection` field's type exposes and which of its arguments page it.
package enum ConnectionInterface {
    package static let edges = "edges"
    package static let node = "node"
    package static let cursor = "cursor"
    package static let pageInfo = "pageInfo"
    package static let hasNextPage = "hasNextPage"
    package static let hasPreviousPage = "hasPreviousPage"
    package static let startCursor = "startCursor"
    package static let endCursor = "endCursor"
    /// The page info's fields, in the order diagnostics name them.
    package static let pageInfoFields = [endCursor, hasNextPage, hasPreviousPage, startCursor]

    package static let first = "first"
    package static let last = "last"
    package static let after = "after"
    package static let before = "before"
    /// The arguments that page a connection: never part of its identity.
    package static let pagingArguments: Set<String> = [first, last, after, before]
}

/// `@connection(key:filters:)` as written on a field.
package struct ConnectionUse: Sendable {
    package let directive: Directive
    /// `key:` as a string literal; nil when absent or not a string (validation reports it).
    package let key: String?
    package let keyArgument: Argument?
    /// `filters:` as string literals, in the order written; nil when the argument is absent
    /// (every non-paging argument the field is given is then a filter).
    package let filters: [(name: String, span: Span)]?
    package let filtersArgument: Argument?
    /// True when `filters:` holds something other than a list of string literals.
    package let filtersMalformed: Bool

    /// The filter names the connection's identity uses for `field`: `filters` when written,
    /// otherwise every argument `field` is given that does not page it, sorted by name.
    package func filterNames(of field: Field) -> [String] {
        if let filters { return filters.map(\.name).sorted() }
        return field.arguments.map(\.name.value).filter { !ConnectionInterface.pagingArguments.contains($0) }
            .sorted()
    }
}

/// What a declarative update directive on a mutation's (or subscription's) response field does
/// with the value the server returns there.
package enum RecordUpdateKind: String, Sendable, Hashable, CaseIterable {
    /// `@appendEdge(connections:)`: the edge joins the end of each connection.
    case appendEdge
    /// `@prependEdge(connections:)`: the edge joins the start of each connection.
    case prependEdge
    /// `@appendNode(connections:edgeTypeName:)`: an edge of `edgeTypeName` holding the node joins the end.
    case appendNode
    /// `@prependNode(connections:edgeTypeName:)`: the same at the start.
    case prependNode
    /// `@deleteRecord`: the record of the returned ID is deleted from the store.
    case deleteRecord
    /// `@deleteEdge(connections:)`: edges whose node has the returned ID leave each connection.
    case deleteEdge

    /// The directive's name.
    package var directiveName: String { rawValue }

    /// True for the directives that take `connections:`.
    package var takesConnections: Bool { self != .deleteRecord }
    /// True for `@appendNode` and `@prependNode`, which take `edgeTypeName:`.
    package var takesEdgeTypeName: Bool { self == .appendNode || self == .prependNode }
    /// True for the directives on a field returning an ID (or a list of IDs).
    package var onIdentifier: Bool { self == .deleteRecord || self == .deleteEdge }
    /// True for the directives on an edge field.
    package var onEdge: Bool { self == .appendEdge || self == .prependEdge }
    /// True when the update adds at the end (`append…`).
    package var appends: Bool { self == .appendEdge || self == .appendNode }
}

/// One declarative update directive written on a field.
package struct RecordUpdateUse: Sendable {
    package let kind: RecordUpdateKind
    package let directive: Directive
    /// `connections:` as written (a variable, for a valid document).
    package let connections: Value?
    /// `edgeTypeName:` as a string literal.
    package let edgeTypeName: String?
    package let edgeTypeNameArgument: Argument?
    /// `@deleteRecord(typeName:)` as a string literal: the type of the deleted record; nil for
    /// any type with that ID.
    package let typeName: String?
    package let typeNameArgument: Argument?
}

/// `@refetchable(queryName:)` on a fragment.
package struct RefetchableUse: Sendable {
    package let directive: Directive
    /// `queryName:` as a string literal.
    package let queryName: String?
    package let queryNameArgument: Argument?
}

extension BatonDirectives {
    package static let connection = "connection"
    package static let refetchable = "refetchable"
    /// Every directive `BatonDirectives` decodes for connections and their updates: client-only, never sent.
    package static let connectionDirectiveNames: [String] =
        [connection, refetchable] + RecordUpdateKind.allCases.map(\.directiveName)

    /// The first `@connection` among `directives`.
    package static func connection(in directives: [Directive]) -> ConnectionUse? {
        guard let directive = first(connection, in: directives) else { return nil }
        let keyArgument = directive.arguments.first { $0.name.value == "key" }
        var key: String?
        if case .string(let string)? = keyArgument?.value { key = string.value }
        let filtersArgument = directive.arguments.first { $0.name.value == "filters" }
        var filters: [(name: String, span: Span)]?
        var malformed = false
        if let filtersArgument {
            var names: [(name: String, span: Span)] = []
            var items: [Value]
            if case .list(let values, _) = filtersArgument.value {
                items = values
            } else {
                items = [filtersArgument.value]
            }
            if case .null = filtersArgument.value { items = [] }
            for item in items {
                if case .string(let string) = item {
                    names.append((string.value, string.span))
                } else {
                    malformed = true
                }
            }
            filters = names
        }
        return ConnectionUse(
            directive: directive, key: key, keyArgument: keyArgument, filters: filters,
            filtersArgument: filtersArgument,
            filtersMalformed: malformed)
    }

    /// The first declarative update directive among `directives`.
    package static func recordUpdate(in directives: [Directive]) -> RecordUpdateUse? {
        for directive in directives {
            guard let kind = RecordUpdateKind(rawValue: directive.name.value) else { continue }
            let argument = { (name: String) in directive.arguments.first { $0.name.value == name } }
            let string = { (argument: Argument?) -> String? in
                if case .string(let value)? = argument?.value { return value.value }
                return nil
            }
            return RecordUpdateUse(
                kind: kind, directive: directive, connections: argument("connections")?.value,
                edgeTypeName: string(argument("edgeTypeName")), edgeTypeNameArgument: argument("edgeTypeName"),
                typeName: string(argument("typeName")), typeNameArgument: argument("typeName"))
        }
        return nil
    }

    /// Every declarative update directive among `directives`, in the order written.
    package static func recordUpdates(in directives: [Directive]) -> [Directive] {
        directives.filter { RecordUpdateKind(rawValue: $0.name.value) != nil }
    }

    /// `@refetchable` among a fragment's directives.
    package static func refetchable(in directives: [Directive]) -> RefetchableUse? {
        guard let directive = first(refetchable, in: directives) else { return nil }
        let argument = directive.arguments.first { $0.name.value == "queryName" }
        var name: String?
        if case .string(let string)? = argument?.value { name = string.value }
        return RefetchableUse(directive: directive, queryName: name, queryNameArgument: argument)
    }
}

/// How a type satisfies the connection specification, read once from the schema for the rules and
/// the lens model.
package struct ConnectionShape: Sendable {
    /// The connection type (the field's named type).
    package let type: NamedTypeDef
    /// The edge type `edges` lists; nil when `edges` is missing or not a list of objects.
    package let edgeType: NamedTypeDef?
    /// The type of `edges.node`; nil when missing, a list, or not composite.
    package let nodeType: NamedTypeDef?
    /// True when `edges.cursor` is a scalar (not a list).
    package let hasCursor: Bool
    /// The page info type; nil when missing or not an object.
    package let pageInfoType: NamedTypeDef?
    /// The page info fields that are missing or not scalars, in `ConnectionInterface.pageInfoFields` order.
    package let missingPageInfoFields: [String]

    /// Reads the shape of `type` (a field's named type) in `schema`.
    package init(_ type: NamedTypeDef, schema: GraphQLSchema) {
        self.type = type
        func named(_ ref: TypeRef) -> NamedTypeDef? { schema.type(named: ref.namedType) }
        func isList(_ ref: TypeRef) -> Bool { ref.nullable.isList }
        var edgeType: NamedTypeDef?
        if let edges = type.field(named: ConnectionInterface.edges), isList(edges.type),
            edges.type.listNesting == 1, let edge = named(edges.type),
            edge.kind == .object || edge.kind == .interface
        {
            edgeType = edge
        }
        self.edgeType = edgeType
        var nodeType: NamedTypeDef?
        var hasCursor = false
        if let edgeType {
            if let node = edgeType.field(named: ConnectionInterface.node), !isList(node.type),
                let found = named(node.type), found.isComposite
            {
                nodeType = found
            }
            if let cursor = edgeType.field(named: ConnectionInterface.cursor), !isList(cursor.type),
                named(cursor.type)?.kind == .scalar
            {
                hasCursor = true
            }
        }
        self.nodeType = nodeType
        self.hasCursor = hasCursor
        var pageInfoType: NamedTypeDef?
        if let pageInfo = type.field(named: ConnectionInterface.pageInfo), !isList(pageInfo.type),
            let found = named(pageInfo.type), found.kind == .object
        {
            pageInfoType = found
        }
        self.pageInfoType = pageInfoType
        missingPageInfoFields = ConnectionInterface.pageInfoFields.filter { name in
            guard let pageInfoType, let field = pageInfoType.field(named: name) else { return true }
            return isList(field.type) || named(field.type)?.kind != .scalar
        }
    }

    /// True when the type is a connection: edges with a node and a cursor, and a page info with its four fields.
    package var isValid: Bool {
        edgeType != nil && nodeType != nil && hasCursor && pageInfoType != nil && missingPageInfoFields.isEmpty
    }
}
