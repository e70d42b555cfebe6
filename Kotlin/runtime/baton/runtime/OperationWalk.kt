package baton.runtime

/** A slot an operation's selections reach that the store does not have. */
data class MissingField(val type: String, val field: String, val record: String, val path: String)

/**
 * One walk of an operation's whole selection tree over a snapshot, fragment spreads included: the slots it
 * depends on, the records it touches, and what is missing. Handles use it to subscribe, to decide whether the
 * store can answer, and to find missing data to heal (as the Swift runtime's `OperationWalk`). The errors
 * `@throwOnFieldError` answers for are [RecordReader.uncaughtErrors]'s.
 */
class OperationWalk(
    private val snapshot: StoreSnapshot,
    private val variables: Map<String, Any?>,
    root: String,
    selections: List<Selection>
) {
    /** The slots the operation reads, including missing ones: a handle's subscription. */
    val dependencies = HashSet<SlotId>()

    /** The records it touches: their ages are the data's age. */
    val records = HashSet<String>()

    /** The slots it reaches that the store does not have, in walk order. */
    val missing = ArrayList<MissingField>()

    init {
        walk(root, selections, "", 0)
    }

    /** The version of the snapshot walked. */
    val version: Long get() = snapshot.version

    /** Whether the store can answer the operation fully. */
    val isComplete: Boolean get() = missing.isEmpty()

    private fun walk(key: String, selections: List<Selection>, path: String, depth: Int) {
        if (depth > Json.MAX_DEPTH) return
        records.add(key)
        val record = snapshot[key]
        // A deleted record is gone, not missing: nothing of it is read, healed or waited for.
        if (record?.isDeleted == true) return
        val typename = record?.typename ?: key.substringBefore(':')
        loop@ for (selection in selections) {
            when (selection) {
                is Field<*> -> {
                    if (selection.conditions.isNotEmpty() && !selection.conditions.all { it.holds(variables) }) continue@loop
                    val storageKey = selection.readKey(variables)
                    dependencies.add(SlotId(key, storageKey))
                    val fieldPath = if (path.length == 0) selection.responseKey else path + "." + selection.responseKey
                    val slot = record?.slots?.get(storageKey)
                    if (slot == null) {
                        missing.add(MissingField(typename, selection.name, key, fieldPath))
                        continue@loop
                    }
                    if (selection.isComposite) visit(slot.value, selection, fieldPath, depth + 1)
                }
                is InlineFragment<*> -> {
                    if (!selection.conditions.all { it.holds(variables) }) continue@loop
                    if (!typeMatches(record?.typename, selection.possibleTypes)) continue@loop
                    walk(key, selection.selections, path, depth + 1)
                }
                is FragmentSpread<*> -> {
                    if (!selection.conditions.all { it.holds(variables) }) continue@loop
                    if (!typeMatches(record?.typename, selection.possibleTypes)) continue@loop
                    walk(key, selection.selections, path, depth + 1)
                }
            }
        }
    }

    private fun visit(value: StoredValue, field: Field<*>, path: String, depth: Int) {
        when (value) {
            is StoredValue.Link -> walk(value.key, field.selections, path, depth)
            is StoredValue.Items -> for ((index, item) in value.items.withIndex()) {
                visit(item, field, "$path.$index", depth + 1)
            }
            else -> Unit
        }
    }
}
