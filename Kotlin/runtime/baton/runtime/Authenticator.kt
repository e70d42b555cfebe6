package baton.runtime

/**
 * Credentials for every HTTP request, refreshed once when the server answers 401 (the Swift runtime's
 * `Authenticator`). [GraphQLHttp] asks for [headers] before each exchange; after a 401 it calls [refresh] with the
 * headers that were rejected and sends the request once more; a second 401 is the failure (`HTTP status 401`).
 * Both are called on the fetch's thread and may block.
 */
interface Authenticator {
    /** The headers that authenticate a request (`Authorization: Bearer …`). */
    fun headers(): Map<String, String>

    /**
     * Called after a 401 to the request sent with [rejected]; the request is then sent again with [headers].
     * Concurrent 401s should share one refresh: compare [rejected] with the current credentials.
     */
    fun refresh(rejected: Map<String, String>)
}

/**
 * A bearer token refreshed by [fetchToken], once for any number of requests rejected with the same token: a 401
 * that arrives while another thread refreshes waits for that refresh and sends with its token.
 */
class BearerTokenAuthenticator(token: String, private val fetchToken: () -> String) : Authenticator {
    private val lock = Any()
    private var token = token
    private var refreshes = 0

    /** How many times the token was refreshed. */
    val refreshCount: Int get() = synchronized(lock) { refreshes }

    override fun headers(): Map<String, String> = synchronized(lock) { mapOf("Authorization" to "Bearer $token") }

    override fun refresh(rejected: Map<String, String>) {
        synchronized(lock) {
            if (rejected["Authorization"] != "Bearer $token") return
            token = fetchToken()
            refreshes++
        }
    }
}
