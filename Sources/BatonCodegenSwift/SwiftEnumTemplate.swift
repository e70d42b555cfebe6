import BatonCodegen
import BatonDeclarations

/// A schema enum: a case per value the build knows, spelled as the schema spells it (escaped where Swift
/// reserves the name), and `unknown(String)` for a value it does not, so a value the schema gained after the
/// build reads as itself. A value literally named `unknown` (or `rawText`) becomes `unknown_`.
///
/// Deprecated values carry `@available(*, deprecated, message:)`. Constructing them inside the enum would
/// warn, so they are built in a deprecated extension reached through a private protocol (calls through a
/// protocol requirement do not warn), and code that names them still gets the deprecation warning.
struct SwiftEnumTemplate {
    let generator: SwiftGenerator
    let model: EnumDeclaration
    let typeName: String

    private static let rules = IdentifierRules.swift

    func render() -> Template {
        var scope = NameScope(reserved: ["unknown", "rawText", "hashValue"])
        let cases = model.values.map { value in
            (value, Self.rules.quoted(scope.claim(Self.rules.declaredName(value.name, in: .enumCase))))
        }
        let current = cases.filter { $0.0.deprecation == nil }
        let deprecated = cases.filter { $0.0.deprecation != nil }
        let access = generator.access
        let type = Self.rules.quoted(typeName)
        let reference = generator.names.schemaTypeReference(typeName)
        let helper = "_" + typeName + "DeprecatedValues"
        let fallback: String =
            deprecated.isEmpty
            ? "self = .unknown(rawText)"
            : "self = (Self.self as any \(helper).Type).deprecatedValue(rawText) ?? .unknown(rawText)"
        let declaration: Template = """
            \(DocComment.tripleSlash(model.documentation))
            \(access)\(generator.isolation)enum \(type): Baton.GraphQLEnum {
                \(each: cases, separator: "\n", { value, name in
                    """
                    \(DocComment.tripleSlash(value.documentation))
                    \(ifLet: value.deprecation?.reason, { "@available(*, deprecated, message: \(SwiftLiteral.string($0)))" })
                    case \(name)
                    """
                })
                /// A value this build does not know, with its text.
                case unknown(String)

                \(equalityMembers)

                \(if: !model.findsValueThroughTable, switchMembers(current: current, cases: cases, fallback: fallback))
                \(if: model.findsValueThroughTable, tableMembers(current: current, cases: cases, fallback: fallback))
            }
            """
        return """
            \(generator.inSchemaNamespace(declaration))
            \(if: !deprecated.isEmpty, deprecatedHelper(type: reference, helper: helper, deprecated: deprecated))
            """
    }

    /// `==` and `hash(into:)` through `rawText` (two known values are equal exactly when their texts are: the schema's
    /// values are distinct), written out rather than derived: Swift derives them for an enum with a payload as a
    /// switch over every pair and every case, which took most of a large enum's compile (saleor's 779-value
    /// `LanguageCodeEnum`: 2.5 s of debug CPU with them derived, 0.55 s without; Docs/Performance.md, "The debug
    /// compile of generated Swift: enums compared through their text"). Swift's own names are qualified, as a schema
    /// type may be called `Hasher`.
    private var equalityMembers: Template {
        let access = generator.access
        return """
            \(access)static func == (lhs: Self, rhs: Self) -> Swift.Bool {
                switch (lhs, rhs) {
                case (.unknown(let left), .unknown(let right)): return left == right
                case (.unknown, _), (_, .unknown): return false
                default: return lhs.rawText == rhs.rawText
                }
            }

            \(access)func hash(into hasher: inout Swift.Hasher) {
                hasher.combine(rawText)
            }
            """
    }

    /// `init(rawText:)` and `rawText` as switches: most enums have a handful of values.
    private func switchMembers(
        current: [(EnumValueDeclaration, String)], cases: [(EnumValueDeclaration, String)], fallback: String
    ) -> Template {
        let access = generator.access
        return """
            \(access)init(rawText: String) {
                switch rawText {
                \(each: current, { value, name in "case \(SwiftLiteral.string(value.name)): self = .\(name)" })
                default: \(fallback)
                }
            }

            \(access)var rawText: String {
                switch self {
                \(each: cases, { value, name in "case .\(name): \(SwiftLiteral.string(value.name))" })
                case .unknown(let text): text
                }
            }
            """
    }

    /// `init(rawText:)` through a table of the current values, and `rawText` as a switch of statements (a switch
    /// expression of hundreds of branches is type-checked as one expression). Names starting with `__` cannot be a
    /// GraphQL value's, so they cannot collide with a case.
    private func tableMembers(
        current: [(EnumValueDeclaration, String)], cases: [(EnumValueDeclaration, String)], fallback: String
    ) -> Template {
        let access = generator.access
        return """
            \(access)init(rawText: String) {
                if let value = Self.__byRawText[rawText] {
                    self = value
                } else {
                    \(fallback)
                }
            }

            private static let __byRawText: [String: Self] = Dictionary(
                __currentValues.map { ($0.rawText, $0) }, uniquingKeysWith: { first, _ in first })

            private static let __currentValues: [Self] = [
                \(each: current, { _, name in "Self.\(name)," })
            ]

            \(access)var rawText: String {
                switch self {
                \(each: cases, { value, name in "case .\(name): return \(SwiftLiteral.string(value.name))" })
                case .unknown(let text): return text
                }
            }
            """
    }

    private func deprecatedHelper(type: String, helper: String, deprecated: [(EnumValueDeclaration, String)])
        -> Template
    {
        """

        \(generator.isolation)private protocol \(helper) {
            static func deprecatedValue(_ text: String) -> \(type)?
        }

        \(generator.isolation)extension \(type): \(helper) {
            @available(*, deprecated)
            fileprivate static func deprecatedValue(_ text: String) -> \(type)? {
                switch text {
                \(each: deprecated, { value, name in "case \(SwiftLiteral.string(value.name)): .\(name)" })
                default: nil
                }
            }
        }
        """
    }
}
