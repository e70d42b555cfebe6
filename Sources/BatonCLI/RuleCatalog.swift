/// Every rule id `baton check` can report, with a one-sentence description (for SARIF, and
/// to check the ids `baton.json`'s `rules` names).
package enum RuleCatalog {
    /// Descriptions by rule id, including the categories that are not rules.
    package static let descriptions: [String: String] = [
        "syntax": "GraphQL syntax error, or a malformed GraphQL literal in a Swift source.",
        "schema": "The schema does not build or is not valid.",
        "config": "baton.json is malformed or names something that does not exist.",
        "io": "A file or folder could not be read.",
        UnknownScalarMappingRule.id: UnknownScalarMappingRule.summary,
    ]

    /// The ids `rules` in baton.json may name (nil while the validator's list is unknown).
    package static var ruleIDs: Set<String>? { nil }
}
