import BatonDiagnostics

/// What the quick fixes read from a diagnostic's message, and how an action is spelled.
enum CodeActions {
    /// The names a "Did you mean" suggests: `… Did you mean "name"?`, `… Did you mean "a", "b", or "c"?` (only
    /// GraphQL names; a suggestion of anything else is not applied).
    static func suggestions(in message: String) -> [String] {
        guard let range = message.firstRange(of: "Did you mean ") else { return [] }
        let tail = message[range.upperBound...]
        var names: [String] = []
        var inside = false
        var current = ""
        for character in tail {
            if character == "\"" {
                if inside, Navigation.isName(current) { names.append(current) }
                inside.toggle()
                current = ""
            } else if inside {
                current.append(character)
            }
        }
        return names
    }

    /// The argument `ProvidedRequiredArgumentsRule` says is missing on a field: `Field "user" argument "id" of type
    /// "ID!" is required, but it was not provided.`
    static func missingArgument(in message: String) -> String? {
        guard message.hasPrefix("Field \""), message.hasSuffix("is required, but it was not provided."),
            let argument = message.firstRange(of: "\" argument \"")
        else { return nil }
        let rest = message[argument.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        let name = String(rest[..<end])
        return Navigation.isName(name) ? name : nil
    }

    /// A quick-fix `CodeAction`.
    static func action(_ title: String, edit: String, preferred: Bool) -> String {
        JSONText.object([
            ("title", JSONText.quote(title)), ("kind", "\"quickfix\""), ("isPreferred", preferred ? "true" : "false"),
            ("edit", edit),
        ])
    }
}
