import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// The policy of one definition, inherited by every accessor inside it (not by spreads' fragments).
struct DefinitionScope {
    var name: String
    var isOperation: Bool
    var throwOnFieldError: Bool
    var source: SourceFile
}

/// The state of one model build: the documents' fragments, the models built so far, the bubble
/// tracker, caches, and the diagnostics. Each job of the build is an extension in its own file.
final class LensBuildContext {
    let schema: GraphQLSchema
    let documents: [Document]
    let options: LensModelOptions
    var diagnostics: [Diagnostic] = []
    /// The definitions of the last build, reused where unchanged, and kept from this one (`LensModelCache`).
    var cache: LensModelCache?
    /// Fragment definitions by name (first wins; duplicates are validation's to report) and their files.
    var fragmentNodes: [String: (FragmentDefinition, SourceFile)] = [:]
    var fragmentModels: [String: FragmentModel] = [:]
    var fragmentsInProgress: Set<String> = []
    /// Where a `@required` null in the lens being built goes.
    var bubbles = BubbleTracker()
    /// The enums and custom scalars the accessors of the definition being built read.
    var lensTypes = LensTypeNames()
    /// Possible type names per abstract type, and `alwaysMatches` answers, computed once.
    var possibleTypeNames: [ObjectIdentifier: Set<String>] = [:]
    /// An abstract type's object types, sorted, by the type's name: what each abstract lens keeps
    /// (`Lens.possibleTypes`), sorted once per type and shared by every lens of it.
    var sortedPossibleTypes: [String: [String]] = [:]
    var matchCache: [TypePair: Bool] = [:]
    /// Each fragment's part of the operation texts that send it, printed once (`sentText(ofFragment:)`).
    var sentFragmentTexts: [String: SentFragmentText?] = [:]
    /// `someFragmentNestsPastText`, computed once.
    var fragmentsNestPastText: Bool?
    /// The spread accessor's name of each fragment this context built: what `check` reads of a
    /// spread, without copying the fragment's model.
    var spreadAccessorNames: [String: String] = [:]
    /// Each fragment's own spreads (`directSpreads(of:)`), by name: found once per build.
    var directSpreadsByName: [String: [String]] = [:]
    /// Each record type's key fields (`recordKeys.fields(of:)`), by the type's identity.
    var keyFieldNames: [ObjectIdentifier: [String]?] = [:]
    /// The base of each scalar type's accessors (`scalarBase(of:)`), by the type's identity.
    var scalarBases: [ObjectIdentifier: ScalarBase] = [:]
    /// The schema-wide decisions (`PlanDecisions`): made on first use, or given by the caller,
    /// which made them once for many builds (`LensModelBuilder.build`, `checkDiagnostics`) and for
    /// the `key-fields` rule; the contexts of operations built on other threads take this one's.
    lazy var decisions = PlanDecisions(schema: schema, options: options)
    /// `check`'s screen of each definition's selections (`RefusalScreen`), made on first use and
    /// used in place (not a `lazy var`, whose get and set would copy it, and so its buffers, at
    /// each definition).
    var refusalScreen: RefusalScreen?
    /// An inline fragment's accessor name by its type condition (nil for a type the schema lacks),
    /// for the screen.
    var inlineAccessorNames: [String: String?] = [:]

    /// True when `check` (`checksOnly`) can skip the walk of a definition's selections `set`:
    /// `RefusalScreen` finds nothing in them that could refuse, so the walk would report nothing
    /// and keep a lens without accessors (`lensWithoutAccessors`).
    func skipsWalk(of set: SelectionSet) -> Bool {
        guard options.checksOnly else { return false }
        if refusalScreen == nil { refusalScreen = decisions.screen }
        return refusalScreen!.clears(
            set,
            spreadAccessorName: { self.spreadAccessorNames[$0] ?? self.fragmentModels[$0]?.spreadAccessorName },
            inlineAccessorName: { condition in
                if let known = self.inlineAccessorNames[condition] { return known }
                let name = self.schema.type(named: condition).map {
                    LensNaming.typeConditionAccessorName(type: $0.name)
                }
                self.inlineAccessorNames[condition] = .some(name)
                return name
            })
    }

    /// `recordKeys.fields(of: type.name)`, looked up once per type.
    func keyFields(of type: NamedTypeDef) -> [String]? {
        if let known = keyFieldNames[ObjectIdentifier(type)] { return known }
        let found = recordKeys.fields(of: type.name)
        keyFieldNames[ObjectIdentifier(type)] = .some(found)
        return found
    }
    /// The stack of the thread building the model: a debug build spends over 10 KiB per lens
    /// level, so a 512 KiB thread (Dispatch, Swift Concurrency) runs out long before
    /// `maximumDepth`. Created on first use, on the building thread.
    lazy var stackGuard = StackGuard()

    /// The name of the definition being built, where selections cut short are reported.
    var currentDefinition: SourceRange? {
        didSet { reportedTooDeepInDefinition = false }
    }
    var reportedTooDeepInDefinition = false

    /// Whether a lens at `depth` is one level too many: past `maximumDepth`, or too close to
    /// the end of the thread's stack.
    func isTooDeep(_ depth: Int) -> Bool {
        depth >= LensModelBuilder.maximumDepth || (depth >= 8 && !stackGuard.hasRoom())
    }

    /// Each type's record key, decided once per build (`RecordKeyPolicy`; `check` reports its
    /// diagnostics through `key-fields`).
    lazy var recordKeys: RecordKeys = decisions.recordKeys

    /// The declared keys other than `id` of the object types a field of `typeName` returns.
    func customRecordKeys(of typeName: String) -> [RecordKeyModel] {
        let keys = recordKeys
        guard !keys.isEmpty, let type = schema.types[typeName], type.isComposite else { return [] }
        let objects = type.isAbstract ? schema.possibleTypes(of: type).map(\.name).sorted() : [type.name]
        return objects.compactMap { name in
            guard keys.isCustom(name), let fields = keys.objects[name] else { return nil }
            return RecordKeyModel(typeName: name, fields: fields)
        }
    }

    /// How many threads may build operations (`operationsBuiltInParallel`).
    var workers = 1

    init(schema: GraphQLSchema, documents: [Document], options: LensModelOptions) {
        self.schema = schema
        self.documents = documents
        self.options = options
        // Made at its size, one hash per fragment: written from the last definition to the first, so
        // that the first of a name is the one kept.
        var count = 0
        for document in documents {
            for definition in document.definitions { if case .fragment = definition { count += 1 } }
        }
        var nodes: [String: (FragmentDefinition, SourceFile)] = [:]
        nodes.reserveCapacity(count)
        for document in documents.reversed() {
            for definition in document.definitions.reversed() {
                if case .fragment(let fragment) = definition {
                    nodes[fragment.name.value] = (fragment, document.source)
                }
            }
        }
        fragmentNodes = nodes
    }

    /// A context for building operations on another thread: the fragments as `shared` has them
    /// built, caches and diagnostics of its own.
    init(_ shared: SharedFragments) {
        self.schema = shared.schema
        self.documents = shared.documents
        self.options = shared.options
        self.decisions = shared.decisions
        self.fragmentNodes = shared.nodes
        self.fragmentModels = shared.models
        self.directSpreadsByName = shared.spreads
    }

    func run(outside given: [DefinitionSummary] = [], block offered: SummaryBlock? = nil) -> (LensModel, [Diagnostic]) {
        // Fragments before the fragments that spread them, so building one never recurses into
        // another: a chain of thousands of fragments cannot overflow the stack.
        var reused = 0
        let fragmentOrder = fragmentBuildOrder()
        for name in fragmentsBuiltInParallel(fragmentOrder) ? [] : fragmentOrder {
            if let model = cachedFragment(name) {
                fragmentModels[name] = model
                reused += 1
            } else {
                _ = fragmentModel(named: name)
            }
        }
        var planned = PlannedOperations()
        var built: [(OperationDefinition, OperationModel)] = []
        let builtInParallel = operationsBuiltInParallel()
        for document in documents {
            for definition in document.definitions {
                guard case .operation(let operation) = definition else { continue }
                if let (model, reported) = builtInParallel[ObjectIdentifier(operation)] {
                    // As if built here: its diagnostics in the order one thread reports them.
                    diagnostics += reported
                    if let model { planned.keep(model) }
                    continue
                }
                let cached = cachedOperation(operation)
                if cached != nil { reused += 1 }
                guard let model = cached ?? operationModel(operation, source: document.source) else { continue }
                if cache != nil { built.append((operation, model)) }
                planned.keep(model)
            }
        }
        if let cache {
            cache.reused = reused
            cache.built = fragmentModels.count + built.count - reused
            keepDefinitions(built)
        }
        // Each `@refetchable` fragment's query, built as any operation is.
        for (query, source, fragment) in refetchQueries() {
            guard var model = operationModel(query, source: source) else { continue }
            model.refetchableFragment = fragment
            planned.keep(model)
        }
        let plannedOperationCount = planned.kept.count
        // The block stands when the definitions planned here are named and typed as recorded (`SummaryBlock`);
        // otherwise its definitions join as stand-ins, and every name is claimed.
        var block = offered
        var outside = given
        if let offered {
            let summaries = LensModel(operations: planned.kept, fragments: Array(fragmentModels.values)).summaries
            if options.checksOnly || !SummaryBlock.namesAndTypesAgree(offered.recordedPlanned, summaries) {
                block = nil
                outside += offered.all
            }
        }
        let plannedFragmentNames = outside.isEmpty ? [] : Array(fragmentModels.keys)
        let summarized = addSummaries(outside, to: &planned)
        var operations = (consume planned).kept
        // Sorted by moving each model once (a model is large, and a project's can be tens of thousands).
        let order = operations.indices.sorted { operations[$0].name < operations[$1].name }
        operations = order.map { operations[$0] }
        if !options.checksOnly { markOptimisticBuilders(&operations, skipping: summarized.operations) }
        let fragments = fragmentModels.keys.sorted().compactMap { fragmentModels[$0] }
        finishDefinitions(operations) { self.fragmentModels[$0]?.location }
        if options.checksOnly {
            return (LensModel(operations: operations, fragments: fragments, types: UsedTypes()), diagnostics)
        }
        let names = UsedTypeNames.union(
            of: operations.map(\.usedTypes) + fragments.map(\.usedTypes) + (block.map { [$0.usedTypes] } ?? []))
        checkInputFields(names.inputObjects)
        if let stands = block {
            // As a fragment built here has them (`fragmentModel(named:)`), once per type condition.
            var possible: [String: [String]] = [:]
            // Fragments next to each other in name order often share their type condition: compared as bytes.
            var last: Int?
            for line in stands.fragments {
                if let last, stands.lines.sameTypeCondition(at: line, as: last) { continue }
                last = line
                let typeCondition = stands.lines.typeCondition(at: line)
                if possible[typeCondition] == nil { possible[typeCondition] = possibleTypeNames(typeCondition) }
            }
            block?.possibleTypes = possible
        }
        var model = DefinitionNaming.apply(
            to: LensModel(operations: operations, fragments: fragments, types: usedTypes(names)),
            reserved: options.reservedTypeNames, options: options.naming, recorded: block)
        model.summarized = summarized
        model.block = block
        if !outside.isEmpty {
            // Where the planned definitions went: the operations appended before the summaries, and the
            // fragments built here, found by name in the sorted list.
            var operationPositions: [Int] = []
            for (position, index) in order.enumerated() where index < plannedOperationCount {
                operationPositions.append(position)
            }
            var fragmentPositions: [Int] = []
            for name in plannedFragmentNames {
                var low = 0
                var high = model.fragments.count
                while low < high {
                    let middle = (low + high) / 2
                    if model.fragments[middle].name < name { low = middle + 1 } else { high = middle }
                }
                if low < model.fragments.count, model.fragments[low].name == name { fragmentPositions.append(low) }
            }
            model.plannedPositions = (operationPositions, fragmentPositions.sorted())
        }
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
        if let known = directSpreadsByName[name] { return known }
        guard let (node, _) = fragmentNodes[name] else { return [] }
        var found: Set<String> = []
        Self.forEachSpread(in: node.selectionSet) { found.insert($0.name.value) }
        let sorted = found.sorted()
        directSpreadsByName[name] = sorted
        return sorted
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
        let (enclosingBubbles, enclosingTypes) = (bubbles, lensTypes)
        (bubbles, lensTypes) = (BubbleTracker(), LensTypeNames())
        let lens = rootLens(node.selectionSet, parent: type, scope: scope).lens
        let types = lensTypes
        (bubbles, lensTypes) = (enclosingBubbles, enclosingTypes)
        // `check` keeps what a spread reads (name, type condition) and the refetch query; the
        // spreads, used types and possible types are for outputs only.
        let checksOnly = options.checksOnly
        var model = FragmentModel(
            name: name, typeCondition: type.name, spreadAccessorName: LensNaming.spreadAccessorName(fragment: name),
            throwOnFieldError: scope.throwOnFieldError, rootCanBeNil: lens.bubblesOut,
            fragmentsSpread: checksOnly ? [] : directSpreads(of: name),
            usedTypes: checksOnly ? UsedTypeNames() : usedTypeNames(lensTypes: types, variables: []),
            lens: lens, location: SourceRange(file: source, span: node.name.span),
            possibleTypes: checksOnly ? [] : sortedPossibleTypes(of: type))
        model.refetchable = refetchableModel(node, lens: lens)
        fragmentModels[name] = model
        spreadAccessorNames[name] = model.spreadAccessorName
        return model
    }

    /// The lens of a definition's selections `set` on `parent`, named after the definition: built
    /// by the walk, or, when `check` skips the walk (`skipsWalk(of:)`), kept without accessors
    /// (`screened`: then `set` nests fewer than `RefusalScreen.clearedLevels` levels).
    func rootLens(_ set: SelectionSet, parent: NamedTypeDef, scope: DefinitionScope) -> (lens: Lens, screened: Bool) {
        if skipsWalk(of: set) { return (lensWithoutAccessors(parent: parent, typeName: scope.name), true) }
        var groups = OrderedGroups()
        collect(set, parent: parent, inherited: .always, into: &groups, depth: 0)
        var ancestors = [scope.name]
        return (
            buildLens(groups, parent: parent, typeName: scope.name, ancestors: &ancestors, scope: scope, depth: 0),
            false
        )
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
        (bubbles, lensTypes) = (BubbleTracker(), LensTypeNames())
        let (lens, screened) = rootLens(node.selectionSet, parent: root, scope: scope)
        let types = lensTypes
        for definition in node.variableDefinitions
        where LensModelBuilder.listDepth(definition.type) > LensModelBuilder.maximumListLevels
            || definition.defaultValue.map(LensModelBuilder.valueDepth).map({ $0 > LensModelBuilder.maximumValueDepth })
                == true
        {
            reportDeepValue(
                "The variable $\(definition.variable.name.value)", at: SourceRange(file: source, span: definition.span))
        }
        // Which variables are client-only or hold connection IDs is for outputs only, and so are the
        // fragments used: `check` lists them only when one of them could make the text's transform
        // refuse (no fragment of the documents nests past `DocumentText.unguardedDepth`, as a
        // fragment's `fragmentsSpread` is empty with `checksOnly`).
        let checksOnly = options.checksOnly
        let used = checksOnly && !someFragmentNestsPastText ? [] : fragmentsUsed(by: node.selectionSet)
        let usedNodes = used.compactMap { fragmentNodes[$0]?.0 }
        let clientOnly = checksOnly ? [] : DocumentText.clientOnlyVariables(operation: node, fragments: usedNodes)
        // Only a defined variable is marked as holding connection IDs: without variables, nothing to look for.
        let connectionVariables =
            checksOnly || node.variableDefinitions.isEmpty
            ? [] : Self.connectionVariables(node.selectionSet, fragments: usedNodes)
        let variables = node.variableDefinitions.map { definition in
            var variable = VariableModel(
                name: definition.variable.name.value, type: TypeRef(definition.type),
                defaultValue: definition.defaultValue, location: SourceRange(file: source, span: definition.span))
            variable.isClientOnly = clientOnly.contains(variable.name)
            variable.holdsConnectionIDs = connectionVariables.contains(variable.name)
            return variable
        }
        var complete = true
        var text = ""
        var textParts: SentTextParts? = nil
        // Without the text (`check`), its transform is still made when it could refuse: only
        // selections nested past `DocumentText.unguardedDepth` can run out of stack while printing.
        if !options.checksOnly || Self.mayNestPastText(node.selectionSet, screened: screened)
            || usedNodes.contains(where: { Self.mayNestPastText($0.selectionSet, screened: false) })
        {
            if checksOnly {
                // Only the transform can refuse (it asks the stack); the printing cannot. It is run
                // building nothing, in the same frames.
                complete = DocumentText.fits(operation: node, fragments: usedNodes, stack: stackGuard)
            } else if let joined = sentTextFromParts(node, clientOnly: clientOnly, used: used) {
                (text, textParts) = joined
            } else {
                text = DocumentText.text(
                    operation: node, fragments: usedNodes, schema: schema, complete: &complete, stack: stackGuard,
                    keys: recordKeys)
            }
        }
        if !complete { reportCut() }
        return OperationModel(
            name: name, kind: node.operation, rootType: root.name, variables: variables,
            throwOnFieldError: scope.throwOnFieldError, onError: options.onError, fragmentsUsed: used,
            documentText: text,
            usedTypes: checksOnly ? UsedTypeNames() : usedTypeNames(lensTypes: types, variables: variables),
            lens: lens,
            location: SourceRange(file: source, span: node.name?.span ?? node.span),
            hashesDocumentText: !options.checksOnly, documentTextParts: textParts)
    }

    // MARK: Operations on several threads

    /// What a context on another thread needs of this one once every fragment is built.
    struct SharedFragments: Sendable {
        let schema: GraphQLSchema
        let documents: [Document]
        let options: LensModelOptions
        let decisions: PlanDecisions
        let nodes: [String: (FragmentDefinition, SourceFile)]
        let models: [String: FragmentModel]
        let spreads: [String: [String]]
    }

    /// The operations built on `workers` threads, each with the diagnostics it reported, by node;
    /// `run` takes them in the documents' order, as if it had built them, and builds the others.
    ///
    /// An operation depends only on the fragments, built before (each spread then reads its
    /// fragment's model), so each thread builds a contiguous share of them in a context of its
    /// own. Only what cannot depend on the thread is built there: every fragment must have been
    /// built, and the operation and every fragment must nest fewer selection levels than any
    /// stack check looks at (`isTooDeep` from lens depth 8, the document text's printer past
    /// `DocumentText.unguardedDepth`), since a thread's stack is not the calling thread's. Not
    /// with a cache (a watch session's builds are mostly reuse) or one worker.
    func operationsBuiltInParallel() -> [ObjectIdentifier: (OperationModel?, [Diagnostic])] {
        let levels = min(8, DocumentText.unguardedDepth + 1)
        guard workers > 1, cache == nil, fragmentModels.count == fragmentNodes.count,
            fragmentNodes.values.allSatisfy({ Self.nestingDepth($0.0.selectionSet) < levels })
        else { return [:] }
        var jobs: [(OperationDefinition, SourceFile)] = []
        for document in documents {
            for definition in document.definitions {
                guard case .operation(let operation) = definition, operation.name != nil,
                    Self.nestingDepth(operation.selectionSet) < levels
                else { continue }
                jobs.append((operation, document.source))
            }
        }
        guard jobs.count >= 2 else { return [:] }
        let shared = SharedFragments(
            schema: schema, documents: documents, options: options, decisions: decisions, nodes: fragmentNodes,
            models: fragmentModels, spreads: directSpreadsByName)
        let shares = min(jobs.count, workers * 4)
        let ranges = (0..<shares).map { jobs.count * $0 / shares..<jobs.count * ($0 + 1) / shares }
        let all = jobs
        let results = ParallelWork.map(ranges, workers: workers) { range -> [(OperationModel?, [Diagnostic])] in
            let context = LensBuildContext(shared)
            return range.map { index in
                let before = context.diagnostics.count
                let model = context.operationModel(all[index].0, source: all[index].1)
                return (model, Array(context.diagnostics[before...]))
            }
        }
        var found: [ObjectIdentifier: (OperationModel?, [Diagnostic])] = [:]
        for (job, result) in zip(jobs, results.joined()) { found[ObjectIdentifier(job.0)] = result }
        return found
    }

    /// Every fragment built on `workers` threads, level by level of the spread graph, as `run` would
    /// build them one after another in `order` (`fragmentBuildOrder()`); false, with nothing built,
    /// when they cannot be.
    ///
    /// A fragment's level is one more than the highest level of the fragments it spreads (0 for none):
    /// each level is built after the levels below it, its fragments shared among threads, each thread
    /// in a context of its own over the models built so far (`SharedFragments`), so a fragment reads
    /// the models of the fragments it spreads as one thread would. What else one thread carries from
    /// one fragment to the next cannot change a fragment's model or diagnostics: the caches
    /// (possible types, matches, key fields, scalar bases, sent texts, spreads, the screen) are
    /// answers computed once, the same whoever asks first; the bubbles, lens types and current
    /// definition are set anew for each fragment; a fragment spreading none in progress, the depth
    /// of fragments in progress is 0; `reportNesting`'s look at earlier diagnostics only matters
    /// past the depth where the builder asks the stack, which no fragment built here reaches. The
    /// models and spread accessor names go in by name, and the diagnostics, gathered per fragment,
    /// in `order`, as one thread reports them. Not with a cache, one worker, a cycle (invalid, cut
    /// where one thread meets it), or a fragment nesting as deep as the stack checks look at
    /// (`operationsBuiltInParallel`).
    func fragmentsBuiltInParallel(_ order: [String]) -> Bool {
        let deepest = min(8, DocumentText.unguardedDepth + 1)
        guard workers > 1, cache == nil, order.count >= 2, fragmentModels.isEmpty, diagnostics.isEmpty,
            fragmentNodes.values.allSatisfy({ Self.nestingDepth($0.0.selectionSet) < deepest })
        else { return false }
        // Positions in `order` by level; a fragment spreading one not yet placed is on a cycle.
        var level: [String: Int] = [:]
        level.reserveCapacity(order.count)
        var levels: [[Int]] = []
        for (position, name) in order.enumerated() {
            var own = 0
            for child in directSpreads(of: name) where fragmentNodes[child] != nil {
                guard let below = level[child] else { return false }
                own = max(own, below + 1)
            }
            level[name] = own
            if own == levels.count { levels.append([]) }
            levels[own].append(position)
        }
        var reported = [[Diagnostic]](repeating: [], count: order.count)
        for positions in levels {
            let shared = SharedFragments(
                schema: schema, documents: documents, options: options, decisions: decisions, nodes: fragmentNodes,
                models: fragmentModels, spreads: directSpreadsByName)
            let shares = min(positions.count, workers * 4)
            let ranges = (0..<shares).map { positions.count * $0 / shares..<positions.count * ($0 + 1) / shares }
            let names = positions.map { order[$0] }
            let results = ParallelWork.map(ranges, workers: workers) { range -> [(FragmentModel?, [Diagnostic])] in
                let context = LensBuildContext(shared)
                return range.map { index in
                    let before = context.diagnostics.count
                    let model = context.fragmentModel(named: names[index])
                    return (model, Array(context.diagnostics[before...]))
                }
            }
            for (position, (model, found)) in zip(positions, results.joined()) {
                reported[position] = found
                guard let model else { continue }
                fragmentModels[order[position]] = model
                spreadAccessorNames[order[position]] = model.spreadAccessorName
            }
        }
        for found in reported where !found.isEmpty { diagnostics += found }
        return true
    }

    /// True when `set` may nest its selections past `DocumentText.unguardedDepth` (where printing a
    /// text asks the stack). A set the screen cleared (`screened`) nests fewer than
    /// `RefusalScreen.clearedLevels` levels, so it is not walked again when that is within the text's
    /// unguarded depth (`screenedSetsStayUnguarded`).
    static func mayNestPastText(_ set: SelectionSet, screened: Bool) -> Bool {
        if screened, screenedSetsStayUnguarded { return false }
        return nestingDepth(set) > DocumentText.unguardedDepth
    }

    /// True when every selection set `RefusalScreen` clears nests no deeper than
    /// `DocumentText.unguardedDepth` (as `nestingDepth` counts levels).
    static let screenedSetsStayUnguarded = RefusalScreen.clearedLevels - 1 <= DocumentText.unguardedDepth

    /// How deep `set` nests selection sets (fields' and inline fragments'; `set` itself is 0),
    /// not through spreads, counted without recursion.
    static func nestingDepth(_ set: SelectionSet) -> Int {
        var deepest = 0
        var pending: [(SelectionSet, Int)] = [(set, 0)]
        while let (current, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            for selection in current.selections {
                switch selection {
                case .field(let field): if let child = field.selectionSet { pending.append((child, depth + 1)) }
                case .inlineFragment(let inline): pending.append((inline.selectionSet, depth + 1))
                case .fragmentSpread: break
                }
            }
        }
        return deepest
    }

    // MARK: Fragments used

    /// True when a fragment of the documents nests its own selections past
    /// `DocumentText.unguardedDepth` (where printing a text asks the stack): only then can the
    /// fragments an operation uses change what `check` reports of it.
    var someFragmentNestsPastText: Bool {
        if let known = fragmentsNestPastText { return known }
        let answer = fragmentNodes.values.contains {
            Self.nestingDepth($0.0.selectionSet) > DocumentText.unguardedDepth
        }
        fragmentsNestPastText = answer
        return answer
    }

    /// Calls `visit` with every fragment spread of `set`, at any depth (not following spreads), in no set order:
    /// only the sets with a spread somewhere below (`SelectionSet.containsSpreads`) are walked, most are not.
    static func forEachSpread(in set: SelectionSet, _ visit: (FragmentSpread) -> Void) {
        var sets: [SelectionSet] = set.containsSpreads ? [set] : []
        while let set = sets.popLast() {
            for selection in set.selections {
                switch selection {
                case .field(let field):
                    if let child = field.selectionSet, child.containsSpreads { sets.append(child) }
                case .inlineFragment(let inline):
                    if inline.selectionSet.containsSpreads { sets.append(inline.selectionSet) }
                case .fragmentSpread(let spread): visit(spread)
                }
            }
        }
    }

    /// The fragments `set` spreads, directly or through other fragments, sorted.
    func fragmentsUsed(by set: SelectionSet) -> [String] {
        var found: Set<String> = []
        var pending: [String] = []
        Self.forEachSpread(in: set) { spread in
            let name = spread.name.value
            if fragmentNodes[name] != nil, found.insert(name).inserted { pending.append(name) }
        }
        // A fragment's own spreads are found once per build (`directSpreads(of:)`), not walked per operation.
        while let name = pending.popLast() {
            for child in directSpreads(of: name) where fragmentNodes[child] != nil && found.insert(child).inserted {
                pending.append(child)
            }
        }
        return found.sorted()
    }

    // MARK: Depth

    /// Selections of the current definition left out for their depth: reported at the
    /// definition unless an accessor of it was already reported too deep.
    func reportCut() {
        if !reportedTooDeepInDefinition { reportTooDeep(currentDefinition) }
    }

    func reportTooDeep(_ range: SourceRange?) {
        reportNesting(
            "Selections are nested more than \(LensModelBuilder.maximumDepth) levels deep (or deeper than this thread's stack allows); Baton stops building the lens here.",
            at: range)
    }

    /// A `lens-nesting-too-deep` error at `range`, once per place.
    func reportNesting(_ message: String, at range: SourceRange?) {
        reportedTooDeepInDefinition = true
        let rule = LensDiagnosticRule.nestingTooDeep
        if let range, diagnostics.contains(where: { $0.rule == rule && $0.range == range }) { return }
        diagnostics.append(Diagnostic(.error, message, rule: rule, range: range))
    }
}
