import BatonDiagnostics
import BatonSchema
import BatonSyntax
import Foundation

/// Schemas built once for several compilations of the same schema files: a test that compiles one project
/// many ways (streamed, on 1, 2 and 7 workers) builds its schema once, not once per way. A compilation given one
/// (`CompilationOptions.schemas`) looks its schema up by what it is built from (each file's display path and bytes,
/// and whether descriptions are kept) and builds it only when it is not there. The schema is immutable, so sharing
/// it changes nothing a compilation reports. Nothing in `baton` itself makes one: a command builds its schema once.
package final class SchemaMemo: @unchecked Sendable {
    private struct Key: Hashable {
        var paths: [String]
        var bytes: [[UInt8]]
        var descriptions: Bool
    }

    private let lock = NSLock()
    private var built: [Key: ProjectLoader.LoadedSchema] = [:]

    package init() {}

    /// How many schemas were built (not found) through it.
    package private(set) var builds = 0

    /// The schema of `sources`, built by `build` the first time; the sources and diagnostics it was built with
    /// (a diagnostic points into its own sources).
    func schema(
        of sources: [SourceFile], descriptions: Bool, build: () -> ProjectLoader.LoadedSchema
    ) -> ProjectLoader.LoadedSchema {
        let key = Key(paths: sources.map(\.path), bytes: sources.map(\.bytes), descriptions: descriptions)
        lock.lock()
        defer { lock.unlock() }
        if let found = built[key] { return found }
        let made = build()
        built[key] = made
        builds += 1
        return made
    }
}
