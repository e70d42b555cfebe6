package baton.runtime

import java.io.ByteArrayOutputStream
import java.io.IOException
import java.io.InputStream
import java.net.URLEncoder
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

/**
 * A whole answer: the status, the headers and the body, read under the limit ([streamed]: a `multipart/mixed` body
 * already handed over part by part, [body] empty).
 */
class HttpReply(
    val status: Int,
    val body: ByteArray,
    private val response: HttpResponse? = null,
    internal val streamed: Boolean = false
) {
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
        all["Accept"] = request.accept
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
    fun send(request: GraphQLRequest, open: (HttpRequest) -> HttpExchange): ByteArray = reply(request, open).body

    /**
     * An answer to an operation with `@defer` or `@stream`, payload by payload as the bytes arrive (the Swift
     * runtime's `HTTPTransport.sendIncrementally`): a 2xx `multipart/mixed` body is read from the client's stream as
     * it comes and fed to a [MultipartReader], and each part (at most [maxResponseBytes]) goes to [receive] as soon as
     * its closing boundary has come, before the rest is read; any other body is one payload. The whole body is still
     * at most [maxResponseBytes] and the deadline runs to its end; a body cut between parts is
     * `network: the multipart response ended before its closing boundary` after the parts before the cut were
     * received. What [receive] throws ends the exchange and is thrown as it is.
     */
    fun sendIncrementally(request: GraphQLRequest, open: (HttpRequest) -> HttpExchange, receive: (ByteArray) -> Unit) {
        val reply = reply(request, open, receive)
        if (!reply.streamed) receive(reply.body)
    }

    /** The answer [send] reads, with its headers; with [parts], a 2xx `multipart/mixed` body is handed to it part by part. */
    private fun reply(
        request: GraphQLRequest, open: (HttpRequest) -> HttpExchange, parts: ((ByteArray) -> Unit)? = null
    ): HttpReply {
        val id = request.operationId
        if (persistedQueries != PersistedQueries.OFF && id == null) {
            throw TransportException("${request.operationName} has no persisted id (generate it with baton gen)")
        }
        var sendingDocument = persistedQueries == PersistedQueries.OFF
        var refreshed = false
        while (true) {
            val credentials = authenticator?.headers() ?: emptyMap()
            val reply = exchange(open(request(request, sendingDocument, credentials)), request.cancellation, parts)
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
            if (reply.status in 200..299 || isGraphQLResponse(reply.body)) return reply
            throw TransportException.httpStatus(reply.status, retryAfter(reply.header("Retry-After")), reply.body)
        }
    }

    /**
     * One exchange under the deadline and the cancellation, its body read under the limit; with [parts], a 2xx
     * `multipart/mixed` body is read part by part into it instead.
     */
    private fun exchange(exchange: HttpExchange, cancellation: Cancellation, parts: ((ByteArray) -> Unit)?): HttpReply {
        if (cancellation.isCancelled) throw TransportException.cancelled()
        // The first of the deadline and the cancellation to come aborts the exchange and names its failure.
        val ended = AtomicInteger(RUNNING)
        val cancelled = cancellation.onCancel { if (ended.compareAndSet(RUNNING, CANCELLED)) exchange.abort() }
        val deadline = timer.schedule(
            Runnable { if (ended.compareAndSet(RUNNING, TIMED_OUT)) exchange.abort() }, timeoutMillis, TimeUnit.MILLISECONDS
        )
        // Whether the answer's head came: a timeout before it struck waiting, after it reading.
        var answered = false
        try {
            val response = exchange.execute()
            answered = true
            val boundary = if (parts != null && response.status in 200..299) {
                response.header("Content-Type")?.let { MultipartReader.boundary(it) }
            } else {
                null
            }
            if (parts != null && boundary != null) {
                readParts(response, exchange, boundary, parts)
                if (ended.get() == CANCELLED) throw TransportException.cancelled()
                return HttpReply(response.status, ByteArray(0), response, streamed = true)
            }
            val body = read(response, exchange)
            if (ended.get() == CANCELLED) throw TransportException.cancelled()
            return HttpReply(response.status, body, response)
        } catch (failure: ReceiveFailure) {
            throw failure.error
        } catch (error: TransportException) {
            throw error
        } catch (error: Exception) {
            throw when (ended.get()) {
                TIMED_OUT -> TransportException.timedOut(
                    timeoutMillis / 1000.0, if (answered) FetchError.TimeoutPhase.READING else FetchError.TimeoutPhase.WAITING
                )
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
        if (response.body == null) return ByteArray(0)
        val expected = response.contentLength
        val out = ByteArrayOutputStream(if (expected in 1..maxResponseBytes) expected.toInt() else 16384)
        val total = readBody(response, exchange) { buffer, count -> out.write(buffer, 0, count) }
        // HttpURLConnection ends a body the server cut short without an error: a truncated body is a network failure.
        if (expected >= 0 && total < expected) throw TransportException.network("the body ended after $total of $expected bytes")
        return out.toByteArray()
    }

    /**
     * A `multipart/mixed` body read as it arrives: each read goes to a [MultipartReader] and each part it completes to
     * [receive] at once. The whole body is at most [maxResponseBytes]; a part over it is `response larger than N bytes`.
     */
    private fun readParts(response: HttpResponse, exchange: HttpExchange, boundary: String, receive: (ByteArray) -> Unit) {
        val reader = MultipartReader(boundary, if (maxResponseBytes > Int.MAX_VALUE) Int.MAX_VALUE else maxResponseBytes.toInt())
        readBody(response, exchange) { buffer, count ->
            for (part in multipart { reader.feed(buffer, 0, count) }) {
                try {
                    receive(part)
                } catch (error: Throwable) {
                    throw ReceiveFailure(error)
                }
            }
        }
        multipart { reader.finish() }
    }

    /**
     * Reads the body as the client hands it over, each read to [chunk], up to [maxResponseBytes] (a longer body, or a
     * declared length over it, aborts the exchange without reading the rest), and closes it; returns its length.
     */
    private fun readBody(response: HttpResponse, exchange: HttpExchange, chunk: (ByteArray, Int) -> Unit): Long {
        val stream = response.body ?: return 0
        try {
            if (response.contentLength > maxResponseBytes) {
                exchange.abort()
                throw TransportException.tooLarge(maxResponseBytes)
            }
            val buffer = ByteArray(16384)
            var total = 0L
            while (true) {
                val count = stream.read(buffer)
                if (count < 0) return total
                total += count
                if (total > maxResponseBytes) {
                    exchange.abort()
                    throw TransportException.tooLarge(maxResponseBytes)
                }
                chunk(buffer, count)
            }
        } finally {
            try {
                stream.close()
            } catch (ignored: IOException) {
            }
        }
    }

    /** [read] with the reader's faults as transport failures: a part over the limit, or a network failure. */
    private fun <T> multipart(read: () -> T): T = try {
        read()
    } catch (error: IncrementalException) {
        if (error.isPartTooLarge) throw TransportException.tooLarge(maxResponseBytes)
        throw TransportException.network(error.message ?: "")
    }

    /** What the receiver of a part threw, carried past the exchange's own failure handling unchanged. */
    private class ReceiveFailure(val error: Throwable) : RuntimeException(error)

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

        /** The longest `Retry-After` reported (seconds, one day): any longer one reads as this. */
        const val RETRY_AFTER_LIMIT: Double = 86_400.0

        /**
         * `Retry-After` in seconds (RFC 9110 §10.2.3), as Swift's `RetryAfter.seconds` reads it: whole seconds
         * (`1*DIGIT`: no sign, point or exponent, so `1e800` or `-1` is null) or an HTTP-date (IMF-fixdate, or the
         * obsolete RFC 850 and asctime forms) counted from [now] (milliseconds since 1970), a past date 0; every
         * delay capped at [RETRY_AFTER_LIMIT]; null when absent or not a `Retry-After` value.
         */
        @JvmStatic
        @JvmOverloads
        fun retryAfter(value: String?, now: Long = System.currentTimeMillis()): Double? {
            val text = value?.trim(' ', '\t') ?: return null
            if (text.length == 0) return null
            if (text.all { it in '0'..'9' }) {
                val significant = text.trimStart('0')
                // Past nine digits it is past the limit whatever it is.
                if (significant.length > 9) return RETRY_AFTER_LIMIT
                val number = if (significant.length == 0) 0 else significant.toInt()
                return Math.min(number.toDouble(), RETRY_AFTER_LIMIT)
            }
            val date = httpDate(text) ?: return null
            return Math.min(Math.max(date - now / 1000.0, 0.0), RETRY_AFTER_LIMIT)
        }

        private val MONTHS = listOf("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
        private val DAY_NAMES = listOf("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
        private val LONG_DAY_NAMES = listOf("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

        /** Seconds since 1970 of an HTTP-date in one of its three forms, or null. */
        @JvmStatic
        fun httpDate(text: String): Double? {
            val parts = text.split(" ")
            val day: Int?
            val month: Int
            val year: Int?
            val time: String
            if (parts.size == 6 && parts[0].endsWith(",") && parts[0].dropLast(1) in DAY_NAMES && parts[5] == "GMT") {
                // IMF-fixdate: day-name "," SP 2DIGIT SP month SP 4DIGIT SP time-of-day SP "GMT"
                day = digits(parts[1], 2)
                month = MONTHS.indexOf(parts[2])
                year = digits(parts[3], 4)
                time = parts[4]
            } else if (parts.size == 4 && parts[0].endsWith(",") && parts[0].dropLast(1) in LONG_DAY_NAMES && parts[3] == "GMT") {
                // rfc850-date: day-name-l "," SP 2DIGIT "-" month "-" 2DIGIT SP time-of-day SP "GMT"
                val date = parts[1].split("-")
                if (date.size != 3) return null
                day = digits(date[0], 2)
                month = MONTHS.indexOf(date[1])
                year = digits(date[2], 2)?.let { if (it < 70) 2000 + it else 1900 + it }
                time = parts[2]
            } else if ((parts.size == 5 || (parts.size == 6 && parts[2].length == 0)) && parts[0] in DAY_NAMES) {
                // asctime-date: day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time-of-day SP 4DIGIT
                day = if (parts.size == 5) digits(parts[2], 2) else digits(parts[3], 1)
                month = MONTHS.indexOf(parts[1])
                time = parts[parts.size - 2]
                year = digits(parts[parts.size - 1], 4)
            } else {
                return null
            }
            val clock = time.split(":").map { digits(it, 2) }
            if (day == null || month < 0 || year == null || clock.size != 3) return null
            val hour = clock[0] ?: return null
            val minute = clock[1] ?: return null
            val second = clock[2] ?: return null
            if (hour >= 24 || minute >= 60 || second > 60 || day < 1 || day > daysIn(month + 1, year)) return null
            val days = daysSince1970(year, month + 1, day)
            return (days * 86_400L + hour * 3_600L + minute * 60L + second).toDouble()
        }

        /** Exactly [count] ASCII digits as a number, or null. */
        private fun digits(text: String, count: Int): Int? =
            if (text.length == count && text.all { it in '0'..'9' }) text.toInt() else null

        private fun daysIn(month: Int, year: Int): Int = when (month) {
            2 -> if (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) 29 else 28
            4, 6, 9, 11 -> 30
            else -> 31
        }

        /** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`). */
        private fun daysSince1970(year: Int, month: Int, day: Int): Long {
            val shifted = if (month <= 2) year - 1 else year
            val era = (if (shifted >= 0) shifted else shifted - 399) / 400
            val yearOfEra = shifted - era * 400
            val dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
            val dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097L + dayOfEra - 719_468L
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
