import BatonDiagnostics
import BatonIR
import BatonSchema
import BatonValidation

/// Every rule id `baton check` can report, each with its one descriptor (`RuleDescriptor`): the
/// spec's document rules, the SDL rules, Baton's rules, the configuration check, the plan's own
/// diagnostics, and the categories that are not rules. SARIF's rule metadata, `baton help rules`
/// and the ids `baton.json`'s `rules` may name all come from here.
package enum RuleCatalog {
    /// Ids that are categories of problems rather than rules; `rules` cannot change them.
    package static let categories: [RuleDescriptor] = [
        category("syntax", "GraphQL syntax error, or a malformed GraphQL literal in a Swift source."),
        category("schema", "The schema does not build or is not valid."),
        category("config", "baton.json is malformed or names something that does not exist."),
        category("io", "A file or folder could not be read."),
    ]

    private static func category(_ id: String, _ title: String) -> RuleDescriptor {
        RuleDescriptor(id: id, title: title, summary: "", configurable: false, origin: .category)
    }

    /// The spec's document rules, in the validator's order.
    package static var specifiedRules: [RuleDescriptor] {
        DocumentValidation.rules.compactMap { SpecifiedRuleDescriptors.all[$0.id] }
    }

    /// Every descriptor, in the order `baton help rules` lists them: categories, the spec's
    /// document rules, the SDL-only rules, Baton's rules, then the plan's diagnostics. One per id.
    package static var descriptors: [RuleDescriptor] {
        var seen = Set<String>()
        let all =
            categories + specifiedRules + SDLRuleDescriptors.all + BatonRuleCatalog.descriptors
            + [UnknownScalarMappingRule.descriptor, KeyFieldsRule.descriptor] + LensDiagnosticRule.descriptors
        return all.filter { seen.insert($0.id).inserted }
    }

    /// The descriptor of `id`.
    package static func descriptor(_ id: String) -> RuleDescriptor? { descriptors.first { $0.id == id } }

    /// Every description (title and sentence) by id, for SARIF.
    package static var descriptions: [String: String] {
        Dictionary(descriptors.map { ($0.id, $0.description) }, uniquingKeysWith: { first, _ in first })
    }

    /// The ids `rules` in baton.json may name: every configurable rule.
    package static var ruleIDs: Set<String> { Set(descriptors.filter(\.configurable).map(\.id)) }
}
