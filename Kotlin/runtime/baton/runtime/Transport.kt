package baton.runtime

import java.io.ByteArrayOutputStream
import java.io.File
import java.io.InputStream
import java.net.HttpURLConnection
import java.net.URL
import java.net.URLEncoder

/** One GraphQL request: what a transport sends. */
class GraphQLRequest(
    val operationName: String,
    val query: String,
    val variables: Map<String, Any?>,
    /** The `onError` behaviour the operation carries (from baton.json), sent when present. */
    val onError: String? = null,
    /** `query`, `mutation` or `subscription`: only queries may go as GET. */
    val operationType: String = "query",
    /** The persisted-query id (the SHA-256 of [query] that `baton gen` writes), or null when there is none. */
    val operationId: String? = null,
    /** Headers for this request alone, over the transport's own. */
    val headers: Map<String, String> = emptyMap()
) {
    /** The request for a generated operation, with [headers] for it alone. */
    constructor(operation: Operation<*>, headers: Map<String, String> = emptyMap()) : this(
        operation.operationName, operation.document, operation.variables(), operation.onError,
        operation.operationType, if (operation.operationId.isEmpty()) null else operation.operationId, headers
    )

    /** The POST body: `{"query":…,"operationName":…,"variables":{…},"onError":…}`, variables sorted by name. */
    val body: String get() = body(sendingDocument = true, persistedId = null)

    /**
     * The body as GraphQL over HTTP sends it: with the document or not, and with `extensions.persistedQuery` when
     * [persistedId] is set (Apollo's persisted-query protocol, version 1).
     */
    fun body(sendingDocument: Boolean, persistedId: String?): String = Json.write(fields(sendingDocument, persistedId))

    /** The members of the request object, in the order the body writes them; the GET form spells the same ones. */
    fun fields(sendingDocument: Boolean, persistedId: String?): Map<String, Any?> {
        val fields = LinkedHashMap<String, Any?>()
        if (sendingDocument) fields["query"] = query
        fields["operationName"] = operationName
        val sorted = LinkedHashMap<String, Any?>()
        for (name in variables.keys.sorted()) sorted[name] = variables[name]
        fields["variables"] = sorted
        if (onError != null) fields["onError"] = onError
        if (persistedId != null) {
            val persisted = LinkedHashMap<String, Any?>()
            persisted["version"] = 1
            persisted["sha256Hash"] = persistedId
            fields["extensions"] = linkedMapOf<String, Any?>("persistedQuery" to persisted)
        }
        return fields
    }
}

/**
 * Sends a request and returns the response body. Called on the environment's executor, never on the thread
 * that attached the handle, so it may block. Anything it throws is a transport failure.
 */
interface Transport {
    fun send(request: GraphQLRequest): ByteArray
}

/** A transport failure: an HTTP status without a GraphQL body, no fixture, or a failure it was told to give. */
class TransportException(message: String, cause: Throwable? = null) : RuntimeException(message, cause)

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
    /** In the order they are set: `Accept`, `Content-Type` (a POST), the transport's, the request's own. */
    val headers: Map<String, String>,
    /** The JSON body of a POST; null for a GET. */
    val body: ByteArray?
)

/** What the server answered: its status and whole body. */
class HttpReply(val status: Int, val body: ByteArray)

/**
 * GraphQL over HTTP, whichever client carries the bytes ([HttpTransport]'s `HttpURLConnection`, the OkHttp
 * adapter): the decisions the Swift runtime's `HTTPTransport` makes, made once for every Kotlin transport.
 *
 * Queries may go as GET ([HttpMethod.GET_FOR_QUERIES]: the request's members in the URL, or only the persisted id,
 * so a CDN can cache them); mutations and subscriptions always POST. Headers are the transport's, then the
 * request's own. With [PersistedQueries.PERSISTED_ONLY] only the id is sent, and a `PersistedQueryNotFound` answer
 * fails (`the server has no persisted query <id>`); with [PersistedQueries.AUTOMATIC] the id is sent first and the
 * document only after that answer. A status outside 200…299 with a GraphQL body is that body (GraphQL over HTTP
 * carries request errors in 4xx); without one it is a [TransportException] (`HTTP status 503`).
 */
class GraphQLHttp(
    val url: String,
    val headers: Map<String, String> = emptyMap(),
    val method: HttpMethod = HttpMethod.POST,
    val persistedQueries: PersistedQueries = PersistedQueries.OFF
) {
    /** The HTTP request for [request], sending the document or not (for tests and for apps that sign requests). */
    fun request(request: GraphQLRequest, sendingDocument: Boolean): HttpRequest {
        val persistedId = if (persistedQueries == PersistedQueries.OFF) null else request.operationId
        val all = LinkedHashMap<String, String>()
        all["Accept"] = "application/graphql-response+json, application/json"
        val asGet = method == HttpMethod.GET_FOR_QUERIES && request.operationType == "query"
        if (!asGet) all["Content-Type"] = "application/json"
        all.putAll(headers)
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
     * Sends [request] through [perform] (the HTTP client's one exchange) as many times as the persisted-query
     * protocol needs, and returns the body of the answer. Throws [TransportException].
     */
    fun send(request: GraphQLRequest, perform: (HttpRequest) -> HttpReply): ByteArray {
        val id = request.operationId
        if (persistedQueries != PersistedQueries.OFF && id == null) {
            throw TransportException("${request.operationName} has no persisted id (generate it with baton gen)")
        }
        var sendingDocument = persistedQueries == PersistedQueries.OFF
        while (true) {
            val reply = perform(request(request, sendingDocument))
            if (!sendingDocument && isPersistedQueryNotFound(reply.body)) {
                if (persistedQueries != PersistedQueries.AUTOMATIC) {
                    throw TransportException("the server has no persisted query $id")
                }
                sendingDocument = true
                continue
            }
            if (reply.status in 200..299 || isGraphQLResponse(reply.body)) return reply.body
            throw TransportException("HTTP status ${reply.status}")
        }
    }

    companion object {
        /** A URL query component: percent-encoded UTF-8, a space as `%20` (a `+` reads as a space in many servers). */
        fun encode(text: String): String = URLEncoder.encode(text, "UTF-8").replace("+", "%20")

        /** Whether [bytes] are a GraphQL response (a body GraphQL over HTTP may carry with a 4xx status). */
        fun isGraphQLResponse(bytes: ByteArray): Boolean = try {
            GraphQLResponse.parse(String(bytes, Charsets.UTF_8))
            true
        } catch (error: MalformedResponseException) {
            false
        }

        /** Whether [bytes] are the server's `PersistedQueryNotFound` answer (by message or by extensions code). */
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
    }
}

/**
 * GraphQL over HTTP with `java.net.HttpURLConnection` (on every JVM and on Android): the requests [GraphQLHttp]
 * spells (POST, or GET for queries; the persisted id; the transport's and the request's headers), sent one
 * exchange at a time. A status outside 200…299 is a [TransportException] (`HTTP status 503`) unless the body is a
 * GraphQL response.
 */
class HttpTransport(
    val url: URL,
    val headers: Map<String, String> = emptyMap(),
    val connectTimeoutMillis: Int = 15000,
    val readTimeoutMillis: Int = 30000,
    val method: HttpMethod = HttpMethod.POST,
    val persistedQueries: PersistedQueries = PersistedQueries.OFF
) : Transport {
    /** How this transport spells requests. */
    val http: GraphQLHttp = GraphQLHttp(url.toString(), headers, method, persistedQueries)

    override fun send(request: GraphQLRequest): ByteArray = http.send(request) { perform(it) }

    private fun perform(request: HttpRequest): HttpReply {
        val connection = URL(request.url).openConnection() as HttpURLConnection
        try {
            connection.requestMethod = request.method
            connection.connectTimeout = connectTimeoutMillis
            connection.readTimeout = readTimeoutMillis
            for ((name, value) in request.headers) connection.setRequestProperty(name, value)
            val body = request.body
            if (body != null) {
                connection.doOutput = true
                connection.setFixedLengthStreamingMode(body.size)
                connection.outputStream.use { it.write(body) }
            }
            val status = connection.responseCode
            val stream = if (status in 200..299) connection.inputStream else connection.errorStream
            return HttpReply(status, stream?.use { readAll(it) } ?: ByteArray(0))
        } finally {
            connection.disconnect()
        }
    }

    private fun readAll(stream: InputStream): ByteArray {
        val out = ByteArrayOutputStream()
        val buffer = ByteArray(16384)
        while (true) {
            val count = stream.read(buffer)
            if (count < 0) break
            out.write(buffer, 0, count)
        }
        return out.toByteArray()
    }
}

/**
 * A transport for tests that answers from JSON files or text, per operation name, in order.
 *
 * Each request takes the next answer queued for its operation; the last one keeps answering. Every request is
 * kept, so a test can count fetches. Thread-safe.
 */
class FixtureTransport : Transport {
    /** One answer. */
    sealed class Answer {
        /** The contents of a file. */
        data class FromFile(val file: File) : Answer()

        /** This text. */
        data class Text(val json: String) : Answer()

        /** A transport failure with this reason. */
        data class Failure(val reason: String) : Answer()
    }

    private val lock = Any()
    private val answers = HashMap<String, MutableList<Answer>>()
    private val sent = ArrayList<GraphQLRequest>()

    /** Queues answers for an operation. */
    fun answer(operationName: String, vararg answers: Answer) {
        synchronized(lock) { this.answers.getOrPut(operationName) { ArrayList() }.addAll(answers) }
    }

    /** Every request so far. */
    val requests: List<GraphQLRequest> get() = synchronized(lock) { ArrayList(sent) }

    /** How many requests named the operation. */
    fun requestCount(operationName: String): Int = requests.count { it.operationName == operationName }

    override fun send(request: GraphQLRequest): ByteArray {
        val answer = synchronized(lock) {
            sent.add(request)
            val queue = answers[request.operationName]
            if (queue == null || queue.isEmpty()) null else if (queue.size > 1) queue.removeAt(0) else queue[0]
        }
        return when (answer) {
            null -> throw TransportException("no fixture answers ${request.operationName}")
            is Answer.FromFile -> answer.file.readBytes()
            is Answer.Text -> answer.json.toByteArray(Charsets.UTF_8)
            is Answer.Failure -> throw TransportException(answer.reason)
        }
    }
}
