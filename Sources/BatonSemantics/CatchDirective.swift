import BatonSyntax

/// What `@catch(to:)` turns a field error into.
package enum CatchTarget: String, Sendable, Hashable {
    /// `@catch` or `@catch(to: RESULT)`: the accessor reads a Result.
    case result = "RESULT"
    /// `@catch(to: NULL)`: an error reads as nil.
    case null = "NULL"
}

/// One `@catch` written on a field, fragment or operation.
package struct CatchUse: Sendable {
    package let directive: Directive
    /// `to:` as written (`.result` when omitted, its default); nil for a variable or a wrong
    /// value, which validation reports.
    package let target: CatchTarget?
}
