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

    companion object {
        private val tables = java.util.concurrent.ConcurrentHashMap<Class<*>, Map<String, EnumValue>>()

        /**
         * The value of [type] whose text is [text], or null: a large generated enum's `fromRawValue` (more values
         * than the declaration tree's `EnumDeclaration.branchLimit`, issue 34) finds it through a table of
         * [values] built once per enum class, rather than a `when` of hundreds of branches.
         */
        fun <T : EnumValue> find(type: Class<T>, text: String, values: () -> List<T>): T? {
            val table = tables[type] ?: values().associateBy { it.rawValue }.also { tables.putIfAbsent(type, it) }
            return type.cast(table[text])
        }
    }
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

    companion object {
        /**
         * The object of [namesAndValues], a name (a `String`) then its value, each added as [put] adds it (issue 34:
         * a generated `variables()` is one call kotlinc resolves, not one per variable). An odd count or a name not
         * a `String` throws [IllegalArgumentException].
         */
        fun of(vararg namesAndValues: Any?): Map<String, Any?> {
            require(namesAndValues.size % 2 == 0) { "JsonObjectBuilder.of: a name without a value" }
            val builder = JsonObjectBuilder()
            var index = 0
            while (index < namesAndValues.size) {
                val name = namesAndValues[index] as? String
                    ?: throw IllegalArgumentException("JsonObjectBuilder.of: argument $index is not a name")
                builder.put(name, namesAndValues[index + 1])
                index += 2
            }
            return builder.build()
        }
    }
}

/** Encodes [value] with [converter] for a request (a mapped custom scalar in variables or input objects). */
fun <T : Any> encodeScalar(value: T?, converter: ScalarConverter<T>): String? =
    if (value == null) null else converter.encode(value)

/** Maps each element of a (possibly nested, possibly null) list for a request. */
fun <T, R> encodeList(value: List<T>?, transform: (T) -> R): List<R>? = value?.map(transform)
