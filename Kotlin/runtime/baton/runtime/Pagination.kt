package baton.runtime

/**
 * A fragment with `@refetchable(queryName:)`, as generated code describes it: the query that fetches its record
 * again and, with a `@connection`, the fields down to it and the variables that page it (the Swift runtime's
 * `RefetchableFragment`).
 */
class Refetchable(
    /** Makes the generated query from the variables the pagination sets. */
    val query: (Map<String, Any?>) -> Operation<*>,
    /** The fields from the fragment's record to its connection, the connection field last. */
    val connectionPath: List<Field<*>>,
    val forwardCount: String? = null,
    val forwardCursor: String? = null,
    val backwardCount: String? = null,
    val backwardCursor: String? = null,
    /** True when the query reaches the record through `node(id:)` (its `id` variable is the record's id). */
    val throughNode: Boolean = true
)

/**
 * The pages of a `@refetchable` fragment's connection (Relay's `usePaginationFragment`), as the Swift runtime's
 * `Pagination`: one per record and variables in an environment (the generated fragment's
 * `pagination(environment, fragment)`, Swift's `environment.pagination(of: fragment)`); a page merges into the
 * connection record in order without edges already shown; concurrent [loadNext] calls share one fetch; a page that
 * fails leaves the loaded pages and is kept in [lastError]. The blocking calls run on the calling thread (call them
 * off the main thread); the callback ones on the environment's executor; the suspending ones are in
 * `Kotlin/coroutines`.
 */
class Pagination<F> internal constructor(
    val environment: BatonEnvironment,
    /** The fragment's record. */
    val key: String,
    variables: Map<String, Any?>,
    private val refetchable: Refetchable,
    private val lens: (RecordReader) -> F
) {
    private val lock = Object()
    private var current = variables
    private var next: Load? = null
    private var previous: Load? = null
    private var error: FetchError? = null

    /** One fetch other callers wait for. */
    private class Load {
        var done = false
        var error: FetchError? = null
    }

    /** The variables the fragment is read and paged with. */
    val variables: Map<String, Any?> get() = synchronized(lock) { current }

    /** A reader of the fragment's record now, with [variables] (a generated fragment lens wraps it). */
    fun reader(): RecordReader =
        RecordReader(ReadContext(environment.store.snapshot(), variables, LoggingReporter(environment.log)), key, null)

    /** The fragment's data now, read with [variables] (the loaded pages, after a [refetch] its first one). */
    val fragment: F get() = lens(reader())

    val connectionId: ConnectionId? get() = locate(environment.store.snapshot(), variables)?.first?.let { ConnectionId(it) }
    val hasNext: Boolean get() = pageInfo("hasNextPage") == StoredValue.Bool(true)
    val hasPrevious: Boolean get() = pageInfo("hasPreviousPage") == StoredValue.Bool(true)
    val isLoadingNext: Boolean get() = synchronized(lock) { next != null }
    val isLoadingPrevious: Boolean get() = synchronized(lock) { previous != null }
    /** The failure of the latest load; null after one succeeds. */
    val lastError: FetchError? get() = synchronized(lock) { error }

    /** Loads up to [count] edges after the last loaded one; a call while one runs waits for it. Throws [FetchException]. */
    fun loadNext(count: Int) = load(true, count)

    /** Loads up to [count] edges before the first loaded one. Throws [FetchException]. */
    fun loadPrevious(count: Int) = load(false, count)

    /** [loadNext] on the environment's executor, calling back with the failure (null on success). */
    fun loadNext(count: Int, callback: (FetchError?) -> Unit) = environment.track {
        callback(try { loadNext(count); null } catch (failure: FetchException) { failure.error })
    }

    /** [loadPrevious] on the environment's executor, calling back with the failure (null on success). */
    fun loadPrevious(count: Int, callback: (FetchError?) -> Unit) = environment.track {
        callback(try { loadPrevious(count); null } catch (failure: FetchException) { failure.error })
    }

    /** [refetch] on the environment's executor, calling back with the failure (null on success). */
    fun refetch(overrides: Map<String, Any?>, callback: (FetchError?) -> Unit) = environment.track {
        callback(try { refetch(overrides); null } catch (failure: FetchException) { failure.error })
    }

    /** Fetches the fragment again from the start of its connection with [overrides] over the variables. */
    fun refetch(overrides: Map<String, Any?> = emptyMap()) {
        val merged = HashMap(variables)
        merged.putAll(overrides)
        refetchable.forwardCursor?.let { merged.remove(it) }
        refetchable.backwardCursor?.let { merged.remove(it) }
        val failure = fetch(merged)
        synchronized(lock) {
            error = failure
            if (failure == null) current = merged
        }
        if (failure != null) throw FetchException(failure)
    }

    private fun load(forward: Boolean, count: Int) {
        val countName = (if (forward) refetchable.forwardCount else refetchable.backwardCount) ?: return
        val cursorName = (if (forward) refetchable.forwardCursor else refetchable.backwardCursor) ?: return
        var mine = false
        val load = synchronized(lock) {
            val running = if (forward) next else previous
            running ?: Load().also {
                mine = true
                if (forward) next = it else previous = it
            }
        }
        if (!mine) {
            synchronized(lock) { while (!load.done) lock.wait() }
            load.error?.let { throw FetchException(it) }
            return
        }
        val failure = fetchPage(forward, count, countName, cursorName)
        synchronized(lock) {
            load.done = true
            load.error = failure
            error = failure
            if (forward) next = null else previous = null
            lock.notifyAll()
        }
        if (failure != null) throw FetchException(failure)
    }

    private fun fetchPage(forward: Boolean, count: Int, countName: String, cursorName: String): FetchError? {
        val variables = variables
        val snapshot = environment.store.snapshot()
        val found = locate(snapshot, variables)
            ?: return FetchError.Unattached("the store has no connection for the fragment yet")
        val info = found.second?.let { snapshot[it] }
        val more = info?.slots?.get(if (forward) "hasNextPage" else "hasPreviousPage")?.value
        val cursor = (info?.slots?.get(if (forward) "endCursor" else "startCursor")?.value as? StoredValue.Text)?.text
        if (more != StoredValue.Bool(true) || cursor == null) return null
        val pageVariables = HashMap(variables)
        pageVariables[countName] = count
        pageVariables[cursorName] = cursor
        return fetch(pageVariables)
    }

    /** Sends the generated query; a field error at the connection fails the page. */
    private fun fetch(variables: Map<String, Any?>): FetchError? {
        val request = HashMap(variables)
        if (refetchable.throughNode) {
            val id = (environment.store.record(key)?.slots?.get("id")?.value as? StoredValue.Text)?.text
                ?: return FetchError.Unattached("the record $key has no id to refetch it by")
            request["id"] = id
        }
        val query = refetchable.query(request)
        try {
            environment.send(query, {}, {})
        } catch (failure: FetchException) {
            return failure.error
        }
        environment.keepRecent(RetainedRoot.of(query))
        val field = refetchable.connectionPath.lastOrNull() ?: return null
        val snapshot = environment.store.snapshot()
        val parent = parentOfConnection(snapshot, variables) ?: return null
        val errors = snapshot[parent]?.slots?.get(field.storageKey(variables))?.errors ?: emptyList()
        return if (errors.isEmpty()) null else FetchError.Read(FieldErrorsException(FieldErrors(errors)))
    }

    private fun parentOfConnection(snapshot: StoreSnapshot, variables: Map<String, Any?>): String? {
        var record = key
        for (field in refetchable.connectionPath.dropLast(1)) {
            record = (snapshot[record]?.slots?.get(field.readKey(variables))?.value as? StoredValue.Link)?.key ?: return null
        }
        return record
    }

    /** The connection record and its page info record. */
    private fun locate(snapshot: StoreSnapshot, variables: Map<String, Any?>): Pair<String, String?>? {
        val field = refetchable.connectionPath.lastOrNull() ?: return null
        val parent = parentOfConnection(snapshot, variables) ?: return null
        val id = (snapshot[parent]?.slots?.get(field.readKey(variables))?.value as? StoredValue.Link)?.key ?: return null
        val info = (snapshot[id]?.slots?.get("pageInfo")?.value as? StoredValue.Link)?.key
        return Pair(id, info)
    }

    private fun pageInfo(name: String): StoredValue? {
        val snapshot = environment.store.snapshot()
        val info = locate(snapshot, variables)?.second ?: return null
        return snapshot[info]?.slots?.get(name)?.value
    }

    companion object {
        /**
         * The pagination of a `@refetchable` fragment's connection, for the record [reader] reads with its
         * variables, shared by every caller for the same fragment, record and variables while someone holds it.
         * Generated code calls it (the fragment's `pagination(environment, fragment)`) with its lens's constructor.
         */
        fun <F> of(
            environment: BatonEnvironment,
            reader: RecordReader,
            refetchable: Refetchable,
            fragmentName: String,
            lens: (RecordReader) -> F
        ): Pagination<F> {
            val key = reader.key ?: ""
            val variables = reader.context.variables
            val identity = fragmentName + "|" + key + "|" + Json.write(variables, sortKeys = true)
            synchronized(environment.paginations) {
                @Suppress("UNCHECKED_CAST")
                (environment.paginations[identity]?.get() as? Pagination<F>)?.let { return it }
                val made = Pagination(environment, key, variables, refetchable, lens)
                environment.paginations.entries.removeAll { it.value.get() == null }
                environment.paginations[identity] = java.lang.ref.WeakReference<Any>(made)
                return made
            }
        }
    }
}
