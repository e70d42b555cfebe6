package baton.runtime

import kotlin.random.Random

/**
 * When the environment sends a query again after a transport failure, and how long the WebSocket transport waits
 * before it reconnects: the Swift runtime's `RetryPolicy`, with the same numbers.
 *
 * Only queries are retried (a mutation may have happened even when its answer was lost), and only after a failure
 * that can pass ([TransportException.isTransient]: a network failure, a timeout, 429, 502, 503, 504). The wait
 * doubles from [initialDelay] up to [maxDelay] (seconds), each time a random part of it (between half and all, so
 * clients that failed together do not return together), and is at least the server's `Retry-After`; a
 * `Retry-After` longer than [maxRetryAfter] is not waited for: the failure surfaces at once.
 */
data class RetryPolicy(
    /** Retries after the first attempt. */
    val maxRetries: Int,
    val initialDelay: Double = 0.25,
    val maxDelay: Double = 8.0,
    val maxRetryAfter: Double = 30.0
) {
    /** The wait in seconds before retry number [retry] (1-based) after [error], or null when it must not be retried. */
    fun delay(retry: Int, error: TransportException, random: Random = Random.Default): Double? {
        if (retry > maxRetries || !error.isTransient) return null
        val retryAfter = error.retryAfter
        if (retryAfter != null && retryAfter > maxRetryAfter) return null
        val backoff = Math.min(maxDelay, initialDelay * Math.pow(2.0, (retry - 1).toDouble()))
        val jittered = backoff * (0.5 + random.nextDouble() * 0.5)
        return Math.max(jittered, retryAfter ?: 0.0)
    }

    companion object {
        /** Two retries, from a quarter of a second. */
        val STANDARD = RetryPolicy(2)

        /** No retries. */
        val NEVER = RetryPolicy(0)
    }
}
