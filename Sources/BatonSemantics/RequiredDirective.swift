import BatonDiagnostics
import BatonSyntax

/// What `@required(action:)` does with a null, ordered by severity: `NONE < LOG < THROW`.
///
/// `NONE` is spelt `silent` so it never reads as `Optional.none`.
package enum RequiredAction: String, Sendable, Hashable, Comparable, CaseIterable {
    /// `NONE`: the null bubbles to the boundary.
    case silent = "NONE"
    /// `LOG`: the null bubbles and is logged.
    case log = "LOG"
    /// `THROW`: the read throws.
    case throwError = "THROW"

    private var rank: Int {
        switch self {
        case .silent: 0
        case .log: 1
        case .throwError: 2
        }
    }

    package static func < (lhs: RequiredAction, rhs: RequiredAction) -> Bool { lhs.rank < rhs.rank }

    /// True for `NONE` and `LOG`: the null moves up to an enclosing boundary instead of throwing.
    package var bubbles: Bool { self != .throwError }
}

/// One `@required` written on a field.
package struct RequiredUse: Sendable {
    package let directive: Directive
    /// The `action` argument, if written.
    package let argument: Argument?
    /// The action, when written as a known enum literal (nil for a variable or a wrong value,
    /// which validation reports).
    package let action: RequiredAction?

    /// The narrowest span naming the action: the argument's value, or the directive.
    package var actionSpan: Span { argument?.value.span ?? directive.span }
}
