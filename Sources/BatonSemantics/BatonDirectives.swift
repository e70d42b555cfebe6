import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Reading Baton's directives (`@required`, `@catch`, `@throwOnFieldError`, `@semanticNonNull`) and
/// the presence directives (`@include`, `@skip`, `@defer`) off the AST and the schema: decoded
/// once, here, for the validation rules and the lens model alike, so a rule and the plan cannot
/// read a directive two ways.
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
            return CatchUse(directive: directive, target: .result)
        }
        if case .enumValue(let name) = argument.value {
            return CatchUse(directive: directive, target: CatchTarget(rawValue: name.value))
        }
        return CatchUse(directive: directive, target: nil)
    }

    /// Whether `directives` (of an operation or fragment) include `@throwOnFieldError`.
    package static func throwsOnFieldError(_ directives: [Directive]) -> Bool {
        first(throwOnFieldError, in: directives) != nil
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

    /// The presence conditions a selection's own directives add, in the order written.
    package static func presence(_ directives: [Directive]) -> [PresenceCondition] {
        var result: [PresenceCondition] = []
        for directive in directives {
            let argument = { (name: String) in directive.arguments.first { $0.name.value == name }?.value }
            switch directive.name.value {
            case "include":
                if let value = argument("if") { result.append(.include(value)) }
            case "skip":
                if let value = argument("if") { result.append(.skip(value)) }
            case "defer":
                var label: String?
                if case .string(let string)? = argument("label") { label = string.value }
                result.append(.deferred(label: label, condition: argument("if")))
            default:
                continue
            }
        }
        return result
    }
}
