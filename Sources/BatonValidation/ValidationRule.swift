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

extension ValidationRule {
    package func enterDocument() {}
    package func leaveDocument() {}
    package func enterOperation(_ node: OperationDefinition) {}
    package func leaveOperation(_ node: OperationDefinition) {}
    package func enterFragment(_ node: FragmentDefinition) {}
    package func leaveFragment(_ node: FragmentDefinition) {}
    package func enterVariableDefinition(_ node: VariableDefinition) {}
    package func leaveVariableDefinition(_ node: VariableDefinition) {}
    package func enterSelectionSet(_ node: SelectionSet) {}
    package func leaveSelectionSet(_ node: SelectionSet) {}
    package func enterField(_ node: Field) {}
    package func leaveField(_ node: Field) {}
    package func enterFragmentSpread(_ node: FragmentSpread) {}
    package func leaveFragmentSpread(_ node: FragmentSpread) {}
    package func enterInlineFragment(_ node: InlineFragment) {}
    package func leaveInlineFragment(_ node: InlineFragment) {}
    package func enterDirectives(_ nodes: [Directive], location: DirectiveLocation) {}
    package func enterDirective(_ node: Directive, location: DirectiveLocation) {}
    package func leaveDirective(_ node: Directive, location: DirectiveLocation) {}
    package func enterArgument(_ node: Argument) {}
    package func leaveArgument(_ node: Argument) {}
    package func enterValue(_ node: Value) {}
    package func leaveValue(_ node: Value) {}
    package func enterObjectField(_ node: ObjectField) {}
    package func leaveObjectField(_ node: ObjectField) {}
    package func enterNamedType(_ node: NamedType) {}

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
