package baton.runtime

/**
 * A response the app writes before the server answers: what a generated `Optimistic` value (built from the
 * mutation's data types, field by field) gives the store as the response's `data`.
 */
interface OptimisticResponse {
    /** The response object, keyed by response keys, with `__typename` on every object. */
    fun responseObject(): Map<String, Any?>
}

/** Building optimistic responses: what generated `Optimistic` builders call. */
object ResponseObjects {
    /**
     * A generated builder's response object (its whole `responseObject()`, one call so kotlinc analyses no body per
     * builder): `__typename` is [typename], then [members] are read in pairs, a key and a value, in order. A key
     * `...` merges its value's object in (see [merge]; nothing while it is null); a key `?k` writes `k` only while
     * its value is not null (a selection under `@include`/`@skip`); any other key is written as it is, null too. A
     * value that is an [OptimisticResponse] is written as its object, a list item by item; the rest as it is.
     * Throws [IllegalArgumentException] when [members] are not key-value pairs or a `...` value is not a builder.
     */
    fun of(typename: String, vararg members: Any?): Map<String, Any?> {
        if (members.size % 2 != 0) throw IllegalArgumentException("an optimistic response's members come in pairs")
        val result = LinkedHashMap<String, Any?>()
        result["__typename"] = typename
        for (index in 0 until members.size step 2) {
            val key = members[index] as? String
                ?: throw IllegalArgumentException("an optimistic response's key is not a string: ${members[index]}")
            val value = members[index + 1]
            when {
                key == "..." -> when (value) {
                    null -> {}
                    is OptimisticResponse -> merge(result, value.responseObject())
                    else -> throw IllegalArgumentException("an optimistic response's spread is not a builder: $value")
                }
                key.startsWith("?") -> if (value != null) result[key.substring(1)] = responseValue(value)
                else -> result[key] = responseValue(value)
            }
        }
        return result
    }

    /** [value] as a response holds it: a builder's object, a list item by item, the rest as it is. */
    private fun responseValue(value: Any?): Any? = when (value) {
        is OptimisticResponse -> value.responseObject()
        is List<*> -> value.map { responseValue(it) }
        else -> value
    }

    /** Adds [other]'s members to [into] (a fragment's part of an optimistic response), merging objects member by member. */
    @Suppress("UNCHECKED_CAST")
    fun merge(into: MutableMap<String, Any?>, other: Map<String, Any?>) {
        for ((key, value) in other) {
            val mine = into[key]
            if (mine is Map<*, *> && value is Map<*, *>) {
                val merged = LinkedHashMap(mine as Map<String, Any?>)
                merge(merged, value as Map<String, Any?>)
                into[key] = merged
            } else {
                into[key] = value
            }
        }
    }
}

/** A mutation's outcome for a callback: its data, or the [FetchError] it failed with. */
sealed class MutationResult<out D : Any> {
    data class Success<out D : Any>(val data: D) : MutationResult<D>()
    data class Failure(val error: FetchError) : MutationResult<Nothing>()
}

/**
 * A mutation bound to an environment, called like a function (the guide's `addComment(input = …, connections =
 * listOf(connectionId))`): generated code adds an `invoke` per mutation taking its variables, typed, and an optional
 * typed optimistic response — one that blocks until the answer (call it off the main thread, as [BatonEnvironment.fetch]),
 * one that calls back. The coroutines adapter (`Kotlin/coroutines`) suspends instead.
 */
class MutationCall<D : Any, O : Operation<D>> @JvmOverloads constructor(
    val environment: BatonEnvironment?,
    /** Headers the mutation is sent with, over the transport's. */
    val headers: Map<String, String> = emptyMap()
) {
    /** The call with more headers (these win over the call's own), the generated `invoke`'s arguments unchanged. */
    fun headers(more: Map<String, String>): MutationCall<D, O> = MutationCall(environment, headers + more)

    /**
     * The call with an `Idempotency-Key` header, so a server can tell a mutation sent again from a new one:
     * `environment.mutation<…>().idempotencyKey(key)(input = …)`. Keep the key with the user's intent.
     */
    fun idempotencyKey(key: String): MutationCall<D, O> = headers(mapOf("Idempotency-Key" to key))

    /** Sends [mutation] and waits for its data (see [BatonEnvironment.perform]). */
    fun perform(mutation: O, optimisticResponse: OptimisticResponse? = null): D {
        val environment = environment ?: throw FetchException(
            FetchError.Unattached(
                "${mutation.operationName} has no environment: make the call with environment.mutation()"
            )
        )
        return environment.perform(mutation, optimisticResponse, headers)
    }

    /** Sends [mutation] on the environment's executor and calls [callback] with the outcome. */
    fun perform(mutation: O, optimisticResponse: OptimisticResponse?, callback: (MutationResult<D>) -> Unit) {
        val environment = environment
        if (environment == null) {
            callback(MutationResult.Failure(FetchError.Unattached("${mutation.operationName} has no environment")))
            return
        }
        environment.track {
            val result = try {
                MutationResult.Success(environment.perform(mutation, optimisticResponse, headers))
            } catch (error: FetchException) {
                MutationResult.Failure(error.error)
            }
            callback(result)
        }
    }
}

/** The mutation type [O] as a call bound to this environment. */
fun <D : Any, O : Operation<D>> BatonEnvironment.mutation(): MutationCall<D, O> = MutationCall(this)

/**
 * Sends a mutation on the calling thread and returns its data, as the Swift runtime's `perform`: always sent, never
 * sent again; with [optimisticResponse], applied at once as a layer (logged `optimisticApplied`) that the server's
 * answer replaces in its batch or that a failure removes (logged `optimisticRolledBack`); the answer committed as a
 * server batch with its declarative updates. Throws [FetchException].
 */
fun <D : Any> BatonEnvironment.perform(
    mutation: Operation<D>, optimisticResponse: OptimisticResponse? = null, headers: Map<String, String> = emptyMap()
): D {
    var layer: Int? = null
    if (optimisticResponse != null) {
        // Nothing is sent when the optimistic response cannot be a response (nested past the parser's limit).
        val write = try {
            store.normalizeOptimistic(mutation, optimisticResponse.responseObject())
        } catch (error: JsonException) {
            throw FetchException(FetchError.MalformedResponse(error.message ?: "the optimistic response is not JSON"))
        }
        val (id, result, deliver) = store.addOptimisticLayer(write)
        layer = id
        log.record(
            LogEvent(
                "optimisticApplied",
                linkedMapOf<String, Any?>("operation" to mutation.operationName, "changed" to result.changed.size)
            )
        )
        deliver()
    }
    try {
        send(mutation, {}, {}, headers, replacing = layer)
    } catch (error: FetchException) {
        if (layer != null) {
            val (result, deliver) = store.removeOptimisticLayer(layer)
            log.record(
                LogEvent(
                    "optimisticRolledBack",
                    linkedMapOf<String, Any?>("operation" to mutation.operationName, "changed" to result.changed.size)
                )
            )
            deliver()
        }
        throw error
    }
    keepRecent(RetainedRoot.of(mutation))
    try {
        return store.read(mutation, LoggingReporter(log))
    } catch (error: RequiredFieldException) {
        throw FetchException(FetchError.Read(error))
    } catch (error: FieldErrorsException) {
        throw FetchException(FetchError.Read(error))
    }
}
