package baton.runtime

/** A generated plan's text that does not parse: the generator and the runtime disagree, or the text was edited. */
class PlanFormatException(message: String) : IllegalArgumentException(message)

/**
 * A generated file's selections as one text, parsed once on first use into the [Field], [InlineFragment] and
 * [FragmentSpread] objects the runtime reads and normalizes by (issue 34: data instead of a declaration per
 * selection compiles in a fraction of the time).
 *
 * The text is one line per selection, children before the selections that list them, each referred to by its line
 * number (from 0); the last line lists the roots. Parts are separated by `|`, list items by `,`, alternatives and
 * entries by `;`, a key field's type by `:`; a `\` makes the next character plain (`\n` a line break), so names
 * and strings from a schema or document hold any character:
 * - `F|responseKey|name|typeName|decoder|nonNull (1 or 0)|children` and tagged parts: `c=` conditions, `a=`
 *   arguments, `r=N|L|T` `@required`'s action, `x` `@catch`, `k=key,filters…` `@connection`, `u=KIND`,
 *   `uc=value`, `ue=edgeTypename`, `ut=typename` a declarative update, `K=Type:field,field;…` key fields;
 * - `I|typeCondition (empty: none)|possibleTypes (`*`: every type)|children|lens` and `c=`;
 * - `S|fragmentName|typeCondition|possibleTypes|external (its selections)|lens` and `t` (`throwOnFieldError`),
 *   `c=`;
 * - `R|roots`.
 *
 * Decoders: `S` String, `D` ID, `I` Int, `F` Float, `B` Boolean, `C` an unmapped custom scalar, `@n` the lens
 * [lens] makes for `n`, `#n` the decoder [external] gives for `n`, `[d]!` / `[d]?` a list (items non-null or
 * not), `{d}!` / `{d}?` a list of optional items. Conditions: `+variable` (`@include`), `-variable` (`@skip`),
 * `F` never; alternatives separated by `;`. Values (arguments, `uc=`): JSON, with `{"$": "name"}` for a variable
 * and numbers kept as written ([JsonNumber]).
 *
 * A text that does not parse throws [PlanFormatException], and so does an index that names no selection.
 */
abstract class PlanTable(private vararg val pieces: String) {
    @Volatile
    private var parsed: Parsed? = null

    private class Parsed(val lines: Array<Selection>, val roots: List<Selection>)

    /** The lens the plan's `@index` decoders and fragments make over [reader]. */
    protected open fun lens(index: Int, reader: RecordReader): Any =
        throw PlanFormatException("no lens $index (record ${reader.key})")

    /** What the text cannot hold: a decoder (`#index`) or a spread fragment's selections. */
    protected open fun external(index: Int): Any = throw PlanFormatException("no external value $index")

    /** The root selections. */
    fun roots(): List<Selection> = table().roots

    /** The field on line [index]. */
    @Suppress("UNCHECKED_CAST")
    fun <T : Any> field(index: Int): Field<T> =
        table().lines.getOrNull(index) as? Field<T> ?: throw PlanFormatException("line $index is no field")

    /** The inline fragment on line [index]. */
    @Suppress("UNCHECKED_CAST")
    fun <T : Any> inline(index: Int): InlineFragment<T> = table().lines.getOrNull(index) as? InlineFragment<T>
        ?: throw PlanFormatException("line $index is no inline fragment")

    /** The fragment spread on line [index]. */
    @Suppress("UNCHECKED_CAST")
    fun <T : Any> spread(index: Int): FragmentSpread<T> = table().lines.getOrNull(index) as? FragmentSpread<T>
        ?: throw PlanFormatException("line $index is no fragment spread")

    /** [RecordReader.read] of the field on line [index]. */
    fun <T : Any> read(reader: RecordReader, index: Int): T? = reader.read(field<T>(index))

    /** [RecordReader.readNonNull] of the field on line [index]. */
    fun <T : Any> readNonNull(reader: RecordReader, index: Int): T = reader.readNonNull(field<T>(index))

    /** [RecordReader.inlineFragment] of the inline fragment on line [index]. */
    fun <T : Any> inlineFragment(reader: RecordReader, index: Int): T? = reader.inlineFragment(inline<T>(index))

    /** [RecordReader.inlineFragmentNonNull] of the inline fragment on line [index]. */
    fun <T : Any> inlineFragmentNonNull(reader: RecordReader, index: Int): T =
        reader.inlineFragmentNonNull(inline<T>(index))

    /** [RecordReader.fragment] of the spread on line [index]. */
    fun <T : Any> fragment(reader: RecordReader, index: Int): T? = reader.fragment(spread<T>(index))

    /** [RecordReader.fragmentNonNull] of the spread on line [index]. */
    fun <T : Any> fragmentNonNull(reader: RecordReader, index: Int): T = reader.fragmentNonNull(spread<T>(index))

    /**
     * The base of a generated lens class whose members read through its file's plan: each getter is one call of
     * this class by line number (`string(3)`, `readNonNull<List<Item>>(4)`), without naming the plan or the reader
     * (issue 34: a getter kotlinc resolves as one call instead of three). The reads are [PlanTable]'s.
     */
    abstract class Lens(reader: RecordReader, private val plan: PlanTable) : RecordReader.Lens(reader) {
        /** The `String` (or `ID`) on line [index], non-null. */
        protected fun string(index: Int): String = plan.readNonNull(reader, index)

        /** The `String` (or `ID`) on line [index]. */
        protected fun stringOrNull(index: Int): String? = plan.read(reader, index)

        /** The `Int` on line [index], non-null. */
        protected fun int(index: Int): Int = plan.readNonNull(reader, index)

        /** The `Int` on line [index]. */
        protected fun intOrNull(index: Int): Int? = plan.read(reader, index)

        /** The `Float` on line [index], non-null. */
        protected fun double(index: Int): Double = plan.readNonNull(reader, index)

        /** The `Float` on line [index]. */
        protected fun doubleOrNull(index: Int): Double? = plan.read(reader, index)

        /** The `Boolean` on line [index], non-null. */
        protected fun boolean(index: Int): Boolean = plan.readNonNull(reader, index)

        /** The `Boolean` on line [index]. */
        protected fun booleanOrNull(index: Int): Boolean? = plan.read(reader, index)

        /** [PlanTable.read] of line [index]. */
        protected fun <T : Any> read(index: Int): T? = plan.read(reader, index)

        /** [PlanTable.readNonNull] of line [index]. */
        protected fun <T : Any> readNonNull(index: Int): T = plan.readNonNull(reader, index)

        /** [PlanTable.inlineFragment] of line [index]. */
        protected fun <T : Any> inlineFragment(index: Int): T? = plan.inlineFragment(reader, index)

        /** [PlanTable.inlineFragmentNonNull] of line [index]. */
        protected fun <T : Any> inlineFragmentNonNull(index: Int): T = plan.inlineFragmentNonNull(reader, index)

        /** [PlanTable.fragment] of line [index]. */
        protected fun <T : Any> fragment(index: Int): T? = plan.fragment(reader, index)

        /** [PlanTable.fragmentNonNull] of line [index]. */
        protected fun <T : Any> fragmentNonNull(index: Int): T = plan.fragmentNonNull(reader, index)
    }

    /**
     * The base of a generated operation class: what [baton.runtime.Operation] asks of every operation, given once
     * as constructor arguments instead of a getter each (issue 34: kotlinc resolves one supertype call instead of
     * eight declarations), and [selections] from the operation's plan.
     */
    abstract class Operation<out D : Any>(
        final override val operationName: String,
        final override val operationType: String,
        final override val document: String,
        final override val operationId: String,
        final override val rootTypename: String,
        private val plan: PlanTable,
        final override val onError: String? = null,
        final override val throwOnFieldError: Boolean = false
    ) : baton.runtime.Operation<D> {
        final override val selections: List<Selection> get() = plan.roots()
    }

    private fun table(): Parsed {
        parsed?.let { return it }
        return synchronized(this) {
            parsed ?: parse().also { parsed = it }
        }
    }

    private fun parse(): Parsed {
        val text = if (pieces.size == 1) pieces[0] else pieces.joinToString("")
        val lines = split(text, '\n')
        if (lines.isEmpty()) throw PlanFormatException("an empty plan")
        val selections = ArrayList<Selection>(lines.size - 1)
        for (number in 0 until lines.size - 1) {
            val selection = try {
                selection(split(lines[number], '|'), selections)
            } catch (error: PlanFormatException) {
                throw PlanFormatException("line $number: " + error.message)
            } catch (error: RuntimeException) {
                throw PlanFormatException("line $number: " + error)
            }
            selections.add(selection)
        }
        val last = split(lines[lines.size - 1], '|')
        if (last.size != 2 || last[0] != "R") throw PlanFormatException("the last line lists no roots")
        return Parsed(selections.toTypedArray(), children(last[1], selections))
    }

    private fun selection(parts: List<String>, before: List<Selection>): Selection {
        fun part(index: Int): String = parts.getOrNull(index) ?: throw PlanFormatException("missing part $index")
        return when (part(0)) {
            "F" -> {
                val tags = tags(parts, 7)
                val nonNull = when (part(5)) {
                    "1" -> true
                    "0" -> false
                    else -> throw PlanFormatException("nonNull is not 1 or 0")
                }
                Field(
                    unescape(part(1)), unescape(part(2)), unescape(part(3)), decoder(part(4)), nonNull,
                    arguments = tags["a"]?.let { arguments(unescape(it)) } ?: emptyMap(),
                    selections = children(part(6), before),
                    conditions = tags["c"]?.let { conditions(it) } ?: emptyList(),
                    required = tags["r"]?.let { required(it) },
                    catches = tags.containsKey("x"),
                    connection = tags["k"]?.let { connection(it) },
                    update = tags["u"]?.let { update(it, tags) },
                    keyFields = tags["K"]?.let { keyFields(it) } ?: emptyMap()
                )
            }
            "I" -> {
                val tags = tags(parts, 5)
                InlineFragment(
                    part(1).takeIf { it.isNotEmpty() }?.let { unescape(it) }, possibleTypes(part(2)),
                    children(part(3), before), factory(part(4)),
                    conditions = tags["c"]?.let { conditions(it) } ?: emptyList()
                )
            }
            "S" -> {
                val tags = tags(parts, 6)
                @Suppress("UNCHECKED_CAST")
                val selections = external(number(part(4))) as? List<Selection>
                    ?: throw PlanFormatException("external ${part(4)} is not a list of selections")
                FragmentSpread(
                    unescape(part(1)), unescape(part(2)), possibleTypes(part(3)), selections, factory(part(5)),
                    throwOnFieldError = tags.containsKey("t"),
                    conditions = tags["c"]?.let { conditions(it) } ?: emptyList()
                )
            }
            else -> throw PlanFormatException("unknown kind \"${part(0)}\"")
        }
    }

    /** The tagged parts after the [count] fixed ones: `tag=value` or a bare `tag`, each once. */
    private fun tags(parts: List<String>, count: Int): Map<String, String> {
        if (parts.size < count) throw PlanFormatException("missing part ${parts.size}")
        val tags = HashMap<String, String>()
        for (index in count until parts.size) {
            val part = parts[index]
            val equals = part.indexOf('=')
            val tag = if (equals < 0) part else part.substring(0, equals)
            if (tag !in knownTags) throw PlanFormatException("unknown part \"$tag\"")
            if (tags.put(tag, if (equals < 0) "" else part.substring(equals + 1)) != null) {
                throw PlanFormatException("part \"$tag\" twice")
            }
        }
        return tags
    }

    private fun number(text: String): Int {
        if (text.isEmpty() || text.length > 9 || !text.all { it in '0'..'9' }) {
            throw PlanFormatException("\"$text\" is not an index")
        }
        return text.toInt()
    }

    private fun children(text: String, before: List<Selection>): List<Selection> {
        if (text.isEmpty()) return emptyList()
        return text.split(',').map { item ->
            val index = number(item)
            before.getOrNull(index) ?: throw PlanFormatException("child $index is not defined before")
        }
    }

    private fun possibleTypes(text: String): Set<String>? {
        if (text == "*") return null
        if (text.isEmpty()) return emptySet()
        return split(text, ',').mapTo(LinkedHashSet()) { unescape(it) }
    }

    private fun factory(text: String): (RecordReader) -> Any {
        val index = number(text)
        return { reader -> lens(index, reader) }
    }

    private fun decoder(text: String): Decoder<*> {
        val (decoder, end) = decoder(text, 0)
        if (end != text.length) throw PlanFormatException("decoder \"$text\" has more after it")
        return decoder
    }

    private fun decoder(text: String, start: Int): Pair<Decoder<*>, Int> {
        val first = text.getOrNull(start) ?: throw PlanFormatException("decoder \"$text\" ends early")
        when (first) {
            'S' -> return Scalars.STRING to start + 1
            'D' -> return Scalars.ID to start + 1
            'I' -> return Scalars.INT to start + 1
            'F' -> return Scalars.FLOAT to start + 1
            'B' -> return Scalars.BOOLEAN to start + 1
            'C' -> return Scalars.CUSTOM to start + 1
            '@', '#' -> {
                var end = start + 1
                while (end < text.length && text[end] in '0'..'9') end++
                val index = number(text.substring(start + 1, end))
                if (first == '@') return LensDecoder { reader -> lens(index, reader) } to end
                val decoder = external(index) as? Decoder<*>
                    ?: throw PlanFormatException("external $index is not a decoder")
                return decoder to end
            }
            '[', '{' -> {
                val (element, end) = decoder(text, start + 1)
                val close = if (first == '[') ']' else '}'
                if (text.getOrNull(end) != close) throw PlanFormatException("decoder \"$text\" is not closed")
                val itemNonNull = when (text.getOrNull(end + 1)) {
                    '!' -> true
                    '?' -> false
                    else -> throw PlanFormatException("decoder \"$text\" lacks `!` or `?` after `$close`")
                }
                val list: Decoder<*> =
                    if (first == '[') ListDecoder(element, itemNonNull) else OptionalItemsDecoder(element, itemNonNull)
                return list to end + 2
            }
            else -> throw PlanFormatException("unknown decoder \"$first\"")
        }
    }

    private fun conditions(text: String): List<Condition> {
        if (text == "F") return listOf(Condition.literal(false))
        val alternatives = split(text, ';').map { alternative ->
            if (alternative.isEmpty()) emptyList() else split(alternative, ',').map { atom(it) }
        }
        return if (alternatives.size == 1) alternatives[0] else {
            listOf(Condition.anyOf(alternatives.map { Condition.allOf(it) }))
        }
    }

    private fun atom(text: String): Condition {
        val variable = unescape(text.drop(1))
        if (variable.isEmpty()) throw PlanFormatException("condition \"$text\" names no variable")
        return when (text.first()) {
            '+' -> Condition.include(variable)
            '-' -> Condition.skip(variable)
            else -> throw PlanFormatException("condition \"$text\" is not +variable or -variable")
        }
    }

    private fun required(text: String): RequiredAction = when (text) {
        "N" -> RequiredAction.NONE
        "L" -> RequiredAction.LOG
        "T" -> RequiredAction.THROW
        else -> throw PlanFormatException("unknown @required action \"$text\"")
    }

    private fun connection(text: String): ConnectionSpec {
        val items = split(text, ',').map { unescape(it) }
        return ConnectionSpec(items[0], items.drop(1))
    }

    private fun update(kind: String, tags: Map<String, String>): RecordUpdate {
        val value = RecordUpdate.Kind.values().firstOrNull { it.name == kind }
            ?: throw PlanFormatException("unknown update \"$kind\"")
        return RecordUpdate(
            value, tags["uc"]?.let { value(unescape(it)) }, tags["ue"]?.let { unescape(it) },
            tags["ut"]?.let { unescape(it) }
        )
    }

    private fun keyFields(text: String): Map<String, List<String>> {
        val result = LinkedHashMap<String, List<String>>()
        for (entry in split(text, ';')) {
            val typeAndFields = split(entry, ':')
            if (typeAndFields.size != 2) throw PlanFormatException("key fields \"$entry\" are not Type:field,…")
            result[unescape(typeAndFields[0])] = split(typeAndFields[1], ',').map { unescape(it) }
        }
        return result
    }

    @Suppress("UNCHECKED_CAST")
    private fun arguments(text: String): Map<String, Any?> =
        value(text) as? Map<String, Any?> ?: throw PlanFormatException("arguments are no object")

    /** A value's text: JSON ([Json.parse], numbers as [JsonNumber]) with `{"$": "name"}` for a variable. */
    private fun value(text: String): Any? {
        val parsed = try {
            Json.parse(text)
        } catch (error: JsonException) {
            throw PlanFormatException("value \"$text\": " + error.message)
        }
        return variables(parsed)
    }

    private fun variables(value: Any?): Any? = when (value) {
        is Map<*, *> -> {
            val name = value["\$"]
            if (value.size == 1 && name != null) {
                Variable(name as? String ?: throw PlanFormatException("a variable's name is not a string"))
            } else {
                value.entries.associate { it.key.toString() to variables(it.value) }
            }
        }
        is List<*> -> value.map { variables(it) }
        else -> value
    }

    private companion object {
        val knownTags = setOf("c", "a", "r", "x", "k", "u", "uc", "ue", "ut", "K", "t")

        /** [text] cut at each [separator] not made plain by a `\`; the parts keep their escapes. */
        fun split(text: String, separator: Char): List<String> {
            val parts = ArrayList<String>()
            var start = 0
            var index = 0
            while (index < text.length) {
                val character = text[index]
                if (character == '\\') {
                    index += 2
                    continue
                }
                if (character == separator) {
                    parts.add(text.substring(start, index))
                    start = index + 1
                }
                index++
            }
            if (index > text.length) throw PlanFormatException("\"$text\" ends in a lone \\")
            parts.add(text.substring(start))
            return parts
        }

        /** A part without its escapes: `\n` a line break, `\` before any other character that character. */
        fun unescape(text: String): String {
            if (text.indexOf('\\') < 0) return text
            val result = StringBuilder(text.length)
            var index = 0
            while (index < text.length) {
                val character = text[index]
                if (character == '\\') {
                    val next = text.getOrNull(index + 1) ?: throw PlanFormatException("\"$text\" ends in a lone \\")
                    result.append(if (next == 'n') '\n' else next)
                    index += 2
                } else {
                    result.append(character)
                    index++
                }
            }
            return result.toString()
        }
    }
}
