package baton.runtime

import java.io.ByteArrayOutputStream
import java.io.IOException
import java.io.InputStream
import java.net.URLEncoder
import java.text.SimpleDateFormat
import java.util.Locale
import java.util.TimeZone
import java.util.concurrent.ScheduledThreadPoolExecutor
import java.util.concurrent.ThreadFactory
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/** How queries travel over HTTP; mutations and subscriptions always POST. */
enum class HttpMethod {
    /** Every request is a POST of JSON. */
    POST,

    /** Queries are GETs with the request in the URL (`?query=&variables=&operationName=`), so a CDN can cache them. */
    GET_FOR_QUERIES
}

/** Whether the document goes with a request. */
enum class PersistedQueries {
    /** Send the document (the default). */
    OFF,

    /** Send only the persisted id (the server knows every operation from `baton gen`'s manifest); never the document. */
    PERSISTED_ONLY,

    /** Send the id; send the document with it only when the server answers `PersistedQueryNotFound`. */
    AUTOMATIC
}

/** One HTTP request as GraphQL over HTTP spells a GraphQL request: what an HTTP client sends. */
class HttpRequest(
    /** `GET` or `POST`. */
    val method: String,
    val url: String,
    /** In the order they are set: `Accept`, `Content-Type` (a POST), the transport's, the authenticator's, the request's own. */
    val headers: Map<String, String>,
    /** The JSON body of a POST; null for a GET. */
    val body: ByteArray?
)

/**
 * What the server answered, as an HTTP client hands it over: the status, the headers (by name; looked up ignoring
 * case), the declared body length (-1 when unknown) and the body as a stream, which [GraphQLHttp] reads up to its
 * limit and closes.
 */
class HttpResponse(val status: Int, headers: Map<String, String>, val contentLength: Long, val body: InputStream?) {
    private val byName: Map<String, String> = headers.entries.associate { asciiLowercase(it.key) to it.value }

    /** A header's value, ignoring the case of its name. */
    fun header(name: String): String? = byName[asciiLowercase(name)]
}

/**
 * One HTTP exchange an HTTP client runs for [GraphQLHttp]: [execute] sends the request and returns the response
 * head with the body's stream; [abort] may be called from another thread at any moment (the deadline, a
 * cancellation), and then [execute], or the body's read, fails; [close] ends the exchange after the body was read
 * or the exchange failed.
 */
interface HttpExchange {
    @Throws(IOException::class)
    fun execute(): HttpResponse

    fun abort()

    fun close()
}

/** A whole answer: the status, the headers and the body, read under the limit. */
class HttpReply(val status: Int, val body: ByteArray, private val response: HttpResponse? = null) {
    /** A header's value, ignoring the case of its name. */
    fun header(name: String): String? = response?.header(name)
}

/**
 * GraphQL over HTTP, whichever client carries the bytes ([HttpTransport]'s `HttpURLConnection`, the OkHttp
 * adapter): the decisions the Swift runtime's `HTTPTransport` and `HTTPSession` make, made once for every Kotlin
 * transport.
 *
 * Queries may go as GET ([HttpMethod.GET_FOR_QUERIES]: the request's members in the URL, or only the persisted id,
 * so a CDN can cache them); mutations and subscriptions always POST. Headers are the transport's, then the
 * [authenticator]'s, then the request's own; after a 401 the authenticator refreshes once and the request is sent
 * again, and a second 401 is the failure. With [PersistedQueries.PERSISTED_ONLY] only the id is sent, and a
 * `PersistedQueryNotFound` answer fails (`the server has no persisted query <id>`); with [PersistedQueries.AUTOMATIC]
 * the id is sent first and the document only after that answer. Each exchange ends within [timeoutMillis], from
 * sending to the last byte (`timed out after 30 s`; an HTTP client's own timeouts are idle timeouts), and when the
 * request's [Cancellation] is cancelled (`cancelled`); the body is read up to [maxResponseBytes], refused as soon as
 * its declared length or its bytes pass it (`response larger than N bytes`). A status outside 200…299 with a GraphQL
 * body is that body (GraphQL over HTTP carries request errors in 4xx); without one it is
 * [TransportException.httpStatus] with the server's `Retry-After`. Retries are the environment's ([RetryPolicy]),
 * which knows whether the operation is a query.
 */
class GraphQLHttp @JvmOverloads constructor(
    val url: String,
    val headers: Map<String, String> = emptyMap(),
    val method: HttpMethod = HttpMethod.POST,
    val persistedQueries: PersistedQueries = PersistedQueries.OFF,
    /** Milliseconds for one whole exchange. */
    val timeoutMillis: Long = 30000,
    /** The largest body read, in bytes. */
    val maxResponseBytes: Long = 32L shl 20,
    /** Adds credentials to every request and refreshes them once after a 401. */
    val authenticator: Authenticator? = null
) {
    /** The HTTP request for [request], sending the document or not (for tests and for apps that sign requests). */
    @JvmOverloads
    fun request(
        request: GraphQLRequest, sendingDocument: Boolean, credentials: Map<String, String> = emptyMap()
    ): HttpRequest {
        val persistedId = if (persistedQueries == PersistedQueries.OFF) null else request.operationId
        val all = LinkedHashMap<String, String>()
        all["Accept"] = "application/graphql-response+json, application/json"
        val asGet = method == HttpMethod.GET_FOR_QUERIES && request.operationType == "query"
        if (!asGet) all["Content-Type"] = "application/json"
        all.putAll(headers)
        all.putAll(credentials)
        all.putAll(request.headers)
        if (!asGet) {
            val body = request.body(sendingDocument, persistedId).toByteArray(Charsets.UTF_8)
            return HttpRequest("POST", url, all, body)
        }
        val query = StringBuilder()
        for ((name, value) in request.fields(sendingDocument, persistedId)) {
            if (query.isNotEmpty()) query.append('&')
            query.append(encode(name)).append('=').append(encode(value as? String ?: Json.write(value)))
        }
        val fragment = url.indexOf('#')
        val base = if (fragment < 0) url else url.substring(0, fragment)
        val separator = if (!base.contains('?')) "?" else if (base.endsWith('?') || base.endsWith('&')) "" else "&"
        return HttpRequest("GET", base + separator + query, all, null)
    }

    /**
     * Sends [request] through [open] (the HTTP client's exchange for one HTTP request) as many times as
     * authentication and the persisted-query protocol need, and returns the body of the answer. Throws
     * [TransportException].
     */
    fun send(request: GraphQLRequest, open: (HttpRequest) -> HttpExchange): ByteArray {
        val id = request.operationId
        if (persistedQueries != PersistedQueries.OFF && id == null) {
            throw TransportException("${request.operationName} has no persisted id (generate it with baton gen)")
        }
        var sendingDocument = persistedQueries == PersistedQueries.OFF
        var refreshed = false
        while (true) {
            val credentials = authenticator?.headers() ?: emptyMap()
            val reply = exchange(open(request(request, sendingDocument, credentials)), request.cancellation)
            if (reply.status == 401 && authenticator != null && !refreshed) {
                refreshed = true
                authenticator.refresh(credentials)
                continue
            }
            if (!sendingDocument && isPersistedQueryNotFound(reply.body)) {
                if (persistedQueries != PersistedQueries.AUTOMATIC) {
                    throw TransportException(
                        "the server has no persisted query $id", null, TransportException.Kind.PERSISTED_QUERY_NOT_FOUND
                    )
                }
                sendingDocument = true
                continue
            }
            if (reply.status in 200..299 || isGraphQLResponse(reply.body)) return reply.body
            throw TransportException.httpStatus(reply.status, retryAfter(reply.header("Retry-After")))
        }
    }

    /** One exchange under the deadline and the cancellation, its body read under the limit. */
    private fun exchange(exchange: HttpExchange, cancellation: Cancellation): HttpReply {
        if (cancellation.isCancelled) throw TransportException.cancelled()
        // The first of the deadline and the cancellation to come aborts the exchange and names its failure.
        val ended = AtomicInteger(RUNNING)
        val cancelled = cancellation.onCancel { if (ended.compareAndSet(RUNNING, CANCELLED)) exchange.abort() }
        val deadline = timer.schedule(
            Runnable { if (ended.compareAndSet(RUNNING, TIMED_OUT)) exchange.abort() }, timeoutMillis, TimeUnit.MILLISECONDS
        )
        try {
            val response = exchange.execute()
            val body = read(response, exchange)
            if (ended.get() == CANCELLED) throw TransportException.cancelled()
            return HttpReply(response.status, body, response)
        } catch (error: TransportException) {
            throw error
        } catch (error: Exception) {
            throw when (ended.get()) {
                TIMED_OUT -> TransportException.timedOut(timeoutMillis / 1000.0)
                CANCELLED -> TransportException.cancelled()
                else -> TransportException.network(error.message ?: error.javaClass.simpleName, error)
            }
        } finally {
            deadline.cancel(false)
            cancelled.cancel()
            exchange.close()
        }
    }

    /**
     * The body, up to [maxResponseBytes]: a longer one aborts the exchange without reading the rest; one shorter than
     * its declared length is a network failure.
     */
    private fun read(response: HttpResponse, exchange: HttpExchange): ByteArray {
        val stream = response.body ?: return ByteArray(0)
        try {
            if (response.contentLength > maxResponseBytes) {
                exchange.abort()
                throw TransportException.tooLarge(maxResponseBytes)
            }
            val expected = response.contentLength
            val out = ByteArrayOutputStream(if (expected in 1..maxResponseBytes) expected.toInt() else 16384)
            val buffer = ByteArray(16384)
            var total = 0L
            while (true) {
                val count = stream.read(buffer)
                if (count < 0) break
                total += count
                if (total > maxResponseBytes) {
                    exchange.abort()
                    throw TransportException.tooLarge(maxResponseBytes)
                }
                out.write(buffer, 0, count)
            }
            // HttpURLConnection ends a body the server cut short without an error: a truncated body is a network failure.
            if (expected >= 0 && total < expected) throw TransportException.network("the body ended after $total of $expected bytes")
            return out.toByteArray()
        } finally {
            try {
                stream.close()
            } catch (ignored: IOException) {
            }
        }
    }

    companion object {
        private const val RUNNING = 0
        private const val TIMED_OUT = 1
        private const val CANCELLED = 2

        /** One daemon thread for every transport's deadlines. */
        private val timer: ScheduledThreadPoolExecutor by lazy {
            ScheduledThreadPoolExecutor(1, ThreadFactory { work -> Thread(work, "baton-deadlines").apply { isDaemon = true } })
                .apply { removeOnCancelPolicy = true }
        }

        /** A URL query component: percent-encoded UTF-8, a space as `%20` (a `+` reads as a space in many servers). */
        @JvmStatic
        fun encode(text: String): String = URLEncoder.encode(text, "UTF-8").replace("+", "%20")

        /** Whether [bytes] are a GraphQL response (a body GraphQL over HTTP may carry with a 4xx status). */
        @JvmStatic
        fun isGraphQLResponse(bytes: ByteArray): Boolean = try {
            GraphQLResponse.parse(String(bytes, Charsets.UTF_8))
            true
        } catch (error: MalformedResponseException) {
            false
        }

        /** Whether [bytes] are the server's `PersistedQueryNotFound` answer (by message or by extensions code). */
        @JvmStatic
        fun isPersistedQueryNotFound(bytes: ByteArray): Boolean {
            if (bytes.size >= 4096) return false
            val response = try {
                GraphQLResponse.parse(String(bytes, Charsets.UTF_8))
            } catch (error: MalformedResponseException) {
                return false
            }
            return response.data == null && response.errors.any {
                it.message == "PersistedQueryNotFound" || it.extensions?.get("code") == "PERSISTED_QUERY_NOT_FOUND"
            }
        }

        /** `Retry-After` in seconds: the delay form, or an HTTP date counted from now; null when absent or unreadable. */
        @JvmStatic
        fun retryAfter(value: String?): Double? {
            val text = value?.trim() ?: return null
            if (text.length == 0) return null
            val seconds = text.toDoubleOrNull()
            if (seconds != null) return if (seconds >= 0) seconds else null
            val format = SimpleDateFormat("EEE, dd MMM yyyy HH:mm:ss zzz", Locale.US)
            format.timeZone = TimeZone.getTimeZone("GMT")
            val date = try {
                format.parse(text)
            } catch (error: java.text.ParseException) {
                return null
            }
            return Math.max((date.time - System.currentTimeMillis()) / 1000.0, 0.0)
        }
    }
}

/** [text] with ASCII capitals lowered (header names; `String.lowercase()` is not in Kotlin 1.3). */
internal fun asciiLowercase(text: String): String {
    if (text.none { it in 'A'..'Z' }) return text
    val out = StringBuilder(text.length)
    for (char in text) out.append(if (char in 'A'..'Z') char + ('a' - 'A') else char)
    return out.toString()
}
