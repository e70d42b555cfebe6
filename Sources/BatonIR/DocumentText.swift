import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// The text an operation sends: the operation and the fragments it uses (sorted by name), with
/// Baton's client-only directives removed and `__typename` added to every field's selection set
/// on a composite type (so the runtime can record every record's type), printed canonically.
/// Variables that only client-only directives use (`$connections` of `@appendEdge`) are left out
/// of the operation's definition too: the server would reject them as unused.
package enum DocumentText {
    /// What joins definitions in a document text (the canonical printer's blank line, `Printer.print`).
    package static let separator = "\n\n"

    /// Directives the server never sees: the runtime implements them.
    package static let clientOnlyDirectives: Set<String> = Set(
        [BatonDirectives.required, BatonDirectives.catch, BatonDirectives.throwOnFieldError]
            + BatonDirectives.connectionDirectiveNames)

    /// The operation's variables that only client-only directives use, which the request leaves
    /// out (`$connections: [ID!]!` of `@appendEdge(connections: $connections)`): the variables it
    /// defines that no field argument or server directive of it, or of the fragments it uses, names.
    package static func clientOnlyVariables(operation: OperationDefinition, fragments: [FragmentDefinition]) -> Set<
        String
    > {
        // The defined variables not named yet: the walk stops once every one is (most operations name all
        // their variables in their first fields' arguments).
        var unused = Set(operation.variableDefinitions.map(\.variable.name.value))
        guard !unused.isEmpty else { return [] }
        func collect(_ value: Value) {
            switch value {
            case .variable(let variable):
                unused.remove(variable.name.value)
                return
            case .list, .object: break
            default: return
            }
            var pending = [value]
            while let next = pending.popLast() {
                switch next {
                case .variable(let variable): unused.remove(variable.name.value)
                case .list(let items, _): pending.append(contentsOf: items)
                case .object(let fields, _): pending.append(contentsOf: fields.map(\.value))
                default: break
                }
            }
        }
        func collect(_ directives: [Directive]) {
            for directive in directives where !clientOnlyDirectives.contains(directive.name.value) {
                for argument in directive.arguments { collect(argument.value) }
            }
        }
        collect(operation.directives)
        var stack: [Selection] = operation.selectionSet.selections
        for fragment in fragments {
            collect(fragment.directives)
            stack.append(contentsOf: fragment.selectionSet.selections)
        }
        while !unused.isEmpty, let selection = stack.popLast() {
            collect(selection.directives)
            switch selection {
            case .field(let field):
                for argument in field.arguments { collect(argument.value) }
                if let child = field.selectionSet { stack.append(contentsOf: child.selections) }
            case .inlineFragment(let inline): stack.append(contentsOf: inline.selectionSet.selections)
            case .fragmentSpread: break
            }
        }
        return unused
    }

    package static func text(operation: OperationDefinition, fragments: [FragmentDefinition], schema: GraphQLSchema)
        -> String
    {
        var complete = true
        return text(operation: operation, fragments: fragments, schema: schema, complete: &complete)
    }

    /// The text, or "" with `complete` false when the selections nest deeper than this thread's
    /// stack can print (the lens model reports that nesting as an error). `stack` is the calling
    /// thread's guard, when the caller has one: reading a thread's stack bounds is a system call
    /// (on Linux's main thread, a read of `/proc/self/maps`), too slow to repeat per operation.
    static func text(
        operation: OperationDefinition, fragments: [FragmentDefinition], schema: GraphQLSchema, complete: inout Bool,
        stack: StackGuard? = nil, keys: RecordKeys = RecordKeys()
    ) -> String {
        let document = self.document(
            operation: operation, fragments: fragments, schema: schema, complete: &complete, stack: stack, keys: keys)
        return complete ? printDocument(document) : ""
    }

    /// The document `text` prints.
    package static func document(
        operation: OperationDefinition, fragments: [FragmentDefinition], schema: GraphQLSchema
    ) -> Document {
        var complete = true
        return document(operation: operation, fragments: fragments, schema: schema, complete: &complete)
    }

    static func document(
        operation: OperationDefinition, fragments: [FragmentDefinition], schema: GraphQLSchema, complete: inout Bool,
        stack guardian: StackGuard? = nil, keys: RecordKeys = RecordKeys()
    ) -> Document {
        var definitions: [Definition] = []
        let stack = PrintableDepth(
            stack: guardian ?? StackGuard(), keys: keys.isEmpty ? nil : KeyFieldAdder(schema, keys))
        let clientOnly = clientOnlyVariables(operation: operation, fragments: fragments)
        definitions.append(
            .operation(
                sent(operation, leavingOut: clientOnly, schema: schema, stack: stack, complete: &complete)))
        for fragment in fragments.sorted(by: { $0.name.value < $1.name.value }) {
            definitions.append(.fragment(sent(fragment, schema: schema, stack: stack, complete: &complete)))
        }
        let source = SourceFile(path: "<document>", bytes: [])
        return Document(source: source, definitions: definitions, span: .zero)
    }

    /// The operation as its text sends it: without the variables `clientOnly` names (`clientOnlyVariables`) and
    /// client-only directives, its selections transformed.
    static func sent(
        _ operation: OperationDefinition, leavingOut clientOnly: Set<String>, schema: GraphQLSchema,
        stack: PrintableDepth, complete: inout Bool
    ) -> OperationDefinition {
        OperationDefinition(
            operation: operation.operation, name: operation.name,
            variableDefinitions: operation.variableDefinitions.filter { !clientOnly.contains($0.variable.name.value) },
            directives: strip(operation.directives),
            selectionSet: transform(
                operation.selectionSet, addTypename: false, depth: 0, stack: stack, complete: &complete,
                type: schema.rootType(for: operation.operation)),
            isShorthand: operation.isShorthand, span: operation.span)
    }

    /// The fragment as every text that uses it sends it: without client-only directives, its selections transformed.
    static func sent(
        _ fragment: FragmentDefinition, schema: GraphQLSchema, stack: PrintableDepth, complete: inout Bool
    ) -> FragmentDefinition {
        FragmentDefinition(
            name: fragment.name, typeCondition: fragment.typeCondition, directives: strip(fragment.directives),
            selectionSet: transform(
                fragment.selectionSet, addTypename: false, depth: 0, stack: stack, complete: &complete,
                type: schema.types[fragment.typeCondition.name.value]),
            span: fragment.span)
    }

    /// The text of a definition whose selections nest no deeper than `unguardedDepth` (the transform then never
    /// asks the stack, and the text is always complete): the operation's part or a fragment's part of the texts
    /// `text` prints, which joins them with `DocumentParts`' blank line. A fragment's part is the same in every
    /// operation that sends it, so the plan prints it once (`LensBuildContext.sentText(ofFragment:)`).
    /// `stack` is the calling thread's guard, which the transform never asks.
    static func shallowText(
        of definition: ShallowDefinition, schema: GraphQLSchema, keys: RecordKeys, stack guardian: StackGuard
    ) -> String {
        // Without declared keys nothing is added but `__typename`: the printer writes the sent form straight from
        // the written definition, without the transformed copy.
        if keys.isEmpty {
            switch definition {
            case .operation(let operation, let clientOnly):
                return Printer.print(.operation(operation), form: sentForm(leavingOut: clientOnly))
            case .fragment(let fragment):
                return Printer.print(.fragment(fragment), form: sentForm(leavingOut: []))
            }
        }
        var complete = true
        let stack = PrintableDepth(stack: guardian, keys: KeyFieldAdder(schema, keys))
        switch definition {
        case .operation(let operation, let clientOnly):
            return Printer.print(
                .operation(sent(operation, leavingOut: clientOnly, schema: schema, stack: stack, complete: &complete)))
        case .fragment(let fragment):
            return Printer.print(.fragment(sent(fragment, schema: schema, stack: stack, complete: &complete)))
        }
    }

    /// What `sent` and `transform` do to a definition, as the printer's form: client-only directives and the
    /// variables `clientOnly` names left out, `__typename` added to every field's selection set.
    static func sentForm(leavingOut clientOnly: Set<String>) -> PrintForm {
        PrintForm(leftOutDirectives: clientOnlyDirectives, leftOutVariables: clientOnly, typenameInFieldSets: true)
    }

    /// A definition `shallowText` prints.
    enum ShallowDefinition {
        /// An operation, and the variables its text leaves out (`clientOnlyVariables`).
        case operation(OperationDefinition, clientOnly: Set<String>)
        case fragment(FragmentDefinition)
    }

    /// Whether `document` would be complete: the same transform over the same selections, asking the stack at
    /// the same depths in the same frames, but building nothing (`check`, which needs only the answer).
    static func fits(
        operation: OperationDefinition, fragments: [FragmentDefinition], stack guardian: StackGuard? = nil
    ) -> Bool {
        var complete = true
        let stack = PrintableDepth(stack: guardian ?? StackGuard())
        _ = transform(
            operation.selectionSet, addTypename: false, depth: 0, stack: stack, complete: &complete, builds: false)
        for fragment in fragments {
            _ = transform(
                fragment.selectionSet, addTypename: false, depth: 0, stack: stack, complete: &complete, builds: false)
        }
        return complete
    }

    /// True when `strip` would leave something out.
    static func hasClientOnly(_ directives: [Directive]) -> Bool {
        directives.contains { clientOnlyDirectives.contains($0.name.value) }
    }

    static func strip(_ directives: [Directive]) -> [Directive] {
        directives.filter { !clientOnlyDirectives.contains($0.name.value) }
    }

    /// Strips client directives throughout and appends `__typename` where `addTypename` and it
    /// is not selected already (unaliased).
    ///
    /// Deeper than the lens model goes (`LensModelBuilder.maximumDepth`, or this thread's stack),
    /// the selections are left as written: the model reports the nesting as an error. Without
    /// `builds`, only `complete` is worked out and `set` is returned as it is (`fits`).
    static func transform(
        _ set: SelectionSet, addTypename: Bool, depth: Int, stack: PrintableDepth, complete: inout Bool,
        builds: Bool = true, type: NamedTypeDef? = nil
    ) -> SelectionSet {
        guard depth <= LensModelBuilder.maximumDepth else { return set }
        guard depth <= unguardedDepth || stack.hasRoom() else {
            complete = false  // printing it would need more stack than is left
            return set
        }
        guard builds else {
            for selection in set.selections {
                _ = transform(selection, depth: depth, stack: stack, complete: &complete, builds: false)
            }
            return set
        }
        // Gathered apart and made into a set once: a set works out what is below it when made
        // (`SelectionSet.containsSpreads`), not at each append.
        var selections: [Selection] = []
        for selection in set.selections {
            selections.append(transform(selection, depth: depth, stack: stack, complete: &complete, type: type))
        }
        if let keys = stack.keys, let type { selections += keys.additions(to: selections, of: type) }
        if addTypename {
            if !Printer.selectsTypename(selections) {
                selections.append(
                    .field(
                        Field(
                            alias: nil, name: Name("__typename", span: .zero), arguments: [], directives: [],
                            selectionSet: nil, span: .zero)))
            }
        }
        return SelectionSet(selections: selections, span: set.span)
    }

    /// One selection of `transform`.
    static func transform(
        _ selection: Selection, depth: Int, stack: PrintableDepth, complete: inout Bool, builds: Bool = true,
        type: NamedTypeDef? = nil
    ) -> Selection {
        guard builds else {
            switch selection {
            case .field(let field):
                if let set = field.selectionSet {
                    _ = transform(
                        set, addTypename: true, depth: depth + 1, stack: stack, complete: &complete, builds: false)
                }
            case .fragmentSpread: break
            case .inlineFragment(let inline):
                _ = transform(
                    inline.selectionSet, addTypename: false, depth: depth + 1, stack: stack, complete: &complete,
                    builds: false)
            }
            return selection
        }
        switch selection {
        case .field(let field):
            // A leaf without client-only directives is printed as written.
            if field.selectionSet == nil, !hasClientOnly(field.directives) { return selection }
            let fieldType = stack.keys.flatMap { keys in
                type?.field(named: field.name.value).flatMap { keys.schema.types[$0.type.namedType] }
            }
            // Not through a closure: the recursion keeps the frames `fits` measures (no closure's frame per level).
            var selectionSet: SelectionSet? = nil
            if let set = field.selectionSet {
                selectionSet = transform(
                    set, addTypename: true, depth: depth + 1, stack: stack, complete: &complete, type: fieldType)
            }
            return .field(
                Field(
                    alias: field.alias, name: field.name, arguments: field.arguments,
                    directives: strip(field.directives), selectionSet: selectionSet, span: field.span))
        case .fragmentSpread(let spread):
            if !hasClientOnly(spread.directives) { return selection }
            return .fragmentSpread(
                FragmentSpread(name: spread.name, directives: strip(spread.directives), span: spread.span))
        case .inlineFragment(let inline):
            return .inlineFragment(
                InlineFragment(
                    typeCondition: inline.typeCondition, directives: strip(inline.directives),
                    selectionSet: transform(
                        inline.selectionSet, addTypename: false, depth: depth + 1, stack: stack,
                        complete: &complete,
                        type: inline.typeCondition.flatMap { stack.keys?.schema.types[$0.name.value] } ?? type),
                    span: inline.span))
        }
    }

    static func printDocument(_ document: Document) -> String { Printer.print(document) }

    /// Selection sets nested up to this deep are transformed without asking the stack: the text
    /// of a document no deeper is always complete.
    static let unguardedDepth = 7
}

/// How deep `DocumentText` may transform selections so that the printer, which recurses
/// through the result again with frames up to a few times larger (a debug build), still fits
/// in this thread's stack.
struct PrintableDepth {
    let stack: StackGuard
    /// The declared record keys to add, when some type has one.
    var keys: KeyFieldAdder? = nil
    let start = StackGuard.address()
    func hasRoom() -> Bool { stack.hasRoom(forRepeating: 3, since: start) }
}

/// Adds the key fields of `RecordKeys` to the text sent, as `__typename` is added: every
/// selection set on a type with a declared key asks for its key fields (as Apollo Kotlin's
/// codegen does), so every response object of such a type carries its key. On an object type
/// (or an interface whose possible types all share a key of its own fields) the fields are added
/// unaliased where not already selected unaliased, without arguments or conditions; on another
/// abstract type, one inline fragment per keyed possible type (`... on MediaList { mediaId }`).
/// The lens model never sees them: they are for the runtimes' keys, not for reading.
struct KeyFieldAdder {
    let schema: GraphQLSchema
    let keys: RecordKeys
    init(_ schema: GraphQLSchema, _ keys: RecordKeys) {
        self.schema = schema
        self.keys = keys
    }

    /// The selections to append to a selection set on `type` holding `selections`.
    func additions(to selections: [Selection], of type: NamedTypeDef) -> [Selection] {
        let selected = Set(
            selections.compactMap { selection -> String? in
                // Under `@include`/`@skip` a selected key field may be absent: it is asked for again, plainly.
                guard case .field(let field) = selection, field.alias == nil, field.arguments.isEmpty,
                    field.directives.isEmpty
                else {
                    return nil
                }
                return field.name.value
            })
        func fields(_ names: [String]) -> [Selection] {
            names.filter { !selected.contains($0) }.map { name in
                .field(
                    Field(
                        alias: nil, name: Name(name, span: .zero), arguments: [], directives: [], selectionSet: nil,
                        span: .zero))
            }
        }
        if type.kind == .object { return fields(keys.objects[type.name] ?? []) }
        let keyed = schema.possibleTypes(of: type).compactMap { object in
            keys.objects[object.name].map { (object.name, $0) }
        }.sorted { $0.0 < $1.0 }
        guard !keyed.isEmpty else { return [] }
        // One key every possible type shares, of fields the interface has: asked for once.
        if type.kind == .interface, keyed.count == schema.possibleTypes(of: type).count,
            let first = keyed.first?.1, keyed.allSatisfy({ $0.1 == first }),
            first.allSatisfy({ type.field(named: $0) != nil })
        {
            return fields(first)
        }
        // An unconditional inline fragment on the type already asks for its key (its own set gets it).
        let covered = Set(
            selections.compactMap { selection -> String? in
                guard case .inlineFragment(let inline) = selection, inline.directives.isEmpty else { return nil }
                return inline.typeCondition?.name.value
            })
        return keyed.filter { !covered.contains($0.0) }.map { name, names in
            .inlineFragment(
                InlineFragment(
                    typeCondition: NamedType(name: Name(name, span: .zero)), directives: [],
                    selectionSet: SelectionSet(
                        selections: names.map { name in
                            .field(
                                Field(
                                    alias: nil, name: Name(name, span: .zero), arguments: [], directives: [],
                                    selectionSet: nil, span: .zero))
                        }, span: .zero),
                    span: .zero))
        }
    }
}
