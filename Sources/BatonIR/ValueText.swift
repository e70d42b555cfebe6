import BatonSyntax

/// GraphQL text of input values and applied directives, for plate phrases, JSON and keys.
package enum ValueText {
    /// The value as graphql-js prints it (`$owner`, `[0, 1]`, `{a: 1}`).
    package static func print(_ value: Value) -> String { Printer.print(value) }

    /// `@name(arg: value, …)`, arguments in the order given.
    package static func directive(_ name: String, _ arguments: [(String, Value)]) -> String {
        if arguments.isEmpty { return "@" + name }
        return "@" + name + "(" + arguments.map { $0.0 + ": " + print($0.1) }.joined(separator: ", ") + ")"
    }
}

extension Condition {
    /// The directive as it reads in a plate: `@include(if: $withOrigin)`, `@defer`.
    package var text: String {
        switch self {
        case .include(let value): ValueText.directive("include", [("if", value)])
        case .skip(let value): ValueText.directive("skip", [("if", value)])
        case .deferred(let label, let condition):
            ValueText.directive(
                "defer",
                (label.map { [("label", Value.string(StringValue(value: $0, isBlock: false, span: .zero)))] } ?? [])
                    + (condition.map { [("if", $0)] } ?? []))
        }
    }
}
