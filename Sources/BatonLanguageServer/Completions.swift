import BatonDiagnostics
import BatonSchema
import BatonSyntax

/// Completion items at a position of a parsed document: after `@`, the schema's directives (Baton's among them,
/// with their arguments); after `$`, the operation's variables; inside a selection set, the parent type's fields
/// (with their types and descriptions) and the fragments that may be spread there.
enum Completions {
    /// LSP's `CompletionItemKind`s used here.
    private enum Kind: Int {
        case field = 5, variable = 6, `class` = 7, keyword = 14, reference = 18
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
        guard scope.inSelectionSet, let parent = scope.parent else { return [] }
        var items = parent.fields.map { field in
            item(
                field.name, kind: .field, detail: field.type.description,
                documentation: field.description, deprecated: field.deprecationReason != nil)
        }
        items.append(item("__typename", kind: .field, detail: "String!", documentation: nil))
        for document in found.compilation.documents {
            for case .fragment(let fragment) in document.definitions {
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
