import BatonDiagnostics
import BatonSchema
import BatonSyntax

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A type as the walker tracks it: the full reference (`[User!]!`) with its named type resolved.
///
/// Two words, neither counted: the reference lives in storage the walk's context keeps (each one stored
/// once per unit, `ValidationContext.stored`), and the named type is the schema's, which outlives every
/// walk over it (the context holds it). So TypeInfo's pushes, pops and copies of a `ResolvedType`, and a
/// rule reading `context.type`, retain and release nothing. A value must not outlive its context.
package struct ResolvedType {
    private let storage: UnsafePointer<TypeRef>
    private let namedType: Unmanaged<NamedTypeDef>
    /// The named type (the caller's copy of it is counted; `isLeaf` reads it without).
    package var named: NamedTypeDef { namedType.takeUnretainedValue() }
    /// The reference: read (and copied) only where a rule needs it, mostly for a message.
    package var ref: TypeRef { storage.pointee }
    /// Whether the reference is non-null at its outermost level.
    package var isNonNull: Bool { storage.pointee.isNonNull }
    /// Whether the named type is a scalar or an enum.
    package var isLeaf: Bool { namedType._withUnsafeGuaranteedRef { $0.isLeaf } }
    fileprivate init(storage: UnsafePointer<TypeRef>, named: NamedTypeDef) {
        self.storage = storage
        self.namedType = .passUnretained(named)
    }
    /// The storage's address, which identifies the reference within a walk.
    fileprivate var key: UInt { UInt(bitPattern: storage) }
}

/// One executable (or not) definition of the unit being validated, with the file it is in.
package struct UnitDefinition {
    package let definition: Definition
    package let file: SourceFile
    /// The position of `file` among the unit's documents.
    package let fileIndex: Int
}

/// A variable used somewhere in an operation or fragment, with the input type expected where it
/// is used (graphql-js's `getVariableUsages`).
package struct VariableUsage {
    package let variable: Variable
    package let file: SourceFile
    /// The input type at the position (nil when unknown).
    package let type: ResolvedType?
    /// True when the position has a default value (an argument or input field default).
    package let hasLocationDefault: Bool
}

/// The state every rule shares during one walk: the schema, the unit's definitions and their
/// fragment index, graphql-js's TypeInfo (updated by the walker), and the diagnostics.
package final class ValidationContext {
    package let schema: GraphQLSchema
    /// What the project adds to the schema (scalar mappings, output languages); nil for a plain
    /// spec validation, where the rules that need it report nothing.
    package let options: ValidationOptions?
    package let documents: [Document]
    /// Every definition of every document, in order (graphql-js's merged `definitions`).
    package let definitions: [UnitDefinition]

    // MARK: Walk position

    // The walk position and the fragment and variable tables below are read and written by one walk on one
    // thread, and no access to one of them overlaps another (a context method never calls back into a rule
    // while it holds one): they skip the dynamic exclusivity check, as `FieldMerger` does, which every
    // access to a class's stored `var` pays otherwise (about 10 M instructions on saleor's 2,000 operations).

    /// The index in `definitions` of the definition being walked.
    @exclusivity(unchecked) package internal(set) var currentDefinitionIndex = 0
    /// The file of the definition being walked.
    @exclusivity(unchecked) package internal(set) var currentFile: SourceFile
    @exclusivity(unchecked) package internal(set) var currentFileIndex = 0

    // MARK: TypeInfo (graphql-js's names)

    /// The TypeInfo state, in memory the context owns rather than in stored properties: the
    /// walker pushes and pops it at every node and rules read it in every hook, and every access
    /// to a class's stored `var` pays a dynamic exclusivity check.
    let info: UnsafeMutablePointer<TypeInfo>
    /// Set by every default (empty) hook; the debug walker reads it to find undeclared overrides.
    var defaultHookRan = false
    /// The undeclared overrides the debug walker already reported ("rule-id rawValue").
    var undeclaredHooks: Set<String> = []

    /// Called by the default hooks of `ValidationRule`.
    package func noteDefaultHook() { defaultHookRan = true }

    /// The output type of the current field, operation root or fragment (`getType`).
    package var type: ResolvedType? { info.pointee.typeStack.last ?? nil }
    /// The composite type whose selection set is being walked (`getParentType`).
    package var parentType: NamedTypeDef? { info.pointee.parentTypeStack.last??.object }
    /// The expected input type of the current argument, list item, object field or variable
    /// definition (`getInputType`).
    package var inputType: ResolvedType? { info.pointee.inputTypeStack.last ?? nil }
    /// The input type one level out (`getParentInputType`).
    package var parentInputType: ResolvedType? {
        let stack = info.pointee.inputTypeStack
        return stack.count > 1 ? stack[stack.count - 2] : nil
    }
    /// The definition of the current field (`getFieldDef`).
    package var fieldDef: FieldDef? { info.pointee.fieldDefStack.last??.object }
    /// Whether the current field has a definition (`getFieldDef() != null`), read without counting it.
    package var hasFieldDef: Bool {
        if case .some(.some) = info.pointee.fieldDefStack.last { return true }
        return false
    }
    /// `body` of the current field's definition, if it has one, without counting a reference to it: for a
    /// test each field passes through (most fields are not deprecated, most have no required argument).
    package func readFieldDef<Result>(_ body: (FieldDef) -> Result) -> Result? {
        guard case .some(.some(let definition)) = info.pointee.fieldDefStack.last else { return nil }
        return definition.read(body)
    }
    /// The default of the current argument or input field, if it has one (`getDefaultValue`).
    package var defaultValue: Value? { info.pointee.defaultValueStack.last??.object.defaultValue }
    /// Whether the current argument or input field has a default (`getDefaultValue() !== undefined`).
    var hasDefaultValue: Bool { info.pointee.defaultValueStack.last??.object.defaultValue != nil }
    /// The definition of the directive being walked (`getDirective`).
    package var directive: DirectiveDef? { info.pointee.directiveDef?.object }
    /// The definition of the argument being walked (`getArgument`).
    package var argument: InputValue? { info.pointee.argumentDef?.object }
    /// The enum value being walked (`getEnumValue`).
    package var enumValue: EnumValueDef? { info.pointee.enumValueDef?.object }

    // MARK: Fragments and variables

    /// The definition index of each fragment by name; the last definition of a name wins, as in
    /// graphql-js's `getFragment`.
    package let fragmentIndexByName: FragmentIndex
    @exclusivity(unchecked) private var spreadsByDefinition: [[FragmentSpread]?]
    @exclusivity(unchecked) private var spreadTargetsByDefinition: [[Int]?]
    /// The selection lists `forEachFragmentSpread` has yet to search, kept between searches.
    @exclusivity(unchecked) private var spreadSearch: [[Selection]] = []
    @exclusivity(unchecked) private var referencedFragmentsByDefinition: [[Int]?]
    @exclusivity(unchecked) private var recursiveUsagesByDefinition: [[VariableUsage]?]
    /// `recursivelyReferencedFragments`'s visited marks: a definition is visited in the current
    /// search when its mark equals `visitGeneration` (no clearing between searches).
    @exclusivity(unchecked) private var visitMarks: [UInt32]
    @exclusivity(unchecked) private var visitGeneration: UInt32 = 0
    /// The search stack of `forEachReferencedFragment`, kept between searches.
    @exclusivity(unchecked) private var toVisit: [Int] = []
    /// Set by the walker once every definition was walked (before the `leaveDocument` hooks).
    @exclusivity(unchecked) var walkFinished = false
    /// Variable usages of each definition, filled in as the walker passes them.
    @exclusivity(unchecked) package internal(set) var variableUsagesByDefinition: [[VariableUsage]]

    /// The response paths of the operation or fragment being walked, kept by the walker when a
    /// `ResponsePathRule` runs (one tracker for all of them).
    package let responsePaths = ResponsePathTracker()

    /// The definition whose text `currentDefinitionMayUseRequired` last looked at, and what it found.
    @exclusivity(unchecked) private var requiredLookedUp = (definition: -1, found: false)

    /// Whether the definition being walked may use `@required`: whether its text holds the name `required`.
    /// A directive's name is a token of the text (however the `@` is spaced from it), so without the name no
    /// node of the definition is `@required`; with it, one may be. Read once per definition: the rules that
    /// only act on `@required` keep no per-field state in the many definitions without it.
    package var currentDefinitionMayUseRequired: Bool {
        if requiredLookedUp.definition != currentDefinitionIndex {
            let span = definitions[currentDefinitionIndex].definition.span
            requiredLookedUp = (
                currentDefinitionIndex, Self.holds(Self.required, anchor: Self.requiredAnchor, in: currentFile, span)
            )
        }
        return requiredLookedUp.found
    }

    private static let required = Array("required".utf8)
    /// The byte of `required` its search looks for: `q`, far rarer in documents than its first byte (`r`), so
    /// `memchr` stops at few places that are not the word.
    private static let requiredAnchor = 2

    /// Whether the bytes of `span` in `file` hold `word`: its byte at `anchor` is found with `memchr`, then the
    /// word is compared around it. Any byte of the word finds every occurrence; a rare one finds fewer others.
    static func holds(_ word: [UInt8], anchor: Int = 0, in file: SourceFile, _ span: Span) -> Bool {
        guard word.indices.contains(anchor) else { return word.isEmpty }
        let key = word[anchor]
        return file.bytes.withUnsafeBufferPointer { (bytes: UnsafeBufferPointer<UInt8>) -> Bool in
            guard let base = bytes.baseAddress else { return false }
            let end = min(span.end, bytes.count)
            let first = min(span.start, end)
            // Where the anchor byte can be: `anchor` bytes into the span, and room for the rest after it.
            var start = first + anchor
            let last = end - (word.count - anchor)
            while start <= last {
                guard let found = memchr(base + start, Int32(key), last + 1 - start) else { return false }
                let offset = UnsafeRawPointer(found) - UnsafeRawPointer(base) - anchor
                if word.indices.allSatisfy({ bytes[offset + $0] == word[$0] }) { return true }
                start = offset + anchor + 1
            }
            return false
        }
    }

    // MARK: Diagnostics

    package private(set) var diagnostics: [Diagnostic] = []
    /// Diagnostics a more specific rule replaces, by rule id and range (see `supersede`).
    private(set) var superseded: Set<SupersededDiagnostic> = []

    init(schema: GraphQLSchema, documents: [Document], options: ValidationOptions? = nil) {
        self.schema = schema
        self.options = options
        self.documents = documents
        var definitions: [UnitDefinition] = []
        var fragments = FragmentIndex()
        for (fileIndex, document) in documents.enumerated() {
            for definition in document.definitions {
                if case .fragment(let fragment) = definition {
                    fragments.set(fragment.name.value, definitions.count)
                }
                definitions.append(UnitDefinition(definition: definition, file: document.source, fileIndex: fileIndex))
            }
        }
        self.definitions = definitions
        self.fragmentIndexByName = fragments
        self.variableUsagesByDefinition = Array(repeating: [], count: definitions.count)
        self.spreadsByDefinition = Array(repeating: nil, count: definitions.count)
        self.spreadTargetsByDefinition = Array(repeating: nil, count: definitions.count)
        self.referencedFragmentsByDefinition = Array(repeating: nil, count: definitions.count)
        self.recursiveUsagesByDefinition = Array(repeating: nil, count: definitions.count)
        self.visitMarks = Array(repeating: 0, count: definitions.count)
        self.currentFile = documents.first?.source ?? SourceFile(path: "", bytes: [])
        self.info = .allocate(capacity: 1)
        info.initialize(to: TypeInfo())
    }

    deinit {
        info.deinitialize(count: 1)
        info.deallocate()
        refs.release()
    }

    // MARK: Reporting

    /// A range in the file being walked.
    package func range(_ span: Span) -> SourceRange { SourceRange(file: currentFile, span: span) }

    /// Appends an error: the first place is its location, the others notes.
    package func report(
        _ message: String, rule: String, places: [SourceRange], noteMessage: String = "related location"
    ) {
        let notes = places.dropFirst().map { DiagnosticNote(message: noteMessage, range: $0) }
        diagnostics.append(Diagnostic(.error, message, rule: rule, range: places.first, notes: Array(notes)))
    }

    /// Appends a diagnostic as it is (for rules with warnings or fix-its).
    package func report(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }

    /// Drops `rule`'s diagnostic at exactly `range` from the unit's result: a Baton rule that
    /// explains the same problem better (`throw-on-field-error-on-mutation` for
    /// `known-directives`) uses it so the user sees one helpful message. It has no effect when
    /// the replacing rule does not run, so spec-only validation is unchanged.
    package func supersede(rule: String, at range: SourceRange) {
        superseded.insert(SupersededDiagnostic(rule: rule, range: range))
    }

    /// The diagnostics with the superseded ones removed.
    var reportedDiagnostics: [Diagnostic] {
        guard !superseded.isEmpty else { return diagnostics }
        return diagnostics.filter { diagnostic in
            guard let range = diagnostic.range else { return true }
            return !superseded.contains(SupersededDiagnostic(rule: diagnostic.rule, range: range))
        }
    }

    // MARK: Schema helpers

    // Each looked up once per unit (see `WalkTypes.swift`): the walk and the rules then copy only the
    // results, two words each, counted by nothing.

    /// The type references the unit's `ResolvedType`s point into.
    @exclusivity(unchecked) private var refs = TypeRefStorage()
    @exclusivity(unchecked) private var fields = FieldTable()
    /// By input value (argument or input field definition): its type, when the schema has it.
    @exclusivity(unchecked) private var inputValueTypes = IdentityTable<ResolvedType?>()
    /// By named type: the reference naming it alone.
    @exclusivity(unchecked) private var namedRefs = IdentityTable<ResolvedType>()
    /// By variable definition: its type, when the schema has the named type.
    @exclusivity(unchecked) private var variableTypes = IdentityTable<ResolvedType?>()
    /// By a list position's type (its storage): the type of the position's items.
    @exclusivity(unchecked) private var itemTypes = IdentityTable<ResolvedType>()

    /// `ref` kept for the walk, with its named type.
    private func stored(_ ref: TypeRef, _ named: NamedTypeDef) -> ResolvedType {
        ResolvedType(storage: refs.store(ref), named: named)
    }

    /// The named type of a reference, if the schema has it.
    private func resolve(_ ref: TypeRef) -> ResolvedType? {
        guard let named = schema.types[ref.namedType] else { return nil }
        return stored(ref, named)
    }

    /// A named type as a reference to itself (`User`), for the root type, a type condition or an inline
    /// fragment without one. The reference's name is the schema type's: the same bytes as a document's name
    /// that found it (a document's names are ASCII, looked up by their bytes).
    package func namedType(_ named: NamedTypeDef) -> ResolvedType {
        let key = IdentityTable<ResolvedType>.key(named)
        if let known = namedRefs.value(key) { return known }
        let made = stored(.named(named.name), named)
        namedRefs.set(key, made)
        return made
    }

    /// graphql-js's `typeFromAST` for a named type: nil when the schema does not have it.
    package func typeFromAST(_ node: NamedType) -> ResolvedType? {
        schema.types[node.name.value].map(namedType)
    }

    /// graphql-js's `typeFromAST` of a variable definition's type: nil when the named type is unknown.
    package func type(of variable: VariableDefinition) -> ResolvedType? {
        let key = IdentityTable<ResolvedType?>.key(variable)
        if let known = variableTypes.value(key) { return known }
        let made: ResolvedType?
        if case .named(let named) = variable.type {
            made = typeFromAST(named)
        } else {
            made = schema.types[variable.type.namedType.name.value].map { stored(TypeRef(variable.type), $0) }
        }
        variableTypes.set(key, made)
        return made
    }

    /// The type of an argument or input field definition, if the schema has its named type.
    func type(of value: InputValue) -> ResolvedType? {
        let key = IdentityTable<ResolvedType?>.key(value)
        if let known = inputValueTypes.value(key) { return known }
        let made = resolve(value.type)
        inputValueTypes.set(key, made)
        return made
    }

    /// The type of a list value's items where `listType` is expected: the list's item type, or for a
    /// position that is not a list, the position's type without its non-null (as graphql-js's TypeInfo).
    func itemType(of listType: ResolvedType) -> ResolvedType {
        if let known = itemTypes.value(listType.key) { return known }
        let nullable = listType.ref.nullable
        let item: TypeRef
        if case .list(let inner) = nullable { item = inner } else { item = nullable }
        let made = stored(item, listType.named)
        itemTypes.set(listType.key, made)
        return made
    }

    /// graphql-js's TypeInfo on entering a field: the field's definition on `parent` (`getFieldDef`) and
    /// its type when that is an output type the schema has.
    func field(_ name: String, on parent: SchemaReference<NamedTypeDef>) -> FieldLookup {
        fields.lookup(name, parent: parent.key) {
            guard let definition = fieldDefinition(name, on: parent.object) else {
                return FieldLookup(definition: nil, type: nil)
            }
            let type = resolve(definition.type).flatMap { $0.named.isOutputType ? $0 : nil }
            return FieldLookup(definition: SchemaReference(definition), type: type)
        }
    }

    /// graphql-js's TypeInfo `getFieldDef`: meta fields first, then the type's own fields.
    package func fieldDefinition(_ name: String, on parent: NamedTypeDef) -> FieldDef? {
        if name.utf8.first == UInt8(ascii: "_") {
            if name == "__typename" { return parent.isComposite ? MetaFields.typename : nil }
            if parent.name == schema.queryTypeName {
                if name == "__schema" { return MetaFields.schema }
                if name == "__type" { return MetaFields.type }
            }
        }
        if parent.kind == .object || parent.kind == .interface { return parent.field(named: name) }
        return nil
    }

    // MARK: Fragments

    /// The spread `fragmentIndex(of:)` last answered for, and its answer.
    @exclusivity(unchecked) private var lastSpread: (node: ObjectIdentifier?, index: Int?) = (nil, nil)

    /// The definition index of the fragment a spread names (the last definition of the name), nil when no
    /// fragment has it: the fragment-spread rules ask in turn at each spread, and the name is looked up once.
    /// A spread is known by its node's identity, which no other node of the unit shares while the unit is walked.
    package func fragmentIndex(of spread: FragmentSpread) -> Int? {
        let node = ObjectIdentifier(spread)
        if lastSpread.node == node { return lastSpread.index }
        let index = fragmentIndexByName[spread.name.value]
        lastSpread = (node, index)
        return index
    }

    /// The fragment definition named `name` (the last one, as graphql-js), with its index.
    package func fragment(named name: String) -> (index: Int, node: FragmentDefinition)? {
        guard let index = fragmentIndexByName[name], case .fragment(let node) = definitions[index].definition else {
            return nil
        }
        return (index, node)
    }

    /// The fragment spreads anywhere inside a definition (not following spreads), in
    /// graphql-js's `getFragmentSpreads` order. Made only where a rule needs the nodes themselves (a
    /// cycle's report); the searches follow `spreadTargets`, which keeps no node.
    package func fragmentSpreads(ofDefinition index: Int) -> [FragmentSpread] {
        if let cached = spreadsByDefinition[index] { return cached }
        var spreads: [FragmentSpread] = []
        forEachFragmentSpread(ofDefinition: index) { spreads.append($0) }
        spreadsByDefinition[index] = spreads
        return spreads
    }

    /// The definition index of the fragment each spread of a definition names, in spread order
    /// (-1 for a name no fragment has): each spread's name is looked up once per unit.
    package func spreadTargets(ofDefinition index: Int) -> [Int] {
        if let cached = spreadTargetsByDefinition[index] { return cached }
        var targets: [Int] = []
        forEachFragmentSpread(ofDefinition: index) { targets.append(fragmentIndexByName[$0.name.value] ?? -1) }
        spreadTargetsByDefinition[index] = targets
        return targets
    }

    /// The definition index of the fragment the `spread`th spread of a definition names (-1 when
    /// no fragment has that name).
    package func spreadTarget(ofDefinition index: Int, _ spread: Int) -> Int {
        if let cached = spreadTargetsByDefinition[index] { return cached[spread] }
        return spreadTargets(ofDefinition: index)[spread]
    }

    /// `body` with each spread inside a definition, in `fragmentSpreads(in:)`'s order, with the
    /// context's search stack.
    private func forEachFragmentSpread(ofDefinition index: Int, _ body: (FragmentSpread) -> Void) {
        switch definitions[index].definition {
        case .operation(let node): Self.forEachFragmentSpread(in: node.selectionSet, stack: &spreadSearch, body)
        case .fragment(let node): Self.forEachFragmentSpread(in: node.selectionSet, stack: &spreadSearch, body)
        default: break
        }
    }

    /// The spreads in a selection set, depth-first with a stack as graphql-js walks it.
    package static func fragmentSpreads(in selectionSet: SelectionSet) -> [FragmentSpread] {
        var spreads: [FragmentSpread] = []
        var stack: [[Selection]] = []
        forEachFragmentSpread(in: selectionSet, stack: &stack) { spreads.append($0) }
        return spreads
    }

    /// Calls `body` with each spread in a selection set in graphql-js's `getFragmentSpreads` order: a
    /// stack of selection lists, each list's spreads in order and its inner lists pushed as met. `stack`
    /// is storage only (emptied first), kept by the caller between searches. A list with no spread at
    /// any depth (`SelectionSet.containsSpreads`) would give nothing and push nothing that gives anything,
    /// so it is left out: the same spreads in the same order.
    static func forEachFragmentSpread(
        in selectionSet: SelectionSet, stack: inout [[Selection]], _ body: (FragmentSpread) -> Void
    ) {
        stack.removeAll(keepingCapacity: true)
        guard selectionSet.containsSpreads else { return }
        stack.append(selectionSet.selections)
        while let selections = stack.popLast() {
            for selection in selections {
                switch selection {
                case .fragmentSpread(let spread): body(spread)
                case .field(let field):
                    if let inner = field.selectionSet, inner.containsSpreads { stack.append(inner.selections) }
                case .inlineFragment(let inline):
                    if inline.selectionSet.containsSpreads { stack.append(inline.selectionSet.selections) }
                }
            }
        }
    }

    /// The definition indices of every fragment a definition reaches through spreads
    /// (graphql-js's `getRecursivelyReferencedFragments`, same order). A name stands for its
    /// last definition, so marking definition indices is marking names.
    package func recursivelyReferencedFragments(ofDefinition index: Int) -> [Int] {
        if let cached = referencedFragmentsByDefinition[index] { return cached }
        var result: [Int] = []
        forEachReferencedFragment(ofDefinition: index) { result.append($0) }
        referencedFragmentsByDefinition[index] = result
        return result
    }

    /// Calls `body` with the definition index of every fragment a definition reaches through
    /// spreads, in `recursivelyReferencedFragments`'s order, keeping no list.
    private func forEachReferencedFragment(ofDefinition index: Int, _ body: (Int) -> Void) {
        visitGeneration &+= 1
        if visitGeneration == 0 {
            for position in visitMarks.indices { visitMarks[position] = 0 }
            visitGeneration = 1
        }
        let generation = visitGeneration
        toVisit.removeAll(keepingCapacity: true)
        toVisit.append(index)
        while let next = toVisit.popLast() {
            for fragmentIndex in spreadTargets(ofDefinition: next)
            where fragmentIndex >= 0 && visitMarks[fragmentIndex] != generation {
                visitMarks[fragmentIndex] = generation
                body(fragmentIndex)
                toVisit.append(fragmentIndex)
            }
        }
    }

    /// Every variable usage of an operation and the fragments it reaches
    /// (`getRecursiveVariableUsages`). Complete only once the walk has passed those fragments:
    /// call it from `leaveDocument` (from then on the result is computed once per definition).
    package func recursiveVariableUsages(ofDefinition index: Int) -> [VariableUsage] {
        if walkFinished, let cached = recursiveUsagesByDefinition[index] { return cached }
        var usages = variableUsagesByDefinition[index]
        forEachReferencedFragment(ofDefinition: index) { fragment in
            let fragmentUsages = variableUsagesByDefinition[fragment]
            if !fragmentUsages.isEmpty { usages.append(contentsOf: fragmentUsages) }
        }
        if walkFinished { recursiveUsagesByDefinition[index] = usages }
        return usages
    }

    func recordVariableUsage(_ variable: Variable) {
        guard !info.pointee.insideVariableDefinition else { return }
        variableUsagesByDefinition[currentDefinitionIndex].append(
            VariableUsage(variable: variable, file: currentFile, type: inputType, hasLocationDefault: hasDefaultValue))
    }
}

/// graphql-js's TypeInfo: what the walker knows at the current node (see the context's
/// accessors of the same names). Nothing in it is reference counted: pushes and pops copy words.
struct TypeInfo {
    var typeStack: [ResolvedType?] = []
    var parentTypeStack: [SchemaReference<NamedTypeDef>?] = []
    var inputTypeStack: [ResolvedType?] = []
    var fieldDefStack: [SchemaReference<FieldDef>?] = []
    /// The argument or input field whose default applies (graphql-js keeps the default itself).
    var defaultValueStack: [SchemaReference<InputValue>?] = []
    var directiveDef: SchemaReference<DirectiveDef>?
    var argumentDef: SchemaReference<InputValue>?
    var enumValueDef: SchemaReference<EnumValueDef>?
    var insideVariableDefinition = false
}

/// A definition of the schema (or a meta field, which lives as long as the process) as TypeInfo's
/// stacks hold it: the schema outlives the walk, so pushing and popping retains nothing.
struct SchemaReference<Object: AnyObject> {
    private let reference: Unmanaged<Object>
    init?(_ object: Object?) {
        guard let object else { return nil }
        self.reference = .passUnretained(object)
    }
    /// The object (the caller's copy is counted).
    var object: Object { reference.takeUnretainedValue() }
    /// `body` of the object, without counting a reference to it.
    @inline(__always)
    func read<Result>(_ body: (Object) -> Result) -> Result { reference._withUnsafeGuaranteedRef(body) }
    /// The object's address, as `IdentityTable` keys it.
    var key: UInt { UInt(bitPattern: reference.toOpaque()) }
}

/// A diagnostic one rule replaces with another's.
struct SupersededDiagnostic: Hashable {
    let rule: String
    let range: SourceRange
}

/// The introspection meta fields every composite type (or the query type) answers.
enum MetaFields {
    static let typename = FieldDef(
        name: "__typename", description: "The name of the current Object type at runtime.", arguments: [],
        type: .nonNull(.named("String")), deprecationReason: nil, directives: [], location: nil)
    static let schema = FieldDef(
        name: "__schema", description: "Access the current type schema of this server.", arguments: [],
        type: .nonNull(.named("__Schema")), deprecationReason: nil, directives: [], location: nil)
    static let type = FieldDef(
        name: "__type", description: "Request the type information of a single type.",
        arguments: [
            InputValue(
                name: "name", description: nil, type: .nonNull(.named("String")), defaultValue: nil,
                deprecationReason: nil, directives: [], location: nil)
        ],
        type: .named("__Type"), deprecationReason: nil, directives: [], location: nil)
}
