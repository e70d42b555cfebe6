import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// Builds the lens model from valid documents: names, reads, bases, list levels, optionality,
/// `@required` bubbling, `@catch`, `@throwOnFieldError` with `@semanticNonNull`, conditions, and
/// the types the documents use.
///
/// The input must have passed validation (the CLI's gate); the builder still never traps on
/// anything it does not expect: an unknown field or type is skipped. It reports only what is
/// the model's own concern (accessor names that collide, anonymous operations, nesting too deep).
package struct LensModelBuilder {
    /// Lens nesting deeper than this is reported and cut, so hostile input cannot overflow the stack.
    package static let maximumDepth = 200
    /// A field's type nesting more lists than this is reported and left out of the lens.
    package static let maximumListLevels = 32
    /// Argument and default values nesting lists and objects deeper than this are reported: the
    /// generators write them out recursively.
    package static let maximumValueDepth = 64

    /// How deep a value literal nests lists and objects, counted without recursion.
    static func valueDepth(_ value: Value) -> Int {
        var deepest = 0
        var pending: [(Value, Int)] = [(value, 0)]
        while let (current, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            switch current {
            case .list(let items, _): for item in items { pending.append((item, depth + 1)) }
            case .object(let fields, _): for field in fields { pending.append((field.value, depth + 1)) }
            default: break
            }
        }
        return deepest
    }

    /// How many lists a type nests.
    static func listDepth(_ type: TypeRef) -> Int {
        var count = 0
        var current = type
        while true {
            switch current {
            case .named: return count
            case .list(let inner):
                count += 1
                current = inner
            case .nonNull(let inner): current = inner
            }
        }
    }

    package static func build(
        schema: GraphQLSchema, documents: [Document], options: LensModelOptions = LensModelOptions()
    ) -> (LensModel, [Diagnostic]) {
        let context = BuildContext(schema: schema, documents: documents, options: options)
        return context.run()
    }
}

/// Rule ids of the model's own diagnostics.
package enum LensDiagnosticRule {
    package static let accessorNameConflict = "lens-accessor-name-conflict"
    package static let anonymousOperation = "lens-anonymous-operation"
    package static let nestingTooDeep = "lens-nesting-too-deep"
    package static let definitionNameConflict = "lens-definition-name-conflict"

    /// One sentence per id, for SARIF's rule metadata. These are not configurable: code generated
    /// despite them would not compile.
    package static let descriptions: [String: String] = [
        accessorNameConflict:
            "Accessor names are unique in a lens. A fragment spread's accessor name (the fragment's name before the first `_`, lower-camel-cased) or an inline fragment's `as<Type>` must not repeat another accessor's name in the same selection.",
        anonymousOperation: "Operations are named. Baton generates a type per operation, named after it.",
        nestingTooDeep: "Selections nest at most 200 levels deep.",
        definitionNameConflict:
            "Operation and fragment names differ. An operation and a fragment of the same name would generate two types of that name.",
    ]
}

/// The policy of one definition, inherited by every accessor inside it (not by spreads' fragments).
private struct DefinitionScope {
    var name: String
    var isOperation: Bool
    var throwOnFieldError: Bool
    var source: SourceFile
}

/// One place a selection with a given accessor key appears, with the conditions on the path to it.
private struct Occurrence {
    enum Node {
        case field(Field, scopeType: NamedTypeDef)
        case spread(FragmentSpread)
        case inline(InlineFragment, condition: NamedTypeDef)
    }
    var node: Node
    var conditions: [Condition]
    var span: Span
}

/// The occurrences of one accessor in a selection, in document order.
private struct OccurrenceGroup {
    var key: String
    var occurrences: [Occurrence]
}

/// Groups in order of first appearance.
private struct OrderedGroups {
    var groups: [OccurrenceGroup] = []
    var index: [String: Int] = [:]
    mutating func add(_ key: String, _ occurrence: Occurrence) {
        if let position = index[key] {
            groups[position].occurrences.append(occurrence)
        } else {
            index[key] = groups.count
            groups.append(OccurrenceGroup(key: key, occurrences: [occurrence]))
        }
    }
}

private final class BuildContext {
    let schema: GraphQLSchema
    let documents: [Document]
    let options: LensModelOptions
    var diagnostics: [Diagnostic] = []
    /// Fragment definitions by name (first wins; duplicates are validation's to report) and their files.
    var fragmentNodes: [String: (FragmentDefinition, SourceFile)] = [:]
    var fragmentModels: [String: FragmentModel] = [:]
    var fragmentsInProgress: Set<String> = []
    /// The accessors producing the lens being built, from the definition's root: their names and
    /// whether a null arriving at them keeps bubbling (a non-list `@required(action: NONE | LOG)`).
    var producers: [(name: String, keepsBubbling: Bool)] = []
    /// Possible type names per abstract type, and `alwaysMatches` answers, computed once.
    var possibleTypeNames: [String: Set<String>] = [:]
    var matchCache: [String: Bool] = [:]
    /// The stack of the thread building the model: a debug build spends over 10 KiB per lens
    /// level, so a 512 KiB thread (Dispatch, Swift Concurrency) runs out long before
    /// `maximumDepth`. Created on first use, on the building thread.
    lazy var stackGuard = StackGuard()

    /// Whether a lens at `depth` is one level too many: past `maximumDepth`, or too close to
    /// the end of the thread's stack.
    /// The name of the definition being built, where selections cut short are reported.
    var currentDefinition: SourceRange? {
        didSet { reportedTooDeepInDefinition = false }
    }
    var reportedTooDeepInDefinition = false

    func isTooDeep(_ depth: Int) -> Bool {
        depth >= LensModelBuilder.maximumDepth || (depth >= 8 && !stackGuard.hasRoom())
    }

    init(schema: GraphQLSchema, documents: [Document], options: LensModelOptions) {
        self.schema = schema
        self.documents = documents
        self.options = options
        for document in documents {
            for definition in document.definitions {
                if case .fragment(let fragment) = definition, fragmentNodes[fragment.name.value] == nil {
                    fragmentNodes[fragment.name.value] = (fragment, document.source)
                }
            }
        }
    }

    func run() -> (LensModel, [Diagnostic]) {
        // Fragments before the fragments that spread them, so building one never recurses into
        // another: a chain of thousands of fragments cannot overflow the stack.
        for name in fragmentBuildOrder() { _ = fragmentModel(named: name) }
        var operations: [OperationModel] = []
        var seenOperations: Set<String> = []
        for document in documents {
            for definition in document.definitions {
                guard case .operation(let operation) = definition else { continue }
                guard let model = operationModel(operation, source: document.source) else { continue }
                if seenOperations.insert(model.name).inserted { operations.append(model) }
            }
        }
        operations.sort { $0.name < $1.name }
        let fragments = fragmentModels.values.sorted { $0.name < $1.name }
        // An operation and a fragment may share a name in GraphQL, but not as generated types.
        for operation in operations {
            guard let fragment = fragmentModels[operation.name] else { continue }
            diagnostics.append(
                Diagnostic(
                    .error,
                    "The operation \"\(operation.name)\" and the fragment \"\(fragment.name)\" would generate types of the same name; rename one of them.",
                    rule: LensDiagnosticRule.definitionNameConflict, range: operation.location,
                    notes: [DiagnosticNote(message: "The fragment is here.", range: fragment.location)]))
        }
        var names = UsedTypeNames()
        for operation in operations { names = names.union(operation.usedTypes) }
        for fragment in fragments { names = names.union(fragment.usedTypes) }
        let model = LensModel(operations: operations, fragments: fragments, types: usedTypes(names))
        diagnostics.sort(by: Diagnostic.sortKey)
        return (model, diagnostics)
    }

    // MARK: Definitions

    /// Fragment names in post-order of the spread graph (a fragment after every fragment it
    /// spreads), ties by name; computed without recursion. Cycles (invalid) are cut.
    func fragmentBuildOrder() -> [String] {
        var order: [String] = []
        var state: [String: Bool] = [:]  // false: on the stack; true: done
        for root in fragmentNodes.keys.sorted() where state[root] == nil {
            var stack: [(name: String, children: [String], next: Int)] = [(root, directSpreads(of: root), 0)]
            state[root] = false
            while let top = stack.last {
                if top.next < top.children.count {
                    stack[stack.count - 1].next += 1
                    let child = top.children[top.next]
                    if state[child] == nil, fragmentNodes[child] != nil {
                        state[child] = false
                        stack.append((child, directSpreads(of: child), 0))
                    }
                } else {
                    stack.removeLast()
                    state[top.name] = true
                    order.append(top.name)
                }
            }
        }
        return order
    }

    /// The fragments a fragment spreads itself (not through others), sorted.
    func directSpreads(of name: String) -> [String] {
        guard let (node, _) = fragmentNodes[name] else { return [] }
        var found: Set<String> = []
        var stack: [Selection] = node.selectionSet.selections
        while let selection = stack.popLast() {
            switch selection {
            case .field(let field): if let child = field.selectionSet { stack.append(contentsOf: child.selections) }
            case .inlineFragment(let inline): stack.append(contentsOf: inline.selectionSet.selections)
            case .fragmentSpread(let spread): found.insert(spread.name.value)
            }
        }
        return found.sorted()
    }

    func fragmentModel(named name: String) -> FragmentModel? {
        if let model = fragmentModels[name] { return model }
        guard !fragmentsInProgress.contains(name), let (node, source) = fragmentNodes[name],
            let type = schema.type(named: node.typeCondition.name.value), type.isComposite
        else { return nil }
        // A chain of fragments, each spreading the next, nests lenses without nesting selections:
        // its length counts towards the depth, and the stack is checked.
        guard !isTooDeep(fragmentsInProgress.count) else {
            reportTooDeep(currentDefinition ?? SourceRange(file: source, span: node.name.span))
            return nil
        }
        fragmentsInProgress.insert(name)
        let enclosingDefinition = currentDefinition
        currentDefinition = SourceRange(file: source, span: node.name.span)
        defer {
            fragmentsInProgress.remove(name)
            currentDefinition = enclosingDefinition
        }
        let scope = DefinitionScope(
            name: name, isOperation: false, throwOnFieldError: BatonDirectives.throwsOnFieldError(node.directives),
            source: source)
        var groups = OrderedGroups()
        collect(node.selectionSet, parent: type, inherited: [], into: &groups, depth: 0)
        let savedProducers = producers
        producers = []
        let lens = buildLens(groups, parent: type, typeName: name, ancestors: [name], scope: scope, depth: 0)
        producers = savedProducers
        let model = FragmentModel(
            name: name, typeCondition: type.name, spreadAccessorName: LensNaming.spreadAccessorName(fragment: name),
            throwOnFieldError: scope.throwOnFieldError, rootCanBeNil: lens.bubblesOut,
            fragmentsSpread: directSpreads(of: name), usedTypes: usedTypeNames(lens: lens, variables: []),
            lens: lens, location: SourceRange(file: source, span: node.name.span),
            possibleTypes: schema.possibleTypes(of: type).map(\.name).sorted())
        fragmentModels[name] = model
        return model
    }

    func operationModel(_ node: OperationDefinition, source: SourceFile) -> OperationModel? {
        guard let name = node.name?.value else {
            diagnostics.append(
                .error(
                    "An operation needs a name for Baton to generate a type for it.",
                    rule: LensDiagnosticRule.anonymousOperation, file: source,
                    span: Span(start: node.span.start, end: node.span.start)))
            return nil
        }
        guard let root = schema.rootType(for: node.operation) else { return nil }
        currentDefinition = SourceRange(file: source, span: node.name?.span ?? node.span)
        let scope = DefinitionScope(
            name: name, isOperation: true, throwOnFieldError: BatonDirectives.throwsOnFieldError(node.directives),
            source: source)
        var groups = OrderedGroups()
        collect(node.selectionSet, parent: root, inherited: [], into: &groups, depth: 0)
        producers = []
        let lens = buildLens(groups, parent: root, typeName: name, ancestors: [name], scope: scope, depth: 0)
        for definition in node.variableDefinitions
        where LensModelBuilder.listDepth(TypeRef(definition.type)) > LensModelBuilder.maximumListLevels
            || definition.defaultValue.map(LensModelBuilder.valueDepth).map({ $0 > LensModelBuilder.maximumValueDepth })
                == true
        {
            reportDeepValue(
                "The variable $\(definition.variable.name.value)", at: SourceRange(file: source, span: definition.span))
        }
        let variables = node.variableDefinitions.map { definition in
            VariableModel(
                name: definition.variable.name.value, type: TypeRef(definition.type),
                defaultValue: definition.defaultValue, location: SourceRange(file: source, span: definition.span))
        }
        let used = fragmentsUsed(by: node.selectionSet)
        var complete = true
        let text = DocumentText.text(
            operation: node, fragments: used.compactMap { fragmentNodes[$0]?.0 }, schema: schema, complete: &complete)
        if !complete { reportCut() }
        return OperationModel(
            name: name, kind: node.operation, rootType: root.name, variables: variables,
            throwOnFieldError: scope.throwOnFieldError, onError: options.onError, fragmentsUsed: used,
            documentText: text,
            normalization: normalization([node.selectionSet], parent: root, isRoot: true, depth: 0),
            usedTypes: usedTypeNames(lens: lens, variables: variables), lens: lens,
            location: SourceRange(file: source, span: node.name?.span ?? node.span))
    }

    // MARK: Collecting selections

    /// Adds the selections of `set` on `parent` to `groups`: fields by response key, spreads by
    /// fragment, inline fragments on a narrower type by type; inline fragments that always match
    /// are flattened into the parent with their conditions.
    ///
    /// `scope` is the type the selections are written on (fields are looked up on it): the lens's
    /// record type, or the wider type of an inline fragment flattened into it (`... on Node { id }`
    /// in a union's lens).
    func collect(
        _ set: SelectionSet, parent: NamedTypeDef, scope: NamedTypeDef? = nil, inherited: [Condition],
        into groups: inout OrderedGroups, depth: Int
    ) {
        guard depth <= LensModelBuilder.maximumDepth, depth < 8 || stackGuard.hasRoom() else {
            return reportCut()
        }
        let scope = scope ?? parent
        for selection in set.selections {
            switch selection {
            case .field(let field):
                let conditions = inherited + Self.conditions(field.directives)
                groups.add(
                    "field:" + field.responseKey,
                    Occurrence(node: .field(field, scopeType: scope), conditions: conditions, span: field.span))
            case .fragmentSpread(let spread):
                guard fragmentNodes[spread.name.value] != nil else { continue }
                let conditions = inherited + Self.conditions(spread.directives)
                groups.add(
                    "spread:" + spread.name.value,
                    Occurrence(node: .spread(spread), conditions: conditions, span: spread.span))
            case .inlineFragment(let inline):
                let conditions = inherited + Self.conditions(inline.directives)
                let condition = inline.typeCondition.flatMap { schema.type(named: $0.name.value) } ?? parent
                guard condition.isComposite else { continue }
                if alwaysMatches(parent: parent, condition: condition) {
                    collect(
                        inline.selectionSet, parent: parent, scope: inline.typeCondition == nil ? scope : condition,
                        inherited: conditions, into: &groups, depth: depth + 1)
                } else {
                    groups.add(
                        "type:" + condition.name,
                        Occurrence(
                            node: .inline(inline, condition: condition), conditions: conditions, span: inline.span))
                }
            }
        }
    }

    /// The presence conditions a selection's own directives add: `BatonSemantics`' decoding, with
    /// conditions that always hold (`@include(if: true)`, `@skip(if: false)`, `@defer(if: false)`)
    /// left out.
    static func conditions(_ directives: [Directive]) -> [Condition] {
        BatonDirectives.presence(directives).compactMap { condition in
            switch condition {
            case .include(let value):
                if case .boolean(true, _) = value { return nil }
                return .include(value)
            case .skip(let value):
                if case .boolean(false, _) = value { return nil }
                return .skip(value)
            case .deferred(let label, let value):
                if case .boolean(false, _)? = value { return nil }
                if case .boolean(true, _)? = value { return .deferred(label: label, condition: nil) }
                return .deferred(label: label, condition: value)
            }
        }
    }

    /// True when every record of `parent` is a `condition`: the same type, or a wider one.
    func alwaysMatches(parent: NamedTypeDef, condition: NamedTypeDef) -> Bool {
        if parent.name == condition.name { return true }
        let key = parent.name + " " + condition.name
        if let known = matchCache[key] { return known }
        let answer = Bubbling.alwaysMatches(parent, condition, in: schema)
        matchCache[key] = answer
        return answer
    }

    /// The names of the object types a record of `type` can be.
    func possibleNames(_ type: NamedTypeDef) -> Set<String> {
        if let known = possibleTypeNames[type.name] { return known }
        let names = Set(schema.possibleTypes(of: type).map(\.name))
        possibleTypeNames[type.name] = names
        return names
    }

    /// The concrete types a record of `parent` can be when it is also a `condition`, sorted.
    func matchingTypes(parent: NamedTypeDef, condition: NamedTypeDef) -> [String] {
        possibleNames(parent).intersection(possibleNames(condition)).sorted()
    }

    // MARK: Building lenses

    func buildLens(
        _ groups: OrderedGroups, parent: NamedTypeDef, typeName: String, ancestors: Set<String>,
        scope: DefinitionScope, depth: Int, enclosingConditions: [[Condition]] = []
    ) -> Lens {
        let enclosingKey = Set(enclosingConditions.map(Self.key))
        var accessors: [Accessor] = []
        // Nested type names also avoid the lens's accessor names: in Swift a member and a nested
        // type of one name cannot share a scope.
        var siblingTypeNames = Set(groups.groups.compactMap { accessorName(of: $0) })
        var firstByName: [String: (SourceRange?, String)] = [:]
        for group in groups.groups {
            guard
                let (accessor, description) = buildAccessor(
                    group, parent: parent, ancestors: ancestors, siblingTypeNames: &siblingTypeNames, scope: scope,
                    depth: depth, enclosingKey: enclosingKey)
            else { continue }
            if let (otherLocation, otherDescription) = firstByName[accessor.name] {
                var notes: [DiagnosticNote] = []
                if let location = otherLocation {
                    notes.append(
                        DiagnosticNote(
                            message:
                                "\(otherDescription.prefix(1).uppercased())\(otherDescription.dropFirst()) is here.",
                            range: location))
                }
                diagnostics.append(
                    Diagnostic(
                        .error,
                        "The accessor \"\(accessor.name)\" of \(description) conflicts with the accessor of \(otherDescription) in the same lens; rename one of them (an alias, or the fragment's name).",
                        rule: LensDiagnosticRule.accessorNameConflict, range: accessor.location, notes: notes))
            } else {
                firstByName[accessor.name] = (accessor.location, description)
            }
            accessors.append(accessor)
        }
        return Lens(typeName: typeName, recordType: parent.name, accessors: accessors)
    }

    /// The name the accessor of `group` will have.
    func accessorName(of group: OccurrenceGroup) -> String? {
        switch group.occurrences.first?.node {
        case .field(let field, _)?: field.responseKey
        case .spread(let spread)?: LensNaming.spreadAccessorName(fragment: spread.name.value)
        case .inline(_, let condition)?: LensNaming.typeConditionAccessorName(type: condition.name)
        case nil: nil
        }
    }

    /// The accessor for one group, and a description of it for messages.
    func buildAccessor(
        _ group: OccurrenceGroup, parent: NamedTypeDef, ancestors: Set<String>, siblingTypeNames: inout Set<String>,
        scope: DefinitionScope, depth: Int, enclosingKey: Set<String>
    ) -> (Accessor, String)? {
        guard let first = group.occurrences.first else { return nil }
        let locations = group.occurrences.map { SourceRange(file: scope.source, span: $0.span) }
        var conditions = Self.disjunction(group.occurrences.map(\.conditions))
        // Conditions inherited from an enclosing accessor's occurrences say nothing new when they
        // are exactly that accessor's own.
        if !enclosingKey.isEmpty && Set(conditions.map(Self.key)) == enclosingKey { conditions = [] }
        switch first.node {
        case .field(let field, let scopeType):
            return buildFieldAccessor(
                group, field: field, scopeType: scopeType, conditions: conditions, locations: locations,
                ancestors: ancestors, siblingTypeNames: &siblingTypeNames, scope: scope, depth: depth
            ).map { ($0, "the field \"\(field.responseKey)\"") }
        case .spread(let spread):
            guard let fragment = fragmentModel(named: spread.name.value),
                let condition = schema.type(named: fragment.typeCondition)
            else { return nil }
            let narrower = !alwaysMatches(parent: parent, condition: condition)
            let optional = narrower || !conditions.isEmpty || fragment.rootCanBeNil
            let accessor = Accessor(
                name: fragment.spreadAccessorName,
                reads: .parentRecord(
                    ParentRecordRead(
                        typeCondition: fragment.typeCondition,
                        matchingTypes: narrower ? matchingTypes(parent: parent, condition: condition) : nil)),
                base: .fragment(FragmentBase(name: fragment.name, typeCondition: fragment.typeCondition)),
                levels: [ValueLevel(schemaNullable: false, isOptional: optional)], conditions: conditions,
                receivesBubbledNull: fragment.rootCanBeNil, locations: locations)
            return (accessor, "the spread of \(fragment.name)")
        case .inline(_, let condition):
            guard !isTooDeep(depth) else {
                reportTooDeep(locations.first)
                return nil
            }
            let name = LensNaming.typeConditionAccessorName(type: condition.name)
            let typeName = LensNaming.nestedTypeName(accessor: name, taken: ancestors.union(siblingTypeNames))
            siblingTypeNames.insert(typeName)
            let sameConditions = Set(group.occurrences.map { Self.key($0.conditions) }).count == 1
            var children = OrderedGroups()
            for occurrence in group.occurrences {
                guard case .inline(let inline, _) = occurrence.node else { continue }
                collect(
                    inline.selectionSet, parent: condition, inherited: sameConditions ? [] : occurrence.conditions,
                    into: &children, depth: depth + 1)
            }
            producers.append((name, false))
            let lens = buildLens(
                children, parent: condition, typeName: typeName, ancestors: ancestors.union([typeName]), scope: scope,
                depth: depth + 1, enclosingConditions: sameConditions ? [] : conditions)
            producers.removeLast()
            let accessor = Accessor(
                name: name,
                reads: .parentRecord(
                    ParentRecordRead(
                        typeCondition: condition.name,
                        matchingTypes: matchingTypes(parent: parent, condition: condition))),
                base: .lens(lens), levels: [ValueLevel(schemaNullable: false, isOptional: true)],
                conditions: conditions,
                receivesBubbledNull: lens.bubblesOut, locations: locations)
            return (accessor, "the inline fragment on \(condition.name)")
        }
    }

    func buildFieldAccessor(
        _ group: OccurrenceGroup, field: Field, scopeType: NamedTypeDef, conditions: [[Condition]],
        locations: [SourceRange], ancestors: Set<String>, siblingTypeNames: inout Set<String>, scope: DefinitionScope,
        depth: Int
    ) -> Accessor? {
        let fieldName = field.name.value
        let definition: FieldDef
        if fieldName == "__typename" {
            definition = FieldDef(
                name: fieldName, description: nil, arguments: [], type: .nonNull(.named("String")),
                deprecationReason: nil, directives: [], location: nil)
        } else {
            guard let found = scopeType.field(named: fieldName) else { return nil }
            definition = found
        }
        guard let named = schema.type(named: definition.type.namedType), named.isOutputType else { return nil }

        let fields: [Field] = group.occurrences.compactMap {
            if case .field(let field, _) = $0.node { return field }
            return nil
        }
        // Validation made every selection of the key agree; the first says it for all.
        let required = fields.lazy.compactMap { BatonDirectives.required(in: $0.directives) }.first.map {
            $0.action ?? .silent
        }
        let catchMode = fields.lazy.compactMap { BatonDirectives.catch(in: $0.directives) }.first.map {
            $0.target ?? .result
        }

        var levels = Self.levels(definition.type)
        // Generated code nests a type, a decoder and a plan per list level; real schemas use a
        // few, and a hostile one could use as many as the parser allows.
        guard levels.count <= LensModelBuilder.maximumListLevels else {
            diagnostics.append(
                Diagnostic(
                    .error,
                    "The type of \(field.responseKey) nests lists more than "
                        + "\(LensModelBuilder.maximumListLevels) levels deep; "
                        + "Baton cannot generate a lens for it.",
                    rule: LensDiagnosticRule.nestingTooDeep, range: locations.first))
            return nil
        }
        let base: AccessorBase
        var childBubbles = false
        switch named.kind {
        case .scalar:
            let mapping = named.isBuiltInScalar ? nil : options.customScalars[named.name]
            base = .scalar(ScalarBase(name: named.name, isBuiltIn: named.isBuiltInScalar, mapping: mapping))
        case .enumType:
            base = .enumeration(named.name)
        case .object, .interface, .union:
            guard !isTooDeep(depth) else {
                reportTooDeep(locations.first)
                return nil
            }
            let typeName = LensNaming.nestedTypeName(
                accessor: field.responseKey, taken: ancestors.union(siblingTypeNames))
            siblingTypeNames.insert(typeName)
            let sameConditions = Set(group.occurrences.map { Self.key($0.conditions) }).count == 1
            var children = OrderedGroups()
            for occurrence in group.occurrences {
                guard case .field(let occurrenceField, _) = occurrence.node, let set = occurrenceField.selectionSet
                else {
                    continue
                }
                collect(
                    set, parent: named, inherited: sameConditions ? [] : occurrence.conditions, into: &children,
                    depth: depth + 1)
            }
            producers.append(
                (field.responseKey, Bubbling.passesNullOn(required: required, type: definition.type)))
            let lens = buildLens(
                children, parent: named, typeName: typeName, ancestors: ancestors.union([typeName]), scope: scope,
                depth: depth + 1, enclosingConditions: sameConditions ? [] : conditions)
            producers.removeLast()
            childBubbles = lens.bubblesOut
            base = .lens(lens)
        case .inputObject:
            return nil
        }

        // Optionality, level by level, in the order the guide states the rules.
        var semanticNonNull: [Int]?
        if scope.throwOnFieldError, let declaredLevels = BatonDirectives.semanticNonNullLevels(of: definition) {
            let declared = declaredLevels.map(\.level)
            var changed = false
            for level in declared where level >= 0 && level < levels.count && levels[level].isOptional {
                levels[level].isOptional = false
                changed = true
            }
            if changed { semanticNonNull = Array(Set(declared)).sorted() }
        }
        let last = levels.count - 1
        if case .scalar(let scalar) = base, scalar.mapping != nil, !scope.throwOnFieldError {
            // A text that does not convert reads nil.
            levels[last].isOptional = true
        }
        if required != nil { levels[0].isOptional = false }
        if childBubbles && !(last == 0 && required != nil) { levels[last].isOptional = true }
        if catchMode == .null { levels[0].isOptional = true }
        if !conditions.isEmpty { levels[0].isOptional = true }

        checkArguments(field, file: scope.source)
        return Accessor(
            name: field.responseKey,
            reads: .field(
                FieldRead(
                    fieldName: fieldName,
                    arguments: field.arguments.map { ArgumentModel(name: $0.name.value, value: $0.value) }.sorted {
                        $0.name < $1.name
                    }, schemaType: definition.type, parentType: scopeType.name)),
            base: base, levels: levels,
            required: required.map {
                RequiredEffect(action: $0, bubblesTo: $0 == .throwError ? nil : bubbleTarget(scope))
            },
            catchMode: catchMode,
            conditions: conditions, semanticNonNull: semanticNonNull, underThrowOnFieldError: scope.throwOnFieldError,
            receivesBubbledNull: childBubbles, locations: locations)
    }

    /// A value or a type too deeply nested for the generators, reported at `range` (or the
    /// definition being built).
    func reportDeepValue(_ what: String, at range: SourceRange?) {
        let range = range ?? currentDefinition
        reportedTooDeepInDefinition = true
        let rule = LensDiagnosticRule.nestingTooDeep
        if let range, diagnostics.contains(where: { $0.rule == rule && $0.range == range }) { return }
        diagnostics.append(
            Diagnostic(
                .error,
                "\(what) nests lists and objects more than \(LensModelBuilder.maximumValueDepth) levels deep "
                    + "(or its type more than \(LensModelBuilder.maximumListLevels) lists); Baton cannot generate code for it.",
                rule: rule, range: range))
    }

    /// Reports arguments of `field` whose values nest too deeply.
    func checkArguments(_ field: Field, file: SourceFile?) {
        if file == nil && reportedTooDeepInDefinition { return }
        for argument in field.arguments
        where LensModelBuilder.valueDepth(argument.value) > LensModelBuilder.maximumValueDepth {
            reportDeepValue(
                "The argument \(argument.name.value)", at: file.map { SourceRange(file: $0, span: argument.span) })
        }
    }

    /// Selections of the current definition left out for their depth: reported at the
    /// definition unless an accessor of it was already reported too deep.
    func reportCut() {
        if !reportedTooDeepInDefinition { reportTooDeep(currentDefinition) }
    }

    func reportTooDeep(_ range: SourceRange?) {
        reportedTooDeepInDefinition = true
        let rule = LensDiagnosticRule.nestingTooDeep
        if let range, diagnostics.contains(where: { $0.rule == rule && $0.range == range }) { return }
        diagnostics.append(
            Diagnostic(
                .error,
                "Selections are nested more than \(LensModelBuilder.maximumDepth) levels deep (or deeper than this thread's stack allows); Baton stops building the lens here.",
                rule: LensDiagnosticRule.nestingTooDeep, range: range))
    }

    // MARK: Directives and types

    /// The schema's nullability per level, outermost first.
    static func levels(_ type: TypeRef) -> [ValueLevel] {
        var result: [ValueLevel] = []
        var current = type
        while true {
            var nullable = true
            if case .nonNull(let inner) = current {
                nullable = false
                current = inner
            }
            result.append(ValueLevel(schemaNullable: nullable, isOptional: nullable))
            guard case .list(let inner) = current else { break }
            current = inner
        }
        return result
    }

    /// Conditions of several occurrences combined: empty when one is unconditional; otherwise
    /// each distinct conjunction once, in order of first appearance.
    static func disjunction(_ conjunctions: [[Condition]]) -> [[Condition]] {
        if conjunctions.contains(where: \.isEmpty) { return [] }
        var seen: Set<String> = []
        var result: [[Condition]] = []
        for conjunction in conjunctions where seen.insert(key(conjunction)).inserted {
            result.append(conjunction)
        }
        return result
    }

    static func key(_ conjunction: [Condition]) -> String {
        conjunction.map(\.text).joined(separator: " ")
    }

    // MARK: Bubbling

    /// Where a `@required(action: NONE | LOG)` null in the lens being built stops: up through
    /// enclosing accessors that are themselves non-list `@required(action: NONE | LOG)`, to the
    /// first that is not, or to the definition's root.
    func bubbleTarget(_ scope: DefinitionScope) -> BubbleTarget {
        var position = producers.count - 1
        while position >= 0, producers[position].keepsBubbling { position -= 1 }
        if position >= 0 { return .accessor(path: producers[0...position].map(\.name)) }
        if scope.isOperation { return .operationRoot }
        return .fragmentSpread(fragment: scope.name, accessorName: LensNaming.spreadAccessorName(fragment: scope.name))
    }

    // MARK: Fragments used

    /// The fragments `set` spreads, directly or through other fragments, sorted.
    func fragmentsUsed(by set: SelectionSet) -> [String] {
        var found: Set<String> = []
        var pending: [SelectionSet] = [set]
        while let next = pending.popLast() {
            var stack: [Selection] = next.selections
            while let selection = stack.popLast() {
                switch selection {
                case .field(let field):
                    if let child = field.selectionSet { stack.append(contentsOf: child.selections) }
                case .inlineFragment(let inline):
                    stack.append(contentsOf: inline.selectionSet.selections)
                case .fragmentSpread(let spread):
                    let name = spread.name.value
                    if let (fragment, _) = fragmentNodes[name], found.insert(name).inserted {
                        pending.append(fragment.selectionSet)
                    }
                }
            }
        }
        return found.sorted()
    }

    // MARK: Normalization

    func normalization(_ sets: [SelectionSet], parent: NamedTypeDef, isRoot: Bool, depth: Int)
        -> [NormalizationSelection]
    {
        guard depth <= LensModelBuilder.maximumDepth, depth < 8 || stackGuard.hasRoom() else {
            reportCut()
            return []
        }
        var fieldOrder: [String] = []
        var fieldsByKey: [String: (FieldDef, Field, [SelectionSet])] = [:]
        var conditionOrder: [String] = []
        var conditionSets: [String: (NamedTypeDef, [SelectionSet])] = [:]
        var visitedFragments: Set<String> = []

        // Fragments and inline fragments that always match are merged into this record with a
        // work list, not recursion: a chain of fragments is as long as the document makes it.
        var work: [(selections: [Selection], scope: NamedTypeDef, next: Int)] = []
        func add(_ set: SelectionSet, scope: NamedTypeDef) {
            work.append((set.selections, scope, 0))
            while let top = work.indices.last {
                guard work[top].next < work[top].selections.count else {
                    work.removeLast()
                    continue
                }
                let selection = work[top].selections[work[top].next]
                let scope = work[top].scope
                work[top].next += 1
                switch selection {
                case .field(let field):
                    let key = field.responseKey
                    if var existing = fieldsByKey[key] {
                        if let child = field.selectionSet { existing.2.append(child) }
                        fieldsByKey[key] = existing
                        continue
                    }
                    let definition: FieldDef
                    if field.name.value == "__typename" {
                        definition = FieldDef(
                            name: "__typename", description: nil, arguments: [], type: .nonNull(.named("String")),
                            deprecationReason: nil, directives: [], location: nil)
                    } else {
                        guard let found = scope.field(named: field.name.value) ?? parent.field(named: field.name.value)
                        else { continue }
                        definition = found
                    }
                    fieldOrder.append(key)
                    fieldsByKey[key] = (definition, field, field.selectionSet.map { [$0] } ?? [])
                case .inlineFragment(let inline):
                    let condition = inline.typeCondition.flatMap { schema.type(named: $0.name.value) } ?? parent
                    addConditional(
                        inline.selectionSet, condition: condition,
                        scope: inline.typeCondition == nil ? scope : condition)
                case .fragmentSpread(let spread):
                    guard let (fragment, _) = fragmentNodes[spread.name.value],
                        let condition = schema.type(named: fragment.typeCondition.name.value)
                    else { continue }
                    // A fragment spread twice on the same path adds nothing new.
                    guard visitedFragments.insert(spread.name.value).inserted else { continue }
                    addConditional(fragment.selectionSet, condition: condition, scope: condition)
                }
            }
        }
        func addConditional(_ set: SelectionSet, condition: NamedTypeDef, scope: NamedTypeDef) {
            if alwaysMatches(parent: parent, condition: condition) {
                work.append((set.selections, scope, 0))  // merged next, before the rest of this set
            } else {
                if conditionSets[condition.name] == nil {
                    conditionOrder.append(condition.name)
                    conditionSets[condition.name] = (condition, [])
                }
                conditionSets[condition.name]?.1.append(set)
            }
        }
        for set in sets { add(set, scope: parent) }

        var result: [NormalizationSelection] = []
        if !isRoot && fieldsByKey["__typename"] == nil {
            result.append(
                .field(
                    NormalizationField(
                        responseKey: "__typename", fieldName: "__typename", arguments: [],
                        schemaType: .nonNull(.named("String")), selections: [])))
        }
        for key in fieldOrder {
            guard let (definition, field, childSets) = fieldsByKey[key] else { continue }
            var selections: [NormalizationSelection] = []
            if let named = schema.type(named: definition.type.namedType), named.isComposite {
                selections = normalization(childSets, parent: named, isRoot: false, depth: depth + 1)
            }
            checkArguments(field, file: nil)
            result.append(
                .field(
                    NormalizationField(
                        responseKey: key, fieldName: field.name.value,
                        arguments: field.arguments.map { ArgumentModel(name: $0.name.value, value: $0.value) }.sorted {
                            $0.name < $1.name
                        }, schemaType: definition.type, selections: selections)))
        }
        for name in conditionOrder {
            guard let (condition, conditionalSets) = conditionSets[name] else { continue }
            // Inside the type condition the record is known to be a `condition`; its own fields
            // (not `__typename` again) are normalized against that type.
            let inner = normalization(conditionalSets, parent: condition, isRoot: true, depth: depth + 1)
            result.append(
                .typeCondition(
                    typeCondition: name, matchingTypes: matchingTypes(parent: parent, condition: condition),
                    selections: inner))
        }
        return result
    }

    // MARK: Used types

    func usedTypeNames(lens: Lens, variables: [VariableModel]) -> UsedTypeNames {
        var enums: Set<String> = []
        var inputs: Set<String> = []
        var scalars: Set<String> = []
        var stack: [Lens] = [lens]
        while let next = stack.popLast() {
            for accessor in next.accessors {
                switch accessor.base {
                case .scalar(let scalar): if !scalar.isBuiltIn { scalars.insert(scalar.name) }
                case .enumeration(let name): enums.insert(name)
                case .lens(let child): stack.append(child)
                case .fragment: break
                }
            }
        }
        var pendingTypes = variables.map(\.type.namedType)
        while let name = pendingTypes.popLast() {
            guard let type = schema.type(named: name) else { continue }
            switch type.kind {
            case .enumType: enums.insert(name)
            case .scalar: if !type.isBuiltInScalar { scalars.insert(name) }
            case .inputObject:
                if inputs.insert(name).inserted {
                    pendingTypes.append(contentsOf: type.inputFields.map(\.type.namedType))
                }
            default: break
            }
        }
        return UsedTypeNames(enums: enums.sorted(), inputObjects: inputs.sorted(), customScalars: scalars.sorted())
    }

    func usedTypes(_ names: UsedTypeNames) -> UsedTypes {
        let enums = names.enums.compactMap { schema.type(named: $0) }.map { type in
            EnumModel(
                name: type.name, description: type.description,
                values: type.enumValues.map {
                    EnumValueModel(name: $0.name, description: $0.description, deprecationReason: $0.deprecationReason)
                })
        }
        let inputs = names.inputObjects.compactMap { schema.type(named: $0) }.map { type in
            for field in type.inputFields
            where LensModelBuilder.listDepth(field.type) > LensModelBuilder.maximumListLevels
                || field.defaultValue.map(LensModelBuilder.valueDepth).map({ $0 > LensModelBuilder.maximumValueDepth })
                    == true
            {
                reportDeepValue("The input field \(type.name).\(field.name)", at: field.location?.range)
            }
            return InputObjectModel(
                name: type.name, description: type.description, isOneOf: type.isOneOf,
                fields: type.inputFields.map {
                    InputFieldModel(
                        name: $0.name, description: $0.description, type: $0.type, defaultValue: $0.defaultValue,
                        deprecationReason: $0.deprecationReason)
                })
        }
        let scalars = names.customScalars.compactMap { schema.type(named: $0) }.map { type in
            var url: String?
            if case .string(let string)? = type.directives.first(where: { $0.name == "specifiedBy" })?.argument("url") {
                url = string.value
            }
            return CustomScalarModel(
                name: type.name, description: type.description, specifiedByURL: url,
                mapping: options.customScalars[type.name])
        }
        return UsedTypes(enums: enums, inputObjects: inputs, customScalars: scalars)
    }
}

extension Lens {
    /// True when a `@required(action: NONE | LOG)` null inside makes the whole lens nil.
    package var bubblesOut: Bool {
        accessors.contains { accessor in
            accessor.required?.action.bubbles == true
        }
    }
}

extension UsedTypeNames {
    func union(_ other: UsedTypeNames) -> UsedTypeNames {
        UsedTypeNames(
            enums: Array(Set(enums).union(other.enums)).sorted(),
            inputObjects: Array(Set(inputObjects).union(other.inputObjects)).sorted(),
            customScalars: Array(Set(customScalars).union(other.customScalars)).sorted())
    }
}
