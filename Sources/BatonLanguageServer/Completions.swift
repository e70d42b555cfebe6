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

    /// An argument list the position is in: the field's or directive's name, the input object fields leading from
    /// the argument to the object literal the position is in (outermost first; empty directly in the list), and
    /// the name whose value is being written (after `name:`), if any.
    struct Call {
        var name: String
        var isDirective: Bool
        var objectPath: [String]
        var argument: String?
    }

    /// Reads back from `start` to the unclosed `(` around it (nested brackets skipped; an object literal's `{`
    /// after `name:` entered) and the name before it.
    static func enclosingCall(_ bytes: [UInt8], before start: Int) -> Call? {
        /// The name ending just before `end` after spaces, and where it begins.
        func name(before end: Int) -> (String, Int)? {
            var last = end
            while last > 0, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x0A { last -= 1 }
            var first = last
            while first > 0, isNameByte(bytes[first - 1]) { first -= 1 }
            return first < last ? (String(decoding: bytes[first..<last], as: UTF8.self), first) : nil
        }
        /// The name of a `name:` ending just before `end` (spaces allowed), if there is one.
        func key(before end: Int) -> String? {
            var colon = end
            while colon > 0, bytes[colon - 1] == 0x20 || bytes[colon - 1] == 0x0A { colon -= 1 }
            guard colon > 0, bytes[colon - 1] == 0x3A else { return nil }
            return name(before: colon - 1)?.0
        }
        let argument = key(before: start)
        var objectPath: [String] = []
        var index = start - 1
        var depth = 0
        while index >= 0 {
            switch bytes[index] {
            case 0x29, 0x5D, 0x7D: depth += 1  // ) ] }
            case 0x5B: if depth > 0 { depth -= 1 }  // [: a list value's items are its values
            case 0x7B:  // {: an object literal after `name:`, or a selection set (no completion here)
                if depth > 0 {
                    depth -= 1
                } else {
                    guard let field = key(before: index) else { return nil }
                    objectPath.insert(field, at: 0)
                }
            case 0x28:  // (
                if depth > 0 {
                    depth -= 1
                } else {
                    guard let (called, first) = name(before: index) else { return nil }
                    return Call(
                        name: called, isDirective: first > 0 && bytes[first - 1] == 0x40, objectPath: objectPath,
                        argument: argument)
                }
            case 0x22: return nil  // inside a string: no completion
            default: break
            }
            index -= 1
        }
        return nil
    }

    /// In an argument list: the arguments (or, in an object literal, the input object's fields); after `name:`,
    /// the type's enum values or booleans, and the operation's variables.
    private static func arguments(of call: Call, scope: Scope?, schema: GraphQLSchema) -> [String] {
        var inputs: [InputValue]
        if call.isDirective {
            inputs = schema.directive(named: call.name)?.arguments ?? []
        } else {
            inputs = scope?.parent?.field(named: call.name)?.arguments ?? []
        }
        for key in call.objectPath {
            guard let input = inputs.first(where: { $0.name == key }),
                let type = schema.type(named: input.type.namedType)
            else { return [] }
            inputs = type.inputFields
        }
        guard let argument = call.argument else {
            return inputs.map { input in
                item(
                    input.name, kind: .field, detail: input.type.description, documentation: input.description,
                    deprecated: input.deprecationReason != nil, insertText: input.name + ": ")
            }
        }
        guard let input = inputs.first(where: { $0.name == argument }) else { return [] }
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
