import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Completion items at a position of a parsed document: after `@`, the schema's directives (Baton's among them,
/// with their arguments); after `$`, the operation's variables; inside a selection set, the parent type's fields
/// (with their types and descriptions) and the fragments that may be spread there.
enum Completions {
    /// LSP's `CompletionItemKind`s used here.
    private enum Kind: Int {
        case field = 5, variable = 6, `class` = 7, keyword = 14, reference = 18, enumMember = 20
    }

    static func items(at found: Located) -> [String] {
        let bytes = found.source.bytes
        var start = min(found.offset, bytes.count)
        while start > 0, isNameByte(bytes[start - 1]) { start -= 1 }
        let before = start > 0 ? bytes[start - 1] : 0
        guard let schema = found.schema else { return [] }
        if before == 0x40 {  // @
            return schema.directiveNames.compactMap(schema.directive(named:)).map { directive in
                let arguments = directive.arguments.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
                return item(
                    directive.name, kind: .keyword, detail: arguments.isEmpty ? nil : "(\(arguments))",
                    documentation: directive.description)
            }
        }
        guard let scope = found.scope else { return [] }
        if before == 0x24 {  // $
            return scope.variables.map { variable in
                item(variable.variable.name.value, kind: .variable, detail: typeText(variable.type), documentation: nil)
            }
        }
        if let call = enclosingCall(bytes, before: start) {
            return arguments(of: call, scope: scope, schema: schema)
        }
        guard scope.inSelectionSet, let parent = scope.parent else { return [] }
        var items = parent.fields.map { field in
            item(
                field.name, kind: .field, detail: field.type.description,
                documentation: field.description, deprecated: field.deprecationReason != nil)
        }
        items.append(item("__typename", kind: .field, detail: "String!", documentation: nil))
        let fragments = found.folder.fragments(of: found.compilation)
        for name in found.folder.fragmentNames(of: found.compilation) {
            if let fragment = fragments[name]?.first?.fragment {
                guard let condition = schema.type(named: fragment.typeCondition.name.value),
                    schema.typesOverlap(condition, parent)
                else { continue }
                items.append(
                    item(
                        fragment.name.value, kind: .reference, detail: "fragment on \(condition.name)",
                        documentation: nil, insertText: "..." + fragment.name.value))
            }
        }
        return items
    }

    /// An argument list the position is in: the field's or directive's name, and the argument whose value is being
    /// written (after `name:`), if any.
    struct Call {
        var name: String
        var isDirective: Bool
        var argument: String?
    }

    /// Reads back from `start` to the unclosed `(` around it (nested brackets skipped) and the name before it.
    static func enclosingCall(_ bytes: [UInt8], before start: Int) -> Call? {
        var index = start - 1
        var depth = 0
        var argument: String?
        // The argument whose value this is: `name:` just before (spaces allowed).
        var back = index
        while back >= 0, bytes[back] == 0x20 { back -= 1 }
        if back >= 0, bytes[back] == 0x3A {
            back -= 1
            while back >= 0, bytes[back] == 0x20 { back -= 1 }
            let end = back + 1
            while back >= 0, isNameByte(bytes[back]) { back -= 1 }
            if back + 1 < end { argument = String(decoding: bytes[(back + 1)..<end], as: UTF8.self) }
        }
        while index >= 0 {
            switch bytes[index] {
            case 0x29, 0x5D, 0x7D: depth += 1  // ) ] }
            case 0x5B, 0x7B:  // [ {
                if depth == 0 { return nil }
                depth -= 1
            case 0x28:  // (
                if depth > 0 {
                    depth -= 1
                } else {
                    var end = index
                    while end > 0, bytes[end - 1] == 0x20 { end -= 1 }
                    var begin = end
                    while begin > 0, isNameByte(bytes[begin - 1]) { begin -= 1 }
                    guard begin < end else { return nil }
                    let name = String(decoding: bytes[begin..<end], as: UTF8.self)
                    return Call(name: name, isDirective: begin > 0 && bytes[begin - 1] == 0x40, argument: argument)
                }
            case 0x22: return nil  // inside a string: no completion
            default: break
            }
            index -= 1
        }
        return nil
    }

    /// In an argument list: the arguments not yet given; after `name:`, the argument type's enum values, or
    /// `null`/`true`/`false`, and the variables of the operation.
    private static func arguments(of call: Call, scope: Scope?, schema: GraphQLSchema) -> [String] {
        let definitions: [InputValue]
        if call.isDirective {
            definitions = schema.directive(named: call.name)?.arguments ?? []
        } else {
            definitions = scope?.parent?.field(named: call.name)?.arguments ?? []
        }
        guard let argument = call.argument else {
            return definitions.map { input in
                item(
                    input.name, kind: .field, detail: input.type.description, documentation: input.description,
                    deprecated: input.deprecationReason != nil, insertText: input.name + ": ")
            }
        }
        guard let input = definitions.first(where: { $0.name == argument }) else { return [] }
        var items: [String] = []
        if let type = schema.type(named: input.type.namedType) {
            items += type.enumValues.map { value in
                item(
                    value.name, kind: .enumMember, detail: type.name, documentation: value.description,
                    deprecated: value.deprecationReason != nil)
            }
            if type.name == "Boolean" {
                items += ["true", "false"].map { item($0, kind: .keyword, detail: "Boolean", documentation: nil) }
            }
        }
        items += (scope?.variables ?? []).map { variable in
            item(
                "$" + variable.variable.name.value, kind: .variable, detail: typeText(variable.type), documentation: nil
            )
        }
        return items
    }

    private static func item(
        _ label: String, kind: Kind, detail: String?, documentation: String?, deprecated: Bool = false,
        insertText: String? = nil
    ) -> String {
        var members: [(String, String)] = [("label", JSONText.quote(label)), ("kind", "\(kind.rawValue)")]
        if let detail { members.append(("detail", JSONText.quote(detail))) }
        if let documentation, !documentation.isEmpty {
            members.append(
                (
                    "documentation",
                    JSONText.object([("kind", "\"markdown\""), ("value", JSONText.quote(documentation))])
                )
            )
        }
        if deprecated { members.append(("tags", "[1]")) }
        if let insertText { members.append(("insertText", JSONText.quote(insertText))) }
        return JSONText.object(members)
    }

    private static func typeText(_ type: TypeReference) -> String {
        switch type {
        case .named(let named): named.name.value
        case .list(let inner, _): "[" + typeText(inner) + "]"
        case .nonNull(let inner, _): typeText(inner) + "!"
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F
    }
}
