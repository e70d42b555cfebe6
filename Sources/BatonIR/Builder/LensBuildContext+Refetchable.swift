import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// `@refetchable` fragments: what the plan records of them, and the query generated for each.
///
/// The query is written as a document would write it and built by the same path as every other
/// operation, so its lens, names, text and id are decided as theirs are:
///
///     query IssueCommentsPage($count: Int, $cursor: String, $id: ID!) {
///       node(id: $id) { ...IssueComments_issue }
///     }
///
/// through `node(id:)` for a fragment on a `Node` type, `{ ...Fragment }` for one on the query
/// type. It declares every variable the fragment (and the fragments it spreads) uses, typed as
/// the position it is used in expects; the count and cursor of its connection nullable, because
/// the pagination leaves the cursor out to start from the beginning.
extension LensBuildContext {
    /// The refetch model of a fragment with `@refetchable(queryName:)`.
    func refetchableModel(_ node: FragmentDefinition, lens: Lens) -> RefetchableModel? {
        guard let use = BatonDirectives.refetchable(in: node.directives), let name = use.queryName else { return nil }
        let queryType = schema.rootType(for: .query)?.name
        var model = RefetchableModel(queryName: name, throughNode: node.typeCondition.name.value != queryType)
        if let (path, read) = Self.connectionPath(in: lens) {
            model.connectionPath = path
            func variable(_ argument: String) -> String? {
                guard case .variable(let variable)? = read.arguments.first(where: { $0.name == argument })?.value
                else { return nil }
                return variable.name.value
            }
            model.forwardCount = variable(ConnectionInterface.first)
            model.forwardCursor = variable(ConnectionInterface.after)
            model.backwardCount = variable(ConnectionInterface.last)
            model.backwardCursor = variable(ConnectionInterface.before)
        }
        return model
    }

    /// The accessor names down to the first `@connection` accessor reached through single records (not lists).
    static func connectionPath(in lens: Lens) -> ([String], FieldRead)? {
        for accessor in lens.accessors {
            guard case .field(let read) = accessor.reads, accessor.listDepth == 0, let child = accessor.lens else {
                continue
            }
            if accessor.connection != nil { return ([accessor.name], read) }
            if let (path, found) = connectionPath(in: child) { return ([accessor.name] + path, found) }
        }
        return nil
    }

    /// The query of each `@refetchable` fragment, as a document would write it, with the file it reports into.
    func refetchQueries() -> [(OperationDefinition, SourceFile, fragment: String)] {
        var queries: [(OperationDefinition, SourceFile, fragment: String)] = []
        // Most projects have no `@refetchable` fragment: the names are sorted only when one is.
        guard fragmentModels.values.contains(where: { $0.refetchable != nil }) else { return queries }
        for name in fragmentModels.keys.sorted() {
            guard let model = fragmentModels[name], let refetch = model.refetchable,
                let (node, source) = fragmentNodes[name],
                let directive = BatonDirectives.refetchable(in: node.directives)
            else { continue }
            let span = directive.directive.span
            var variables = variableTypes(of: node)
            let paging = Set(
                [refetch.forwardCount, refetch.forwardCursor, refetch.backwardCount, refetch.backwardCursor]
                    .compactMap { $0 })
            for index in variables.indices where paging.contains(variables[index].name) {
                variables[index].type = variables[index].type.nullable
            }
            let spread = Selection.fragmentSpread(
                FragmentSpread(name: Name(name, span: node.name.span), directives: [], span: span))
            var selections = [spread]
            if refetch.throughNode {
                variables.removeAll { $0.name == "id" }
                variables.append((name: "id", type: .nonNull(.named("ID"))))
                let idVariable = Variable(name: Name("id", span: span), span: span)
                let field = BatonSyntax.Field(
                    alias: nil, name: Name("node", span: span),
                    arguments: [Argument(name: Name("id", span: span), value: .variable(idVariable), span: span)],
                    directives: [], selectionSet: SelectionSet(selections: selections, span: span), span: span)
                selections = [.field(field)]
            }
            let definitions = variables.sorted { $0.name < $1.name }.map { variable in
                VariableDefinition(
                    variable: Variable(name: Name(variable.name, span: span), span: span),
                    type: Self.typeReference(variable.type, span: span), defaultValue: nil, directives: [], span: span)
            }
            let query = OperationDefinition(
                operation: .query, name: Name(refetch.queryName, span: directive.queryNameArgument?.value.span ?? span),
                variableDefinitions: definitions, directives: [],
                selectionSet: SelectionSet(selections: selections, span: span), isShorthand: false, span: span)
            queries.append((query, source, name))
        }
        return queries
    }

    /// Every variable a fragment and the fragments it spreads use, in order of first use, typed by the position
    /// (a field's or a directive's argument, an input object's field, a list's item).
    func variableTypes(of fragment: FragmentDefinition) -> [(name: String, type: TypeRef)] {
        var found: [(name: String, type: TypeRef)] = []
        var seen = Set<String>()
        func collect(_ value: Value, _ type: TypeRef) {
            var pending: [(Value, TypeRef)] = [(value, type)]
            while let (next, expected) = pending.popLast() {
                switch next {
                case .variable(let variable):
                    if seen.insert(variable.name.value).inserted { found.append((variable.name.value, expected)) }
                case .list(let items, _):
                    let item: TypeRef =
                        if case .list(let inner) = expected.nullable { inner } else { expected.nullable }
                    pending += items.map { ($0, item) }
                case .object(let fields, _):
                    guard let input = schema.type(named: expected.namedType) else { continue }
                    for field in fields {
                        if let definition = input.inputField(named: field.name.value) {
                            pending.append((field.value, definition.type))
                        }
                    }
                default: continue
                }
            }
        }
        func collect(_ directives: [Directive]) {
            for directive in directives {
                guard let definition = schema.directive(named: directive.name.value) else { continue }
                for argument in directive.arguments {
                    if let type = definition.arguments.first(where: { $0.name == argument.name.value })?.type {
                        collect(argument.value, type)
                    }
                }
            }
        }
        var visited = Set<String>()
        var pending: [(SelectionSet, NamedTypeDef)] = []
        func enter(_ fragment: FragmentDefinition) {
            guard visited.insert(fragment.name.value).inserted,
                let type = schema.type(named: fragment.typeCondition.name.value)
            else { return }
            collect(fragment.directives)
            pending.append((fragment.selectionSet, type))
        }
        enter(fragment)
        while !pending.isEmpty {
            let (set, parent) = pending.removeFirst()
            for selection in set.selections {
                collect(selection.directives)
                switch selection {
                case .field(let field):
                    guard let definition = parent.field(named: field.name.value) else { continue }
                    for argument in field.arguments {
                        if let type = definition.arguments.first(where: { $0.name == argument.name.value })?.type {
                            collect(argument.value, type)
                        }
                    }
                    if let child = field.selectionSet, let type = schema.type(named: definition.type.namedType) {
                        pending.append((child, type))
                    }
                case .inlineFragment(let inline):
                    let type = inline.typeCondition.flatMap { schema.type(named: $0.name.value) } ?? parent
                    pending.append((inline.selectionSet, type))
                case .fragmentSpread(let spread):
                    if let (node, _) = fragmentNodes[spread.name.value] { enter(node) }
                }
            }
        }
        return found
    }

    /// The variables declarative updates name as their `connections:` in a selection set and fragments.
    static func connectionVariables(_ set: SelectionSet, fragments: [FragmentDefinition]) -> Set<String> {
        var names = Set<String>()
        var stack = set.selections + fragments.flatMap(\.selectionSet.selections)
        while let selection = stack.popLast() {
            switch selection {
            case .field(let field):
                if case .variable(let variable)? = BatonDirectives.recordUpdate(in: field.directives)?.connections {
                    names.insert(variable.name.value)
                }
                if let child = field.selectionSet { stack.append(contentsOf: child.selections) }
            case .inlineFragment(let inline): stack.append(contentsOf: inline.selectionSet.selections)
            case .fragmentSpread: continue
            }
        }
        return names
    }

    /// A type as the AST writes it (built from the inside out, without recursion).
    static func typeReference(_ type: TypeRef, span: Span) -> TypeReference {
        var wrappers: [Bool] = []  // true: list, false: non-null; outermost first
        var current = type
        var name = ""
        loop: while true {
            switch current {
            case .named(let named):
                name = named
                break loop
            case .list(let inner):
                wrappers.append(true)
                current = inner
            case .nonNull(let inner):
                wrappers.append(false)
                current = inner
            }
        }
        var result = TypeReference.named(NamedType(name: Name(name, span: span)))
        for isList in wrappers.reversed() { result = isList ? .list(result, span) : .nonNull(result, span) }
        return result
    }
}
