package baton.runtime

import java.io.IOException
import java.net.HttpURLConnection
import java.net.URL

/**
 * GraphQL over HTTP with `java.net.HttpURLConnection` (on every JVM and on Android): the requests [GraphQLHttp]
 * spells (POST, or GET for queries; the persisted id; the transport's, the authenticator's and the request's
 * headers), sent one exchange at a time under its rules: 401 refreshed once, [timeoutMillis] for the whole exchange,
 * the body up to [maxResponseBytes], the exchange aborted (`disconnect`) when the fetch is cancelled. A status
 * outside 200…299 is a [TransportException] (`HTTP status 503`) unless the body is a GraphQL response.
 *
 * Requests with a body are sent in fixed-length streaming mode, which also keeps the JDK's `HttpURLConnection`
 * from sending a POST a second time by itself when a connection breaks (it may resend a GET: a query).
 */
class HttpTransport @JvmOverloads constructor(
    val url: URL,
    val headers: Map<String, String> = emptyMap(),
    /** Milliseconds for one whole exchange, from sending to the last byte. */
    val timeoutMillis: Long = 30000,
    val method: HttpMethod = HttpMethod.POST,
    val persistedQueries: PersistedQueries = PersistedQueries.OFF,
    /** The largest body read, in bytes. */
    val maxResponseBytes: Long = 32L shl 20,
    /** Adds credentials to every request and refreshes them once after a 401. */
    val authenticator: Authenticator? = null
) : IncrementalTransport {
    /** How this transport spells and sends requests. */
    val http: GraphQLHttp =
        GraphQLHttp(url.toString(), headers, method, persistedQueries, timeoutMillis, maxResponseBytes, authenticator)

    override fun send(request: GraphQLRequest): ByteArray = http.send(request) { ConnectionExchange(it, timeoutMillis) }

    override fun sendIncrementally(request: GraphQLRequest, receive: (ByteArray) -> Unit) =
        http.sendIncrementally(request, { ConnectionExchange(it, timeoutMillis) }, receive)

    /** One exchange on its own connection; [abort] disconnects it from any thread. */
    private class ConnectionExchange(private val request: HttpRequest, private val timeoutMillis: Long) : HttpExchange {
        private val lock = Any()
        private var connection: HttpURLConnection? = null
        private var aborted = false

        override fun execute(): HttpResponse {
            val connection = URL(request.url).openConnection() as HttpURLConnection
            synchronized(lock) {
                if (aborted) throw IOException("aborted")
                this.connection = connection
            }
            connection.requestMethod = request.method
            // Idle timeouts only as a backstop: the whole exchange's deadline is GraphQLHttp's.
            val backstop = Math.min(timeoutMillis + 1000, Int.MAX_VALUE.toLong()).toInt()
            connection.connectTimeout = backstop
            connection.readTimeout = backstop
            connection.useCaches = false
            for ((name, value) in request.headers) connection.setRequestProperty(name, value)
            val body = request.body
            if (body != null) {
                connection.doOutput = true
                connection.setFixedLengthStreamingMode(body.size)
                connection.outputStream.use { it.write(body) }
            }
            val status = connection.responseCode
            val headers = LinkedHashMap<String, String>()
            for ((name, values) in connection.headerFields) {
                if (name != null && values.isNotEmpty()) headers[name] = values[0]
            }
            val length = connection.getHeaderField("Content-Length")?.trim()?.toLongOrNull() ?: -1L
            val stream = if (status in 200..299) connection.inputStream else connection.errorStream
            return HttpResponse(status, headers, length, stream)
        }

        override fun abort() {
            val connection = synchronized(lock) {
                aborted = true
                connection
            }
            connection?.disconnect()
        }

        override fun close() {
            synchronized(lock) { connection }?.disconnect()
        }
    }
}
