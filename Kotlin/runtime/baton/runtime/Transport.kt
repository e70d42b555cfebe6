package baton.runtime

import java.io.File

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
    val headers: Map<String, String> = emptyMap(),
    /**
     * Cancelled when the fetch should stop (its handle detached): a transport aborts the exchange in flight and
     * throws [TransportException.cancelled]. Never cancelled unless the caller cancels it.
     */
    val cancellation: Cancellation = Cancellation(),
    /** The document has `@defer` or `@stream`: the request accepts an incremental answer ([accept]). */
    val incrementalDelivery: Boolean = false
) {
    /** The request for a generated operation, with [headers] for it alone. */
    constructor(
        operation: Operation<*>, headers: Map<String, String> = emptyMap(), cancellation: Cancellation = Cancellation()
    ) : this(
        operation.operationName, operation.document, operation.variables(), operation.onError,
        operation.operationType, if (operation.operationId.isEmpty()) null else operation.operationId, headers,
        cancellation, operation.incrementalDelivery
    )

    /** The `Accept` this request sends (the Swift runtime's `GraphQLRequest.accept`). */
    val accept: String get() = if (incrementalDelivery) INCREMENTAL_ACCEPT else WHOLE_ACCEPT

    companion object {
        /** The `Accept` of a request without `@defer` or `@stream`. */
        const val WHOLE_ACCEPT: String = "application/graphql-response+json, application/json"

        /**
         * The `Accept` of a request with `@defer` or `@stream`: the current draft's multipart answer
         * (`incrementalSpec=v0.2`), Apollo Router's (`deferSpec=20220824`), or a whole JSON answer.
         */
        const val INCREMENTAL_ACCEPT: String =
            "multipart/mixed;incrementalSpec=v0.2, multipart/mixed;deferSpec=20220824, " + WHOLE_ACCEPT
    }

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
 * that attached the handle, so it may block; it should end when [GraphQLRequest.cancellation] is cancelled.
 * Anything it throws is a transport failure; a [TransportException] says whether sending again may help.
 */
interface Transport {
    fun send(request: GraphQLRequest): ByteArray
}

/**
 * A transport that hands an answer over payload by payload (the Swift runtime's `IncrementalTransport`): what an
 * operation with `@defer` or `@stream` is sent through. [receive] gets each payload, in order, as one JSON object's
 * bytes: each part of a `multipart/mixed` answer, or the whole body of any other. Fails as [send] does.
 */
interface IncrementalTransport : Transport {
    fun sendIncrementally(request: GraphQLRequest, receive: (ByteArray) -> Unit)
}

/**
 * A transport failure, with the Swift runtime's `TransportError` texts: an HTTP status without a GraphQL body
 * (`HTTP status 502`, `HTTP status 429 (retry after 2 s)`), a network failure (`network: Connection refused`), no
 * complete answer in time (`timed out after 30 s`), a body over the limit (`response larger than 1048576 bytes`), a
 * cancelled fetch (`cancelled`), a persisted id the server lacks, or a failure a fixture was told to give.
 */
class TransportException @JvmOverloads constructor(
    message: String,
    cause: Throwable? = null,
    val kind: Kind = Kind.FAILED,
    /** The HTTP status, for [Kind.HTTP_STATUS]. */
    val status: Int? = null,
    /** The server's `Retry-After` in seconds, when it sent one. */
    val retryAfter: Double? = null,
    /** The body of the answer, for [Kind.HTTP_STATUS] (its first [FetchError.BODY_LIMIT] bytes). */
    val body: ByteArray = ByteArray(0),
    /** The timeout in seconds, for [Kind.TIMED_OUT]. */
    val seconds: Double? = null,
    /** When the timeout struck, for [Kind.TIMED_OUT]. */
    val phase: FetchError.TimeoutPhase = FetchError.TimeoutPhase.WAITING,
    /** The limit in bytes, for [Kind.TOO_LARGE]. */
    val limit: Long? = null
) : RuntimeException(message, cause) {
    /** What kind of failure it is. */
    enum class Kind { FAILED, HTTP_STATUS, NETWORK, TIMED_OUT, TOO_LARGE, CANCELLED, PERSISTED_QUERY_NOT_FOUND }

    /** Whether sending the same request again may succeed: a network failure, a timeout, 429, 502, 503, 504. */
    val isTransient: Boolean
        get() = when (kind) {
            Kind.NETWORK, Kind.TIMED_OUT -> true
            Kind.HTTP_STATUS -> status == 429 || status == 502 || status == 503 || status == 504
            else -> false
        }

    companion object {
        /** A status outside 200…299 without a GraphQL body. */
        @JvmStatic
        @JvmOverloads
        fun httpStatus(status: Int, retryAfter: Double? = null, body: ByteArray = ByteArray(0)): TransportException =
            TransportException(
                if (retryAfter == null) "HTTP status $status" else "HTTP status $status (retry after ${seconds(retryAfter)} s)",
                null, Kind.HTTP_STATUS, status, retryAfter, FetchError.kept(body)
            )

        /** The connection failed or broke before the whole answer arrived (a truncated body is one). */
        @JvmStatic
        fun network(reason: String, cause: Throwable? = null): TransportException =
            TransportException("network: $reason", cause, Kind.NETWORK)

        /** No complete answer within the exchange's timeout. */
        @JvmStatic
        @JvmOverloads
        fun timedOut(seconds: Double, phase: FetchError.TimeoutPhase = FetchError.TimeoutPhase.WAITING): TransportException =
            TransportException(
                "timed out after ${seconds(seconds)} s", null, Kind.TIMED_OUT, seconds = seconds, phase = phase
            )

        /** The body is larger than the limit; it was not read past it. */
        @JvmStatic
        fun tooLarge(limit: Long): TransportException =
            TransportException("response larger than $limit bytes", null, Kind.TOO_LARGE, limit = limit)

        /** The fetch was cancelled (its handle detached). */
        @JvmStatic
        fun cancelled(): TransportException = TransportException(CANCELLED, null, Kind.CANCELLED)

        /** What a cancelled fetch's failure says. */
        const val CANCELLED = "cancelled"

        /** Seconds as Swift's messages print them: `2`, `0.25`. */
        internal fun seconds(value: Double): String =
            if (value == Math.rint(value) && Math.abs(value) < 1e15) value.toLong().toString() else value.toString()
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
