import BatonCodegen
import BatonFiles

/// What one `gen` run of a compilation knows beyond its options and the project: the hashes of its
/// inputs and the manifests the driver found (set by the driver or the watch session before the
/// run), and what `.read` and `.generate` derived from them. One value, so a change of inputs
/// forgets all of it at once (`Compilation.resetAfterRead`), and no part outlives another.
package struct GenerationRun {
    /// The hashes of this project's inputs, when the driver took them (`gen` without `--check`):
    /// with them `.generate` keeps the definitions `previousManifests` says are unchanged, and the
    /// driver records a manifest for each output folder.
    package internal(set) var inputs: GenerationInputs?
    /// The manifests found in the output folders, by absolute folder.
    package internal(set) var previousManifests: [String: GenerationManifest] = [:]
    /// The output folders whose manifest a watch session wrote itself: their files are taken to be
    /// as it wrote them, stamps not compared (`keptDefinitions`).
    package internal(set) var trustedOutputRoots: Set<String> = []
    /// Set by the driver when every output folder's manifest matches the inputs: the compilation
    /// is not run, and these are its folders' reports.
    package internal(set) var upToDate: [WrittenFolder]?
    /// Set by the driver when the output folders' manifests were made from the same project-wide
    /// inputs and hold the last plan's summary: `.read` then reads only the documents the changed
    /// ones reach, and the plan holds the others as summaries (`IncrementalBasis`).
    package internal(set) var incremental: IncrementalBasis?
    /// With `incremental`: what `.read` found (the documents read, the summaries of the others);
    /// nil for a compilation of every document.
    package internal(set) var partial: PartialRead?
    /// Each planned definition's digest (`PlanDigests.definitions`), after `.generate` with `inputs`; a
    /// summarized definition's is the recorded one (`Compilation.definitionDigest`). With a build's
    /// layout, also each layout file's (`Compilation.computeLayoutDigests`).
    package internal(set) var definitionDigests: [String: String] = [:]
    /// The keys of the planned definitions without a digest (`PlanDigests.definitions`: never kept).
    package internal(set) var undigestedDefinitions: Set<String> = []
    /// The digest of the plan's top-level names, after `.generate` with `inputs`.
    package internal(set) var namesDigest: String? {
        didSet { keptByRoot = [:] }
    }
    /// `Compilation.keptDefinitions`' answers for the current digests, by output folder.
    var keptByRoot: [String: KeptDefinitions] = [:]
    /// By output folder, after `.generate` kept files there: the paths its manifest lists besides the kept
    /// files' (`Compilation.keptFilesAreWhereRecorded`), the writer's stale candidates instead of a listing
    /// of the folder (`FileWriter.preflight`'s `recorded`). None for a folder written in full.
    var recordedUnkept: [String: [String]] = [:]
    /// With a build's layout (`swiftLayout`): the layout file of each definition with one of its
    /// own, and the files kept whole (`Compilation.keptDefinitions`).
    var layoutFileOfDefinition: [String: String] = [:]
    var keptLayoutFiles: Set<String> = []

    package init() {}
}
