import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// One validation rule: a class that keeps whatever state it needs and overrides the walker
/// hooks it cares about.
///
/// Every hook is a protocol requirement with an empty default, so an override in a rule is
/// dispatched dynamically and really called (a hook declared only in an extension would be
/// called statically and silently skipped). A rule instance lives for one validation unit (one
/// merged document set, or one file in per-file mode), like graphql-js's rule closures; it reads
/// the walker's type information from `context` (`parentType`, `fieldDef`, `inputType`, …),
/// which is already updated for the node when an `enter` hook runs and still valid when the
/// matching `leave` hook runs.
package protocol ValidationRule: AnyObject {
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

    /// The whole unit (every definition of every document in it), before anything else.
    func enterDocument()
    /// After every definition was walked.
    func leaveDocument()
    func enterOperation(_ node: OperationDefinition)
    func leaveOperation(_ node: OperationDefinition)
    func enterFragment(_ node: FragmentDefinition)
    func leaveFragment(_ node: FragmentDefinition)
    func enterVariableDefinition(_ node: VariableDefinition)
    func leaveVariableDefinition(_ node: VariableDefinition)
    func enterSelectionSet(_ node: SelectionSet)
    func leaveSelectionSet(_ node: SelectionSet)
    func enterField(_ node: Field)
    func leaveField(_ node: Field)
    func enterFragmentSpread(_ node: FragmentSpread)
    func leaveFragmentSpread(_ node: FragmentSpread)
    func enterInlineFragment(_ node: InlineFragment)
    func leaveInlineFragment(_ node: InlineFragment)
    /// The directives of one node, before each is entered (`location` is what they apply to).
    func enterDirectives(_ nodes: [Directive], location: DirectiveLocation)
    func enterDirective(_ node: Directive, location: DirectiveLocation)
    func leaveDirective(_ node: Directive, location: DirectiveLocation)
    func enterArgument(_ node: Argument)
    func leaveArgument(_ node: Argument)
    /// Every value literal, including variables, list items and object field values.
    func enterValue(_ node: Value)
    func leaveValue(_ node: Value)
    func enterObjectField(_ node: ObjectField)
    func leaveObjectField(_ node: ObjectField)
    /// A named type reference: a variable's type, a fragment's or inline fragment's condition.
    func enterNamedType(_ node: NamedType)
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

// Every default hook notes that it ran, so the debug walker can tell an empty default from an
// override that a rule forgot to declare in `hooks`.
extension ValidationRule {
    package func enterDocument() { context.noteDefaultHook() }
    package func leaveDocument() { context.noteDefaultHook() }
    package func enterOperation(_ node: OperationDefinition) { context.noteDefaultHook() }
    package func leaveOperation(_ node: OperationDefinition) { context.noteDefaultHook() }
    package func enterFragment(_ node: FragmentDefinition) { context.noteDefaultHook() }
    package func leaveFragment(_ node: FragmentDefinition) { context.noteDefaultHook() }
    package func enterVariableDefinition(_ node: VariableDefinition) { context.noteDefaultHook() }
    package func leaveVariableDefinition(_ node: VariableDefinition) { context.noteDefaultHook() }
    package func enterSelectionSet(_ node: SelectionSet) { context.noteDefaultHook() }
    package func leaveSelectionSet(_ node: SelectionSet) { context.noteDefaultHook() }
    package func enterField(_ node: Field) { context.noteDefaultHook() }
    package func leaveField(_ node: Field) { context.noteDefaultHook() }
    package func enterFragmentSpread(_ node: FragmentSpread) { context.noteDefaultHook() }
    package func leaveFragmentSpread(_ node: FragmentSpread) { context.noteDefaultHook() }
    package func enterInlineFragment(_ node: InlineFragment) { context.noteDefaultHook() }
    package func leaveInlineFragment(_ node: InlineFragment) { context.noteDefaultHook() }
    package func enterDirectives(_ nodes: [Directive], location: DirectiveLocation) { context.noteDefaultHook() }
    package func enterDirective(_ node: Directive, location: DirectiveLocation) { context.noteDefaultHook() }
    package func leaveDirective(_ node: Directive, location: DirectiveLocation) { context.noteDefaultHook() }
    package func enterArgument(_ node: Argument) { context.noteDefaultHook() }
    package func leaveArgument(_ node: Argument) { context.noteDefaultHook() }
    package func enterValue(_ node: Value) { context.noteDefaultHook() }
    package func leaveValue(_ node: Value) { context.noteDefaultHook() }
    package func enterObjectField(_ node: ObjectField) { context.noteDefaultHook() }
    package func leaveObjectField(_ node: ObjectField) { context.noteDefaultHook() }
    package func enterNamedType(_ node: NamedType) { context.noteDefaultHook() }

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
