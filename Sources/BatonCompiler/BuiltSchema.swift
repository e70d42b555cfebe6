#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One project's schema as a streamed `check` builds it while the documents are looked for (`Driver.compile`):
/// made for each project `ProjectResolver.schemasFound` finds (`FoundSchemas`) and carried into the
/// `ProjectInput` made of it (`documentsFound`), so each project's compilation takes the schema of its own
/// schema files, with no order or index pairing the two. Set by the thread that builds it, taken once.
package final class BuiltSchema: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Guarded by `lock`.
    private var loaded: ProjectLoader.LoadedSchema?

    package init() { pthread_mutex_init(lock, nil) }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Keeps `schema`, built from the project's schema files.
    package func set(_ schema: ProjectLoader.LoadedSchema) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        loaded = schema
    }

    /// The schema, if one was built, let go here: the compilation that takes it holds it from then on.
    package func take() -> ProjectLoader.LoadedSchema? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        defer { loaded = nil }
        return loaded
    }
}
