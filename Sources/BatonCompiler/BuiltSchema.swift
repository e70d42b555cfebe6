#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One project's schema as a streamed `check` builds it while the documents are looked for and read (`Driver.compile`):
/// made for each project `ProjectResolver.schemasFound` finds (`FoundSchemas`) and carried into the
/// `ProjectInput` made of it (`documentsFound`), so each project's compilation takes the schema of its own
/// schema files, with no order or index pairing the two. Set by the thread that builds it, taken once: a schema
/// marked as being built (`willBuild`) is waited for by `take`, so the compilation runs its first pass over the
/// documents while the build goes on (`Compilation.checkStreaming`).
package final class BuiltSchema: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let built = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Guarded by `lock`.
    private var loaded: ProjectLoader.LoadedSchema?
    /// True from `willBuild` until `set`; guarded by `lock`.
    private var building = false

    package init() {
        pthread_mutex_init(lock, nil)
        pthread_cond_init(built, nil)
    }

    deinit {
        pthread_cond_destroy(built)
        pthread_mutex_destroy(lock)
        built.deallocate()
        lock.deallocate()
    }

    /// Marks the schema as being built: until `set`, `take` waits for it. Called before the build starts on
    /// another thread, and only when `set` follows.
    package func willBuild() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        building = true
    }

    /// True when a schema was built or is being built: `take` gives it (waiting for it if need be).
    package var isExpected: Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return building || loaded != nil
    }

    /// Keeps `schema`, built from the project's schema files, and wakes a `take` waiting for it.
    package func set(_ schema: ProjectLoader.LoadedSchema) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        loaded = schema
        building = false
        pthread_cond_broadcast(built)
    }

    /// The schema, if one was built (waiting while it is being built), let go here: the compilation that takes
    /// it holds it from then on.
    package func take() -> ProjectLoader.LoadedSchema? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while building { pthread_cond_wait(built, lock) }
        defer { loaded = nil }
        return loaded
    }
}
