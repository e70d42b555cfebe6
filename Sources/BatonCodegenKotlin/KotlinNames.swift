import BatonCodegen
import BatonDeclarations

/// Kotlin names for GraphQL names: escaping, JVM accessor names and unique claims.
package enum KotlinNames {
    static let rules = IdentifierRules.kotlin

    /// `name` made usable in `position`, without quotes: a name made only of underscores (reserved by Kotlin
    /// even when quoted) gets a `0` appended; then the Kotlin rules rename what cannot be used.
    static func declared(_ name: String, _ position: IdentifierPosition) -> String {
        var result = name
        if !result.isEmpty, result.allSatisfy({ $0 == "_" }) { result += "0" }
        return rules.declaredName(result, in: position)
    }

    /// `name` as written in source: quoted with backquotes when it is a hard keyword.
    static func quoted(_ name: String) -> String { rules.quoted(name) }

    /// `@get:JvmName("…")` for a property Kotlin declares as `property` whose getter the tree states as `getter`
    /// (`JVMAccessorNames`), or nil when Kotlin names the getter so by default: the tree decides every getter,
    /// this only pins it where Kotlin's spelling of the name (`Companion_`, `toJson_`, …) would give another.
    static func jvmName(_ property: String, getter: String) -> String? {
        JVMAccessorNames.natural(property) == getter ? nil : "@get:JvmName(\(KotlinLiteral.string(getter)))"
    }
}

/// Names already taken in one Kotlin scope, compared exactly or ignoring case.
///
/// A scope may start from a shared base (the names every file reserves), which is never copied: only the names
/// taken in this scope are stored in it.
struct KotlinScope: Sendable {
    private let baseExact: Set<String>
    private let baseFolded: Set<String>
    private var exact = SmallNameSet()
    private var folded = SmallNameSet()

    init(_ names: some Sequence<String> = [String]()) {
        baseExact = []
        baseFolded = []
        for name in names { reserve(name) }
    }

    /// A scope holding `base`'s names (shared, not copied) and then `names`.
    init(base: KotlinScope, _ names: some Sequence<String> = [String]()) {
        // A flattened base (nothing taken locally) is shared as it is; otherwise its two layers are merged once.
        baseExact = base.exact.isEmpty ? base.baseExact : base.exact.union(base.baseExact)
        baseFolded = base.folded.isEmpty ? base.baseFolded : base.folded.union(base.baseFolded)
        for name in names { reserve(name) }
    }

    /// This scope with every name in its shared base, for scopes built on it to share without copying.
    func flattened() -> KotlinScope { KotlinScope(base: self) }

    /// Every name taken, sorted.
    var allNames: [String] { exact.union(baseExact).sorted() }

    mutating func reserve(_ name: String) {
        exact.insert(name)
        folded.insert(name.lowercased())
    }

    func contains(_ name: String, ignoringCase: Bool) -> Bool {
        if ignoringCase {
            let key = name.lowercased()
            return folded.contains(key) || baseFolded.contains(key)
        }
        return exact.contains(name) || baseExact.contains(name)
    }

    /// `preferred`, or with `_` appended until it is free in this scope and in every one of `others`; then
    /// taken here.
    mutating func claim(_ preferred: String, ignoringCase: Bool, avoiding others: [KotlinScope] = []) -> String {
        var name = preferred
        while contains(name, ignoringCase: ignoringCase)
            || others.contains(where: { $0.contains(name, ignoringCase: false) })
        {
            name += "_"
        }
        reserve(name)
        return name
    }
}

/// Names taken in one scope: a list while they are few (a lens's members, compared one by one, which
/// costs less than hashing each into a set that grows), a set past 16.
private struct SmallNameSet: Sendable {
    private var few: [String] = []
    private var many: Set<String> = []

    init(_ names: [String] = []) { for name in names { insert(name) } }

    var isEmpty: Bool { few.isEmpty && many.isEmpty }

    mutating func insert(_ name: String) {
        if many.isEmpty {
            if few.contains(name) { return }
            if few.count < 16 {
                few.append(name)
                return
            }
            many = Set(few)
            few = []
        }
        many.insert(name)
    }

    func contains(_ name: String) -> Bool { many.isEmpty ? few.contains(name) : many.contains(name) }

    func union(_ other: Set<String>) -> Set<String> { many.isEmpty ? other.union(few) : many.union(other) }
}
