import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// What `@required(action:)` does with a null, ordered by severity: `NONE < LOG < THROW`.
package enum RequiredAction: String, Sendable, Comparable, CaseIterable {
    case none = "NONE"
    case log = "LOG"
    case `throw` = "THROW"

    private var rank: Int {
        switch self {
        case .none: 0
        case .log: 1
        case .throw: 2
        }
    }
    package static func < (lhs: RequiredAction, rhs: RequiredAction) -> Bool { lhs.rank < rhs.rank }
}

/// One `@required` written on a field.
package struct RequiredUse {
    package let directive: Directive
    /// The `action` argument, if written.
    package let argument: Argument?
    /// The action, when written as a known enum literal (nil for a variable or a wrong value,
    /// which other rules report).
    package let action: RequiredAction?

    /// The narrowest span naming the action: the argument's value, or the directive.
    package var actionSpan: Span { argument?.value.span ?? directive.span }
}

/// One `@catch` written on a field, fragment or operation.
package struct CatchUse {
    package let directive: Directive
    /// `to:` as written (`RESULT` when omitted, its default); nil for a variable or a wrong value.
    package let target: String?
}

/// Reading Baton's directives off the AST and the schema.
package enum BatonDirectives {
    package static let required = "required"
    package static let `catch` = "catch"
    package static let throwOnFieldError = "throwOnFieldError"
    package static let semanticNonNull = "semanticNonNull"

    /// The first `@required` among `directives`.
    package static func required(in directives: [Directive]) -> RequiredUse? {
        guard let directive = directives.first(where: { $0.name.value == required }) else { return nil }
        let argument = directive.arguments.first { $0.name.value == "action" }
        var action: RequiredAction?
        if case .enumValue(let name)? = argument?.value { action = RequiredAction(rawValue: name.value) }
        return RequiredUse(directive: directive, argument: argument, action: action)
    }

    /// The first `@catch` among `directives`.
    package static func `catch`(in directives: [Directive]) -> CatchUse? {
        guard let directive = directives.first(where: { $0.name.value == `catch` }) else { return nil }
        guard let argument = directive.arguments.first(where: { $0.name.value == "to" }) else {
            return CatchUse(directive: directive, target: "RESULT")
        }
        if case .enumValue(let name) = argument.value { return CatchUse(directive: directive, target: name.value) }
        return CatchUse(directive: directive, target: nil)
    }

    /// The first directive named `name` among `directives`.
    package static func first(_ name: String, in directives: [Directive]) -> Directive? {
        directives.first { $0.name.value == name }
    }

    /// The levels a field definition's `@semanticNonNull` lists (`[0]` when `levels` is
    /// omitted), with the span of each literal; nil when the field has no `@semanticNonNull`.
    /// Values that are not integers are left out (the schema's argument checks report them).
    package static func semanticNonNullLevels(of field: FieldDef) -> [(level: Int, span: Span?)]? {
        guard let applied = field.directives.first(where: { $0.name == semanticNonNull }) else { return nil }
        guard let value = applied.argument("levels") else { return [(0, nil)] }
        var items: [Value]
        if case .list(let values, _) = value { items = values } else { items = [value] }
        items = items.filter { if case .int = $0 { return true } else { return false } }
        return items.compactMap { item in
            guard case .int(let text, let span) = item, let level = Int(text) else { return nil }
            return (level, span)
        }
    }

    /// True when the field's own position (level 0) is non-null only by `@semanticNonNull`.
    package static func isSemanticNonNull(_ field: FieldDef) -> Bool {
        guard !field.type.isNonNull, let levels = semanticNonNullLevels(of: field) else { return false }
        return levels.contains { $0.level == 0 }
    }

    /// The span of the operation keyword or name, for pointing at an operation.
    package static func headSpan(of operation: OperationDefinition) -> Span {
        if let name = operation.name { return name.span }
        if operation.isShorthand { return Span(start: operation.span.start, end: operation.span.start + 1) }
        let keyword = operation.operation.rawValue.utf8.count
        return Span(start: operation.span.start, end: operation.span.start + keyword)
    }

    /// A fix-it removing `span` from `file` together with the spaces before it, so
    /// `author @required(action: LOG) {` becomes `author {`.
    package static func removal(of span: Span, in file: SourceFile, message: String) -> FixIt {
        var start = span.start
        while start > 0, start <= file.bytes.count,
            file.bytes[start - 1] == UInt8(ascii: " ")
                || file.bytes[start - 1] == UInt8(ascii: "\t")
        {
            start -= 1
        }
        return FixIt(
            message: message, range: SourceRange(file: file, span: Span(start: start, end: span.end)), replacement: "")
    }
}

/// Shared metadata of Baton's rules, for `baton check`'s rule catalog and `rules` settings.
package protocol BatonRuleInfo {
    /// The stable kebab-case id.
    static var id: String { get }
    /// The severity the rule reports with unless baton.json's `rules` changes it.
    static var severity: Severity { get }
    /// One sentence of what the rule requires (SARIF's rule description).
    static var summary: String { get }
}

extension ValidationRule where Self: BatonRuleInfo {
    /// Reports at `span` of the file being walked, with the rule's severity, notes and fix-its.
    package func diagnose(
        _ message: String, at span: Span, notes: [DiagnosticNote] = [], fixIts: [FixIt] = []
    ) {
        context.report(
            Diagnostic(
                Self.severity, message, rule: Self.id, range: context.range(span), notes: notes, fixIts: fixIts))
    }

    /// Reports at `range` (possibly another file of the unit), with the rule's severity.
    package func diagnose(_ message: String, range: SourceRange, notes: [DiagnosticNote] = [], fixIts: [FixIt] = []) {
        context.report(Diagnostic(Self.severity, message, rule: Self.id, range: range, notes: notes, fixIts: fixIts))
    }

    /// A note at `span` of the file being walked.
    package func note(_ message: String, at span: Span) -> DiagnosticNote {
        DiagnosticNote(message: message, range: context.range(span))
    }
}
