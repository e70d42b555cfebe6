import BatonValidation

/// How a compilation runs, fixed when it is made (`Compilation.init`): what the command asks of it and how its
/// work is spread. A value the driver builds once per request (`Driver.options`) and every compilation of the
/// request copies; nothing changes it while the compilation lives.
package struct CompilationOptions: Sendable {
    /// True for `check`: the plan is built for its diagnostics only (`LensModelOptions.checksOnly`:
    /// the same diagnostics, no lenses or document texts kept); a later `.generate` builds it
    /// again in full.
    package var checksOnly = false
    /// True for a one-shot `check` (with `checksOnly`): the documents are validated and planned batch by batch
    /// and their ASTs let go (`StreamingCheck`): the same diagnostics, in a fraction of the memory;
    /// `documents` is then empty and `model` nil. A kept compilation (one with a `ProjectCache`) never streams.
    package var streamsDocuments = false
    /// The files a build system declared for the Swift output (`gen --build-map`), or nil for one
    /// file per definition. With a layout no persisted-query manifest is written: a build writes
    /// only what it declared.
    package var swiftLayout: SwiftBuildLayout?
    /// How many threads a streaming check, and the plan's operations, use: `ParallelWork`'s, so
    /// the output never depends on it.
    package var workers = Compilation.defaultWorkers
    /// The least GraphQL bytes in a batch validated on its own (`DocumentGroups.batches`: a streaming
    /// check's, and a whole validation's on several workers); tests make it 1 for a batch per group.
    package var batchBytes = DocumentGroups.batchBytes
    /// A streaming check runs this between its passes (`StreamingCheck.betweenPasses`): tests
    /// rewrite files there.
    package var betweenStreamingPasses: (@Sendable () -> Void)?
    /// Schemas shared with other compilations of the same schema files (`SchemaMemo`: tests that compile one
    /// project many ways); nil builds the schema.
    package var schemas: SchemaMemo?

    /// Whether a compilation run to `stage` streams (`Compilation.checkStreaming`): a one-shot `check` to its plan,
    /// never a kept compilation (one with a `ProjectCache`).
    package func streamsCheck(upTo stage: Compilation.Stage, kept: Bool) -> Bool {
        streamsDocuments && checksOnly && !kept && stage == .plan
    }

    package init(
        checksOnly: Bool = false, streamsDocuments: Bool = false, swiftLayout: SwiftBuildLayout? = nil,
        workers: Int = Compilation.defaultWorkers, batchBytes: Int = DocumentGroups.batchBytes,
        betweenStreamingPasses: (@Sendable () -> Void)? = nil
    ) {
        self.checksOnly = checksOnly
        self.streamsDocuments = streamsDocuments
        self.swiftLayout = swiftLayout
        self.workers = workers
        self.batchBytes = batchBytes
        self.betweenStreamingPasses = betweenStreamingPasses
    }
}
