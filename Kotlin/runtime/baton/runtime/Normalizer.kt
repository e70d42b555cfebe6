package baton.runtime

/** The slots one response writes to one record, before they are merged into the store. */
internal class PendingRecord(val key: String, val typename: String?) {
    val slots = LinkedHashMap<String, Slot>()
}

/** What one response writes: slots per record in the order first reached, and the errors that named no slot. */
internal class NormalizedWrite {
    val pending = ArrayList<PendingRecord>()
    val index = HashMap<String, Int>()
    val unattachedErrors = ArrayList<FieldError>()
    /** The `@connection` pages and declarative updates the response carries, applied after its records. */
    val connectionWrites = ArrayList<ConnectionWrite>()
    var variables: Map<String, Any?> = emptyMap()
}

/**
 * Turns a response's `data` into records and slots by walking the operation's selections, as the Swift
 * runtime's normalizer does, so the same response gives the same records.
 *
 * Aliases map back to storage keys, `@include`/`@skip` are evaluated with the variables, `__typename` picks the
 * record's type and which fragments apply, and each error is attached to the deepest slot its path reaches
 * (an error inside a list item goes to the list's slot). Pure: the store merges the result under its lock.
 */
internal class Normalizer private constructor(private val variables: Map<String, Any?>, hasErrors: Boolean) {
    private val write = NormalizedWrite()

    /** Response path (dotted) → slot, kept only when the response has errors to attach. */
    private val pathIndex: HashMap<String, SlotId>? = if (hasErrors) HashMap() else null

    companion object {
        fun normalize(
            data: Map<*, *>, errors: List<FieldError>, rootKey: String, rootTypename: String,
            selections: List<Selection>, variables: Map<String, Any?>
        ): NormalizedWrite {
            val normalizer = Normalizer(variables, errors.isNotEmpty())
            normalizer.write.index[rootKey] = 0
            normalizer.write.pending.add(PendingRecord(rootKey, rootTypename))
            normalizer.writeObject(data, 0, rootKey, selections, "", 0)
            for (error in errors) normalizer.attach(error)
            if (normalizer.write.connectionWrites.isNotEmpty()) normalizer.write.variables = variables
            return normalizer.write
        }
    }

    private fun writeObject(data: Map<*, *>, record: Int, key: String, selections: List<Selection>, path: String, depth: Int) {
        if (depth > Json.MAX_DEPTH) return
        loop@ for (selection in selections) {
            when (selection) {
                is Field<*> -> {
                    if (selection.conditions.isNotEmpty() && !selection.conditions.all { it.holds(variables) }) continue@loop
                    if (!data.containsKey(selection.responseKey)) continue@loop
                    val storageKey = selection.storageKey(variables)
                    var fieldPath = ""
                    val index = pathIndex
                    if (index != null) {
                        fieldPath = if (path.length == 0) selection.responseKey else path + "." + selection.responseKey
                        index[fieldPath] = SlotId(key, storageKey)
                    }
                    val stored = value(
                        data[selection.responseKey], selection.decoder, selection, key, storageKey, "", -1, fieldPath,
                        depth + 1
                    )
                    write.pending[record].slots[storageKey] = Slot(stored)
                    if (selection.connection != null || selection.update != null) {
                        write.connectionWrites.add(ConnectionWrite(selection, key, storageKey))
                    }
                }
                is InlineFragment<*> -> {
                    if (!selection.conditions.all { it.holds(variables) }) continue@loop
                    if (!typeMatches(data["__typename"] as? String, selection.possibleTypes)) continue@loop
                    writeObject(data, record, key, selection.selections, path, depth + 1)
                }
                is FragmentSpread<*> -> {
                    if (!selection.conditions.all { it.holds(variables) }) continue@loop
                    if (!typeMatches(data["__typename"] as? String, selection.possibleTypes)) continue@loop
                    writeObject(data, record, key, selection.selections, path, depth + 1)
                }
            }
        }
    }

    /**
     * Stores one response value of [field] read by [decoder] (which tells the list levels). An object without an
     * `id` gets the derived key `parent.storageKey` + [suffix] + `.index` (the list indices that led to it;
     * [index] is -1 outside a list).
     */
    private fun value(
        value: Any?, decoder: Decoder<*>, field: Field<*>, parent: String, storageKey: String, suffix: String,
        index: Int, path: String, depth: Int
    ): StoredValue {
        if (depth > Json.MAX_DEPTH) return StoredValue.Null
        return when (value) {
            null -> StoredValue.Null
            is String -> StoredValue.Text(value)
            is JsonNumber -> StoredValue.Number(value.literal)
            is Boolean -> StoredValue.Bool(value)
            is List<*> -> {
                val element = decoder.listElement() ?: return StoredValue.JsonText(Json.write(value))
                val listSuffix = if (index < 0) suffix else "$suffix.$index"
                val pathIndex = pathIndex
                val items = ArrayList<StoredValue>(value.size)
                for ((itemIndex, item) in value.withIndex()) {
                    var itemPath = ""
                    if (pathIndex != null) {
                        itemPath = "$path.$itemIndex"
                        val listSlot = pathIndex[path]
                        if (listSlot != null) pathIndex[itemPath] = listSlot
                    }
                    items.add(this.value(item, element, field, parent, storageKey, listSuffix, itemIndex, itemPath, depth + 1))
                }
                StoredValue.Items(items)
            }
            is Map<*, *> -> {
                if (!field.isComposite) return StoredValue.JsonText(Json.write(value))
                val typename = value["__typename"] as? String ?: field.typeName
                val derived = parent + "." + storageKey + (if (index < 0) suffix else "$suffix.$index")
                // A type with a declared key other than `id` is keyed by it, or (a key field missing or not a leaf)
                // under its path: never by `id` alone.
                val declared = field.keyFields[typename]
                val key = if (declared != null) declaredKey(typename, declared, value) ?: derived else when (val id = value["id"]) {
                    is String -> "$typename:$id"
                    is JsonNumber -> "$typename:${id.literal}"
                    else -> derived
                }
                var record = write.index[key]
                if (record == null) {
                    record = write.pending.size
                    write.pending.add(PendingRecord(key, typename))
                    write.index[key] = record
                }
                writeObject(value, record, key, field.selections, path, depth + 1)
                StoredValue.Link(key)
            }
            else -> StoredValue.Text(value.toString())
        }
    }

    /**
     * `Type:` + the key fields' values as canonical JSON (`MediaList:{"id":1,"mediaId":7}`), the Swift runtime's
     * spelling too; null when a key field is missing, null or not a leaf value.
     */
    private fun declaredKey(typename: String, fields: List<String>, value: Map<*, *>): String? {
        val members = LinkedHashMap<String, Any?>()
        for (name in fields) {
            val member = value[name]
            if (member !is String && member !is JsonNumber && member !is Boolean) return null
            members[name] = member
        }
        return typename + ":" + Json.write(members, sortKeys = true)
    }

    /** Attaches [error] to the deepest slot its path reaches, or keeps it as unattached. */
    private fun attach(error: FieldError) {
        val path = error.path
        val index = pathIndex
        if (path == null || path.isEmpty() || index == null) {
            write.unattachedErrors.add(error)
            return
        }
        val components = path.map { it.toString() }
        var count = components.size
        while (count > 0) {
            val slot = index[components.subList(0, count).joinToString(".")]
            if (slot != null) {
                val record = write.index[slot.record]
                if (record != null) {
                    val pending = write.pending[record]
                    val stored = pending.slots[slot.storageKey]
                    if (stored != null) pending.slots[slot.storageKey] = stored.copy(errors = stored.errors + error)
                }
                return
            }
            count--
        }
        write.unattachedErrors.add(error)
    }
}
