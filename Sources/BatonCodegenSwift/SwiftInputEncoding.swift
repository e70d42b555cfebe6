import BatonCodegen
import BatonDeclarations
import BatonIR
import BatonSchema
import BatonSyntax

/// Expressions that turn Swift input values into the runtime's `JSONValue`, and GraphQL literals into the
/// runtime's `InputValue` and `JSONValue` descriptions.
enum SwiftInputEncoding {
    /// A Swift expression of type `Baton.JSONValue` for `value` (a Swift expression of `names.inputType(type)`,
    /// non-optional when `type` is non-null).
    /// `named`, when given, encodes values of named types it answers for (an optimistic response's nested objects).
    static func encode(
        _ type: TypeRef, _ value: String, names: SwiftNames, depth: Int = 0, named: ((String, String) -> String?)? = nil
    ) -> String {
        switch type {
        case .nonNull(let inner):
            return encodeNonNull(inner, value, names: names, depth: depth, named: named)
        default:
            let item = "v\(depth)"
            return
                "\(value).map { \(item) in \(encodeNonNull(type, item, names: names, depth: depth + 1, named: named)) } ?? Baton.JSONValue.null"
        }
    }

    private static func encodeNonNull(
        _ type: TypeRef, _ value: String, names: SwiftNames, depth: Int, named: ((String, String) -> String?)?
    ) -> String {
        switch type {
        case .nonNull(let inner):
            return encodeNonNull(inner, value, names: names, depth: depth, named: named)
        case .list(let item):
            let element = "v\(depth)"
            return
                "Baton.JSONValue.array(\(value).map { \(element) in \(encode(item, element, names: names, depth: depth + 1, named: named)) })"
        case .named(let name):
            return named?(name, value) ?? encodeNamed(name, value, names: names)
        }
    }

    private static func encodeNamed(_ name: String, _ value: String, names: SwiftNames) -> String {
        switch name {
        case "String", "ID": return "Baton.JSONValue.string(\(value))"
        case "Int", "Float": return "Baton.JSONValue.number(\(value).description)"
        case "Boolean": return "Baton.JSONValue.bool(\(value))"
        default: break
        }
        if names.enums[name] != nil { return "Baton.JSONValue.string(\(value).rawText)" }
        if names.inputObjects[name] != nil { return "\(value).jsonValue" }
        switch names.customScalars[name] {
        case nil: return "Baton.JSONValue.string(\(value))"
        case "Foundation.Date", "Date":
            return
                "Baton.JSONValue.string(\(value).formatted(Foundation.Date.ISO8601FormatStyle(includingFractionalSeconds: true)))"
        case "Foundation.Decimal", "Decimal": return "Baton.JSONValue.number(\(value).description)"
        case "Foundation.URL", "URL": return "Baton.JSONValue.string(\(value).absoluteString)"
        case "Foundation.UUID", "UUID": return "Baton.JSONValue.string(\(value).uuidString)"
        default: return "Baton.JSONValue.string(String(describing: \(value)))"
        }
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
