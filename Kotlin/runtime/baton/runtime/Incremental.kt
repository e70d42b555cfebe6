package baton.runtime

/**
 * A deferred fragment's phase (`@defer` on a spread or an inline fragment), as the generated property reads it:
 * [Pending] until its payload has filled every slot the fragment reads, [Ready] with its lens then, or [Failed]
 * with the errors the server completed it with. What a view switches on to show a fragment still arriving (the
 * Swift runtime's `DeferredPhase` enum, case for case).
 */
sealed class DeferredPhase<out T : Any> {
    /** Its payload has not arrived (or not all of it). */
    object Pending : DeferredPhase<Nothing>() {
        override fun toString(): String = "Pending"
    }

    /** Every slot the fragment reads is in the store. */
    data class Ready<out T : Any>(val value: T) : DeferredPhase<T>()

    /** The server completed the fragment with errors: they stay where the fragment is until a response writes it. */
    data class Failed(val errors: FieldErrors) : DeferredPhase<Nothing>()

    /** The lens when ready, null otherwise. */
    val valueOrNull: T?
        get() = when (this) {
            is Ready -> value
            else -> null
        }

    /** True while the payload is still to come. */
    val isPending: Boolean get() = this === Pending
}

/** `initialCount:` of a `@stream`, as the plan says it: a literal, or a variable of the request. */
class StreamCount private constructor(private val count: Int, private val variable: String?) {
    /** The count for a request with [variables] (0 when the variable is missing or not a whole number). */
    fun value(variables: Map<String, Any?>): Int {
        if (variable == null) return count
        return when (val value = variables[variable]) {
            is Int -> value
            is Long -> value.toInt()
            is Number -> if (value.toDouble() % 1.0 == 0.0) value.toInt() else 0
            else -> 0
        }
    }

    override fun equals(other: Any?): Boolean = other is StreamCount && other.count == count && other.variable == variable

    override fun hashCode(): Int = count * 31 + (variable?.hashCode() ?: 0)

    override fun toString(): String = variable?.let { "$" + it } ?: count.toString()

    companion object {
        fun literal(count: Int): StreamCount = StreamCount(count, null)

        fun variable(name: String): StreamCount = StreamCount(0, name)
    }
}

/**
 * A `@stream` list as the generated property reads it: the [items] so far (typed as without `@stream`), whether
 * [moreComing], and the [initialCount] the request asked for.
 */
data class Streamed<out T>(val items: T, val moreComing: Boolean, val initialCount: Int)

/**
 * Incremental delivery's marks in the store: slots under storage keys no field can have (a GraphQL name never starts
 * with `@`), so they persist, notify and age as any slot does, and a response writing the record again replaces them.
 * The same keys as the Swift runtime's `IncrementalMarks`.
 */
object IncrementalMarks {
    /** The slot, on the record a deferred fragment reads, holding the errors the server completed it with. */
    fun failure(label: String?): String = "@defer:" + (label ?: "")

    /** The slot, beside a streamed list's slot (its storage key), present while more items are coming. */
    fun streaming(storageKey: String): String = "@stream:$storageKey"
}

/** The phase of a fragment read through [selections] on this record: failed, pending, or ready with [ready]'s lens. */
private fun <T : Any> RecordReader.phase(label: String?, selections: List<Selection>, ready: () -> T?): DeferredPhase<T>? {
    val errors = record?.slots?.get(IncrementalMarks.failure(label))?.errors
    if (errors != null && errors.isNotEmpty()) return DeferredPhase.Failed(FieldErrors(errors))
    val root = key ?: return DeferredPhase.Pending
    if (!OperationWalk(context.snapshot, context.variables, root, selections).isComplete) return DeferredPhase.Pending
    return ready()?.let { DeferredPhase.Ready(it) }
}

/**
 * A named fragment's spread under `@defer`: its phase, or null when its conditions leave it out, the record's type
 * does not match, or a `@required` null inside bubbled to the fragment's boundary.
 */
internal fun <T : Any> RecordReader.deferredSpreadPhase(spread: FragmentSpread<T>, label: String?): DeferredPhase<T>? {
    if (!context.included(spread.conditions)) return null
    if (!typeMatches(record?.typename, spread.possibleTypes)) return null
    return phase(label, spread.selections) { fragment(spread) }
}

/** An inline fragment under `@defer`: its phase, or null as for [deferredSpreadPhase]. */
internal fun <T : Any> RecordReader.deferredInlinePhase(fragment: InlineFragment<T>, label: String?): DeferredPhase<T>? {
    if (!context.included(fragment.conditions)) return null
    if (!typeMatches(record?.typename, fragment.possibleTypes)) return null
    return phase(label, fragment.selections) { inlineFragment(fragment) }
}

/** A list under `@stream`: [items] as the plain read gave them, and whether more are coming. */
internal fun <V> RecordReader.streamedList(field: Field<*>, initialCount: StreamCount, items: V): Streamed<V> {
    val mark = IncrementalMarks.streaming(field.readKey(context.variables))
    return Streamed(items, record?.slots?.get(mark) != null, initialCount.value(context.variables))
}

/**
 * The marks a merged payload of [operation] calls for (the Swift runtime's `Store.incrementalMarks`): each failure on
 * the record at its path; a streaming mark beside each list in [streaming], and none beside each list in [stopped].
 */
internal fun incrementalMarks(
    snapshot: StoreSnapshot, operation: Operation<*>, failures: List<IncrementalFailure>, streaming: List<List<Any>>,
    stopped: List<List<Any>>
): List<Triple<String, String, Slot?>> {
    val variables = operation.resolvedVariables()
    val marks = ArrayList<Triple<String, String, Slot?>>()
    for (failure in failures) {
        val record = recordAt(failure.path, operation.rootTypename, operation.selections, snapshot, variables) ?: continue
        marks.add(Triple(record.first, IncrementalMarks.failure(failure.label), Slot(StoredValue.Null, failure.errors)))
    }
    for ((paths, open) in listOf(streaming to true, stopped to false)) {
        for (path in paths) {
            val listKey = path.lastOrNull() as? String ?: continue
            val parent = recordAt(path.dropLast(1), operation.rootTypename, operation.selections, snapshot, variables) ?: continue
            val field = fieldsOf(parent.second).firstOrNull { it.responseKey == listKey } ?: continue
            marks.add(Triple(parent.first, IncrementalMarks.streaming(field.readKey(variables)), if (open) Slot(StoredValue.Bool(true)) else null))
        }
    }
    return marks
}

/** The record at [path] from [root], and the selections that read it (the Swift runtime's `Store.record(at:)`). */
private fun recordAt(
    path: List<Any>, root: String, selections: List<Selection>, snapshot: StoreSnapshot, variables: Map<String, Any?>
): Pair<String, List<Selection>>? {
    var key = root
    var current = selections
    var value: StoredValue? = null
    for (step in path) {
        if (step is String) {
            val matching = fieldsOf(current).filter { it.responseKey == step }
            val field = matching.firstOrNull() ?: return null
            val slot = snapshot[key]?.slots?.get(field.readKey(variables)) ?: return null
            current = matching.flatMap { it.selections }
            value = slot.value
        } else if (step is Int) {
            val items = (value as? StoredValue.Items)?.items ?: return null
            if (step !in items.indices) return null
            value = items[step]
        }
        val link = value as? StoredValue.Link
        if (link != null) key = link.key
    }
    if (value is StoredValue.Items) return null
    return Pair(key, current)
}

/** The fields among [selections], those inside fragments and inline fragments included. */
private fun fieldsOf(selections: List<Selection>): List<Field<*>> = selections.flatMap { selection ->
    when (selection) {
        is Field<*> -> listOf(selection)
        is InlineFragment<*> -> fieldsOf(selection.selections)
        is FragmentSpread<*> -> fieldsOf(selection.selections)
    }
}
