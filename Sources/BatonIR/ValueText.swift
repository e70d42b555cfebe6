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

    /// A GraphQL string literal of `text`, as the printer writes one.
    package static func quoted(_ text: String) -> String {
        print(.string(StringValue(value: text, isBlock: false, span: .zero)))
    }
}
