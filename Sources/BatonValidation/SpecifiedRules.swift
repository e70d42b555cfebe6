/// The spec's validation rules for executable documents, in graphql-js's `specifiedRules`
/// order (the defer/stream rules where graphql-js 17 puts them; they do nothing unless the
/// schema declares `@defer` or `@stream`). Baton's own rules follow them in `allRules`
/// (`BatonRules/Support/BatonRuleList.swift`).
package var specifiedRules: [any ValidationRule.Type] {
    [
        ExecutableDefinitionsRule.self,
        UniqueOperationNamesRule.self,
        LoneAnonymousOperationRule.self,
        SingleFieldSubscriptionsRule.self,
        KnownTypeNamesRule.self,
        FragmentsOnCompositeTypesRule.self,
        VariablesAreInputTypesRule.self,
        ScalarLeafsRule.self,
        FieldsOnCorrectTypeRule.self,
        UniqueFragmentNamesRule.self,
        KnownFragmentNamesRule.self,
        NoUnusedFragmentsRule.self,
        PossibleFragmentSpreadsRule.self,
        NoFragmentCyclesRule.self,
        UniqueVariableNamesRule.self,
        NoUndefinedVariablesRule.self,
        NoUnusedVariablesRule.self,
        KnownDirectivesRule.self,
        UniqueDirectivesPerLocationRule.self,
        DeferStreamDirectiveOnRootFieldRule.self,
        DeferStreamDirectiveOnValidOperationsRule.self,
        DeferStreamDirectiveLabelRule.self,
        StreamDirectiveOnListFieldRule.self,
        KnownArgumentNamesRule.self,
        UniqueArgumentNamesRule.self,
        ValuesOfCorrectTypeRule.self,
        ProvidedRequiredArgumentsRule.self,
        VariablesInAllowedPositionRule.self,
        OverlappingFieldsCanBeMergedRule.self,
        UniqueInputFieldNamesRule.self,
    ]
}
