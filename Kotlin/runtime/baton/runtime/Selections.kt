package baton.runtime

/**
 * Whether a record of type [typename] matches [possibleTypes]: null matches every record, and so does an
 * unknown type name (a response without `__typename`), as the Swift runtime tolerates it.
 */
fun typeMatches(typename: String?, possibleTypes: Set<String>?): Boolean =
    possibleTypes == null || typename == null || typename in possibleTypes

/** A variable's value in an argument: resolved from the operation's variables when a storage key is computed. */
data class Variable(val name: String)

/**
 * When a selection applies: `@include(if:)` or `@skip(if:)` on a variable or a literal, or a combination
 * (a selection merged from several places applies when any of them does).
 *
 * A selection applies when every one of its conditions holds.
 */
abstract class Condition {
    /** Whether the condition holds under [variables]; an absent or non-Boolean variable counts as false. */
    abstract fun holds(variables: Map<String, Any?>): Boolean

    private class OnVariable(val variable: String, val skip: Boolean) : Condition() {
        override fun holds(variables: Map<String, Any?>): Boolean = (variables[variable] == true) != skip
    }

    private class Literal(val value: Boolean) : Condition() {
        override fun holds(variables: Map<String, Any?>): Boolean = value
    }

    private class AllOf(val conditions: List<Condition>) : Condition() {
        override fun holds(variables: Map<String, Any?>): Boolean = conditions.all { it.holds(variables) }
    }

    private class AnyOf(val conditions: List<Condition>) : Condition() {
        override fun holds(variables: Map<String, Any?>): Boolean = conditions.any { it.holds(variables) }
    }

    companion object {
        /** `@include(if: $variable)`. */
        fun include(variable: String): Condition = OnVariable(variable, false)

        /** `@skip(if: $variable)`. */
        fun skip(variable: String): Condition = OnVariable(variable, true)

        /** A condition fixed when the document was written (`@include(if: true)`). */
        fun literal(value: Boolean): Condition = Literal(value)

        /** Holds when every one of [conditions] holds. */
        fun allOf(conditions: List<Condition>): Condition = AllOf(conditions)

        /** Holds when any one of [conditions] holds. */
        fun anyOf(conditions: List<Condition>): Condition = AnyOf(conditions)
    }
}

/** What a `@required` field does when it reads null. */
enum class RequiredAction {
    /** The null bubbles to the lens boundary silently. */
    NONE,

    /** The null bubbles to the lens boundary and the log receives the path. */
    LOG,

    /** The accessor throws [RequiredFieldException]. */
    THROW
}

/**
 * One selection of a lens, as the generated code describes it to the runtime: what to normalize from a
 * response and what a read checks (conditions, `@required`, `@catch`).
 */
sealed class Selection

/**
 * A field: its response key, its name and arguments (which make its storage key), the schema type it
 * returns, how its value decodes, and the selections below it for a composite field.
 *
 * [nonNull] says whether a stored null is unexpected (the schema, or `@semanticNonNull` under
 * `@throwOnFieldError`, promises a value).
 */
class Field<out T : Any>(
    val responseKey: String,
    val name: String,
    val typeName: String,
    val decoder: Decoder<T>,
    val nonNull: Boolean,
    val arguments: Map<String, Any?> = emptyMap(),
    val selections: List<Selection> = emptyList(),
    val conditions: List<Condition> = emptyList(),
    val required: RequiredAction? = null,
    val catches: Boolean = false,
    /** `@connection`: the field's pages merge into one connection record, which reads see. */
    val connection: ConnectionSpec? = null,
    /** A declarative update (`@appendEdge`, `@deleteRecord`, …) the response's value at this field makes. */
    val update: RecordUpdate? = null,
    /**
     * Per object type the field can return whose records are keyed by declared fields other than `id` (`keyFields`,
     * `@typePolicy`): the key fields. Such a record is keyed `Type:` + the fields' values as canonical JSON
     * (`MediaList:{"id":1,"mediaId":7}`), as the Swift runtime keys it.
     */
    val keyFields: Map<String, List<String>> = emptyMap()
) : Selection() {
    /** Whether the field has a selection set (its values are records). */
    val isComposite: Boolean get() = selections.isNotEmpty()

    private val constantKey: String? = if (arguments.isEmpty()) name else if (!containsVariable(arguments)) {
        storageKey(name, arguments, emptyMap())
    } else null

    /** The slot's key in a record: the name, plus canonically ordered arguments with variables resolved. */
    fun storageKey(variables: Map<String, Any?>): String = constantKey ?: storageKey(name, arguments, variables)

    private val connectionArguments: Map<String, Any?> =
        connection?.let { spec -> arguments.filterKeys { it in spec.filters } } ?: emptyMap()

    /**
     * The key reads find the field's value under: [storageKey], or for a `@connection` field the slot linking to
     * its connection record (`__connection:KEY(filters)`), where every page it was given is merged.
     */
    fun readKey(variables: Map<String, Any?>): String {
        val spec = connection ?: return storageKey(variables)
        val resolved = storageKey("_", connectionArguments, variables)
        return if (resolved == "_") "__connection:" + spec.key else "__connection:" + spec.key + resolved.substring(1)
    }

    companion object {
        /** `name` without arguments, else `name({"a":1,"b":"x"})` with keys sorted, absent variables left out. */
        fun storageKey(name: String, arguments: Map<String, Any?>, variables: Map<String, Any?>): String {
            val resolved = LinkedHashMap<String, Any?>()
            for ((key, value) in arguments) {
                if (value is Variable && !variables.containsKey(value.name)) continue
                resolved[key] = resolve(value, variables)
            }
            if (resolved.isEmpty()) return name
            return name + "(" + Json.write(resolved, sortKeys = true) + ")"
        }

        private fun resolve(value: Any?, variables: Map<String, Any?>): Any? = when (value) {
            is Variable -> variables[value.name]
            is Map<*, *> -> value.entries
                .filter { !(it.value is Variable && !variables.containsKey((it.value as Variable).name)) }
                .associate { it.key.toString() to resolve(it.value, variables) }
            is List<*> -> value.map { resolve(it, variables) }
            else -> value
        }

        private fun containsVariable(value: Any?): Boolean = when (value) {
            is Variable -> true
            is Map<*, *> -> value.values.any { containsVariable(it) }
            is List<*> -> value.any { containsVariable(it) }
            else -> false
        }
    }
}

/**
 * An inline fragment, read through an `asType` accessor: its selections apply when the record's type is one
 * of [possibleTypes] (null: every record the parent reads matches); [factory] makes its lens.
 */
class InlineFragment<out T : Any>(
    val typeCondition: String?,
    val possibleTypes: Set<String>?,
    val selections: List<Selection>,
    val factory: (RecordReader) -> T,
    val conditions: List<Condition> = emptyList()
) : Selection()

/**
 * A fragment spread: the fragment's selections apply to the parent's record when its type is one of
 * [possibleTypes] (null: every record the parent reads matches); [factory] makes the fragment's lens. The
 * fragment is a lens boundary: a `@required` null inside it makes the spread's accessor read null.
 * [throwOnFieldError] is the fragment's own policy.
 */
class FragmentSpread<out T : Any>(
    val fragmentName: String,
    val typeCondition: String,
    val possibleTypes: Set<String>?,
    val selections: List<Selection>,
    val factory: (RecordReader) -> T,
    val throwOnFieldError: Boolean = false,
    val conditions: List<Condition> = emptyList()
) : Selection()

/**
 * What every generated operation offers the runtime and the app.
 *
 * [D] is the operation's data lens.
 */
interface Operation<out D : Any> {
    /** The operation's name in the document. */
    val operationName: String

    /** `query`, `mutation` or `subscription`. */
    val operationType: String

    /** The document sent to the server: the operation and the fragments it uses, printed canonically. */
    val document: String

    /** The SHA-256 of [document], lower-case hex: the persisted-query id. */
    val operationId: String

    /** The `onError` behaviour baton.json asks the server for (`NULL`, `PROPAGATE`, `HALT`), or null. */
    val onError: String?

    /** The root type's name: the key of the root record (`Query`, `Mutation`, `Subscription`). */
    val rootTypename: String

    /** The selections of the data lens. */
    val selections: List<Selection>

    /** Whether the operation is under `@throwOnFieldError`. */
    val throwOnFieldError: Boolean

    /** `@defer` or `@stream` in the document: the request accepts an incremental (multipart) answer. */
    val incrementalDelivery: Boolean get() = false

    /** The variables as the request's JSON object (absent variables left out). */
    fun variables(): Map<String, Any?>

    /**
     * The variables as the server sees them: [variables] with the document's defaults for those left out.
     * Reads and normalization resolve `@include`/`@skip` and arguments with these.
     */
    fun variablesWithDefaults(): Map<String, Any?> = variables()

    /**
     * The variables only client-only directives use (`connections` of `@appendEdge`): never sent (the document
     * leaves them out), read by the runtime when it applies the response.
     */
    fun clientVariables(): Map<String, Any?> = emptyMap()

    /** [variablesWithDefaults] and [clientVariables]: what storage keys, conditions and updates resolve with. */
    fun resolvedVariables(): Map<String, Any?> {
        val client = clientVariables()
        return if (client.isEmpty()) variablesWithDefaults() else variablesWithDefaults() + client
    }

    /** The data lens over the root record. */
    fun data(reader: RecordReader): D

    /** How long data stays fresh, in seconds; null for never stale by age (a handle's `expiration` overrides it). */
    val expiration: Double? get() = null
}

/** An operation with its variables, as invalidation and the log name it: its name and its variables' canonical JSON. */
data class OperationIdentity(val name: String, val variables: String) {
    override fun toString(): String = name + variables

    companion object {
        /** The identity of [operation]. */
        fun of(operation: Operation<*>): OperationIdentity =
            OperationIdentity(operation.operationName, Json.write(operation.variables(), sortKeys = true))
    }
}

/** The request body for [operation]: `query`, `operationName`, `variables`, and `onError` when set. */
fun requestBody(operation: Operation<*>): String = GraphQLRequest(operation).body
