import BatonCompiler
import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// A position found in a parsed document: where it is and, once `target` is asked, what name it is on.
struct Located {
    let folder: WorkspaceFolder
    let compilation: Compilation
    let document: Document
    /// The byte offset in `document.source`.
    let offset: Int

    var source: SourceFile { document.source }
    var schema: GraphQLSchema? { compilation.schema }

    /// The name under the offset, with what the schema says of it.
    var target: Target? { SymbolInfo.target(at: offset, in: document, schema: schema) }

    /// The innermost selection set around the offset and its parent type, with the operation's variables.
    var scope: Scope? { SymbolInfo.scope(at: offset, in: document, schema: schema) }
}

/// A name in a document the editor asks about.
enum Target {
    case field(parent: NamedTypeDef, FieldDef, Span)
    case type(NamedTypeDef, Span)
    case argument(InputValue, owner: String, Span)
    case directive(DirectiveDef, Span)
    case fragmentSpread(String, Span)
    case fragmentDefinition(String, Span)
    case operation(String, Span)

    var span: Span {
        switch self {
        case .field(_, _, let span), .type(_, let span), .argument(_, _, let span), .directive(_, let span),
            .fragmentSpread(_, let span), .fragmentDefinition(_, let span), .operation(_, let span):
            span
        }
    }
}

/// Where completion happens: the selection set's parent type (nil outside one) and the variables declared.
struct Scope {
    var parent: NamedTypeDef?
    var variables: [VariableDefinition]
    /// The innermost selection set's span (to tell "inside braces" from "at the top level").
    var inSelectionSet: Bool
}

/// A definition shown in document and workspace symbols.
struct DocumentSymbol {
    var name: String
    var detail: String
    /// LSP's `SymbolKind`: 12 function for operations, 5 class for fragments.
    var kind: Int
    var span: Span
    var nameSpan: Span
}

/// What hover, definition and symbols read from a document and the schema. Walks are recursive; the parser
/// bounds nesting (`Parser.maximumDepth`), so they are bounded too.
enum SymbolInfo {
    static func contains(_ span: Span, _ offset: Int) -> Bool { offset >= span.start && offset <= span.end }

    // MARK: Targets

    static func target(at offset: Int, in document: Document, schema: GraphQLSchema?) -> Target? {
        for definition in document.definitions where contains(definition.span, offset) {
            switch definition {
            case .operation(let operation):
                if let name = operation.name, contains(name.span, offset) {
                    return .operation(name.value, name.span)
                }
                for variable in operation.variableDefinitions where contains(variable.type.span, offset) {
                    if let type = schema?.type(named: variable.type.namedType.name.value) {
                        return .type(type, variable.type.namedType.span)
                    }
                }
                if let found = directiveTarget(operation.directives, offset, schema) { return found }
                let root = schema?.rootType(for: operation.operation)
                return selectionTarget(operation.selectionSet, parent: root, offset, schema)
            case .fragment(let fragment):
                if contains(fragment.name.span, offset) {
                    return .fragmentDefinition(fragment.name.value, fragment.name.span)
                }
                let parent = schema?.type(named: fragment.typeCondition.name.value)
                if contains(fragment.typeCondition.span, offset), let parent {
                    return .type(parent, fragment.typeCondition.span)
                }
                if let found = directiveTarget(fragment.directives, offset, schema) { return found }
                return selectionTarget(fragment.selectionSet, parent: parent, offset, schema)
            default:
                return schemaTarget(definition, at: offset, schema: schema)
            }
        }
        return nil
    }

    /// A name in a schema file: a type's, a field's (its uses are the field's references), an argument's or input
    /// field's, or a type named in a field, an argument, an interface list or a union.
    private static func schemaTarget(_ definition: Definition, at offset: Int, schema: GraphQLSchema?) -> Target? {
        guard let schema else { return nil }
        func named(_ reference: NamedType) -> Target? {
            guard contains(reference.span, offset), let type = schema.type(named: reference.name.value) else {
                return nil
            }
            return .type(type, reference.span)
        }
        func inputs(_ values: [InputValueDefinition], owner: String, lookup: (String) -> InputValue?) -> Target? {
            for value in values where contains(value.span, offset) {
                if contains(value.name.span, offset), let input = lookup(value.name.value) {
                    return .argument(input, owner: owner, value.name.span)
                }
                return named(value.type.namedType)
            }
            return nil
        }
        let name: Name
        var fields: [FieldDefinition] = []
        var references: [NamedType] = []
        var inputFields: [InputValueDefinition] = []
        switch definition {
        case .object(let object):
            (name, fields, references) = (object.name, object.fields, object.interfaces)
        case .interface(let interface):
            (name, fields, references) = (interface.name, interface.fields, interface.interfaces)
        case .union(let union): (name, references) = (union.name, union.types)
        case .inputObject(let input): (name, inputFields) = (input.name, input.fields)
        case .enumType(let enumType): name = enumType.name
        case .scalar(let scalar): name = scalar.name
        default: return nil
        }
        guard let type = schema.type(named: name.value) else { return nil }
        if contains(name.span, offset) { return .type(type, name.span) }
        for reference in references { if let found = named(reference) { return found } }
        for field in fields where contains(field.span, offset) {
            if contains(field.name.span, offset), let definition = type.field(named: field.name.value) {
                return .field(parent: type, definition, field.name.span)
            }
            let definition = type.field(named: field.name.value)
            if let found = inputs(
                field.arguments, owner: type.name + "." + field.name.value, lookup: { definition?.argument(named: $0) })
            {
                return found
            }
            return named(field.type.namedType)
        }
        return inputs(inputFields, owner: type.name, lookup: { type.inputField(named: $0) })
    }

    private static func directiveTarget(_ directives: [Directive], _ offset: Int, _ schema: GraphQLSchema?)
        -> Target?
    {
        for directive in directives where contains(directive.span, offset) {
            guard let definition = schema?.directive(named: directive.name.value) else { return nil }
            if contains(directive.name.span, offset) { return .directive(definition, directive.name.span) }
            for argument in directive.arguments where contains(argument.name.span, offset) {
                if let input = definition.argument(named: argument.name.value) {
                    return .argument(input, owner: "@" + definition.name, argument.name.span)
                }
            }
        }
        return nil
    }

    private static func selectionTarget(
        _ set: SelectionSet, parent: NamedTypeDef?, _ offset: Int, _ schema: GraphQLSchema?
    ) -> Target? {
        for selection in set.selections where contains(selection.span, offset) {
            switch selection {
            case .field(let field):
                let definition = parent?.field(named: field.name.value)
                if let found = directiveTarget(field.directives, offset, schema) { return found }
                if contains(field.name.span, offset) {
                    guard let parent, let definition else { return nil }
                    return .field(parent: parent, definition, field.name.span)
                }
                for argument in field.arguments where contains(argument.name.span, offset) {
                    guard let parent, let input = definition?.argument(named: argument.name.value) else { return nil }
                    return .argument(input, owner: parent.name + "." + field.name.value, argument.name.span)
                }
                if let selectionSet = field.selectionSet, contains(selectionSet.span, offset) {
                    let child = definition.flatMap { schema?.type(named: $0.type.namedType) }
                    return selectionTarget(selectionSet, parent: child, offset, schema)
                }
                return nil
            case .fragmentSpread(let spread):
                if contains(spread.name.span, offset) { return .fragmentSpread(spread.name.value, spread.name.span) }
                return directiveTarget(spread.directives, offset, schema)
            case .inlineFragment(let inline):
                let condition = inline.typeCondition.flatMap { schema?.type(named: $0.name.value) } ?? parent
                if let typeCondition = inline.typeCondition, contains(typeCondition.span, offset), let condition {
                    return .type(condition, typeCondition.span)
                }
                if let found = directiveTarget(inline.directives, offset, schema) { return found }
                return selectionTarget(inline.selectionSet, parent: condition, offset, schema)
            }
        }
        return nil
    }

    // MARK: Scope

    static func scope(at offset: Int, in document: Document, schema: GraphQLSchema?) -> Scope? {
        for definition in document.definitions where contains(definition.span, offset) {
            switch definition {
            case .operation(let operation):
                var scope = Scope(parent: nil, variables: operation.variableDefinitions, inSelectionSet: false)
                innermost(operation.selectionSet, schema?.rootType(for: operation.operation), offset, schema, &scope)
                return scope
            case .fragment(let fragment):
                var scope = Scope(parent: nil, variables: [], inSelectionSet: false)
                innermost(
                    fragment.selectionSet, schema?.type(named: fragment.typeCondition.name.value), offset, schema,
                    &scope)
                return scope
            default:
                return nil
            }
        }
        return nil
    }

    private static func innermost(
        _ set: SelectionSet, _ parent: NamedTypeDef?, _ offset: Int, _ schema: GraphQLSchema?, _ scope: inout Scope
    ) {
        guard offset > set.span.start && offset < set.span.end else { return }
        scope.parent = parent
        scope.inSelectionSet = true
        for selection in set.selections where contains(selection.span, offset) {
            switch selection {
            case .field(let field):
                if let child = field.selectionSet {
                    let type = parent?.field(named: field.name.value).flatMap { schema?.type(named: $0.type.namedType) }
                    innermost(child, type, offset, schema, &scope)
                }
            case .inlineFragment(let inline):
                let condition = inline.typeCondition.flatMap { schema?.type(named: $0.name.value) } ?? parent
                innermost(inline.selectionSet, condition, offset, schema, &scope)
            case .fragmentSpread:
                break
            }
        }
    }

    // MARK: Hover

    static func hover(_ target: Target, in found: Located) -> String? {
        switch target {
        case .field(let parent, let field, let span):
            var signature = parent.name + "." + field.name
            if !field.arguments.isEmpty {
                signature += "(" + field.arguments.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
            }
            signature += ": \(field.type)"
            var text = "```graphql\n\(signature)\n```"
            if let description = field.description, !description.isEmpty { text += "\n\n" + description }
            if let reason = field.deprecationReason { text += "\n\n**Deprecated:** " + reason }
            if let type = found.schema?.type(named: field.type.namedType), let description = type.description,
                !description.isEmpty, field.description == nil
            {
                text += "\n\n`\(type.name)`: " + description
            }
            if let row = PlateHover.row(for: span, in: found) { text += "\n\n" + row }
            return text
        case .type(let type, _):
            var text = "```graphql\n\(kindKeyword(type.kind)) \(type.name)\n```"
            if let description = type.description, !description.isEmpty { text += "\n\n" + description }
            return text
        case .argument(let input, let owner, _):
            var text = "```graphql\n\(owner)(\(input.name): \(input.type))\n```"
            if let description = input.description, !description.isEmpty { text += "\n\n" + description }
            if let reason = input.deprecationReason { text += "\n\n**Deprecated:** " + reason }
            return text
        case .directive(let directive, _):
            var signature = "directive @" + directive.name
            if !directive.arguments.isEmpty {
                signature += "(" + directive.arguments.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
            }
            var text = "```graphql\n\(signature)\n```"
            if let description = directive.description, !description.isEmpty { text += "\n\n" + description }
            return text
        case .fragmentSpread(let name, let span):
            guard let fragment = fragmentDefinitions(named: name, in: found).first else { return nil }
            var text = "```graphql\nfragment \(name) on \(fragment.fragment.typeCondition.name.value)\n```"
            if let row = PlateHover.row(for: span, in: found) { text += "\n\n" + row }
            return text
        case .fragmentDefinition(let name, _):
            guard let fragment = fragmentDefinitions(named: name, in: found).first else { return nil }
            return "```graphql\nfragment \(name) on \(fragment.fragment.typeCondition.name.value)\n```"
        case .operation(let name, _):
            return "```graphql\n\(name)\n```"
        }
    }

    static func kindKeyword(_ kind: TypeKind) -> String {
        switch kind {
        case .scalar: "scalar"
        case .object: "type"
        case .interface: "interface"
        case .union: "union"
        case .enumType: "enum"
        case .inputObject: "input"
        }
    }

    // MARK: Definitions

    /// Where a target is defined: a fragment's definition (in any document of the project), a schema element's
    /// place in the schema files.
    static func definitions(_ target: Target, in found: Located) -> [(file: SourceFile, span: Span)] {
        switch target {
        case .fragmentSpread(let name, _), .fragmentDefinition(let name, _):
            return fragmentDefinitions(named: name, in: found).map {
                ($0.document.source, $0.fragment.name.span)
            }
        case .field(_, let field, _):
            return field.location.map { [($0.file, $0.span)] } ?? []
        case .type(let type, _):
            return type.location.map { [($0.file, $0.span)] } ?? []
        case .argument(let input, _, _):
            return input.location.map { [($0.file, $0.span)] } ?? []
        case .directive(let directive, _):
            return directive.location.map { [($0.file, $0.span)] } ?? []
        case .operation:
            return []
        }
    }

    static func fragmentDefinitions(named name: String, in found: Located) -> [FragmentSite] {
        found.folder.fragments(of: found.compilation)[name] ?? []
    }

    // MARK: Symbols

    static func symbols(in document: Document) -> [DocumentSymbol] {
        document.definitions.compactMap { definition in
            switch definition {
            case .operation(let operation):
                guard let name = operation.name else { return nil }
                return DocumentSymbol(
                    name: name.value, detail: operation.operation.rawValue, kind: 12, span: operation.span,
                    nameSpan: name.span)
            case .fragment(let fragment):
                return DocumentSymbol(
                    name: fragment.name.value, detail: "on " + fragment.typeCondition.name.value, kind: 5,
                    span: fragment.span, nameSpan: fragment.name.span)
            default:
                return nil
            }
        }
    }
}
