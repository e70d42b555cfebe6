import BatonSyntax

/// `@stream(label:, initialCount:, if:)` on a list field, decoded as written (a literal `if:` is kept; the plan folds
/// it). Validation has checked where it stands (`stream-directive-on-list-field`) and that labels are unique.
package struct StreamUse: Sendable {
    /// `label:`, when given as a string.
    package var label: String?
    /// `initialCount:` as written; nil when left out (the directive's default, 0).
    package var initialCount: Value?
    /// `if:` as written; nil when left out (always streamed).
    package var condition: Value?
}

extension BatonDirectives {
    package static let stream = "stream"

    /// The first `@stream` among `directives`.
    package static func stream(in directives: [Directive]) -> StreamUse? {
        guard let directive = first(stream, in: directives) else { return nil }
        let argument = { (name: String) in directive.arguments.first { $0.name.value == name }?.value }
        var label: String?
        if case .string(let string)? = argument("label") { label = string.value }
        return StreamUse(label: label, initialCount: argument("initialCount"), condition: argument("if"))
    }
}
