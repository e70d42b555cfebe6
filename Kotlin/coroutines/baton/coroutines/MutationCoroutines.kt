package baton.coroutines

import baton.runtime.MutationCall
import baton.runtime.Operation
import baton.runtime.OptimisticResponse
import baton.runtime.Pagination
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext

/**
 * Mutations and pagination for coroutine callers: the core's blocking calls run on `Dispatchers.IO`, so the calling
 * coroutine suspends instead of blocking its thread. Each throws what the blocking call throws
 * ([baton.runtime.FetchException]).
 */

/** Sends [mutation] (with [optimisticResponse] shown at once) and suspends until the server answers. */
suspend fun <D : Any, O : Operation<D>> MutationCall<D, O>.performSuspending(
    mutation: O,
    optimisticResponse: OptimisticResponse? = null
): D = withContext(Dispatchers.IO) { perform(mutation, optimisticResponse) }

/** [Pagination.loadNext], suspending until the page is merged (or failed). */
suspend fun Pagination<*>.loadNextSuspending(count: Int) {
    withContext(Dispatchers.IO) { loadNext(count) }
}

/** [Pagination.loadPrevious], suspending until the page is merged (or failed). */
suspend fun Pagination<*>.loadPreviousSuspending(count: Int) {
    withContext(Dispatchers.IO) { loadPrevious(count) }
}

/** [Pagination.refetch], suspending until the connection is fetched again from its start. */
suspend fun Pagination<*>.refetchSuspending(overrides: Map<String, Any?> = emptyMap()) {
    withContext(Dispatchers.IO) { refetch(overrides) }
}
