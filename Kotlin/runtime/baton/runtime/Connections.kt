package baton.runtime

/** A field's `@connection`: its key and the arguments that are its filters (sorted), as generated code declares it. */
class ConnectionSpec(val key: String, filters: List<String> = emptyList()) {
    val filters: List<String> = filters.sorted()
}

/**
 * A declarative update a mutation's (or subscription's) response field carries, applied to the store inside the
 * response's batch. [connections] is the `connections:` argument (usually a [Variable]).
 */
class RecordUpdate(
    val kind: Kind,
    val connections: Any? = null,
    val edgeTypename: String? = null,
    val typename: String? = null
) {
    enum class Kind { APPEND_EDGE, PREPEND_EDGE, APPEND_NODE, PREPEND_NODE, DELETE_RECORD, DELETE_EDGE }
}

/** A `@connection` page or a declarative update the normalizer noted: the field and the slot it was written to. */
internal class ConnectionWrite(val field: Field<*>, val parent: String, val storageKey: String)

/**
 * Applies a write's connection pages and declarative updates to a table of records, as the Swift runtime's
 * `ConnectionWrites` does (the same rules, the same keys and slots): pages merge into `parent.__connection:KEY`,
 * after the end cursor appended, before the start cursor prepended, from the start replacing, without an edge whose
 * node or cursor is shown; updates copy, make, remove edges and delete records.
 */
internal class ConnectionTable(val records: HashMap<String, Record>, private val now: Double) {
    val changed = HashSet<SlotId>()

    /** Every record key written or removed (what a persistence layer rewrites), in order. */
    val touched = LinkedHashSet<String>()

    private fun slot(key: String, storageKey: String): Slot? = records[key]?.slots?.get(storageKey)

    private fun link(key: String, storageKey: String): String? = (slot(key, storageKey)?.value as? StoredValue.Link)?.key

    private fun text(key: String, storageKey: String): String? = (slot(key, storageKey)?.value as? StoredValue.Text)?.text

    private fun edges(key: String): List<StoredValue>? = (slot(key, EDGES)?.value as? StoredValue.Items)?.items

    private fun nodeOf(edge: StoredValue): String? = (edge as? StoredValue.Link)?.let { link(it.key, NODE) }

    private fun cursorOf(edge: StoredValue): String? = (edge as? StoredValue.Link)?.let { text(it.key, CURSOR) }

    /** Sets one slot, making the record when it is new; a change is noted. */
    fun set(slot: Slot, storageKey: String, key: String, typename: String?) {
        val old = records[key]
        val slots = HashMap(old?.slots ?: emptyMap())
        val previous = slots.put(storageKey, slot)
        records[key] = Record(old?.typename ?: typename, slots, now, old?.invalidated ?: false, old?.isDeleted ?: false)
        touched.add(key)
        if (previous != slot) changed.add(SlotId(key, storageKey))
    }

    fun apply(writes: List<ConnectionWrite>, variables: Map<String, Any?>, connections: MutableSet<String>) {
        for (write in writes) {
            if (write.field.connection != null) mergePage(write, variables, connections)
            val update = write.field.update
            if (update != null) apply(update, write, variables, connections)
        }
    }

    private fun mergePage(write: ConnectionWrite, variables: Map<String, Any?>, connections: MutableSet<String>) {
        val pageSlot = slot(write.parent, write.storageKey) ?: return
        val connectionSlot = write.field.readKey(variables)
        val id = write.parent + "." + connectionSlot
        val after = argument(write.field, "after", variables) as? String
        val before = argument(write.field, "before", variables) as? String
        val paging = after != null || before != null
        val pageKey = (pageSlot.value as? StoredValue.Link)?.key
        val page = pageKey?.let { records[it] }
        if (page == null) {
            if (!paging) set(pageSlot, connectionSlot, write.parent, records[write.parent]?.typename)
            return
        }
        if (records[id]?.isDeleted == true && records.remove(id) != null) touched.add(id)
        val existing = records[id]
        if (existing == null) connections.add(id)
        for ((storageKey, value) in page.slots) {
            if (storageKey != EDGES && storageKey != PAGE_INFO) set(value, storageKey, id, page.typename)
        }
        val serverEdges = page.slots[EDGES]
        val serverPageInfo = page.slots[PAGE_INFO]
        val pageInfoKey = "$id.$PAGE_INFO"
        val previous = if (existing != null) slot(id, EDGES) else null
        var pageInfoFields: List<String>? = null
        val merged: Slot? = when {
            existing == null || previous == null || !paging -> serverEdges ?: previous
            after != null -> {
                if (after != text(pageInfoKey, "endCursor")) return
                pageInfoFields = listOf("hasNextPage", "endCursor")
                merged(previous, serverEdges, serverFirst = false)
            }
            else -> {
                if (before != text(pageInfoKey, "startCursor")) return
                pageInfoFields = listOf("hasPreviousPage", "startCursor")
                merged(previous, serverEdges, serverFirst = true)
            }
        }
        if (merged != null) set(merged, EDGES, id, page.typename)
        val serverInfo = (serverPageInfo?.value as? StoredValue.Link)?.let { records[it.key] }
        if (serverInfo != null) {
            if (records[pageInfoKey] == null || existing == null) {
                for (name in listOf("hasNextPage", "hasPreviousPage")) {
                    set(Slot(StoredValue.Bool(false)), name, pageInfoKey, serverInfo.typename)
                }
                for (name in listOf("startCursor", "endCursor")) set(Slot(StoredValue.Null), name, pageInfoKey, serverInfo.typename)
            }
            for ((name, value) in serverInfo.slots) {
                val fields = pageInfoFields
                if (fields != null && name !in fields) continue
                if (fields != null && name.endsWith("Cursor") && value.value is StoredValue.Null) continue
                set(value, name, pageInfoKey, serverInfo.typename)
            }
            set(Slot(StoredValue.Link(pageInfoKey), serverPageInfo.errors), PAGE_INFO, id, page.typename)
        } else if (serverPageInfo != null && (existing == null || !paging)) {
            set(serverPageInfo, PAGE_INFO, id, page.typename)
        }
        set(Slot(StoredValue.Link(id), pageSlot.errors), connectionSlot, write.parent, records[write.parent]?.typename)
    }

    private fun merged(previous: Slot?, page: Slot?, serverFirst: Boolean): Slot? {
        if (page == null) return previous
        val old = (previous?.value as? StoredValue.Items)?.items ?: emptyList()
        val new = (page.value as? StoredValue.Items)?.items ?: emptyList()
        val nodes = HashSet<String>()
        val cursors = HashSet<String>()
        val result = ArrayList<StoredValue>(old.size + new.size)
        for (edge in if (serverFirst) new + old else old + new) {
            if (edge !is StoredValue.Link) continue
            val node = nodeOf(edge)
            if (node != null && !nodes.add(node)) continue
            val cursor = cursorOf(edge)
            if (cursor != null && !cursors.add(cursor)) continue
            result.add(edge)
        }
        return Slot(StoredValue.Items(result), (previous?.errors ?: emptyList()) + page.errors)
    }

    private fun apply(update: RecordUpdate, write: ConnectionWrite, variables: Map<String, Any?>, connections: Set<String>) {
        val value = slot(write.parent, write.storageKey)?.value ?: return
        val targets: List<String> = when (val resolved = resolve(update.connections, variables)) {
            is List<*> -> resolved.filterIsInstance<String>()
            is String -> listOf(resolved)
            else -> emptyList()
        }
        when (update.kind) {
            RecordUpdate.Kind.APPEND_EDGE, RecordUpdate.Kind.PREPEND_EDGE ->
                for (edge in links(value)) for (target in targets) {
                    insertCopy(edge, target, update.kind == RecordUpdate.Kind.APPEND_EDGE)
                }
            RecordUpdate.Kind.APPEND_NODE, RecordUpdate.Kind.PREPEND_NODE ->
                for (node in links(value)) for (target in targets) {
                    insertNode(node, update.edgeTypename, target, update.kind == RecordUpdate.Kind.APPEND_NODE)
                }
            RecordUpdate.Kind.DELETE_EDGE -> {
                val ids = strings(value).toSet()
                for (target in targets) removeEdges(target) { node -> identifier(node) in ids }
            }
            RecordUpdate.Kind.DELETE_RECORD -> {
                val ids = strings(value).toSet()
                if (ids.isEmpty()) return
                val keys = recordKeys(ids, update.typename)
                for (key in keys) delete(key)
                for (target in connections) removeEdges(target) { it in keys }
            }
        }
    }

    private fun links(value: StoredValue): List<String> = when (value) {
        is StoredValue.Link -> listOf(value.key)
        is StoredValue.Items -> value.items.flatMap { links(it) }
        else -> emptyList()
    }

    private fun strings(value: StoredValue): List<String> = when (value) {
        is StoredValue.Text -> listOf(value.text)
        is StoredValue.Number -> listOf(value.literal)
        is StoredValue.Items -> value.items.flatMap { strings(it) }
        else -> emptyList()
    }

    private fun identifier(key: String): String? = text(key, "id") ?: keyIdentifier(key)

    private fun recordKeys(ids: Set<String>, typename: String?): Set<String> =
        if (typename != null) ids.map { "$typename:$it" }.filter { records.containsKey(it) }.toSet()
        else records.keys.filter { key -> keyIdentifier(key)?.let { it in ids } ?: false }.toSet()

    private fun connection(id: String): Record? {
        val record = records[id] ?: return null
        return if (record.isDeleted || !record.slots.containsKey(EDGES)) null else record
    }

    private fun newEdgeKey(id: String): String {
        var index = (slot(id, NEXT_EDGE)?.value as? StoredValue.Number)?.literal?.toIntOrNull() ?: 0
        while (records.containsKey("$id.edges.$index")) index++
        set(Slot(StoredValue.Number((index + 1).toString())), NEXT_EDGE, id, null)
        return "$id.edges.$index"
    }

    private fun insertCopy(edge: String, id: String, atEnd: Boolean) {
        if (connection(id) == null) return
        val source = records[edge] ?: return
        val node = link(edge, NODE)
        if (node != null && (edges(id) ?: emptyList()).any { nodeOf(it) == node }) return
        val key = newEdgeKey(id)
        for ((name, value) in source.slots) set(value, name, key, source.typename)
        insert(StoredValue.Link(key), id, atEnd)
    }

    private fun insertNode(node: String, typename: String?, id: String, atEnd: Boolean) {
        if (connection(id) == null) return
        if ((edges(id) ?: emptyList()).any { nodeOf(it) == node }) return
        val key = newEdgeKey(id)
        set(Slot(StoredValue.Link(node)), NODE, key, typename)
        set(Slot(StoredValue.Null), CURSOR, key, typename)
        insert(StoredValue.Link(key), id, atEnd)
    }

    private fun insert(edge: StoredValue, id: String, atEnd: Boolean) {
        val old = slot(id, EDGES)
        val items = ArrayList(edges(id) ?: emptyList())
        if (atEnd) items.add(edge) else items.add(0, edge)
        set(Slot(StoredValue.Items(items), old?.errors ?: emptyList()), EDGES, id, null)
    }

    private fun removeEdges(id: String, matches: (String) -> Boolean) {
        if (connection(id) == null) return
        val items = edges(id) ?: return
        val kept = items.filter { edge -> nodeOf(edge)?.let { !matches(it) } ?: true }
        if (kept.size == items.size) return
        set(Slot(StoredValue.Items(kept), slot(id, EDGES)?.errors ?: emptyList()), EDGES, id, null)
    }

    /** Empties a record and marks it deleted; every slot it had changed. */
    private fun delete(key: String) {
        val record = records[key] ?: return
        if (record.isDeleted) return
        for (storageKey in record.slots.keys) changed.add(SlotId(key, storageKey))
        records[key] = Record(record.typename, emptyMap(), now, record.invalidated, true)
        touched.add(key)
    }

    companion object {
        const val EDGES = "edges"
        const val NODE = "node"
        const val CURSOR = "cursor"
        const val PAGE_INFO = "pageInfo"
        const val NEXT_EDGE = "__nextEdge"

        /** The ID of a key of the form `Type:ID`. */
        fun keyIdentifier(key: String): String? {
            val colon = key.indexOf(':')
            if (colon < 0 || key.substring(0, colon).contains('.')) return null
            return key.substring(colon + 1)
        }

        private fun argument(field: Field<*>, name: String, variables: Map<String, Any?>): Any? =
            if (!field.arguments.containsKey(name)) null else resolve(field.arguments[name], variables)

        fun resolve(value: Any?, variables: Map<String, Any?>): Any? = when (value) {
            is Variable -> variables[value.name]
            is List<*> -> value.map { resolve(it, variables) }
            else -> value
        }
    }
}
