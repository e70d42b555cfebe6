import BatonCodegen

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

    /// The JVM name of the getter Kotlin generates for a property named `name`: `isX` stays `isX` when the
    /// letter after `is` is upper-case, otherwise `get` and the name with its first letter upper-cased.
    static func getterName(_ name: String) -> String {
        let characters = Array(name)
        if characters.count > 2, name.hasPrefix("is"), characters[2].isUppercase { return name }
        return "get" + Casing.upperFirst(name)
    }
}

/// Names already taken in one Kotlin scope, compared exactly or ignoring case.
struct KotlinScope {
    private var exact: Set<String> = []
    private var folded: Set<String> = []

    init(_ names: some Sequence<String> = [String]()) {
        for name in names { reserve(name) }
    }

    /// Every name taken, sorted.
    var allNames: [String] { exact.sorted() }

    mutating func reserve(_ name: String) {
        exact.insert(name)
        folded.insert(name.lowercased())
    }

    func contains(_ name: String, ignoringCase: Bool) -> Bool {
        ignoringCase ? folded.contains(name.lowercased()) : exact.contains(name)
    }

    /// `preferred`, or with `_` appended until it is free in this scope and in every one of `others`; then
    /// taken here.
    mutating func claim(_ preferred: String, ignoringCase: Bool, avoiding others: [KotlinScope] = []) -> String {
        var name = preferred
        while contains(name, ignoringCase: ignoringCase) || others.contains(where: { $0.contains(name, ignoringCase: false) }) {
            name += "_"
        }
        reserve(name)
        return name
    }
}

/// The JVM getter names a class's properties take, so two properties whose getters would collide
/// (`url` and `Url`, or `class`, whose getter would override `Object.getClass`) are told apart with
/// `@get:JvmName`.
struct JVMGetterNames {
    private var taken: Set<String> = ["getClass"]

    /// The `@get:JvmName("…")` annotation `property` needs, or nil when its natural getter name is free.
    mutating func annotation(for property: String) -> String? {
        let natural = KotlinNames.getterName(property)
        guard taken.contains(natural) else {
            taken.insert(natural)
            return nil
        }
        var name = natural + "_"
        while taken.contains(name) { name += "_" }
        taken.insert(name)
        return "@get:JvmName(\(KotlinLiteral.string(name)))"
    }
}
