import BatonDiagnostics
import BatonSyntax

/// Input values and type references as graphql-js's `print` prints them, for messages ("found {a: 1}") and for
/// comparing field arguments: the one printer's (`Printer`, `PrintWriter`), with object fields sorted where
/// graphql-js sorts them.
package enum ValuePrinter {
    /// `print(value)`.
    package static func print(_ value: Value) -> String { Printer.print(value) }

    /// `print(sortValueNode(value))`: object fields sorted by name (natural order), recursively.
    package static func printSorted(_ value: Value) -> String {
        var writer = PrintWriter()
        writer.write(value, orderingFields: sortedFields)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// graphql-js's `stringifyArguments`: the arguments printed as one object, fields sorted.
    package static func canonicalArguments(_ arguments: [Argument]) -> String {
        if arguments.isEmpty { return "{}" }
        var writer = PrintWriter()
        writer.append("{")
        let sorted = arguments.count > 1 ? stableSorted(arguments, by: { $0.name.value }) : arguments
        for (index, argument) in sorted.enumerated() {
            if index > 0 { writer.append(", ") }
            writer.append(argument.name.value)
            writer.append(": ")
            writer.write(argument.value, orderingFields: sortedFields)
        }
        writer.append("}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// `print(typeNode)`: `[User!]!`.
    package static func print(_ type: TypeReference) -> String { Printer.print(type) }

    /// An object's fields in `sortValueNode`'s order.
    private static func sortedFields(_ fields: [ObjectField]) -> [ObjectField] {
        fields.count > 1 ? stableSorted(fields, by: { $0.name.value }) : fields
    }

    private static func stableSorted<T>(_ items: [T], by key: (T) -> String) -> [T] {
        // JS's Array.prototype.sort is stable; keep equal names in source order.
        items.enumerated().sorted { lhs, rhs in
            let order = Suggestions.naturalCompare(key(lhs.element), key(rhs.element))
            return order != 0 ? order < 0 : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
