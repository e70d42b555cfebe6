/// A set of names already declared in one scope, handing out unique ones.
///
/// Generators claim names in the model's order (which is sorted), so the same input always yields the same
/// names. With `caseInsensitive`, names that differ only in case collide (file names on macOS and Windows
/// file systems, or names that become equal after capitalizing).
package struct NameScope: Sendable {
    /// The names taken, while there are few: compared one by one, which for a lens's handful of
    /// members costs less than hashing each name.
    private var few: [String] = []
    /// The names taken, once there are more than `fewLimit` (`few` is then empty).
    private var many: Set<String> = []
    private static let fewLimit = 16
    /// Names taken in every scope of a kind, shared rather than copied (compared case-sensitively), with the filter
    /// that rules most names out without hashing them.
    private let shared: FilteredNames
    package let caseInsensitive: Bool
    package let suffix: String

    /// A scope with `reserved` names taken; `shared` names are taken too.
    package init(
        reserved: [String] = [], shared: Set<String> = [], caseInsensitive: Bool = false, suffix: String = "_"
    ) {
        self.init(reserved: reserved, shared: FilteredNames(shared), caseInsensitive: caseInsensitive, suffix: suffix)
    }

    /// A scope with `reserved` names taken; `shared` names are taken too, without copying the set or its filter
    /// (large sets such as every module-level type name are made once and reused by many scopes).
    package init(reserved: [String] = [], shared: FilteredNames, caseInsensitive: Bool = false, suffix: String = "_") {
        self.caseInsensitive = caseInsensitive
        self.suffix = suffix.isEmpty ? "_" : suffix
        self.shared = caseInsensitive ? FilteredNames(shared.names.lazy.map { $0.lowercased() }) : shared
        // A name listed twice is harmless in `few` (it only counts towards the limit).
        let keys = caseInsensitive ? reserved.map { $0.lowercased() } : reserved
        if keys.count <= Self.fewLimit {
            few = keys
            few.reserveCapacity(Self.fewLimit)
        } else {
            many = Set(keys)
        }
    }

    private func key(_ name: String) -> String { caseInsensitive ? name.lowercased() : name }

    private func isTaken(_ key: String) -> Bool {
        (many.isEmpty ? few.contains(key) : many.contains(key)) || (!shared.isEmpty && shared.contains(key))
    }

    private mutating func insert(_ key: String) {
        if many.isEmpty {
            if few.count < Self.fewLimit {
                few.append(key)
                return
            }
            many = Set(few)
            few = []
        }
        many.insert(key)
    }

    /// Whether `name` is taken.
    package func contains(_ name: String) -> Bool { isTaken(key(name)) }

    /// Marks `name` as taken without checking.
    package mutating func reserve(_ name: String) { insert(key(name)) }

    /// `preferred` if it is free, otherwise `preferred` followed by the suffix as many times as needed; the
    /// result is then taken.
    package mutating func claim(_ preferred: String) -> String {
        var name = preferred
        while isTaken(key(name)) { name += suffix }
        insert(key(name))
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
