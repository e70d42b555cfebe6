import BatonDiagnostics
import BatonSchema
import BatonSemantics

/// Baton's own document rules, in the order they run after the spec's rules; each has its catalog entry
/// (`BatonRuleInfo`), which the type says, so nothing casts to find it.
package var batonRules: [any (ValidationRule & BatonRuleInfo).Type] {
    [
        RequiredOnNonNullRule.self,
        RequiredOnSemanticNonNullRule.self,
        RequiredActionSeverityRule.self,
        RequiredActionMismatchRule.self,
        RequiredFieldMismatchRule.self,
        RequiredMissingInParentRule.self,
        RequiredInAbstractInlineFragmentRule.self,
        RequiredThrowInMutationRule.self,
        RequiredActionLiteralRule.self,
        CatchWithRequiredRule.self,
        CatchConflictRule.self,
        ThrowOnFieldErrorOnMutationRule.self,
        UnmappedCustomScalarRule.self,
        DeprecatedUsageRule.self,
        ConnectionFieldTypeRule.self,
        ConnectionCountArgumentRule.self,
        ConnectionSelectionRule.self,
        ConnectionKeyRule.self,
        ConnectionFiltersRule.self,
        UniqueConnectionKeysRule.self,
        EdgeUpdateRule.self,
        NodeUpdateRule.self,
        DeleteRecordRule.self,
        RefetchableFragmentRule.self,
        RefetchablePaginationRule.self,
    ]
}

/// Every document rule `baton check` runs: the spec's, in graphql-js's order, then Baton's.
package var allRules: [any ValidationRule.Type] { specifiedRules + batonRules.map { $0 } }

/// Baton's checks of the schema itself, run once per schema (not per document).
package enum BatonSchemaRules {
    package static var rules: [any BatonRuleInfo.Type] { [SemanticNonNullLevelsRule.self] }

    /// Every Baton schema check's diagnostics for `schema`.
    package static func check(_ schema: GraphQLSchema) -> [Diagnostic] {
        SemanticNonNullLevelsRule.check(schema)
    }
}

/// Baton's rules (document and schema) with their default severity and description, for
/// `baton check`'s rule catalog (SARIF) and for the ids `rules` in baton.json may name.
package enum BatonRuleCatalog {
    package static var rules: [any BatonRuleInfo.Type] {
        batonRules.map { $0 } + BatonSchemaRules.rules
    }
    package static var descriptors: [RuleDescriptor] { rules.map { $0.descriptor } }
}
