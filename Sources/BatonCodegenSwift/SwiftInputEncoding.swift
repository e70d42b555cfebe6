import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSchema
import BatonSyntax

/// Expressions that turn Swift input values into the runtime's `JSONValue`, and GraphQL literals into the
/// runtime's `InputValue` and `JSONValue` descriptions.
enum SwiftInputEncoding {
    /// The Swift expression an encoding reads: as written, or a property of `self`.
    enum Value {
        /// The expression as it is (`value`).
        case expression(String)
        /// `self.` and the property's name as written (quoted).
        case property(String)
        /// A closure's parameter at a depth, `v0`, `v1`, ….
        case item(Int)

        fileprivate func write(into text: inout TextBuilder) {
            switch self {
            case .expression(let expression): text.add(expression)
            case .property(let name):
                text.add("self.")
                text.add(name)
            case .item(let depth):
                text.add(UInt8(ascii: "v"))
                text.add(decimal: depth)
            }
        }
    }

    /// How values of named types are encoded besides the schema's rules (`encodeNamed`).
    enum NamedValues {
        /// By the schema's rules.
        case schema
        /// Every named type as the object of an optimistic builder (`Baton.JSONValue.object(v.responseObject)`).
        case optimisticObjects
        /// `ID` as a connection's ID (`v.jsonValue`), the rest by the schema's rules.
        case connectionIDs
    }

    /// A Swift expression of type `Baton.JSONValue` for `value` (a Swift expression of `names.inputType(type)`,
    /// non-optional when `type` is non-null).
    static func encode(
        _ type: TypeRef, _ value: String, names: SwiftNames, named: NamedValues = .schema
    ) -> String {
        var text = TextBuilder(capacity: 64)
        encode(type, .expression(value), names: names, named: named, into: &text)
        return text.text
    }

    /// Writes `encode(type, value, names:, named:)` into `text`, piece by piece.
    static func encode(
        _ type: TypeRef, _ value: Value, names: SwiftNames, depth: Int = 0, named: NamedValues = .schema,
        into text: inout TextBuilder
    ) {
        if case .nonNull(let inner) = type {
            return encodeNonNull(inner, value, names: names, depth: depth, named: named, into: &text)
        }
        writeMap(of: value, depth: depth, into: &text)
        encodeNonNull(type, .item(depth), names: names, depth: depth + 1, named: named, into: &text)
        text.add(" } ?? Baton.JSONValue.null")
    }

    /// Writes `value.map { vN in `, the opening of a closure over `value`'s items (or its wrapped value) at `depth`.
    private static func writeMap(of value: Value, depth: Int, into text: inout TextBuilder) {
        value.write(into: &text)
        text.add(".map { v")
        text.add(decimal: depth)
        text.add(" in ")
    }

    /// Writes the encoding of a value that is not nil (`type`'s outermost non-null level, if any, read through).
    static func encodeNonNull(
        _ type: TypeRef, _ value: Value, names: SwiftNames, depth: Int, named: NamedValues,
        into text: inout TextBuilder
    ) {
        switch type {
        case .nonNull(let inner):
            encodeNonNull(inner, value, names: names, depth: depth, named: named, into: &text)
        case .list(let item):
            text.add("Baton.JSONValue.array(")
            writeMap(of: value, depth: depth, into: &text)
            encode(item, .item(depth), names: names, depth: depth + 1, named: named, into: &text)
            text.add(" })")
        case .named(let name):
            switch named {
            case .optimisticObjects:
                text.add("Baton.JSONValue.object(")
                value.write(into: &text)
                text.add(".responseObject)")
            case .connectionIDs where name == "ID":
                value.write(into: &text)
                text.add(".jsonValue")
            case .schema, .connectionIDs:
                encodeNamed(name, value, names: names, into: &text)
            }
        }
    }

    private static func encodeNamed(_ name: String, _ value: Value, names: SwiftNames, into text: inout TextBuilder) {
        let (opening, closing): (String, String)
        switch name {
        case "String", "ID": (opening, closing) = ("Baton.JSONValue.string(", ")")
        case "Int", "Float": (opening, closing) = ("Baton.JSONValue.number(", ".description)")
        case "Boolean": (opening, closing) = ("Baton.JSONValue.bool(", ")")
        default:
            if names.enums[name] != nil {
                (opening, closing) = ("Baton.JSONValue.string(", ".rawText)")
            } else if names.inputObjects[name] != nil {
                (opening, closing) = ("", ".jsonValue")
            } else {
                switch names.customScalars[name] {
                case nil: (opening, closing) = ("Baton.JSONValue.string(", ")")
                case "Foundation.Date", "Date":
                    (opening, closing) = (
                        "Baton.JSONValue.string(",
                        ".formatted(Foundation.Date.ISO8601FormatStyle(includingFractionalSeconds: true)))"
                    )
                case "Foundation.Decimal", "Decimal": (opening, closing) = ("Baton.JSONValue.number(", ".description)")
                case "Foundation.URL", "URL": (opening, closing) = ("Baton.JSONValue.string(", ".absoluteString)")
                case "Foundation.UUID", "UUID": (opening, closing) = ("Baton.JSONValue.string(", ".uuidString)")
                default: (opening, closing) = ("Baton.JSONValue.string(String(describing: ", "))")
                }
            }
        }
        text.add(opening)
        value.write(into: &text)
        text.add(closing)
    }

    /// The runtime's `InputValue` for an argument literal: variables stay variables, the rest is JSON.
    static func inputValue(_ value: WrittenValue) -> String {
        switch value {
        case .variable(let name): return ".variable(" + SwiftLiteral.string(name) + ")"
        case .list(let items):
            guard items.contains(where: mentionsVariable) else { return ".literal(" + json(value) + ")" }
            return ".list([" + items.map(inputValue).joined(separator: ", ") + "])"
        case .object(let fields):
            guard fields.contains(where: { mentionsVariable($0.value) }) else { return ".literal(" + json(value) + ")" }
            let members = fields.map { "(" + SwiftLiteral.string($0.name) + ", " + inputValue($0.value) + ")" }
            return ".object([" + members.joined(separator: ", ") + "])"
        default:
            return ".literal(" + json(value) + ")"
        }
    }

    /// The runtime's `JSONValue` for a literal without variables.
    static func json(_ value: WrittenValue) -> String {
        switch value {
        case .variable(let name): return ".string(" + SwiftLiteral.string("$" + name) + ")"
        case .int(let text), .float(let text): return ".number(" + SwiftLiteral.string(text) + ")"
        case .string(let string): return ".string(" + SwiftLiteral.string(string) + ")"
        case .boolean(let flag): return ".bool(\(flag))"
        case .null: return ".null"
        case .enumValue(let name): return ".string(" + SwiftLiteral.string(name) + ")"
        case .list(let items): return ".array([" + items.map(json).joined(separator: ", ") + "])"
        case .object(let fields):
            let members = fields.map { "(" + SwiftLiteral.string($0.name) + ", " + json($0.value) + ")" }
            return ".object(Baton.JSONObject([" + members.joined(separator: ", ") + "]))"
        }
    }

    static func mentionsVariable(_ value: WrittenValue) -> Bool {
        switch value {
        case .variable: true
        case .list(let items): items.contains(where: mentionsVariable)
        case .object(let fields): fields.contains { mentionsVariable($0.value) }
        default: false
        }
    }
}
