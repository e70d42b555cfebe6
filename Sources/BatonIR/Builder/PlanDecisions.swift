import BatonSchema

/// What a plan decides of the schema and its options alone, before reading any document: each
/// type's record key (`RecordKeyPolicy`) and what `check`'s screen asks of the schema
/// (`RefusalScreen`). A pure function of the two, immutable and `Sendable`: `check` makes it once
/// and hands it to every batch's build on every worker (`StreamingCheck`), where each batch's
/// `LensBuildContext` otherwise decided it again; a build not given one makes its own.
package struct PlanDecisions: Sendable {
    /// Each type's record key.
    package let recordKeys: RecordKeys
    /// Every field name some type's record key is made of (`RefusalScreen.keyFieldNames`).
    let keyFieldNames: Set<String>
    /// True when some field of the schema nests `maximumListLevels` lists or more.
    let someFieldNestsTooManyLists: Bool

    package init(schema: GraphQLSchema, options: LensModelOptions) {
        recordKeys = RecordKeyPolicy.decide(schema: schema, configured: options.keyFields).0
        keyFieldNames = Set(recordKeys.objects.values.joined()).union(recordKeys.abstracts.values.joined())
        someFieldNestsTooManyLists = schema.deepestFieldListNesting >= LensModelBuilder.maximumListLevels
    }

    /// A screen of these decisions, with buffers of its own.
    var screen: RefusalScreen {
        RefusalScreen(keyFieldNames: keyFieldNames, someFieldNestsTooManyLists: someFieldNestsTooManyLists)
    }
}
