import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// One validation rule: a class that keeps whatever state it needs and overrides the walker
/// hooks it cares about (each rule derives from `ValidationRuleBase`, which declares them).
///
/// Every hook is a method of `ValidationRuleBase` with an empty default, so an override in a rule
/// is dispatched dynamically and really called; the walker calls it through the base class
/// without retaining the rule (`Unmanaged._withUnsafeGuaranteedRef`: the walk holds every rule
/// for its whole length). A rule instance lives for one validation unit (one merged document
/// set, or one file in per-file mode), like graphql-js's rule closures; it reads the walker's
/// type information from `context` (`parentType`, `fieldDef`, `inputType`, …), which is already
/// updated for the node when an `enter` hook runs and still valid when the matching `leave` hook
/// runs.
package protocol ValidationRule: ValidationRuleBase {
    /// The stable kebab-case id used in diagnostics, `baton.json`'s `rules` and `--format json`.
    static var id: String { get }
    /// The shared walk state: schema, type information, fragments, and reporting.
    var context: ValidationContext { get }
    init(context: ValidationContext)

    /// The hooks this rule overrides (an enter/leave pair is one member). The walker calls a hook
    /// only on the rules that declare it; the default is `.all`, so a rule that declares nothing
    /// still sees every hook. A debug build (`swift test`) also calls the undeclared hooks and
    /// reports any that turns out to be overridden (`Walker` "validation-hooks"), so a rule
    /// cannot silently lose a hook by forgetting to declare it.
    static var hooks: ValidationHooks { get }

    /// True for a rule whose work shows in other rules' reports: one that also reports under another id
    /// (field merging's `validation-depth`) or supersedes another rule's diagnostics (`supersede`). It runs
    /// even when `baton.json` turns its own id off (`DocumentValidation.rules(for:)`).
    static var affectsOtherRules: Bool { get }

    /// Whether the rule's field hooks can report or keep anything in the definition being walked, for a
    /// rule declaring `.fieldPerDefinition` (the walker reads it after the definition's `enterOperation`
    /// or `enterFragment`). True unless the rule says otherwise.
    var fieldHooksActive: Bool { get }
}

/// The walker's hooks, each an empty default a rule overrides (`override package func enterField`).
///
/// Every default notes that it ran in a debug build, so the debug walker can tell an empty default
/// from an override that a rule forgot to declare in `hooks`; in a release build it does nothing.
package class ValidationRuleBase {
    package init() {}

    @inline(__always)
    private func noteDefaultHook() {
        #if DEBUG
            (self as? any ValidationRule)?.context.noteDefaultHook()
        #endif
    }

    /// The whole unit (every definition of every document in it), before anything else.
    package func enterDocument() { noteDefaultHook() }
    /// After every definition was walked.
    package func leaveDocument() { noteDefaultHook() }
    package func enterOperation(_ node: OperationDefinition) { noteDefaultHook() }
    package func leaveOperation(_ node: OperationDefinition) { noteDefaultHook() }
    package func enterFragment(_ node: FragmentDefinition) { noteDefaultHook() }
    package func leaveFragment(_ node: FragmentDefinition) { noteDefaultHook() }
    package func enterVariableDefinition(_ node: VariableDefinition) { noteDefaultHook() }
    package func leaveVariableDefinition(_ node: VariableDefinition) { noteDefaultHook() }
    package func enterSelectionSet(_ node: SelectionSet) { noteDefaultHook() }
    package func leaveSelectionSet(_ node: SelectionSet) { noteDefaultHook() }
    package func enterField(_ node: Field) { noteDefaultHook() }
    package func leaveField(_ node: Field) { noteDefaultHook() }
    package func enterFragmentSpread(_ node: FragmentSpread) { noteDefaultHook() }
    package func leaveFragmentSpread(_ node: FragmentSpread) { noteDefaultHook() }
    package func enterInlineFragment(_ node: InlineFragment) { noteDefaultHook() }
    package func leaveInlineFragment(_ node: InlineFragment) { noteDefaultHook() }
    /// The directives of one node, before each is entered (`location` is what they apply to).
    package func enterDirectives(_ nodes: [Directive], location: DirectiveLocation) { noteDefaultHook() }
    package func enterDirective(_ node: Directive, location: DirectiveLocation) { noteDefaultHook() }
    package func leaveDirective(_ node: Directive, location: DirectiveLocation) { noteDefaultHook() }
    package func enterArgument(_ node: Argument) { noteDefaultHook() }
    package func leaveArgument(_ node: Argument) { noteDefaultHook() }
    /// Every value literal, including variables, list items and object field values.
    package func enterValue(_ node: Value) { noteDefaultHook() }
    package func leaveValue(_ node: Value) { noteDefaultHook() }
    package func enterObjectField(_ node: ObjectField) { noteDefaultHook() }
    package func leaveObjectField(_ node: ObjectField) { noteDefaultHook() }
    /// A named type reference: a variable's type, a fragment's or inline fragment's condition.
    package func enterNamedType(_ node: NamedType) { noteDefaultHook() }
}

/// A set of walker hooks; each member stands for the `enter` and `leave` hook of one node kind.
package struct ValidationHooks: OptionSet, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    package static let document = ValidationHooks(rawValue: 1 << 0)
    package static let operation = ValidationHooks(rawValue: 1 << 1)
    package static let fragment = ValidationHooks(rawValue: 1 << 2)
    package static let variableDefinition = ValidationHooks(rawValue: 1 << 3)
    package static let selectionSet = ValidationHooks(rawValue: 1 << 4)
    package static let field = ValidationHooks(rawValue: 1 << 5)
    package static let fragmentSpread = ValidationHooks(rawValue: 1 << 6)
    package static let inlineFragment = ValidationHooks(rawValue: 1 << 7)
    /// `enterDirectives` (the list of a node's directives).
    package static let directives = ValidationHooks(rawValue: 1 << 8)
    package static let directive = ValidationHooks(rawValue: 1 << 9)
    package static let argument = ValidationHooks(rawValue: 1 << 10)
    package static let value = ValidationHooks(rawValue: 1 << 11)
    package static let objectField = ValidationHooks(rawValue: 1 << 12)
    package static let namedType = ValidationHooks(rawValue: 1 << 13)
    /// `enterField`/`leaveField` for a field that has directives only: for a rule that reports
    /// nothing about a field without them (one reading `@connection`, `@required`, …), so the walk
    /// does not call it on the many fields that have none. Instead of `.field`; a debug build
    /// calls it on every field and reports it if it reports on one without directives.
    package static let fieldWithDirectives = ValidationHooks(rawValue: 1 << 14)
    /// `enterField` alone, at every field: for a rule with nothing to do when a field is left. Instead of
    /// `.field`; a debug build reports a `leaveField` the rule overrides anyway.
    package static let enterField = ValidationHooks(rawValue: 1 << 15)
    /// `leaveField` alone, at every field. Instead of `.field`.
    package static let leaveField = ValidationHooks(rawValue: 1 << 16)
    /// The rule's field hooks (`.field`, `.enterField`, `.leaveField`, `.fieldWithDirectives`) are called
    /// only in the definitions where its `fieldHooksActive` is true, read once per definition after its
    /// `enterOperation`/`enterFragment`: for a rule that looks at no field of most definitions (one
    /// reading `@required` in the definitions whose text has no `required`). A debug build calls them
    /// anyway and reports the rule if it reports where it said it would not.
    package static let fieldPerDefinition = ValidationHooks(rawValue: 1 << 17)
    package static let all = ValidationHooks(rawValue: (1 << 18) - 1)
}

extension ValidationHooks {
    /// Whether the walk calls `enterField` on a rule declaring these hooks at a field with or
    /// without directives.
    package func callsField(withDirectives: Bool) -> Bool {
        !isDisjoint(with: [.field, .enterField]) || (withDirectives && contains(.fieldWithDirectives))
    }

    /// Whether the walk calls `leaveField` on a rule declaring these hooks at a field with or
    /// without directives.
    package func callsLeaveField(withDirectives: Bool) -> Bool {
        !isDisjoint(with: [.field, .leaveField]) || (withDirectives && contains(.fieldWithDirectives))
    }
}

extension ValidationRule {
    package static var hooks: ValidationHooks { .all }
    package static var affectsOtherRules: Bool { false }
    package var fieldHooksActive: Bool { true }
}

extension ValidationRule {
    /// Reports an error under this rule's id. The first place is the diagnostic's location; the
    /// others become notes (graphql-js's further `nodes`).
    package func report(_ message: String, _ places: [SourceRange], noteMessage: String = "related location") {
        context.report(message, rule: Self.id, places: places, noteMessage: noteMessage)
    }

    /// Reports an error at one span of the current file.
    package func report(_ message: String, at span: Span) {
        context.report(message, rule: Self.id, places: [context.range(span)])
    }
}
