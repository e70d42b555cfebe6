package baton.runtime

/**
 * A JSON number exactly as it was written, so nothing is rounded: `12`, `-0.5`, `1e400`.
 */
data class JsonNumber(val literal: String) {
    override fun toString(): String = literal
}

/** A JSON text that does not parse. */
class JsonException(message: String) : RuntimeException(message)

/**
 * A small JSON reader and writer on the Kotlin standard library.
 *
 * Values are `null`, `Boolean`, `String`, [JsonNumber], `List<Any?>` and `Map<String, Any?>` (insertion order
 * kept). The writer also accepts `Int`, `Long`, `Double`, [InputObject], [EnumValue] and [Optional.Present].
 */
object Json {
    /** The deepest nesting [parse] accepts; deeper texts fail instead of overflowing the stack. */
    const val MAX_DEPTH: Int = 512

    /** Parses [text] as one JSON value; throws [JsonException] with the offset of the first problem. */
    fun parse(text: String): Any? {
        val reader = Reader(text)
        reader.skipWhitespace()
        val value = reader.value(0)
        reader.skipWhitespace()
        if (reader.offset != text.length) throw reader.failure("unexpected text after the value")
        return value
    }

    /** [value] as compact JSON text; map keys keep their order unless [sortKeys]. */
    fun write(value: Any?, sortKeys: Boolean = false): String {
        val out = StringBuilder()
        write(value, out, sortKeys, 0)
        return out.toString()
    }

    private fun write(value: Any?, out: StringBuilder, sortKeys: Boolean, depth: Int) {
        if (depth > MAX_DEPTH) throw JsonException("value nested deeper than $MAX_DEPTH levels")
        when (value) {
            null -> out.append("null")
            is Boolean -> out.append(if (value) "true" else "false")
            is String -> quote(value, out)
            is JsonNumber -> out.append(value.literal)
            is RawJson -> out.append(value.text)
            is Int, is Long, is Short, is Byte -> out.append(value.toString())
            is Double -> out.append(if (value.isNaN() || value.isInfinite()) "null" else value.toString())
            is Float -> out.append(if (value.isNaN() || value.isInfinite()) "null" else value.toString())
            is EnumValue -> quote(value.rawValue, out)
            is InputObject -> write(value.toJson(), out, sortKeys, depth + 1)
            is Optional.Present<*> -> write(value.value, out, sortKeys, depth + 1)
            is Optional.Null -> out.append("null")
            is Map<*, *> -> {
                out.append('{')
                val entries = value.entries.filter { it.value !is Optional.Absent }
                val ordered = if (sortKeys) entries.sortedBy { it.key.toString() } else entries
                var first = true
                for (entry in ordered) {
                    if (!first) out.append(',')
                    first = false
                    quote(entry.key.toString(), out)
                    out.append(':')
                    write(entry.value, out, sortKeys, depth + 1)
                }
                out.append('}')
            }
            is Iterable<*> -> {
                out.append('[')
                var first = true
                for (item in value) {
                    if (!first) out.append(',')
                    first = false
                    write(item, out, sortKeys, depth + 1)
                }
                out.append(']')
            }
            else -> quote(value.toString(), out)
        }
    }

    /** Writes [text] as a JSON string literal. */
    fun quote(text: String, out: StringBuilder) {
        out.append('"')
        for (index in text.indices) {
            val char = text[index]
            when {
                char == '"' -> out.append("\\\"")
                char == '\\' -> out.append("\\\\")
                char == '\n' -> out.append("\\n")
                char == '\r' -> out.append("\\r")
                char == '\t' -> out.append("\\t")
                char < ' ' -> {
                    val hex = Integer.toHexString(text.codePointAt(index))
                    out.append("\\u").append("0000".substring(hex.length)).append(hex)
                }
                else -> out.append(char)
            }
        }
        out.append('"')
    }

    private class Reader(source: String) {
        /** The text as characters: indexing an array is what the JVM does fastest. */
        val text: CharArray = source.toCharArray()
        var offset = 0

        fun failure(message: String): JsonException = JsonException("JSON: $message at offset $offset")

        fun skipWhitespace() {
            while (offset < text.size) {
                val char = text[offset]
                if (char == ' ' || char == '\n' || char == '\r' || char == '\t') offset++ else return
            }
        }

        private fun matches(word: String): Boolean {
            if (offset + word.length > text.size) return false
            for (index in word.indices) if (text[offset + index] != word[index]) return false
            return true
        }

        fun value(depth: Int): Any? {
            if (depth > MAX_DEPTH) throw failure("value nested deeper than $MAX_DEPTH levels")
            if (offset >= text.size) throw failure("unexpected end of text")
            val char = text[offset]
            return when {
                char == '{' -> objectValue(depth)
                char == '[' -> arrayValue(depth)
                char == '"' -> string()
                char == '-' || (char in '0'..'9') -> number()
                matches("true") -> { offset += 4; true }
                matches("false") -> { offset += 5; false }
                matches("null") -> { offset += 4; null }
                else -> throw failure("unexpected character '$char'")
            }
        }

        private fun objectValue(depth: Int): Map<String, Any?> {
            offset++
            val result = JsonObject()
            skipWhitespace()
            if (offset < text.size && text[offset] == '}') { offset++; return result }
            while (true) {
                skipWhitespace()
                if (offset >= text.size || text[offset] != '"') throw failure("expected a member name")
                val key = string()
                skipWhitespace()
                if (offset >= text.size || text[offset] != ':') throw failure("expected ':'")
                offset++
                skipWhitespace()
                result.put(key, value(depth + 1))
                skipWhitespace()
                if (offset >= text.size) throw failure("unexpected end of text in an object")
                when (text[offset]) {
                    ',' -> offset++
                    '}' -> { offset++; return result }
                    else -> throw failure("expected ',' or '}'")
                }
            }
        }

        private fun arrayValue(depth: Int): List<Any?> {
            offset++
            val result = ArrayList<Any?>()
            skipWhitespace()
            if (offset < text.size && text[offset] == ']') { offset++; return result }
            while (true) {
                skipWhitespace()
                result.add(value(depth + 1))
                skipWhitespace()
                if (offset >= text.size) throw failure("unexpected end of text in an array")
                when (text[offset]) {
                    ',' -> offset++
                    ']' -> { offset++; return result }
                    else -> throw failure("expected ',' or ']'")
                }
            }
        }

        private fun string(): String {
            offset++
            // Most strings have no escape: take them whole.
            val start = offset
            while (offset < text.size) {
                val char = text[offset]
                if (char == '"') {
                    offset++
                    return String(text, start, offset - 1 - start)
                }
                if (char == '\\' || char < ' ') break
                offset++
            }
            val out = StringBuilder().append(text, start, offset - start)
            while (true) {
                if (offset >= text.size) throw failure("unterminated string")
                val char = text[offset]
                when {
                    char == '"' -> { offset++; return out.toString() }
                    char == '\\' -> {
                        if (offset + 1 >= text.size) throw failure("unterminated escape")
                        val escaped = text[offset + 1]
                        offset += 2
                        when (escaped) {
                            '"' -> out.append('"')
                            '\\' -> out.append('\\')
                            '/' -> out.append('/')
                            'b' -> out.append('\b')
                            'f' -> out.append('\u000C')
                            'n' -> out.append('\n')
                            'r' -> out.append('\r')
                            't' -> out.append('\t')
                            'u' -> {
                                if (offset + 4 > text.size) throw failure("short \\u escape")
                                val code = String(text, offset, 4).toIntOrNull(16)
                                    ?: throw failure("bad \\u escape")
                                out.append(code.toChar())
                                offset += 4
                            }
                            else -> throw failure("bad escape '\\$escaped'")
                        }
                    }
                    char < ' ' -> throw failure("control character in a string")
                    else -> { out.append(char); offset++ }
                }
            }
        }

        private fun number(): JsonNumber {
            val start = offset
            if (text[offset] == '-') offset++
            val digitsStart = offset
            while (offset < text.size && text[offset] in '0'..'9') offset++
            if (offset == digitsStart) throw failure("expected a digit")
            if (offset < text.size && text[offset] == '.') {
                offset++
                val fractionStart = offset
                while (offset < text.size && text[offset] in '0'..'9') offset++
                if (offset == fractionStart) throw failure("expected a digit after '.'")
            }
            if (offset < text.size && (text[offset] == 'e' || text[offset] == 'E')) {
                offset++
                if (offset < text.size && (text[offset] == '+' || text[offset] == '-')) offset++
                val exponentStart = offset
                while (offset < text.size && text[offset] in '0'..'9') offset++
                if (offset == exponentStart) throw failure("expected a digit in the exponent")
            }
            return JsonNumber(String(text, start, offset - start))
        }
    }
}

/**
 * A parsed JSON object: its members in order, a repeated name keeping its last value. Response objects are small,
 * so up to 16 members live in two arrays and are found by a scan; a larger object moves into a `LinkedHashMap`.
 */
internal class JsonObject : AbstractMap<String, Any?>() {
    private var names = arrayOfNulls<String>(8)
    private var contents = arrayOfNulls<Any?>(8)
    private var count = 0
    private var large: LinkedHashMap<String, Any?>? = null

    fun put(name: String, value: Any?) {
        val map = large
        if (map != null) {
            map[name] = value
            return
        }
        for (index in 0 until count) {
            if (names[index] == name) {
                contents[index] = value
                return
            }
        }
        if (count == 16) {
            val moved = LinkedHashMap<String, Any?>(64)
            for (index in 0 until count) moved[names[index] as String] = contents[index]
            moved[name] = value
            large = moved
            return
        }
        if (count == names.size) {
            names = names.copyOf(count * 2)
            contents = contents.copyOf(count * 2)
        }
        names[count] = name
        contents[count] = value
        count++
    }

    override val size: Int get() = large?.size ?: count

    override fun containsKey(key: String): Boolean {
        val map = large
        if (map != null) return map.containsKey(key)
        for (index in 0 until count) if (names[index] == key) return true
        return false
    }

    override fun get(key: String): Any? {
        val map = large
        if (map != null) return map[key]
        for (index in 0 until count) if (names[index] == key) return contents[index]
        return null
    }

    override val entries: Set<Map.Entry<String, Any?>>
        get() {
            val map = large
            if (map != null) return map.entries
            val entries = LinkedHashSet<Map.Entry<String, Any?>>(count * 2)
            for (index in 0 until count) entries.add(Member(names[index] as String, contents[index]))
            return entries
        }

    private class Member(override val key: String, override val value: Any?) : Map.Entry<String, Any?> {
        override fun equals(other: Any?): Boolean = other is Map.Entry<*, *> && other.key == key && other.value == value
        override fun hashCode(): Int = key.hashCode() xor (value?.hashCode() ?: 0)
    }
}
