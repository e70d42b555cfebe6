import BatonDiagnostics
import BatonSchema

/// What a plan decides of the schema and its options alone, before reading any document: each
/// type's record key (`RecordKeyPolicy`), with what is wrong in the declared keys, and what
/// `check`'s screen asks of the schema (`RefusalScreen`). A pure function of the two, immutable
/// and `Sendable`: a compilation makes it once per schema and hands it to the `key-fields` rule
/// (which reports `keyDiagnostics`) and to every build of its plan, among them every batch's on
/// every worker (`StreamingCheck`); a build not given one makes its own.
package struct PlanDecisions: Sendable {
    /// Each type's record key.
    package let recordKeys: RecordKeys
    /// What is wrong in the declared keys (`RecordKeyPolicy.rule`), as the decision found it.
    package let keyDiagnostics: [Diagnostic]
    /// Every field name some type's record key is made of (`RefusalScreen.keyFieldNames`).
    let keyFieldNames: Set<String>
    /// True when some field of the schema nests `maximumListLevels` lists or more.
    let someFieldNestsTooManyLists: Bool

    package init(schema: GraphQLSchema, options: LensModelOptions) {
        (recordKeys, keyDiagnostics) = RecordKeyPolicy.decide(schema: schema, configured: options.keyFields)
        keyFieldNames = Set(recordKeys.objects.values.joined()).union(recordKeys.abstracts.values.joined())
        someFieldNestsTooManyLists = schema.deepestFieldListNesting >= LensModelBuilder.maximumListLevels
    }

    /// A screen of these decisions, with buffers of its own.
    var screen: RefusalScreen {
        RefusalScreen(keyFieldNames: keyFieldNames, someFieldNestsTooManyLists: someFieldNestsTooManyLists)
    }
}
