import BatonCodegen
import BatonKotlinRuntime

extension IdentifierRules {
    /// The Kotlin runtime's type names (package `baton.runtime`), read from its files at build time.
    ///
    /// A generated type of the same name would be shadowed by the import in files that use both (and be ambiguous
    /// in app code importing both packages), so generated types never take these names.
    package static let kotlinRuntimeTypeNames: Set<String> = KotlinRuntimeFiles.typeNames

    /// Kotlin's rules (the Kotlin 1.3 grammar, which later versions keep).
    ///
    /// Hard keywords are quoted with backquotes, which Kotlin/JVM allows for every declaration. Soft keywords
    /// and modifiers (`value`, `data`, `field`, `get`, `open` …) are ordinary identifiers and stay as they are.
    /// Renamed instead:
    /// - everywhere: names made only of underscores, which Kotlin reserves even when quoted (the generator
    ///   appends a digit before this table applies, so they never reach it; listed for completeness);
    /// - types: the names generated code uses unqualified from the default imports (`String`, `Int`, `Double`,
    ///   `Boolean`, `Any`, `List`, `Map`, `Unit`, `Nothing`, `Deprecated`, `Suppress`, `JvmName`) and from
    ///   the runtime support (`kotlinRuntimeTypeNames`), which a generated type of the same name would shadow;
    /// - enum values (nested objects of a sealed class): `Companion` (the sealed class's companion object)
    ///   and `Undeclared` (the case for values the build does not know).
    package static let kotlin = IdentifierRules(
        language: "Kotlin",
        quotable: [
            "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in", "interface", "is",
            "null", "object", "package", "return", "super", "this", "throw", "true", "try", "typealias", "typeof",
            "val", "var", "when", "while",
        ],
        unusable: [
            .type: Set([
                "_", "__", "Any", "Boolean", "Deprecated", "Double", "Int", "JvmName", "List", "Map",
                "Nothing", "String", "Suppress", "Unit",
            ]).union(kotlinRuntimeTypeNames),
            .member: ["_", "__"],
            .enumCase: ["_", "__", "Companion", "Undeclared"],
        ],
        openQuote: "`",
        closeQuote: "`")
}
