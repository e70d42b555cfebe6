import BatonDiagnostics
import BatonSchema
import BatonSyntax

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// Guards `built` (a pthread mutex: `baton` loads no Foundation, `ProcessBaselineTests`).
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var built: [Key: ProjectLoader.LoadedSchema] = [:]

    package init() { pthread_mutex_init(lock, nil) }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// How many schemas were built (not found) through it.
    package var builds: Int {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return built.count
    }

    /// The schema of `sources`, built by `build` the first time; the sources and diagnostics it was built with
    /// (a diagnostic points into its own sources).
    func schema(
        of sources: [SourceFile], descriptions: Bool, build: () -> ProjectLoader.LoadedSchema
    ) -> ProjectLoader.LoadedSchema {
        let key = Key(paths: sources.map(\.path), bytes: sources.map(\.bytes), descriptions: descriptions)
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let found = built[key] { return found }
        let made = build()
        built[key] = made
        return made
    }
}
