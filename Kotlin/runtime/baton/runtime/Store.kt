package baton.runtime

/**
 * What a slot holds: a scalar exactly as the server wrote it, a link to a record, a list, or null.
 */
sealed class StoredValue {
    /** The server wrote `null`. */
    object Null : StoredValue() {
        override fun toString(): String = "null"
    }

    /** A JSON string (strings, IDs, enum values, custom scalars written as strings). */
    data class Text(val text: String) : StoredValue()

    /** A JSON number's literal text, never rounded. */
    data class Number(val literal: String) : StoredValue()

    /** A JSON Boolean. */
    data class Bool(val value: Boolean) : StoredValue()

    /** A custom scalar the server wrote as a JSON object or array, kept as compact JSON text. */
    data class JsonText(val json: String) : StoredValue()

    /** A link to another record by its key. */
    data class Link(val key: String) : StoredValue()

    /** A list of values or links. */
    data class Items(val items: List<StoredValue>) : StoredValue()
}

/** A field of a record under its storage key: its value and, beside it, the field errors that produced it. */
data class Slot(val value: StoredValue, val errors: List<FieldError> = emptyList())

/** A normalized record: its type name and its slots by storage key. */
class Record(var typename: String?) {
    /** The slots by storage key. */
    val slots: MutableMap<String, Slot> = LinkedHashMap()
}

/** What a commit did: the slots that changed (sorted) and the errors that named no slot of the response. */
data class CommitResult(val changed: List<SlotId>, val unattachedErrors: List<FieldError>)

/** One slot of one record, as notifications name it: `Character:1.gender`. */
data class SlotId(val record: String, val storageKey: String) : Comparable<SlotId> {
    override fun toString(): String = "$record.$storageKey"
    override fun compareTo(other: SlotId): Int = toString().compareTo(other.toString())
}

/**
 * A minimal in-memory normalized store, enough to read responses through generated lenses.
 *
 * Records are keyed `Type:id` when the object has an `id`, otherwise by the parent's key, a dot and the
 * storage key of the field that reached it, plus `.index` per list level (`Query.character({"id":"1"})`).
 * The root record's key is the root type's name. Not thread-safe: confine it to one thread.
 */
class RecordStore(private val log: BatonLog = BatonLog.NONE) {
    private val records = LinkedHashMap<String, Record>()

    /** The record under [key], if the store has it. */
    fun record(key: String): Record? = records[key]

    /** Every record key, sorted. */
    fun keys(): List<String> = records.keys.sorted()

    /**
     * Commits a response to [operation] as a server batch and returns the slots whose value or errors
     * changed, sorted.
     *
     * `data` is normalized by the operation's selections (aliases mapped back to storage keys); each entry
     * of `errors` is stored beside the slot its `path` names. A response with `errors` and no `data` is a
     * request error: nothing changes and [RequestFailedException] is thrown.
     */
    fun commit(operation: Operation<*>, responseText: String): List<SlotId> = commitResponse(operation, responseText).changed

    /** [commit], also telling which errors named no slot of the response (no path, or a path outside it). */
    fun commitResponse(operation: Operation<*>, responseText: String): CommitResult {
        val response = Json.parse(responseText) as? Map<*, *> ?: throw JsonException("a response must be a JSON object")
        val errors = (response["errors"] as? List<*>)?.map { FieldError.fromJson(it) } ?: emptyList()
        val data = response["data"] as? Map<*, *>
        if (data == null) {
            throw RequestFailedException(FieldErrors(if (errors.isEmpty()) listOf(FieldError("response without data")) else errors))
        }
        val batch = Batch(operation.variablesWithDefaults())
        batch.writeObject(operation.rootTypename, operation.rootTypename, data, operation.selections, emptyList(), 0)
        val unattached = errors.filter { !batch.attach(it) }
        val changed = ArrayList<SlotId>()
        for ((id, slot) in batch.slots) {
            val record = records.getOrPut(id.record) { Record(batch.typenames[id.record]) }
            val typename = batch.typenames[id.record]
            if (typename != null) record.typename = typename
            if (record.slots[id.storageKey] != slot) {
                record.slots[id.storageKey] = slot
                changed.add(id)
            }
        }
        for ((key, typename) in batch.typenames) {
            records.getOrPut(key) { Record(typename) }
        }
        changed.sort()
        return CommitResult(changed, unattached)
    }

    /**
     * Reads [operation]'s data lens from the store.
     *
     * A `@required` null that bubbles to the root throws [RequiredFieldException]; under
     * `@throwOnFieldError` an uncaught field error throws [FieldErrorsException].
     */
    fun <D : Any> read(operation: Operation<D>, log: BatonLog = this.log): D {
        val context = ReadContext(this, operation.variablesWithDefaults(), log)
        val root = RecordReader(context, operation.rootTypename, emptyList(), operation.throwOnFieldError)
        if (operation.throwOnFieldError) {
            val errors = root.uncaughtErrors(operation.selections)
            if (errors.isNotEmpty()) throw FieldErrorsException(FieldErrors(errors))
        }
        val missing = root.missingRequired(operation.selections)
        if (missing != null) throw RequiredFieldException(missing)
        return operation.data(root)
    }

    /** The slots one response writes, before they are compared with the store. */
    private class Batch(val variables: Map<String, Any?>) {
        val slots = LinkedHashMap<SlotId, Slot>()
        val typenames = LinkedHashMap<String, String?>()
        private val slotsByPath = HashMap<List<PathComponent>, SlotId>()

        fun writeObject(
            key: String, staticType: String, data: Map<*, *>, selections: List<Selection>,
            path: List<PathComponent>, depth: Int
        ) {
            if (depth > Json.MAX_DEPTH) return
            val typename = data["__typename"] as? String ?: typenames[key] ?: staticType
            typenames[key] = typename
            writeSelections(key, typename, data, selections, path, depth)
        }

        private fun writeSelections(
            key: String, typename: String, data: Map<*, *>, selections: List<Selection>,
            path: List<PathComponent>, depth: Int
        ) {
            loop@ for (selection in selections) {
                when (selection) {
                    is Field<*> -> {
                        if (!data.containsKey(selection.responseKey)) continue@loop
                        val storageKey = selection.storageKey(variables)
                        val fieldPath = path + PathComponent.Key(selection.responseKey)
                        val value = storedValue(
                            data[selection.responseKey], selection, selection.decoder, "$key.$storageKey", fieldPath, depth + 1
                        )
                        val id = SlotId(key, storageKey)
                        slots[id] = Slot(value)
                        slotsByPath[fieldPath] = id
                    }
                    is InlineFragment<*> -> if (typeMatches(typename, selection.possibleTypes)) {
                        writeSelections(key, typename, data, selection.selections, path, depth + 1)
                    }
                    is FragmentSpread<*> -> if (typeMatches(typename, selection.possibleTypes)) {
                        writeSelections(key, typename, data, selection.selections, path, depth + 1)
                    }
                }
            }
        }

        private fun storedValue(
            value: Any?, field: Field<*>, decoder: Decoder<*>, derivedKey: String, path: List<PathComponent>,
            depth: Int
        ): StoredValue {
            if (depth > Json.MAX_DEPTH) return StoredValue.Null
            return when (value) {
                null -> StoredValue.Null
                is List<*> -> if (decoder is ListDecoder<*> || decoder is OptionalItemsDecoder<*>) {
                    val element = if (decoder is ListDecoder<*>) decoder.element else (decoder as OptionalItemsDecoder<*>).element
                    StoredValue.Items(value.mapIndexed { index, item ->
                        storedValue(
                            item, field, element, "$derivedKey.$index", path + PathComponent.Index(index), depth + 1
                        )
                    })
                } else {
                    StoredValue.JsonText(Json.write(value))
                }
                is Map<*, *> -> if (field.isComposite) {
                    val id = value["id"]
                    val typename = value["__typename"] as? String ?: field.typeName
                    val key = when (id) {
                        is String -> "$typename:$id"
                        is JsonNumber -> "$typename:${id.literal}"
                        else -> derivedKey
                    }
                    writeObject(key, field.typeName, value, field.selections, path, depth + 1)
                    StoredValue.Link(key)
                } else {
                    StoredValue.JsonText(Json.write(value))
                }
                is String -> StoredValue.Text(value)
                is JsonNumber -> StoredValue.Number(value.literal)
                is Boolean -> StoredValue.Bool(value)
                else -> StoredValue.Text(value.toString())
            }
        }

        /** Stores [error] beside the slot its path names, or the nearest slot above it; false when there is none. */
        fun attach(error: FieldError): Boolean {
            var path = error.path ?: return false
            while (path.isNotEmpty()) {
                val id = slotsByPath[path]
                if (id != null) {
                    val slot = slots[id] ?: return false
                    slots[id] = slot.copy(errors = slot.errors + error)
                    return true
                }
                path = path.subList(0, path.size - 1)
            }
            return false
        }
    }
}
