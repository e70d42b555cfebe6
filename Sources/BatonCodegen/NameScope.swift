/// A set of names already declared in one scope, handing out unique ones.
///
/// Generators claim names in the model's order (which is sorted), so the same input always yields the same
/// names. With `caseInsensitive`, names that differ only in case collide (file names on macOS and Windows
/// file systems, or names that become equal after capitalizing).
package struct NameScope: Sendable {
    private var taken: Set<String> = []
    /// Names taken in every scope of a kind, shared rather than copied (compared case-sensitively).
    private let shared: Set<String>
    package let caseInsensitive: Bool
    package let suffix: String

    /// A scope with `reserved` names taken; `shared` names are taken too, without copying the set (large sets
    /// such as every module-level type name are reused by many scopes).
    package init(
        reserved: some Sequence<String> = [String](), shared: Set<String> = [], caseInsensitive: Bool = false,
        suffix: String = "_"
    ) {
        self.caseInsensitive = caseInsensitive
        self.suffix = suffix.isEmpty ? "_" : suffix
        self.shared = caseInsensitive ? Set(shared.map { $0.lowercased() }) : shared
        for name in reserved { taken.insert(caseInsensitive ? name.lowercased() : name) }
    }

    private func key(_ name: String) -> String { caseInsensitive ? name.lowercased() : name }

    private func isTaken(_ key: String) -> Bool { taken.contains(key) || shared.contains(key) }

    /// Whether `name` is taken.
    package func contains(_ name: String) -> Bool { isTaken(key(name)) }

    /// Marks `name` as taken without checking.
    package mutating func reserve(_ name: String) { taken.insert(key(name)) }

    /// `preferred` if it is free, otherwise `preferred` followed by the suffix as many times as needed; the
    /// result is then taken.
    package mutating func claim(_ preferred: String) -> String {
        var name = preferred
        while isTaken(key(name)) { name += suffix }
        taken.insert(key(name))
        return name
    }
}

/// Letter-case helpers for names derived from GraphQL names.
package enum Casing {
    /// `name` with its first character upper-cased: `repository` → `Repository`, `_id` → `_id`.
    package static func upperFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// `name` with its first character lower-cased: `Repository` → `repository`.
    package static func lowerFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.lowercased() + name.dropFirst()
    }
}
