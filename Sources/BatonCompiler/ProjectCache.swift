import BatonIR

/// What a kept compilation reuses from one round to the next (a watch session's, an editor's workspace): the last
/// plan's definitions (`LensModelCache`) and the last validation by document (`KeptValidation`). Made by whoever
/// keeps compilations (`WatchSession`, through `Driver.compile(upTo:keeping:)`) and handed to the compilation it
/// serves; a compilation without one plans and validates everything every time. Both are dropped when the schema
/// is built again: they were made against the old one.
package final class ProjectCache {
    /// The last plan's definitions.
    package private(set) var plan = LensModelCache()
    /// The last validation, by document.
    var validation = KeptValidation()

    package init() {}

    /// How many documents the last validation validated (all, or what a change reached).
    package var validatedDocuments: Int { validation.validated }

    /// Forgets everything made against the schema before.
    func schemaChanged() {
        plan = LensModelCache()
        validation = KeptValidation()
    }
}
