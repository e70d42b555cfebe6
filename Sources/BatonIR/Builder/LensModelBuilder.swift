import BatonDiagnostics
import BatonSchema
import BatonSemantics
import BatonSyntax

/// Builds the lens model, the plan, from valid documents: names, reads, bases, list levels,
/// optionality, `@required` bubbling, `@catch`, `@throwOnFieldError` with `@semanticNonNull`,
/// presence conditions, the types the documents use, and the names of generated definitions.
///
/// Its jobs are apart, one file each: collecting selections into accessor groups
/// (`LensBuildContext+Selections`), deciding optionality (`OptionalityPolicy`, a pure function),
/// tracking where `@required` nulls bubble (`BubbleTracker`), building lenses and accessors
/// (`LensBuildContext+Accessors`), gathering used types (`LensBuildContext+UsedTypes`), and naming
/// definitions (`DefinitionNaming`); `LensBuildContext` runs them definition by definition.
///
/// The input must have passed validation (the driver's gate); the builder still never traps on
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
    static func listDepth(_ type: TypeRef) -> Int { type.listNesting }

    /// How many lists a type written in a document nests, as `listDepth` of its `TypeRef` (not made for
    /// this: it allocates each wrapper). Recursive as `TypeReference.namedType` is: no deeper than the
    /// parser's own recursion, which bounds the nesting.
    static func listDepth(_ type: TypeReference) -> Int {
        switch type {
        case .named: 0
        case .list(let inner, _): 1 + listDepth(inner)
        case .nonNull(let inner, _): listDepth(inner)
        }
    }

    /// With `cache`, definitions unchanged since the last build with it are taken from it, and
    /// this build's are kept in it (`LensModelCache`). With more than one of `workers` (and no
    /// cache), operations are built on that many threads (`LensBuildContext.operationsBuiltInParallel`):
    /// the same model and diagnostics, in the same order, as one thread builds. With `outside`, the
    /// model also holds those definitions of an earlier plan as summaries (`DefinitionSummary`,
    /// listed in `LensModel.summarized`): `documents` must then be whole groups (`DocumentGroups`),
    /// and the names, used types and order of the model are those of a plan of every document. With `block`
    /// (the same, as one value), the model carries the block (`LensModel.block`) when the definitions planned
    /// here are named and typed as its `recordedPlanned` (`SummaryBlock`), and its definitions as stand-ins
    /// (as `outside`) when not. `decisions`, made for the schema and `options` by the caller, are the
    /// ones used; without them, this build makes its own.
    package static func build(
        schema: GraphQLSchema, documents: [Document], options: LensModelOptions = LensModelOptions(),
        cache: LensModelCache? = nil, workers: Int = 1, outside: [DefinitionSummary] = [], block: SummaryBlock? = nil,
        decisions: PlanDecisions? = nil
    ) -> (LensModel, [Diagnostic]) {
        let context = LensBuildContext(schema: schema, documents: documents, options: options)
        if let decisions { context.decisions = decisions }
        context.cache = cache
        context.workers = workers
        return context.run(outside: outside, block: block)
    }

    /// `check`'s plan: the diagnostics `build` gives with `checksOnly` (forced here), the same and in
    /// the same order, without building what only the model holds (`LensBuildContext+Checks`).
    /// `decisions`, made once for the schema and `options`, is shared by every call given it (one
    /// `check`'s batches, `StreamingCheck`); without it, this build makes its own.
    package static func checkDiagnostics(
        schema: GraphQLSchema, documents: [Document], options: LensModelOptions, decisions: PlanDecisions? = nil
    ) -> [Diagnostic] {
        var options = options
        options.checksOnly = true
        let context = LensBuildContext(schema: schema, documents: documents, options: options)
        if let decisions { context.decisions = decisions }
        return context.runChecks()
    }
}

/// Rule ids of the model's own diagnostics.
package enum LensDiagnosticRule {
    package static let accessorNameConflict = "lens-accessor-name-conflict"
    package static let anonymousOperation = "lens-anonymous-operation"
    package static let nestingTooDeep = "lens-nesting-too-deep"
    package static let definitionNameConflict = "lens-definition-name-conflict"
    package static let keyFieldTaken = "lens-key-field-taken"

    /// The descriptors of the plan's diagnostics. Not configurable: code generated despite them
    /// would not compile (or would have no name).
    package static let descriptors: [RuleDescriptor] = [
        plan(
            accessorNameConflict, "Accessor names are unique in a lens.",
            "A fragment spread's accessor name (the fragment's name before the first `_`, lower-camel-cased) or an inline fragment's `as<Type>` must not repeat another accessor's name in the same selection."
        ),
        plan(anonymousOperation, "Operations are named.", "Baton generates a type per operation, named after it."),
        plan(nestingTooDeep, "Selections nest at most 200 levels deep.", ""),
        plan(
            definitionNameConflict, "Operation and fragment names differ.",
            "An operation and a fragment of the same name would generate two types of that name."),
        plan(
            keyFieldTaken, "Key fields keep their names.",
            "In a selection on a type with a declared key, no other selection takes a key field's name as its response key: Baton sends the key field under that name."
        ),
    ]

    private static func plan(_ id: String, _ title: String, _ summary: String) -> RuleDescriptor {
        RuleDescriptor(id: id, title: title, summary: summary, configurable: false, origin: .baton)
    }
}
