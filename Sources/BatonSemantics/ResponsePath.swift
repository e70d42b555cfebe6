import BatonSyntax

/// How the selections of one selection set are grouped: the lens model's grouping key, and the
/// steps of a response path.
///
/// Fields group by response key (alias or name), fragment spreads by fragment, inline fragments
/// on a narrower type by that type. Only fields add a step to a response path: an (unaliased)
/// inline fragment adds none, because the response has no level for it (`... on User { login }`
/// puts `login` beside the enclosing selection's other keys), and a fragment spread is its own
/// scope, checked where the fragment is defined. So two selections are "the same field" for the
/// rules that compare selections (`required-field-mismatch`, `required-action-mismatch`,
/// `required-missing-in-parent`, `catch-conflict`) exactly when they have the same response path.
package enum SelectionKey: Hashable, Sendable {
    case field(responseKey: String)
    case spread(fragment: String)
    case inlineFragment(typeCondition: String)

    /// The key of a field selection.
    package static func of(_ field: Field) -> SelectionKey { .field(responseKey: field.responseKey) }
}

/// The response keys from a definition's root to a field, one per enclosing field: the same for
/// every selection the response merges into one value.
package struct ResponsePath: Hashable, Sendable, CustomStringConvertible {
    package private(set) var keys: [String]

    package init(_ keys: [String] = []) { self.keys = keys }

    /// The path of a selection with `key` inside this path: one step longer for a field, the same
    /// path for an inline fragment (a spread starts a scope of its own and has no path here).
    package func appending(_ key: SelectionKey) -> ResponsePath {
        guard case .field(let responseKey) = key else { return self }
        var next = self
        next.keys.append(responseKey)
        return next
    }

    /// `viewer.name`, or `` for the root.
    package var description: String { keys.joined(separator: ".") }
}
