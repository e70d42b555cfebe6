/// Where an identifier is declared: some names are reserved only in some positions.
package enum IdentifierPosition: Sendable, Hashable {
    /// A type: struct, enum, class, typealias (module level or nested).
    case type
    /// A property, method, or function/initializer parameter.
    case member
    /// An enum case.
    case enumCase
}

/// How one target language escapes identifiers: its reserved words and the ways around them.
///
/// Every identifier a generator emits passes through `escape(_:in:)` of its language. A reserved word that
/// the language lets you quote (Swift's backticks, Kotlin's backquotes) is quoted; a name that cannot be
/// used even quoted (Swift's `self`, `Type`, `init`, `_` …) gets `renameSuffix` appended. Names that would
/// collide after renaming, or that only differ in case where that matters (file names, nested types), are
/// made unique by `NameScope`.
package struct IdentifierRules: Sendable {
    /// The language's name, for messages.
    package var language: String
    /// Reserved words usable when quoted, in every position.
    package let quotable: Set<String>
    /// Names unusable even when quoted, per position; they are renamed.
    package let unusable: [IdentifierPosition: Set<String>]
    /// Opening and closing quote for a reserved word (Swift: backticks).
    package var openQuote: String
    package var closeQuote: String
    /// Appended to a name that must be renamed.
    package var renameSuffix: String
    /// Reserved words that must stay quoted as an argument label at a call site (`f(label: value)`); nil: the
    /// same as `quotable`. Swift takes every other keyword there as it is, and warns when one is quoted
    /// ("keyword 'where' does not need to be escaped in argument list").
    package let labelQuotable: Set<String>?
    /// Every name of `quotable`, `unusable` and `labelQuotable`: a name it rules out is neither renamed nor quoted
    /// in any position, which every rule below answers without hashing the name (most names a generator writes).
    private let special: NameFilter

    package init(
        language: String, quotable: Set<String>, unusable: [IdentifierPosition: Set<String>],
        openQuote: String, closeQuote: String, renameSuffix: String = "_", labelQuotable: Set<String>? = nil
    ) {
        self.language = language
        self.quotable = quotable
        self.unusable = unusable
        self.openQuote = openQuote
        self.closeQuote = closeQuote
        self.renameSuffix = renameSuffix
        self.labelQuotable = labelQuotable
        var special = NameFilter(quotable)
        for names in unusable.values { for name in names { special.insert(name) } }
        for name in labelQuotable ?? [] { special.insert(name) }
        self.special = special
    }

    /// Whether `names` (one of the rules' sets) holds `name`: hashed only when `special` cannot rule it out.
    @inline(__always)
    private func holds(_ names: Set<String>, _ name: String) -> Bool {
        special.mayContain(name) && names.contains(name)
    }

    /// Whether `name` must be renamed (not merely quoted) in `position`.
    package func mustRename(_ name: String, in position: IdentifierPosition) -> Bool {
        unusable[position].map { holds($0, name) } ?? false
    }

    /// The declared name for `name` in `position`, renamed if it cannot be used, without quotes.
    ///
    /// Use this as the key of a `NameScope`; then `quoted(_:)` the result where it is written.
    package func declaredName(_ name: String, in position: IdentifierPosition) -> String {
        guard special.mayContain(name) else { return name }
        var result = name
        while mustRename(result, in: position) { result += renameSuffix }
        return result
    }

    /// `name` quoted if it is a reserved word (call on a name already passed through `declaredName`).
    package func quoted(_ name: String) -> String {
        holds(quotable, name) ? openQuote + name + closeQuote : name
    }

    /// `name` as an argument label at a call site (`self.init(where: nil)`), quoted only where the language
    /// needs it there (call on a name already passed through `declaredName`). Declarations quote with
    /// `quoted(_:)`: a parameter's name is also a local name in the body.
    package func argumentLabel(_ name: String) -> String {
        holds(labelQuotable ?? quotable, name) ? openQuote + name + closeQuote : name
    }

    /// The identifier to write for `name` in `position`: renamed if unusable, then quoted if reserved.
    package func escape(_ name: String, in position: IdentifierPosition) -> String {
        quoted(declaredName(name, in: position))
    }
}

extension IdentifierRules {
    /// Swift's rules (Swift 6 grammar).
    ///
    /// Every keyword is quoted with backticks, contextual ones included (quoting a contextual keyword is
    /// always legal and avoids surprises such as `var async` in an async context). Renamed instead:
    /// - everywhere: `self`, `Self`, `init`, `deinit`, `subscript`, `_`, `Type`, `Protocol` — backticks do not
    ///   make them ordinary members (`x.self` is `x`, `T.Type` is a metatype, `_` is a wildcard);
    /// - types: `Any`, `Sendable`, and the standard types generated code names (`String`, `Int`, `Double`,
    ///   `Bool`, `Result`, `Optional`, `Array`, `Error`, `Never`), and module names generated code qualifies
    ///   with (`Swift`, `Foundation`, `Baton`, `BatonTesting`), which a declaration of the same name would shadow;
    /// - enum cases: `none` and `some` (they read as `Optional`'s cases at every use of `.none`/`.some`).
    package static let swift = IdentifierRules(
        language: "Swift",
        quotable: [
            // Declarations.
            "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
            "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package",
            "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript",
            "typealias", "var",
            // Statements.
            "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
            "guard", "if", "in", "repeat", "return", "switch", "throw", "where", "while",
            // Expressions and types.
            "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
            // Contextual keywords.
            "actor", "any", "associativity", "async", "consume", "convenience", "copy", "didSet", "discard",
            "distributed", "dynamic", "each", "final", "get", "indirect", "infix", "isolated", "lazy", "left",
            "macro", "mutating", "none", "nonmutating", "optional", "override", "postfix", "precedence",
            "prefix", "Protocol", "required", "right", "sending", "set", "some", "then", "Type", "unowned",
            "weak", "willSet",
        ],
        unusable: [
            .type: [
                "self", "Self", "init", "deinit", "subscript", "_", "Type", "Protocol", "Any", "Sendable",
                "String", "Int", "Double", "Bool", "Result", "Optional", "Array", "Error", "Never", "Swift",
                "Foundation", "Baton", "BatonTesting",
            ],
            .member: ["self", "Self", "init", "deinit", "subscript", "_", "Type", "Protocol"],
            .enumCase: ["self", "Self", "init", "deinit", "subscript", "_", "Type", "Protocol", "none", "some"],
        ],
        openQuote: "`",
        closeQuote: "`",
        // An argument label may be any keyword but `inout` (Swift's grammar: `argument-label`).
        labelQuotable: ["inout"])
}
