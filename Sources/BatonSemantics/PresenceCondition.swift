import BatonSyntax

/// One condition a selection's own directives put on its presence in the response: `@include`,
/// `@skip` or `@defer`, decoded as written (a literal `if:` is kept; the plan folds it).
package enum PresenceCondition: Sendable {
    /// `@include(if: value)`.
    case include(Value)
    /// `@skip(if: value)`.
    case skip(Value)
    /// `@defer(label:, if:)`: present once the deferred payload arrives (nil `if` for always).
    case deferred(label: String?, condition: Value?)
}
