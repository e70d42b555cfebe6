package baton.runtime

import java.io.ByteArrayOutputStream
import java.io.File
import java.io.InputStream
import java.net.HttpURLConnection
import java.net.URL

/** One GraphQL request: what a transport sends. */
class GraphQLRequest(
    val operationName: String,
    val query: String,
    val variables: Map<String, Any?>,
    /** The `onError` behaviour the operation carries (from baton.json), sent when present. */
    val onError: String? = null
) {
    /** The request for a generated operation. */
    constructor(operation: Operation<*>) :
        this(operation.operationName, operation.document, operation.variables(), operation.onError)

    /** The POST body: `{"query":…,"operationName":…,"variables":{…},"onError":…}`, variables sorted by name. */
    val body: String
        get() {
            val body = LinkedHashMap<String, Any?>()
            body["query"] = query
            body["operationName"] = operationName
            val sorted = LinkedHashMap<String, Any?>()
            for (name in variables.keys.sorted()) sorted[name] = variables[name]
            body["variables"] = sorted
            if (onError != null) body["onError"] = onError
            return Json.write(body)
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

/**
 * GraphQL over HTTP with `java.net.HttpURLConnection` (on every JVM and on Android): a POST of the request as
 * JSON. A status outside 200…299 is a [TransportException] (`HTTP status 503`) unless the body is a GraphQL
 * response, which GraphQL over HTTP may carry a request error in.
 */
class HttpTransport(
    val url: URL,
    val headers: Map<String, String> = emptyMap(),
    val connectTimeoutMillis: Int = 15000,
    val readTimeoutMillis: Int = 30000
) : Transport {
    override fun send(request: GraphQLRequest): ByteArray {
        val connection = url.openConnection() as HttpURLConnection
        try {
            connection.requestMethod = "POST"
            connection.doOutput = true
            connection.connectTimeout = connectTimeoutMillis
            connection.readTimeout = readTimeoutMillis
            connection.setRequestProperty("Content-Type", "application/json")
            connection.setRequestProperty("Accept", "application/graphql-response+json, application/json")
            for ((name, value) in headers) connection.setRequestProperty(name, value)
            val body = request.body.toByteArray(Charsets.UTF_8)
            connection.setFixedLengthStreamingMode(body.size)
            connection.outputStream.use { it.write(body) }
            val status = connection.responseCode
            val stream = if (status in 200..299) connection.inputStream else connection.errorStream
            val bytes = stream?.use { readAll(it) } ?: ByteArray(0)
            if (status !in 200..299 && !isGraphQLResponse(bytes)) throw TransportException("HTTP status $status")
            return bytes
        } finally {
            connection.disconnect()
        }
    }

    private fun isGraphQLResponse(bytes: ByteArray): Boolean = try {
        GraphQLResponse.parse(String(bytes, Charsets.UTF_8))
        true
    } catch (error: MalformedResponseException) {
        false
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
