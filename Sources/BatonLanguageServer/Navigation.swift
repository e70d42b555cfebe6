import BatonCompiler
import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// A place in a document: its source (an embedded one maps to its Swift host) and a span in it.
struct SourcePlace {
    var file: SourceFile
    var span: Span
}

/// References, rename and the fields under a position: walks over every document of a project with the parent
/// type of each selection known. Walks are recursive; the parser bounds nesting (`Parser.maximumDepth`).
enum Navigation {
    /// Calls `visit` with every field of a document and the type it is selected on (nil when unknown).
    static func forEachField(
        in document: Document, schema: GraphQLSchema?, _ visit: (Field, NamedTypeDef?) -> Void
    ) {
        func walk(_ set: SelectionSet, _ parent: NamedTypeDef?) {
            for selection in set.selections {
                switch selection {
                case .field(let field):
                    visit(field, parent)
                    if let child = field.selectionSet {
                        walk(
                            child,
                            parent?.field(named: field.name.value).flatMap { schema?.type(named: $0.type.namedType) })
                    }
                case .inlineFragment(let inline):
                    walk(
                        inline.selectionSet,
                        inline.typeCondition.flatMap { schema?.type(named: $0.name.value) } ?? parent)
                case .fragmentSpread:
                    break
                }
            }
        }
        for definition in document.definitions {
            switch definition {
            case .operation(let operation): walk(operation.selectionSet, schema?.rootType(for: operation.operation))
            case .fragment(let fragment):
                walk(fragment.selectionSet, schema?.type(named: fragment.typeCondition.name.value))
            default: break
            }
        }
    }

    /// Every fragment spread of a document, in document order (its selection sets walked with an explicit stack).
    static func spreads(in document: Document) -> [FragmentSpread] {
        var found: [FragmentSpread] = []
        var stack: [SelectionSet] = document.definitions.compactMap { definition in
            switch definition {
            case .operation(let operation): operation.selectionSet
            case .fragment(let fragment): fragment.selectionSet
            default: nil
            }
        }
        while let set = stack.popLast() {
            for selection in set.selections {
                switch selection {
                case .field(let field): if let child = field.selectionSet { stack.append(child) }
                case .fragmentSpread(let spread): found.append(spread)
                case .inlineFragment(let inline): stack.append(inline.selectionSet)
                }
            }
        }
        return found.sorted { $0.span.start < $1.span.start }
    }

    /// Every spread of the fragment `name` in a document: the spans of its name.
    static func spreads(of name: String, in document: Document) -> [Span] {
        spreads(in: document).filter { $0.name.value == name }.map(\.name.span)
    }

    /// The places a target is used (and, with `declaration`, defined): a fragment's spreads; a schema field's
    /// selections on its type (or a type implementing it); an operation's name.
    static func references(_ target: Target, in found: Located, declaration: Bool) -> [SourcePlace] {
        let compilation = found.compilation
        var places: [SourcePlace] = []
        switch target {
        case .fragmentSpread(let name, _), .fragmentDefinition(let name, _):
            for document in compilation.documents {
                if declaration {
                    for case .fragment(let fragment) in document.definitions where fragment.name.value == name {
                        places.append(SourcePlace(file: document.source, span: fragment.name.span))
                    }
                }
                places += spreads(of: name, in: document).map { SourcePlace(file: document.source, span: $0) }
            }
        case .field(let parent, let field, _):
            if declaration, let location = field.location {
                places.append(SourcePlace(file: location.file, span: location.span))
            }
            for document in compilation.documents {
                forEachField(in: document, schema: compilation.schema) { node, type in
                    guard node.name.value == field.name, let type else { return }
                    if type.name == parent.name || type.interfaces.contains(parent.name)
                        || (parent.kind == .object && type.isAbstract
                            && compilation.schema.map { $0.possibleTypes(of: type).contains { $0.name == parent.name } }
                                == true)
                    {
                        places.append(SourcePlace(file: document.source, span: node.name.span))
                    }
                }
            }
        case .operation(let name, let span):
            if declaration { places.append(SourcePlace(file: found.source, span: span)) }
            _ = name
        case .type, .argument, .directive:
            break
        }
        return places
    }

    /// The edits renaming a fragment (its definition and every spread, in `.graphql` files and Swift literals
    /// alike) or an operation (its name), or nil for anything else.
    static func renameEdits(_ target: Target, in found: Located) -> [SourcePlace]? {
        switch target {
        case .fragmentSpread, .fragmentDefinition, .operation:
            return references(target, in: found, declaration: true)
        default:
            return nil
        }
    }

    /// Whether `name` is a GraphQL name (`/[_A-Za-z][_0-9A-Za-z]*/`).
    static func isName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == 0x5F || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A) else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            byte == 0x5F || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
        }
    }

    /// The innermost field whose span holds `offset` (with `selecting`, the innermost with a selection set), and
    /// the type it is selected on.
    static func field(at offset: Int, in document: Document, schema: GraphQLSchema?, selecting: Bool = false) -> (
        field: Field, parent: NamedTypeDef?
    )? {
        var best: (Field, NamedTypeDef?)?
        forEachField(in: document, schema: schema) { field, parent in
            guard !selecting || field.selectionSet != nil else { return }
            if offset >= field.span.start && offset <= field.span.end { best = (field, parent) }
        }
        return best
    }
}
