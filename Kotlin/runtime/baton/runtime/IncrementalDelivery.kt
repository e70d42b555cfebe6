package baton.runtime

/**
 * Why an incremental (multipart) answer cannot be read or merged, with the Swift runtime's texts (`MultipartError`,
 * `IncrementalError`), so both runtimes log the same lines. Each refuses the whole payload: nothing of it is merged.
 */
class IncrementalException(message: String, val isPartTooLarge: Boolean = false) : RuntimeException(message) {
    companion object {
        fun partTooLarge(limit: Int) = IncrementalException("a part of the multipart response is larger than $limit bytes", true)
        val truncated: IncrementalException get() = IncrementalException("the multipart response ended before its closing boundary")
        val notAnObject: IncrementalException get() = IncrementalException("a payload of the incremental response is not a JSON object")
        fun unknownId(id: String) = IncrementalException("an incremental payload names the id \"$id\", which no pending entry announced")
        fun pathOutsideFragment(path: String) = IncrementalException("an incremental payload writes at $path, outside the data it extends")
        val endedWithMoreToCome: IncrementalException get() = IncrementalException("the incremental response ended while it said more payloads were coming")
        val payloadAfterEnd: IncrementalException get() = IncrementalException("the incremental response sent a payload after saying it was complete")
    }
}

/**
 * An incremental reader of a `multipart/mixed` body, the Swift runtime's `MultipartReader` step for step: fed the
 * bytes as they arrive, in reads of any size, it gives each part's body once the next boundary has arrived; a part
 * growing past [partLimit] bytes is refused at once; [finish] says whether the closing boundary came.
 */
class MultipartReader(boundary: String, private val partLimit: Int = DEFAULT_PART_LIMIT) {
    private val delimiter: ByteArray = ("--$boundary").toByteArray(Charsets.UTF_8)
    private var buffer = ByteArray(0)
    private var partStart = -1
    private var searched = 0

    /** True once the closing boundary has been read. */
    var isClosed: Boolean = false
        private set

    /** Reads the next [length] bytes of the body from [bytes]; returns the bodies of the parts they complete. */
    fun feed(bytes: ByteArray, offset: Int = 0, length: Int = bytes.size - offset): List<ByteArray> {
        if (isClosed) return emptyList()
        buffer = buffer.copyOf(buffer.size + length).also { System.arraycopy(bytes, offset, it, buffer.size, length) }
        val parts = ArrayList<ByteArray>()
        while (!isClosed) {
            val found = nextDelimiter() ?: break
            if (partStart >= 0) {
                var end = found
                if (end > partStart && buffer[end - 1] == LF) end--
                if (end > partStart && buffer[end - 1] == CR) end--
                if (end - partStart > partLimit) throw IncrementalException.partTooLarge(partLimit)
                body(buffer.copyOfRange(partStart, maxOf(partStart, end)))?.let { parts.add(it) }
            }
            val after = found + delimiter.size
            if (after + 2 > buffer.size) {
                dropConsumed(found, false)
                break
            }
            if (buffer[after] == DASH && buffer[after + 1] == DASH) {
                isClosed = true
                buffer = ByteArray(0)
                partStart = -1
                searched = 0
                break
            }
            var lineEnd = -1
            for (index in after until buffer.size) if (buffer[index] == LF) { lineEnd = index; break }
            if (lineEnd < 0) {
                dropConsumed(found, false)
                break
            }
            dropConsumed(lineEnd + 1, true)
        }
        if (partStart >= 0 && buffer.size - partStart > partLimit + delimiter.size + 2) {
            throw IncrementalException.partTooLarge(partLimit)
        }
        return parts
    }

    /** The body has ended: throws unless the closing boundary came. */
    fun finish() {
        if (!isClosed) throw IncrementalException.truncated
    }

    private fun nextDelimiter(): Int? {
        val count = delimiter.size
        var index = maxOf(searched, maxOf(partStart, 0))
        while (index + count <= buffer.size) {
            if (buffer[index] == delimiter[0] && (index == 0 || buffer[index - 1] == LF) && matches(index)) {
                return index
            }
            index++
        }
        searched = maxOf(maxOf(partStart, 0), buffer.size - count + 1, 0)
        return null
    }

    private fun matches(at: Int): Boolean {
        for (offset in delimiter.indices) if (buffer[at + offset] != delimiter[offset]) return false
        return true
    }

    private fun dropConsumed(upTo: Int, partStarted: Boolean) {
        buffer = buffer.copyOfRange(upTo, buffer.size)
        partStart = if (partStarted) 0 else -1
        searched = 0
    }

    companion object {
        /** The largest part read by default: 16 MiB. */
        const val DEFAULT_PART_LIMIT: Int = 16 shl 20

        // ASCII bytes (`Char.toByte()` is deprecated in current Kotlin, `Char.code` is not in 1.3).
        private const val LF: Byte = 10
        private const val CR: Byte = 13
        private const val TAB: Byte = 9
        private const val SPACE: Byte = 32
        private const val DASH: Byte = 45
        private const val OPEN_BRACKET: Byte = 91
        private const val OPEN_BRACE: Byte = 123

        /** The boundary of a `multipart/mixed` Content-Type, or null when it is another type or names none. */
        fun boundary(contentType: String): String? {
            val parameters = contentType.split(";").map { it.trim() }
            if (parameters.firstOrNull()?.let { asciiLowercase(it) } != "multipart/mixed") return null
            for (parameter in parameters.drop(1)) {
                val pair = parameter.split("=", limit = 2)
                if (pair.size != 2 || asciiLowercase(pair[0].trim()) != "boundary") continue
                var value = pair[1].trim()
                if (value.length >= 2 && value.startsWith("\"") && value.endsWith("\"")) value = value.substring(1, value.length - 1)
                return if (value.isEmpty()) null else value
            }
            return null
        }

        private fun isSpace(byte: Byte): Boolean =
            byte == SPACE || byte == CR || byte == LF || byte == TAB

        /** A part's body: what follows its headers' blank line (all of it without headers), trimmed; null when empty. */
        private fun body(part: ByteArray): ByteArray? {
            var start = 0
            val first = part.indexOfFirst { !isSpace(it) }
            if (first >= 0 && part[first] != OPEN_BRACE && part[first] != OPEN_BRACKET) {
                var lineStart = 0
                var found = -1
                for (index in part.indices) {
                    if (part[index] != LF) continue
                    val lineLength = index - lineStart
                    if (lineLength == 0 || (lineLength == 1 && part[lineStart] == CR)) {
                        found = index + 1
                        break
                    }
                    lineStart = index + 1
                }
                if (found < 0) return null
                start = found
            }
            var end = part.size
            while (start < end && isSpace(part[start])) start++
            while (end > start && isSpace(part[end - 1])) end--
            return if (start == end) null else part.copyOfRange(start, end)
        }
    }
}

/** A deferred fragment or a stream the server completed with errors: where, its label, the errors. */
class IncrementalFailure(val path: List<Any>, val label: String?, val errors: List<FieldError>)

/**
 * The response an incremental delivery has built so far, after one more payload (the Swift runtime's
 * `IncrementalStep`): [response] is what the store commits as that payload's batch.
 */
class IncrementalStep(
    val response: Map<String, Any?>,
    val hasNext: Boolean,
    val failures: List<IncrementalFailure>,
    val streaming: List<List<Any>>,
    val summary: String
)

/**
 * Merges the payloads of an incremental delivery into one response, the Swift runtime's `IncrementalMerger` step for
 * step, in both formats: the current draft's `pending`/`incremental`/`completed` and Apollo Router's 2022 format.
 */
class IncrementalMerger {
    private class Pending(val id: String, val path: List<Any>, val label: String?)

    private var data: Any? = null
    private val errors = ArrayList<Any?>()
    private val pending = ArrayList<Pending>()
    private var payloads = 0

    /** More payloads are coming, as the last one said. */
    var hasNext: Boolean = false
        private set

    /** Merges the next payload; a payload refused half-way changes nothing. */
    fun apply(payload: Any?): IncrementalStep {
        val objectValue = payload as? Map<*, *> ?: throw IncrementalException.notAnObject
        if (payloads > 0 && !hasNext) throw IncrementalException.payloadAfterEnd
        val saved = Snapshot(copy(data), ArrayList(errors), ArrayList(pending), payloads, hasNext)
        try {
            return merge(objectValue)
        } catch (error: IncrementalException) {
            data = saved.data
            errors.clear(); errors.addAll(saved.errors)
            pending.clear(); pending.addAll(saved.pending)
            payloads = saved.payloads
            hasNext = saved.hasNext
            throw error
        }
    }

    private class Snapshot(val data: Any?, val errors: List<Any?>, val pending: List<Pending>, val payloads: Int, val hasNext: Boolean)

    /** The body has ended: throws when the last payload said more were coming. */
    fun finish() {
        if (payloads == 0 || hasNext) throw IncrementalException.endedWithMoreToCome
    }

    private fun merge(payload: Map<*, *>): IncrementalStep {
        payloads++
        val filled = ArrayList<String>()
        val failures = ArrayList<IncrementalFailure>()
        val completed = ArrayList<String>()
        if (payloads == 1) {
            data = copy(payload["data"])
            (payload["errors"] as? List<*>)?.let { errors.addAll(it) }
            filled.add("data")
        }
        (payload["pending"] as? List<*>)?.forEach { entry ->
            val map = entry as? Map<*, *> ?: return@forEach
            val id = map["id"] as? String ?: return@forEach
            val path = path(map["path"]) ?: return@forEach
            pending.add(Pending(id, path, map["label"] as? String))
        }
        (payload["incremental"] as? List<*>)?.forEach { increment(it, filled, failures) }
        (payload["completed"] as? List<*>)?.forEach { entry ->
            val map = entry as? Map<*, *> ?: return@forEach
            val id = map["id"] as? String ?: return@forEach
            val index = pending.indexOfFirst { it.id == id }
            if (index < 0) throw IncrementalException.unknownId(id)
            val done = pending.removeAt(index)
            completed.add(name(done.path, done.label))
            val list = map["errors"] as? List<*>
            if (list != null && list.isNotEmpty()) {
                errors.addAll(list)
                failures.add(IncrementalFailure(done.path, done.label, list.map { FieldError.fromJson(it) }))
            }
        }
        val more = payload["hasNext"]
        if (more is Boolean) hasNext = more else if (payloads == 1) hasNext = pending.isNotEmpty()
        val streaming = pending.filter { value(data, it.path) is List<*> }.map { it.path }
        val summary = StringBuilder("payload $payloads:")
        if (filled.isNotEmpty()) summary.append(" filled ").append(filled.joinToString(", ")).append(";")
        if (completed.isNotEmpty()) summary.append(" completed ").append(completed.joinToString(", ")).append(";")
        if (failures.isNotEmpty()) summary.append(" failed ").append(failures.joinToString(", ") { name(it.path, it.label) }).append(";")
        summary.append(" pending ${pending.size}; ").append(if (hasNext) "more coming" else "complete")
        val response = LinkedHashMap<String, Any?>()
        response["data"] = copy(data)
        if (errors.isNotEmpty()) response["errors"] = ArrayList(errors)
        return IncrementalStep(response, hasNext, failures, streaming, summary.toString())
    }

    @Suppress("UNCHECKED_CAST")
    private fun increment(increment: Any?, filled: MutableList<String>, failures: MutableList<IncrementalFailure>) {
        val map = increment as? Map<*, *> ?: throw IncrementalException.pathOutsideFragment("an increment without an id or a path")
        val id = map["id"] as? String
        var target: List<Any>
        val label: String?
        if (id != null) {
            val entry = pending.firstOrNull { it.id == id } ?: throw IncrementalException.unknownId(id)
            target = entry.path + (path(map["subPath"]) ?: emptyList())
            label = entry.label
        } else {
            target = path(map["path"]) ?: throw IncrementalException.pathOutsideFragment("an increment without an id or a path")
            label = map["label"] as? String
            if (map["items"] != null && target.lastOrNull() is Int) target = target.dropLast(1)
        }
        val incrementErrors = map["errors"] as? List<*> ?: emptyList<Any?>()
        errors.addAll(incrementErrors)
        val items = map["items"] as? List<*>
        val newData = map["data"] as? Map<*, *>
        when {
            items != null -> {
                val list = value(data, target) as? MutableList<Any?> ?: throw IncrementalException.pathOutsideFragment(text(target))
                list.addAll(items.map { copy(it) })
                filled.add(text(target) + " +${items.size}")
            }
            newData != null -> {
                val objectValue = value(data, target) as? MutableMap<String, Any?> ?: throw IncrementalException.pathOutsideFragment(text(target))
                deepMerge(objectValue, newData)
                filled.add(name(target, label))
            }
            incrementErrors.isNotEmpty() -> failures.add(IncrementalFailure(target, label, incrementErrors.map { FieldError.fromJson(it) }))
        }
    }

    companion object {
        /** A deep, mutable copy of a parsed JSON value (objects keep their order). */
        private fun copy(value: Any?): Any? = when (value) {
            is Map<*, *> -> LinkedHashMap<String, Any?>().also { copied -> for ((key, item) in value) copied[key as String] = copy(item) }
            is List<*> -> ArrayList<Any?>(value.map { copy(it) })
            else -> value
        }

        private fun deepMerge(target: MutableMap<String, Any?>, incoming: Map<*, *>) {
            for ((key, value) in incoming) {
                val name = key as? String ?: continue
                val existing = target[name]
                @Suppress("UNCHECKED_CAST")
                if (existing is MutableMap<*, *> && value is Map<*, *>) deepMerge(existing as MutableMap<String, Any?>, value)
                else target[name] = copy(value)
            }
        }

        /** The value at [path] inside [value], or null. */
        private fun value(value: Any?, path: List<Any>): Any? {
            var current = value
            for (step in path) {
                current = when {
                    step is String && current is Map<*, *> -> current[step]
                    step is Int && current is List<*> && step in current.indices -> current[step]
                    else -> return null
                }
            }
            return current
        }

        /** A response path as JSON writes it; null when it is not one. */
        private fun path(value: Any?): List<Any>? {
            val steps = value as? List<*> ?: return null
            return steps.map { step ->
                when (step) {
                    is String -> step
                    is JsonNumber -> step.literal.toIntOrNull()?.takeIf { it >= 0 } ?: return null
                    is Number -> step.toInt()
                    else -> return null
                }
            }
        }

        private fun text(path: List<Any>): String = if (path.isEmpty()) "the root" else path.joinToString(".")

        private fun name(path: List<Any>, label: String?): String = text(path) + (if (label != null) " ($label)" else "")
    }
}
