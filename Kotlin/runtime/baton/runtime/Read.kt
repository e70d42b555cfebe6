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
