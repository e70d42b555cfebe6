// The Kotlin runtime support, as the text `baton gen --lang kotlin` writes into the output folder.
// Kept as Swift string literals so it ships inside the `baton` executable (no resource bundle to lose).
// Edit the Kotlin here; KotlinRuntimeTests compiles it with kotlinc.

extension KotlinRuntime {
    /// The runtime's source files, by file name, in the order they are written.
    package static let sources: [(name: String, text: String)] = [
        ("FieldError.kt", fieldError),
        ("Json.kt", json),
        ("Read.kt", read),
        ("Selections.kt", selections),
        ("Store.kt", store),
        ("Values.kt", values),
    ]

    /// `FieldError.kt`.
    static let fieldError = #"""
        package baton.runtime

        /** One step of a response path: a response key or a list index. */
        sealed class PathComponent {
            /** A response key (a field's alias or name). */
            data class Key(val name: String) : PathComponent() {
                override fun toString(): String = name
            }

            /** A position in a list. */
            data class Index(val index: Int) : PathComponent() {
                override fun toString(): String = index.toString()
            }
        }

        /** A path as dotted text: `character.location.name`. */
        fun pathText(path: List<PathComponent>): String = path.joinToString(".")

        /**
         * A GraphQL error as the server wrote it: its message, path, locations and extensions.
         *
         * Stored beside the field its path names (a field error), so a read from the store sees the error the
         * network read saw; or carried by a failed request.
         */
        data class FieldError(
            val message: String,
            val path: List<PathComponent>? = null,
            val locations: List<Location> = emptyList(),
            val extensions: Map<String, Any?>? = null
        ) {
            /** A line and column in the operation's document. */
            data class Location(val line: Int, val column: Int)

            /** The message, then the path when there is one: `image service unavailable (at character.image)`. */
            override fun toString(): String = if (path == null) message else "$message (at ${pathText(path)})"

            companion object {
                /** Reads an entry of a response's `errors`; a malformed entry keeps what can be read. */
                fun fromJson(json: Any?): FieldError {
                    val entry = json as? Map<*, *> ?: return FieldError("(malformed error)")
                    val message = entry["message"] as? String ?: "(error without a message)"
                    val path = (entry["path"] as? List<*>)?.mapNotNull { item ->
                        when (item) {
                            is String -> PathComponent.Key(item)
                            is JsonNumber -> item.literal.toIntOrNull()?.let { PathComponent.Index(it) }
                            else -> null
                        }
                    }
                    val locations = (entry["locations"] as? List<*>)?.mapNotNull { item ->
                        val location = item as? Map<*, *>
                        val line = (location?.get("line") as? JsonNumber)?.literal?.toIntOrNull()
                        val column = (location?.get("column") as? JsonNumber)?.literal?.toIntOrNull()
                        if (line != null && column != null) Location(line, column) else null
                    } ?: emptyList()
                    @Suppress("UNCHECKED_CAST")
                    val extensions = entry["extensions"] as? Map<String, Any?>
                    return FieldError(message, path, locations, extensions)
                }
            }
        }

        /** The field errors a read under `@catch` or `@throwOnFieldError` reports. */
        data class FieldErrors(val errors: List<FieldError>) {
            /** The messages joined by "; ". */
            override fun toString(): String = errors.joinToString("; ") { it.message }
        }

        /**
         * What a field read under `@catch` gives: [Success] with the value (keeping the field's own optionality) or
         * [Failure] with the field errors that occurred there.
         */
        sealed class FieldResult<out T> {
            /** The field was read; [value] is `null` only where the schema allows null. */
            data class Success<out T>(val value: T) : FieldResult<T>()

            /** The server could not resolve the field (or a field inside it); [errors] says why. */
            data class Failure(val errors: FieldErrors) : FieldResult<Nothing>()

            /** The value, or `null` on failure. */
            fun getOrNull(): T? = when (this) {
                is Success -> value
                is Failure -> null
            }

            /** The errors, or `null` on success. */
            fun errorsOrNull(): FieldErrors? = when (this) {
                is Success -> null
                is Failure -> errors
            }
        }

        /**
         * A field under `@required(action: THROW)` read null, or a `@required` null reached an operation's root.
         *
         * [path] names the first required field that was null.
         */
        class RequiredFieldException(val path: List<PathComponent>) :
            RuntimeException("required field ${pathText(path)} was null")

        /** A read under `@throwOnFieldError` met field errors no `@catch` handled. */
        class FieldErrorsException(val errors: FieldErrors) : RuntimeException(errors.toString())

        /** A response with `errors` and no `data`: the request failed as a whole and nothing was committed. */
        class RequestFailedException(val errors: FieldErrors) : RuntimeException(errors.toString())
        """#

    /// `Json.kt`.
    static let json = #"""
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

            private class Reader(val text: String) {
                var offset = 0

                fun failure(message: String): JsonException = JsonException("JSON: $message at offset $offset")

                fun skipWhitespace() {
                    while (offset < text.length) {
                        val char = text[offset]
                        if (char == ' ' || char == '\n' || char == '\r' || char == '\t') offset++ else return
                    }
                }

                fun value(depth: Int): Any? {
                    if (depth > MAX_DEPTH) throw failure("value nested deeper than $MAX_DEPTH levels")
                    if (offset >= text.length) throw failure("unexpected end of text")
                    val char = text[offset]
                    return when {
                        char == '{' -> objectValue(depth)
                        char == '[' -> arrayValue(depth)
                        char == '"' -> string()
                        char == '-' || (char in '0'..'9') -> number()
                        text.startsWith("true", offset) -> { offset += 4; true }
                        text.startsWith("false", offset) -> { offset += 5; false }
                        text.startsWith("null", offset) -> { offset += 4; null }
                        else -> throw failure("unexpected character '$char'")
                    }
                }

                private fun objectValue(depth: Int): Map<String, Any?> {
                    offset++
                    val result = LinkedHashMap<String, Any?>()
                    skipWhitespace()
                    if (offset < text.length && text[offset] == '}') { offset++; return result }
                    while (true) {
                        skipWhitespace()
                        if (offset >= text.length || text[offset] != '"') throw failure("expected a member name")
                        val key = string()
                        skipWhitespace()
                        if (offset >= text.length || text[offset] != ':') throw failure("expected ':'")
                        offset++
                        skipWhitespace()
                        result[key] = value(depth + 1)
                        skipWhitespace()
                        if (offset >= text.length) throw failure("unexpected end of text in an object")
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
                    if (offset < text.length && text[offset] == ']') { offset++; return result }
                    while (true) {
                        skipWhitespace()
                        result.add(value(depth + 1))
                        skipWhitespace()
                        if (offset >= text.length) throw failure("unexpected end of text in an array")
                        when (text[offset]) {
                            ',' -> offset++
                            ']' -> { offset++; return result }
                            else -> throw failure("expected ',' or ']'")
                        }
                    }
                }

                private fun string(): String {
                    offset++
                    val out = StringBuilder()
                    while (true) {
                        if (offset >= text.length) throw failure("unterminated string")
                        val char = text[offset]
                        when {
                            char == '"' -> { offset++; return out.toString() }
                            char == '\\' -> {
                                if (offset + 1 >= text.length) throw failure("unterminated escape")
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
                                        if (offset + 4 > text.length) throw failure("short \\u escape")
                                        val code = text.substring(offset, offset + 4).toIntOrNull(16)
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
                    while (offset < text.length && text[offset] in '0'..'9') offset++
                    if (offset == digitsStart) throw failure("expected a digit")
                    if (offset < text.length && text[offset] == '.') {
                        offset++
                        val fractionStart = offset
                        while (offset < text.length && text[offset] in '0'..'9') offset++
                        if (offset == fractionStart) throw failure("expected a digit after '.'")
                    }
                    if (offset < text.length && (text[offset] == 'e' || text[offset] == 'E')) {
                        offset++
                        if (offset < text.length && (text[offset] == '+' || text[offset] == '-')) offset++
                        val exponentStart = offset
                        while (offset < text.length && text[offset] in '0'..'9') offset++
                        if (offset == exponentStart) throw failure("expected a digit in the exponent")
                    }
                    return JsonNumber(text.substring(start, offset))
                }
            }
        }
        """#

    /// `Read.kt`.
    static let read = #"""
        package baton.runtime

        /** What a read reports to the log: missing data, unexpected values, `@required(action: LOG)` nulls. */
        sealed class ReadEvent {
            /** The store has no slot for a field the lens selects (the record or the slot is missing). */
            data class MissingData(
                val typename: String?, val field: String, val record: String?, val path: List<PathComponent>
            ) : ReadEvent() {
                override fun toString(): String = "missingData ${typename ?: "?"}.$field at ${pathText(path)}"
            }

            /** A value the generated type cannot hold: a null in a non-null field, a text that does not convert. */
            data class UnexpectedValue(
                val typename: String?, val field: String, val path: List<PathComponent>, val reason: String
            ) : ReadEvent() {
                override fun toString(): String = "unexpectedValue ${typename ?: "?"}.$field at ${pathText(path)}: $reason"
            }

            /** A field under `@required(action: LOG)` read null; the null bubbled to the lens boundary. */
            data class RequiredFieldNull(val path: List<PathComponent>) : ReadEvent() {
                override fun toString(): String = "requiredFieldNull at ${pathText(path)}"
            }
        }

        /** Receives the events reads report. */
        interface BatonLog {
            /** Called once per event, on the reading thread. */
            fun log(event: ReadEvent)

            companion object {
                /** A log that drops every event. */
                val NONE: BatonLog = object : BatonLog {
                    override fun log(event: ReadEvent) {}
                }
            }
        }

        /** A log that keeps its events in order, for tests and debugging. */
        class RecordingLog : BatonLog {
            /** The events so far. */
            val events: MutableList<ReadEvent> = ArrayList()

            override fun log(event: ReadEvent) {
                events.add(event)
            }
        }

        /** What every read of one operation shares: the store, the variables and the log. */
        class ReadContext(val store: RecordStore, val variables: Map<String, Any?>, val log: BatonLog) {
            /** Where the last `@required` null came from, so a null that keeps bubbling names its origin. */
            internal var bubbledFrom: List<PathComponent>? = null

            /** Whether every condition holds under the variables. */
            fun included(conditions: List<Condition>): Boolean = conditions.all { it.holds(variables) }
        }

        /**
         * Turns a stored, non-null value into the generated type.
         *
         * Returns `null` when the type cannot hold the value; the decoder has then reported why (an unexpected
         * value) or the null is a `@required` null bubbling to the lens boundary.
         */
        abstract class Decoder<out T : Any> {
            /** Decodes [value] read by [reader] for [field] at [path]. */
            abstract fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: List<PathComponent>): T?

            /**
             * What a non-optional accessor reads when there is no value: the zero value of a built-in scalar, an
             * empty list, an enum's `Undeclared("")`, a lens over no record; null for a mapped custom scalar, which
             * has no honest zero.
             */
            open fun zero(reader: RecordReader): T? = null
        }

        /**
         * A list level whose items the generated type cannot hold null for (`List<T>`): a null item makes the whole
         * list null, which goes to the nearest level that can hold it, as GraphQL's null propagation does.
         *
         * [itemNonNull] says whether the schema promises a value, so a stored null item is reported as unexpected
         * (a `@required` null bubbling into an item is not).
         */
        class ListDecoder<out T : Any>(val element: Decoder<T>, val itemNonNull: Boolean = true) : Decoder<List<T>>() {
            override fun zero(reader: RecordReader): List<T>? = emptyList()

            override fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: List<PathComponent>): List<T>? {
                val items = (value as? StoredValue.Items)?.items
                    ?: return reader.unexpected(field, path, "expected a list, found ${describe(value)}")
                val result = ArrayList<T>(items.size)
                for ((index, item) in items.withIndex()) {
                    val decoded = decodeItem(element, itemNonNull, item, reader, field, path + PathComponent.Index(index))
                        ?: return null
                    result.add(decoded)
                }
                return result
            }
        }

        /**
         * A list level whose items may be null (`List<T?>`): a null item, or one that does not decode, reads null.
         *
         * [itemNonNull] says whether the schema promises a value, so a stored null item is reported as unexpected.
         */
        class OptionalItemsDecoder<out T : Any>(val element: Decoder<T>, val itemNonNull: Boolean = false) :
            Decoder<List<T?>>() {
            override fun zero(reader: RecordReader): List<T?>? = emptyList()

            override fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: List<PathComponent>): List<T?>? {
                val items = (value as? StoredValue.Items)?.items
                    ?: return reader.unexpected(field, path, "expected a list, found ${describe(value)}")
                return items.mapIndexed { index, item ->
                    decodeItem(element, itemNonNull, item, reader, field, path + PathComponent.Index(index))
                }
            }
        }

        private fun <T : Any> decodeItem(
            element: Decoder<T>, itemNonNull: Boolean, item: StoredValue, reader: RecordReader, field: Field<*>,
            path: List<PathComponent>
        ): T? {
            if (item !is StoredValue.Null) return element.decode(item, reader, field, path)
            if (itemNonNull && !reader.slotHasErrors(field)) reader.unexpected<T>(field, path, "null in a non-null list item")
            return null
        }

        /** A stored value as a message shows it: a scalar's text as JSON, `an object`, `a list`. */
        fun describe(value: StoredValue): String = when (value) {
            is StoredValue.Null -> "null"
            is StoredValue.Text -> Json.write(value.text)
            is StoredValue.Number -> value.literal
            is StoredValue.Bool -> value.value.toString()
            is StoredValue.JsonText -> value.json
            is StoredValue.Link -> "an object"
            is StoredValue.Items -> "a list"
        }

        /**
         * A scalar decoder: the stored value turned into [T] by [convert], which returns null (or throws) when it
         * cannot; [zeroValue] is the zero value, if the type has one.
         */
        class TextDecoder<out T : Any>(
            private val what: String,
            private val zeroValue: T?,
            private val convert: (StoredValue) -> T?
        ) : Decoder<T>() {
            override fun zero(reader: RecordReader): T? = zeroValue

            override fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: List<PathComponent>): T? {
                val result = try {
                    convert(value)
                } catch (error: Exception) {
                    null
                }
                return result ?: reader.unexpected(field, path, "expected $what, found ${describe(value)}")
            }
        }

        /** A lens of a composite type: a link decodes to [factory]'s lens over the linked record. */
        class LensDecoder<out T : Any>(private val factory: (RecordReader) -> T) : Decoder<T>() {
            override fun zero(reader: RecordReader): T? = factory(reader.absent())

            override fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: List<PathComponent>): T? {
                val link = value as? StoredValue.Link ?: return reader.unexpected(field, path, "expected an object, found ${describe(value)}")
                val child = reader.child(link.key, path)
                val missing = child.missingRequired(field.selections)
                if (missing != null) {
                    reader.context.bubbledFrom = missing
                    return null
                }
                return factory(child)
            }
        }

        /** The decoders of the built-in scalars, custom scalars and enums. */
        object Scalars {
            /** The text of a scalar as the server wrote it (a number's literal, `true`/`false`, an object's JSON). */
            fun text(value: StoredValue): String? = when (value) {
                is StoredValue.Text -> value.text
                is StoredValue.Number -> value.literal
                is StoredValue.Bool -> if (value.value) "true" else "false"
                is StoredValue.JsonText -> value.json
                else -> null
            }

            /** `String`: a JSON string. */
            val STRING: Decoder<String> = TextDecoder("a String", "") { (it as? StoredValue.Text)?.text }

            /** `ID`: a JSON string, or an integer's literal. */
            val ID: Decoder<String> = TextDecoder("an ID", "") {
                when (it) {
                    is StoredValue.Text -> it.text
                    is StoredValue.Number -> if (it.literal.all { char -> char in '0'..'9' || char == '-' }) it.literal else null
                    else -> null
                }
            }

            /** `Int`: a JSON number that is a 32-bit integer. */
            val INT: Decoder<Int> = TextDecoder("an Int", 0) { (it as? StoredValue.Number)?.literal?.toIntOrNull() }

            /** `Float`: a JSON number. */
            val FLOAT: Decoder<Double> = TextDecoder("a Float", 0.0) { (it as? StoredValue.Number)?.literal?.toDoubleOrNull() }

            /** `Boolean`: a JSON Boolean. */
            val BOOLEAN: Decoder<Boolean> = TextDecoder("a Boolean", false) { (it as? StoredValue.Bool)?.value }

            /** An unmapped custom scalar: its text. */
            val CUSTOM: Decoder<String> = TextDecoder("a scalar", "") { text(it) }

            /** A mapped custom scalar: its text converted by [converter]; a text that does not convert is unexpected. */
            fun <T : Any> custom(converter: ScalarConverter<T>): Decoder<T> =
                TextDecoder("a value ${converter.javaClass.simpleName} converts", null) { value -> text(value)?.let { converter.decode(it) } }

            /** An enum: the text parsed by [parse] (generated enums keep unknown texts as `Undeclared`). */
            fun <T : Any> enumeration(parse: (String) -> T): Decoder<T> =
                TextDecoder("an enum value", parse("")) { (it as? StoredValue.Text)?.text?.let(parse) }
        }

        /**
         * A view of one record through one selection: what generated lenses read through.
         *
         * [key] is the record's key, or null for a lens that stands in where no record could be read (every read
         * then gives null, so non-null accessors give their zero values). [strict] is `@throwOnFieldError`.
         */
        class RecordReader(
            val context: ReadContext,
            val key: String?,
            val path: List<PathComponent>,
            val strict: Boolean
        ) {
            private val record: Record? get() = if (key == null) null else context.store.record(key)

            /** The record's type name (its `__typename`), when known. */
            val typename: String? get() = record?.typename

            /** A reader of the record [childKey] at [childPath], with this reader's policy. */
            fun child(childKey: String, childPath: List<PathComponent>): RecordReader =
                RecordReader(context, childKey, childPath, strict)

            /** This reader with [strict] as its policy (a fragment's own `@throwOnFieldError`). */
            fun withPolicy(strict: Boolean): RecordReader =
                if (strict == this.strict) this else RecordReader(context, key, path, strict)

            /** A reader of no record, for a non-null lens accessor whose record could not be read. */
            fun absent(): RecordReader = RecordReader(context, null, path, strict)

            /** Reports [detail] about [field] at [path] as an unexpected value; returns null for convenience. */
            fun <T> unexpected(field: Field<*>, path: List<PathComponent>, detail: String): T? {
                context.log.log(ReadEvent.UnexpectedValue(typename, field.name, path, detail))
                return null
            }

            /** Whether [field]'s slot carries field errors. */
            fun slotHasErrors(field: Field<*>): Boolean =
                record?.slots?.get(field.storageKey(context.variables))?.errors?.isNotEmpty() == true

            private fun slot(field: Field<*>, report: Boolean): Slot? {
                if (key == null) return null
                val storageKey = field.storageKey(context.variables)
                val slot = record?.slots?.get(storageKey)
                if (slot == null && report) {
                    context.log.log(ReadEvent.MissingData(typename, storageKey, key, path + PathComponent.Key(field.responseKey)))
                }
                return slot
            }

            /**
             * Reads [field]: its value, or null when it is excluded, missing (reported), null, has a field error, or
             * does not fit the type (reported). Under [strict] a field error throws [FieldErrorsException].
             */
            fun <T : Any> read(field: Field<T>): T? {
                if (!context.included(field.conditions)) return null
                val slot = slot(field, report = true) ?: return null
                if (slot.errors.isNotEmpty()) {
                    if (strict) throw FieldErrorsException(FieldErrors(slot.errors))
                    if (slot.value is StoredValue.Null) return null
                }
                val fieldPath = path + PathComponent.Key(field.responseKey)
                if (slot.value is StoredValue.Null) {
                    if (field.nonNull) unexpected<T>(field, fieldPath, "null in a non-null field")
                    return null
                }
                return field.decoder.decode(slot.value, this, field, fieldPath)
            }

            /** Reads a `@required(action: THROW)` field: its value, or [RequiredFieldException] when it reads null. */
            fun <T : Any> readOrThrow(field: Field<T>): T {
                context.bubbledFrom = null
                val value = read(field)
                if (value != null) return value
                val bubbled = context.bubbledFrom
                throw RequiredFieldException(
                    if (bubbled != null && !isOwnNull(field)) bubbled else path + PathComponent.Key(field.responseKey)
                )
            }

            /**
             * Reads a field whose accessor is not optional: its value, or the decoder's zero value when there is none
             * (the null was reported as unexpected, or is a field error or missing data, also reported). A mapped
             * custom scalar has no zero: then the read throws [RequiredFieldException].
             */
            fun <T : Any> readNonNull(field: Field<T>): T =
                read(field) ?: field.decoder.zero(this) ?: throw RequiredFieldException(path + PathComponent.Key(field.responseKey))

            /**
             * Reads a `@catch` field: [Failure][FieldResult.Failure] with the errors stored on the field or on any
             * field inside it that no other `@catch` handles, otherwise [Success][FieldResult.Success] with what
             * [read] gives (evaluated without `@throwOnFieldError`, as there is nothing left to throw).
             */
            fun <R> catching(field: Field<*>, read: (RecordReader) -> R): FieldResult<R> {
                val errors = if (context.included(field.conditions)) fieldErrors(field) else emptyList()
                return if (errors.isNotEmpty()) FieldResult.Failure(FieldErrors(errors)) else FieldResult.Success(read(withPolicy(false)))
            }

            /** Reads a `@catch(to: NULL)` field: null when it or a field inside it has errors, else what [read] gives. */
            fun <R> catchingToNull(field: Field<*>, read: (RecordReader) -> R?): R? {
                val errors = if (context.included(field.conditions)) fieldErrors(field) else emptyList()
                return if (errors.isNotEmpty()) null else read(withPolicy(false))
            }

            /** The lens of an inline fragment when the record's type matches, else null. */
            fun <T : Any> inlineFragment(fragment: InlineFragment<T>): T? {
                if (!context.included(fragment.conditions)) return null
                if (!typeMatches(typename, fragment.possibleTypes)) return null
                val missing = missingRequired(fragment.selections)
                if (missing != null) {
                    context.bubbledFrom = missing
                    return null
                }
                return fragment.factory(this)
            }

            /** The lens of an inline fragment whose accessor is not optional; a lens over no record when it cannot read. */
            fun <T : Any> inlineFragmentNonNull(fragment: InlineFragment<T>): T = inlineFragment(fragment) ?: fragment.factory(absent())

            /**
             * The lens of a fragment spread on this record, under the fragment's own policy; null when the type does
             * not match or a `@required` field inside the fragment read null.
             */
            fun <T : Any> fragment(spread: FragmentSpread<T>): T? {
                if (!context.included(spread.conditions)) return null
                if (!typeMatches(typename, spread.possibleTypes)) return null
                if (key != null && record == null) {
                    context.log.log(ReadEvent.MissingData(null, "...${spread.fragmentName}", key, path))
                    return null
                }
                val reader = withPolicy(spread.throwOnFieldError)
                if (spread.throwOnFieldError) {
                    val errors = reader.uncaughtErrors(spread.selections)
                    if (errors.isNotEmpty()) throw FieldErrorsException(FieldErrors(errors))
                }
                val missing = reader.missingRequired(spread.selections)
                if (missing != null) {
                    context.bubbledFrom = missing
                    return null
                }
                return spread.factory(reader)
            }

            /** The lens of a fragment spread whose accessor is not optional; a lens over no record when it cannot read. */
            fun <T : Any> fragmentNonNull(spread: FragmentSpread<T>): T =
                fragment(spread) ?: spread.factory(absent().withPolicy(spread.throwOnFieldError))

            private fun isOwnNull(field: Field<*>): Boolean {
                val slot = slot(field, report = false) ?: return true
                return slot.value is StoredValue.Null
            }

            /**
             * The path of the first `@required(action: NONE|LOG)` field among [selections] that reads null (logging
             * it under LOG), or null when every one has a value. Inline fragments and fragment spreads are lens
             * boundaries of their own and are not entered.
             */
            fun missingRequired(selections: List<Selection>): List<PathComponent>? {
                if (key == null) return null
                for (selection in selections) {
                    val field = selection as? Field<*> ?: continue
                    val action = field.required ?: continue
                    if (action == RequiredAction.THROW || !context.included(field.conditions)) continue
                    context.bubbledFrom = null
                    if (read(field) != null) continue
                    val bubbled = context.bubbledFrom
                    if (bubbled != null && !isOwnNull(field)) return bubbled
                    val fieldPath = path + PathComponent.Key(field.responseKey)
                    if (action == RequiredAction.LOG) context.log.log(ReadEvent.RequiredFieldNull(fieldPath))
                    return fieldPath
                }
                return null
            }

            /** The errors stored on [field] and, for a composite field, on the fields inside it not under `@catch`. */
            fun fieldErrors(field: Field<*>): List<FieldError> {
                val slot = slot(field, report = false) ?: return emptyList()
                val errors = ArrayList(slot.errors)
                if (field.isComposite) collectErrors(slot.value, field.selections, 0, errors)
                return errors
            }

            /** The field errors among [selections] (recursively) that no `@catch` handles. */
            fun uncaughtErrors(selections: List<Selection>): List<FieldError> {
                val errors = ArrayList<FieldError>()
                collectErrorsInRecord(selections, 0, errors)
                return errors
            }

            private fun collectErrorsInRecord(selections: List<Selection>, depth: Int, into: MutableList<FieldError>) {
                if (depth > Json.MAX_DEPTH || key == null) return
                loop@ for (selection in selections) {
                    when (selection) {
                        is Field<*> -> {
                            if (selection.catches || !context.included(selection.conditions)) continue@loop
                            val slot = slot(selection, report = false) ?: continue@loop
                            into.addAll(slot.errors)
                            if (selection.isComposite) collectErrors(slot.value, selection.selections, depth + 1, into)
                        }
                        is InlineFragment<*> -> if (typeMatches(typename, selection.possibleTypes) && context.included(selection.conditions)) {
                            collectErrorsInRecord(selection.selections, depth + 1, into)
                        }
                        is FragmentSpread<*> -> Unit
                    }
                }
            }

            private fun collectErrors(value: StoredValue, selections: List<Selection>, depth: Int, into: MutableList<FieldError>) {
                if (depth > Json.MAX_DEPTH) return
                when (value) {
                    is StoredValue.Link -> child(value.key, path).collectErrorsInRecord(selections, depth + 1, into)
                    is StoredValue.Items -> for (item in value.items) collectErrors(item, selections, depth + 1, into)
                    else -> Unit
                }
            }
        }
        """#

    /// `Selections.kt`.
    static let selections = #"""
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
            val catches: Boolean = false
        ) : Selection() {
            /** Whether the field has a selection set (its values are records). */
            val isComposite: Boolean get() = selections.isNotEmpty()

            private val constantKey: String? = if (arguments.isEmpty()) name else if (!containsVariable(arguments)) {
                storageKey(name, arguments, emptyMap())
            } else null

            /** The slot's key in a record: the name, plus canonically ordered arguments with variables resolved. */
            fun storageKey(variables: Map<String, Any?>): String = constantKey ?: storageKey(name, arguments, variables)

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

            /** The variables as the request's JSON object (absent variables left out). */
            fun variables(): Map<String, Any?>

            /**
             * The variables as the server sees them: [variables] with the document's defaults for those left out.
             * Reads and normalization resolve `@include`/`@skip` and arguments with these.
             */
            fun variablesWithDefaults(): Map<String, Any?> = variables()

            /** The data lens over the root record. */
            fun data(reader: RecordReader): D
        }

        /** The request body for [operation]: `query`, `operationName`, `variables`, and `onError` when set. */
        fun requestBody(operation: Operation<*>): String {
            val body = LinkedHashMap<String, Any?>()
            body["query"] = operation.document
            body["operationName"] = operation.operationName
            body["variables"] = operation.variables()
            val onError = operation.onError
            if (onError != null) body["onError"] = onError
            return Json.write(body)
        }
        """#

    /// `Store.kt`.
    static let store = #"""
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
        """#

    /// `Values.kt`.
    static let values = #"""
        package baton.runtime

        /**
         * An input value that may be absent, explicitly null, or present.
         *
         * GraphQL tells an absent input field or variable (the server uses its default) from an explicit null.
         * Generated input objects and operation variables default every optional field to [Absent], so a field left
         * unset is absent from the request; pass [Null] to send null, [Present] (or [Optional.of]) to send a value.
         */
        sealed class Optional<out T> {
            /** Left out of the request. */
            object Absent : Optional<Nothing>() {
                override fun toString(): String = "Absent"
            }

            /** Sent as `null`. */
            object Null : Optional<Nothing>() {
                override fun toString(): String = "Null"
            }

            /** Sent as [value]. */
            data class Present<out T>(val value: T) : Optional<T>()

            /** The value when present, otherwise `null`. */
            fun getOrNull(): T? = (this as? Present)?.value

            /** [Present] with [transform] applied to the value; [Absent] and [Null] unchanged. */
            fun <R> map(transform: (T) -> R): Optional<R> = when (this) {
                is Present -> Present(transform(value))
                is Absent -> Absent
                is Null -> Null
            }

            companion object {
                /** [Present] for a value, [Absent] for `null`: the usual way to pass a Kotlin nullable through. */
                fun <T> of(value: T?): Optional<T> = if (value == null) Absent else Present(value)

                /** [Present] for a value, [Null] for `null`: for a field whose null must reach the server. */
                fun <T> ofNullable(value: T?): Optional<T> = if (value == null) Null else Present(value)
            }
        }

        /**
         * Converts a custom scalar between its text (as the server wrote it) and an app type.
         *
         * `customScalarTypes` in baton.json names an `object` implementing this interface for each mapped scalar.
         * [decode] returns `null` or throws when the text does not convert; the read then reports the value as
         * unexpected and reads null, never a made-up value.
         */
        interface ScalarConverter<T : Any> {
            /** The value [text] stands for, or `null` when it does not convert. */
            fun decode(text: String): T?

            /** The text the server should receive for [value]. */
            fun encode(value: T): String
        }

        /** A generated enum value: a known case or an undeclared one, both with the text the server uses. */
        interface EnumValue {
            /** The value's text, exactly as the schema (or the server, for an undeclared value) spells it. */
            val rawValue: String
        }

        /** A generated input object: it writes itself as the JSON object the server receives. */
        interface InputObject {
            /** The fields that are not absent, by their schema names, as JSON-ready values. */
            fun toJson(): Map<String, Any?>
        }

        /** Builds the JSON object of an input object or of variables, leaving absent entries out. */
        class JsonObjectBuilder {
            private val entries = LinkedHashMap<String, Any?>()

            /** Adds [name] unless [value] is [Optional.Absent]; unwraps [Optional.Present] and [Optional.Null]. */
            fun put(name: String, value: Any?): JsonObjectBuilder {
                when (value) {
                    is Optional.Absent -> Unit
                    is Optional.Null -> entries[name] = null
                    is Optional.Present<*> -> entries[name] = value.value
                    else -> entries[name] = value
                }
                return this
            }

            /** The entries added so far. */
            fun build(): Map<String, Any?> = entries
        }

        /** Encodes [value] with [converter] for a request (a mapped custom scalar in variables or input objects). */
        fun <T : Any> encodeScalar(value: T?, converter: ScalarConverter<T>): String? =
            if (value == null) null else converter.encode(value)

        /** Maps each element of a (possibly nested, possibly null) list for a request. */
        fun <T, R> encodeList(value: List<T>?, transform: (T) -> R): List<R>? = value?.map(transform)
        """#
}
