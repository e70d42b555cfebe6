import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// The text an operation sends: the operation and the fragments it uses (sorted by name), with
/// Baton's client-only directives removed and `__typename` added to every field's selection set
/// on a composite type (so the runtime can record every record's type), printed canonically.
package enum DocumentText {
    /// Directives the server never sees: the runtime implements them.
    package static let clientOnlyDirectives: Set<String> = ["required", "catch", "throwOnFieldError"]

    package static func text(operation: OperationDefinition, fragments: [FragmentDefinition], schema: GraphQLSchema)
        -> String
    {
        let document = self.document(operation: operation, fragments: fragments, schema: schema)
        return printDocument(document)
    }

    /// The document `text` prints.
    package static func document(
        operation: OperationDefinition, fragments: [FragmentDefinition], schema: GraphQLSchema
    ) -> Document {
        var definitions: [Definition] = []
        var root = operation
        root.directives = strip(root.directives)
        root.selectionSet = transform(root.selectionSet, addTypename: false, depth: 0)
        definitions.append(.operation(root))
        for fragment in fragments.sorted(by: { $0.name.value < $1.name.value }) {
            var copy = fragment
            copy.directives = strip(copy.directives)
            copy.selectionSet = transform(copy.selectionSet, addTypename: false, depth: 0)
            definitions.append(.fragment(copy))
        }
        let source = SourceFile(path: "<document>", bytes: [])
        return Document(source: source, definitions: definitions, span: .zero)
    }

    static func strip(_ directives: [Directive]) -> [Directive] {
        directives.filter { !clientOnlyDirectives.contains($0.name.value) }
    }

    /// Strips client directives throughout and appends `__typename` where `addTypename` and it
    /// is not selected already (unaliased).
    static func transform(_ set: SelectionSet, addTypename: Bool, depth: Int) -> SelectionSet {
        guard depth <= LensModelBuilder.maximumDepth else { return set }
        var result = set
        result.selections = set.selections.map { selection in
            switch selection {
            case .field(var field):
                field.directives = strip(field.directives)
                if let child = field.selectionSet {
                    field.selectionSet = transform(child, addTypename: true, depth: depth + 1)
                }
                return .field(field)
            case .fragmentSpread(var spread):
                spread.directives = strip(spread.directives)
                return .fragmentSpread(spread)
            case .inlineFragment(var inline):
                inline.directives = strip(inline.directives)
                inline.selectionSet = transform(inline.selectionSet, addTypename: false, depth: depth + 1)
                return .inlineFragment(inline)
            }
        }
        if addTypename {
            let hasTypename = result.selections.contains { selection in
                if case .field(let field) = selection { return field.alias == nil && field.name.value == "__typename" }
                return false
            }
            if !hasTypename {
                result.selections.append(
                    .field(
                        Field(
                            alias: nil, name: Name("__typename", span: .zero), arguments: [], directives: [],
                            selectionSet: nil, span: .zero)))
            }
        }
        return result
    }

    static func printDocument(_ document: Document) -> String { Printer.print(document) }
}
