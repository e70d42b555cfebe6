package baton.runtime

/**
 * A response path built one step at a time, sharing its parent (a child lens costs one small object), dotted
 * when printed: `repository.issues.nodes.0.author`.
 */
class ResponsePath(val parent: ResponsePath?, val component: PathComponent) {
    /** The components from the root. */
    val components: List<PathComponent>
        get() {
            val result = ArrayList<PathComponent>()
            var node: ResponsePath? = this
            while (node != null) {
                result.add(node.component)
                node = node.parent
            }
            result.reverse()
            return result
        }

    override fun toString(): String = pathText(components)

    override fun equals(other: Any?): Boolean =
        other is ResponsePath && other.component == component && other.parent == parent

    override fun hashCode(): Int = component.hashCode() * 31 + (parent?.hashCode() ?: 0)

    companion object {
        /** [parent] and then the response key [key]. */
        fun key(parent: ResponsePath?, key: String): ResponsePath = ResponsePath(parent, PathComponent.Key(key))

        /** [parent] and then the list index [index]. */
        fun index(parent: ResponsePath?, index: Int): ResponsePath = ResponsePath(parent, PathComponent.Index(index))

        /** The dotted text of [path], empty at the root. */
        fun text(path: ResponsePath?): String = path?.toString() ?: ""
    }
}

/**
 * What a read noticed that the app should hear about, with the Swift runtime's payloads (Docs/Runtime.md).
 */
sealed class ReadEvent {
    /** The store has no slot for a field: the read gave null (or a zero). The environment heals it. */
    data class MissingData(val type: String, val field: String, val record: String, val path: String) : ReadEvent()

    /** A value the generated type cannot hold: a null in a non-null field, a text that does not convert. */
    data class UnexpectedValue(val type: String, val field: String, val reason: String, val path: String) : ReadEvent()

    /** A field under `@required(action: LOG)` read null; the null bubbled to the lens boundary. */
    data class RequiredFieldNull(val path: String) : ReadEvent()

    /** The event as the log prints it: `missingData {"type":"Location","field":"dimension"}`. */
    fun toLogEvent(): LogEvent = when (this) {
        is MissingData -> LogEvent("missingData", linkedMapOf<String, Any?>("type" to type, "field" to field))
        is UnexpectedValue -> LogEvent(
            "unexpectedValue",
            linkedMapOf<String, Any?>("type" to type, "field" to field, "reason" to reason, "path" to path)
        )
        is RequiredFieldNull -> LogEvent("requiredFieldNull", linkedMapOf<String, Any?>("path" to path))
    }
}

/** Receives what reads notice. Handles give their lenses one that writes to the environment's log. */
interface ReadReporter {
    /** Called once per event, on the reading thread. */
    fun report(event: ReadEvent)

    companion object {
        /** A reporter that drops every event. */
        val SILENT: ReadReporter = object : ReadReporter {
            override fun report(event: ReadEvent) {}
        }
    }
}

/** A reporter that keeps every event in order, for tests and tools. Thread-safe. */
class CollectingReporter : ReadReporter {
    private val storage = ArrayList<ReadEvent>()

    override fun report(event: ReadEvent) {
        synchronized(storage) { storage.add(event) }
    }

    /** The events so far. */
    val events: List<ReadEvent> get() = synchronized(storage) { ArrayList(storage) }

    /** The events so far, removing them. */
    fun take(): List<ReadEvent> = synchronized(storage) {
        val taken = ArrayList(storage)
        storage.clear()
        taken
    }
}

/** What every read of one operation shares: the snapshot, the variables and where to report. */
class ReadContext(
    val snapshot: StoreSnapshot,
    val variables: Map<String, Any?>,
    val reporter: ReadReporter = ReadReporter.SILENT
) {
    /** Where the last `@required` null came from (per thread), so a null that keeps bubbling names its origin. */
    private val bubbled = ThreadLocal<ResponsePath?>()

    internal var bubbledFrom: ResponsePath?
        get() = bubbled.get()
        set(value) = bubbled.set(value)

    /** Whether every condition holds under the variables. */
    fun included(conditions: List<Condition>): Boolean = conditions.isEmpty() || conditions.all { it.holds(variables) }
}

/**
 * Turns a stored, non-null value into the generated type.
 *
 * Returns `null` when the type cannot hold the value; the decoder has then reported why (an unexpected
 * value) or the null is a `@required` null bubbling to the lens boundary.
 */
abstract class Decoder<out T : Any> {
    /** Decodes [value] (never [StoredValue.Null]) read for [field] at [path] through [reader]. */
    abstract fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: ResponsePath): T?

    /**
     * The value when [decode] would give it without reporting anything, or null to take [decode]: the read's fast
     * path, which builds no path. A decoder that implements it gives exactly what its [decode] gives.
     */
    open fun decodeQuietly(value: StoredValue): T? = null

    /**
     * What a non-optional accessor reads when there is no value: the zero value of a built-in scalar, an
     * empty list, an enum's `Undeclared("")`, a lens over no record; null for a mapped custom scalar, which
     * has no honest zero.
     */
    open fun zero(reader: RecordReader): T? = null

    /** For a list level, the decoder of its items; null for anything else. */
    open fun listElement(): Decoder<*>? = null
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

    override fun listElement(): Decoder<*>? = element

    override fun decodeQuietly(value: StoredValue): List<T>? {
        val items = (value as? StoredValue.Items)?.items ?: return null
        val result = ArrayList<T>(items.size)
        for (item in items) result.add(element.decodeQuietly(item) ?: return null)
        return result
    }

    override fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: ResponsePath): List<T>? {
        val items = (value as? StoredValue.Items)?.items
            ?: return reader.unexpected(field, path, "expected a list, found ${describe(value)}")
        val result = ArrayList<T>(items.size)
        for ((index, item) in items.withIndex()) {
            if (isDeletedItem(item, reader)) continue
            val decoded = decodeItem(element, itemNonNull, item, reader, field, ResponsePath.index(path, index))
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

    override fun listElement(): Decoder<*>? = element

    override fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: ResponsePath): List<T?>? {
        val items = (value as? StoredValue.Items)?.items
            ?: return reader.unexpected(field, path, "expected a list, found ${describe(value)}")
        val result = ArrayList<T?>(items.size)
        for ((index, item) in items.withIndex()) {
            if (isDeletedItem(item, reader)) continue
            result.add(decodeItem(element, itemNonNull, item, reader, field, ResponsePath.index(path, index)))
        }
        return result
    }
}

/** An item deleted by `@deleteRecord`: gone from the list, not a null in it. */
private fun isDeletedItem(item: StoredValue, reader: RecordReader): Boolean =
    item is StoredValue.Link && reader.context.snapshot[item.key]?.isDeleted == true

private fun <T : Any> decodeItem(
    element: Decoder<T>, itemNonNull: Boolean, item: StoredValue, reader: RecordReader, field: Field<*>,
    path: ResponsePath
): T? {
    if (item !is StoredValue.Null) return element.decode(item, reader, field, path)
    if (itemNonNull && !reader.slotHasErrors(field)) reader.unexpected<T>(field, path, "null in a non-null list item")
    return null
}

/** A stored value as a report shows it, as the Swift runtime does: `string "old"`, `number 12.5`, `an object`. */
fun describe(value: StoredValue): String = when (value) {
    is StoredValue.Null -> "null"
    is StoredValue.Text -> "string \"" + value.text.take(40) + "\""
    is StoredValue.Number -> "number " + value.literal
    is StoredValue.Bool -> "boolean " + value.value
    is StoredValue.JsonText -> "a JSON value"
    is StoredValue.Link -> "an object"
    is StoredValue.Items -> "a list"
}

/**
 * A scalar decoder: the stored value turned into [T] by [convert], which returns null (or throws) when it
 * cannot; [zeroValue] is the zero value, if the type has one; [reason] says why a value does not fit.
 */
class TextDecoder<out T : Any>(
    private val zeroValue: T?,
    private val reason: (StoredValue) -> String,
    private val convert: (StoredValue) -> T?
) : Decoder<T>() {
    /** A decoder whose failures read `expected <what>, found <the value>`. */
    constructor(what: String, zeroValue: T?, convert: (StoredValue) -> T?) :
        this(zeroValue, { value: StoredValue -> "expected $what, found ${describe(value)}" }, convert)

    override fun zero(reader: RecordReader): T? = zeroValue

    override fun decodeQuietly(value: StoredValue): T? = try {
        convert(value)
    } catch (error: Exception) {
        null
    }

    override fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: ResponsePath): T? =
        decodeQuietly(value) ?: reader.unexpected(field, path, reason(value))
}

/** A lens of a composite type: a link decodes to [factory]'s lens over the linked record. */
class LensDecoder<out T : Any>(private val factory: (RecordReader) -> T) : Decoder<T>() {
    override fun zero(reader: RecordReader): T? = factory(reader.absent())

    override fun decode(value: StoredValue, reader: RecordReader, field: Field<*>, path: ResponsePath): T? {
        val link = value as? StoredValue.Link
            ?: return reader.unexpected(field, path, "expected an object, found ${describe(value)}")
        // A record deleted by `@deleteRecord`: the link reads as null.
        if (reader.context.snapshot[link.key]?.isDeleted == true) return null
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

    /**
     * A mapped custom scalar: its text converted by [converter]; a text that does not convert is unexpected
     * (`"year x" does not convert to Years`) and never reads as a zero.
     */
    fun <T : Any> custom(converter: ScalarConverter<T>): Decoder<T> {
        val name = converter.javaClass.simpleName
        return TextDecoder<T>(
            null,
            { value ->
                when (value) {
                    is StoredValue.Text -> "\"${value.text.take(40)}\" does not convert to $name"
                    is StoredValue.Number -> "\"${value.literal.take(40)}\" does not convert to $name"
                    else -> "expected a $name text, found ${describe(value)}"
                }
            },
            { value -> text(value)?.let { converter.decode(it) } }
        )
    }

    /** An enum: the text parsed by [parse] (generated enums keep unknown texts as `Undeclared`). */
    fun <T : Any> enumeration(parse: (String) -> T): Decoder<T> =
        TextDecoder("an enum value", parse("")) { (it as? StoredValue.Text)?.text?.let(parse) }
}

/**
 * A view of one record through one selection, over one snapshot: what generated lenses read through.
 *
 * [key] is the record's key, or null for a lens that stands in where no record could be read (every read
 * then gives null, so non-null accessors give their zero values). How each accessor reads (plain, `@catch`,
 * `@required(action: THROW)`, `@throwOnFieldError`) is the plan's decision, printed into the accessor's call.
 *
 * Two readers are equal when they read the same record of the same snapshot with the same variables and
 * policy, so generated lenses (which compare their readers) work as Compose state and in a `StateFlow`.
 */
class RecordReader(
    val context: ReadContext,
    val key: String?,
    val path: ResponsePath?
) {
    /** The record, read once from the immutable snapshot. */
    val record: Record? = if (key == null) null else context.snapshot[key]

    /** True when a mutation's `@deleteRecord` deleted the record: its fields read null and nothing is missing. */
    val isDeleted: Boolean get() = record?.isDeleted == true

    /** True when an optimistic update (a mutation's optimistic response, not yet answered) wrote this record. */
    val isOptimistic: Boolean get() = key != null && key in context.snapshot.optimisticRecords

    /** The record's type name (its `__typename`, or the type it was stored as), when known. */
    val typename: String? get() = record?.typename ?: key?.substringBefore(':')

    /** A reader of the record [childKey] at [childPath]. */
    fun child(childKey: String, childPath: ResponsePath): RecordReader = RecordReader(context, childKey, childPath)

    /** A reader of no record, for a non-null lens accessor whose record could not be read. */
    fun absent(): RecordReader = RecordReader(context, null, path)

    /**
     * What a generated lens class extends: its [reader], and equality by class and reader (a lens equals a lens of
     * the same class reading the same record of the same store snapshot), so lenses work as Compose state and in a
     * `StateFlow`. Declared once here rather than in every lens class, which keeps the compile of generated code
     * down. Nested in [RecordReader] so that no generated type has to avoid its name.
     */
    abstract class Lens(@JvmField protected val reader: RecordReader) {
        /** Equal to a lens of this class reading the same record of the same store snapshot. */
        override fun equals(other: Any?): Boolean =
            other != null && other.javaClass == javaClass && (other as Lens).reader == reader

        override fun hashCode(): Int = reader.hashCode()
    }

    override fun equals(other: Any?): Boolean =
        other is RecordReader && other.key == key &&
            other.context.snapshot == context.snapshot && other.context.variables == context.variables

    override fun hashCode(): Int = (key?.hashCode() ?: 0) * 31 + context.snapshot.hashCode()

    /** Reports [detail] about [field] at [path] as an unexpected value; returns null for convenience. */
    fun <T> unexpected(field: Field<*>, path: ResponsePath, detail: String): T? {
        context.reporter.report(ReadEvent.UnexpectedValue(typename ?: "?", field.name, detail, path.toString()))
        return null
    }

    /** Whether [field]'s slot carries field errors. */
    fun slotHasErrors(field: Field<*>): Boolean =
        record?.slots?.get(field.readKey(context.variables))?.errors?.isNotEmpty() == true

    private fun slot(field: Field<*>, report: Boolean): Slot? {
        if (key == null) return null
        val storageKey = field.readKey(context.variables)
        val slot = record?.slots?.get(storageKey)
        // A deleted record's fields are gone, not missing: nothing is reported.
        if (slot == null && report && record?.isDeleted != true) {
            context.reporter.report(
                ReadEvent.MissingData(typename ?: "?", field.name, key, ResponsePath.key(path, field.responseKey).toString())
            )
        }
        return slot
    }

    /**
     * Reads [field]: its value, or null when it is excluded, missing (reported), null, has a field error, or
     * does not fit the type (reported).
     */
    fun <T : Any> read(field: Field<T>): T? {
        if (!context.included(field.conditions)) return null
        val slot = slot(field, report = true) ?: return null
        if (slot.errors.isEmpty() && slot.value !is StoredValue.Null) {
            val quiet = field.decoder.decodeQuietly(slot.value)
            if (quiet != null) return quiet
        }
        if (slot.errors.isNotEmpty() && slot.value is StoredValue.Null) return null
        val fieldPath = ResponsePath.key(path, field.responseKey)
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
            (if (bubbled != null && !isOwnNull(field)) bubbled else ResponsePath.key(path, field.responseKey)).components
        )
    }

    /**
     * Reads a field whose accessor is not optional: its value, or the decoder's zero value when there is none
     * (the null was reported as unexpected, or is a field error or missing data, also reported). A mapped
     * custom scalar has no zero: then the read throws [RequiredFieldException].
     */
    fun <T : Any> readNonNull(field: Field<T>): T =
        read(field) ?: field.decoder.zero(this)
            ?: throw RequiredFieldException(ResponsePath.key(path, field.responseKey).components)

    /**
     * Reads a field under `@throwOnFieldError` (no `@catch` closer), as the Swift runtime's `Lens.strict`: null when
     * it is excluded or holds null; a field error throws [FieldErrorsException]; missing data is reported and throws
     * [MissingDataException]; a value the type cannot hold is reported and reads null.
     */
    fun <T : Any> readStrict(field: Field<T>): T? = strictRead(field, nonNull = false)

    /** [readStrict] for an accessor that is not optional: a null, or a value the type cannot hold, is reported and
     * throws [UnexpectedValueException]. */
    fun <T : Any> readStrictNonNull(field: Field<T>): T {
        val fieldPath = ResponsePath.key(path, field.responseKey)
        return strictRead(field, nonNull = true)
            ?: throw UnexpectedValueException(fieldPath.components, "a field that is not included read as non-null")
    }

    private fun <T : Any> strictRead(field: Field<T>, nonNull: Boolean): T? {
        if (!context.included(field.conditions)) return null
        val fieldPath = ResponsePath.key(path, field.responseKey)
        val slot = slot(field, report = true) ?: throw MissingDataException(fieldPath.components)
        if (slot.errors.isNotEmpty()) throw FieldErrorsException(FieldErrors(slot.errors))
        if (slot.value is StoredValue.Null) {
            if (!nonNull) return null
            unexpected<T>(field, fieldPath, "null in a non-null field")
            throw UnexpectedValueException(fieldPath.components, "null in a non-null field")
        }
        val quiet = field.decoder.decodeQuietly(slot.value)
        if (quiet != null) return quiet
        val decoded = field.decoder.decode(slot.value, this, field, fieldPath)
        if (decoded == null && nonNull) throw UnexpectedValueException(fieldPath.components, "a value its type cannot hold")
        return decoded
    }

    /**
     * Reads a `@catch` field: [Failure][FieldResult.Failure] with the errors stored on the field or on any
     * field inside it that no other `@catch` handles, otherwise [Success][FieldResult.Success] with what
     * [read] gives (evaluated without `@throwOnFieldError`, as there is nothing left to throw).
     */
    fun <R> catching(field: Field<*>, read: (RecordReader) -> R): FieldResult<R> {
        val errors = if (context.included(field.conditions)) fieldErrors(field) else emptyList()
        return if (errors.isNotEmpty()) FieldResult.Failure(FieldErrors(errors)) else FieldResult.Success(read(this))
    }

    /** Reads a `@catch(to: NULL)` field: null when it or a field inside it has errors, else what [read] gives. */
    fun <R> catchingToNull(field: Field<*>, read: (RecordReader) -> R?): R? {
        val errors = if (context.included(field.conditions)) fieldErrors(field) else emptyList()
        return if (errors.isNotEmpty()) null else read(this)
    }

    /** The lens of an inline fragment when the record's type matches, else null. */
    fun <T : Any> inlineFragment(fragment: InlineFragment<T>): T? {
        if (!context.included(fragment.conditions)) return null
        if (!typeMatches(record?.typename, fragment.possibleTypes)) return null
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
        if (!typeMatches(record?.typename, spread.possibleTypes)) return null
        if (key != null && record == null) {
            context.reporter.report(ReadEvent.MissingData("?", "...${spread.fragmentName}", key, ResponsePath.text(path)))
            return null
        }
        val reader = this
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

    /** A named fragment's spread under `@defer`: its phase, or null where [fragment] would be (Incremental.kt). */
    fun <T : Any> deferred(spread: FragmentSpread<T>, label: String?): DeferredPhase<T>? = deferredSpreadPhase(spread, label)

    /** An inline fragment under `@defer`: its phase, or null where [inlineFragment] would be. */
    fun <T : Any> deferredInline(fragment: InlineFragment<T>, label: String?): DeferredPhase<T>? =
        deferredInlinePhase(fragment, label)

    /** A list under `@stream`: [items] as the plain read gave them, whether more are coming, the initial count. */
    fun <V> streamed(field: Field<*>, initialCount: StreamCount, items: V): Streamed<V> =
        streamedList(field, initialCount, items)

    /** The lens of a fragment spread whose accessor is not optional; a lens over no record when it cannot read. */
    fun <T : Any> fragmentNonNull(spread: FragmentSpread<T>): T =
        fragment(spread) ?: spread.factory(absent())

    private fun isOwnNull(field: Field<*>): Boolean {
        val slot = slot(field, report = false) ?: return true
        return slot.value is StoredValue.Null
    }

    /**
     * The path of the first `@required(action: NONE|LOG)` field among [selections] that reads null (logging
     * it under LOG), or null when every one has a value. Inline fragments and fragment spreads are lens
     * boundaries of their own and are not entered.
     */
    fun missingRequired(selections: List<Selection>): ResponsePath? {
        if (key == null) return null
        loop@ for (selection in selections) {
            val field = selection as? Field<*> ?: continue@loop
            val action = field.required ?: continue@loop
            if (action == RequiredAction.THROW || !context.included(field.conditions)) continue@loop
            context.bubbledFrom = null
            if (read(field) != null) continue@loop
            val bubbled = context.bubbledFrom
            if (bubbled != null && !isOwnNull(field)) return bubbled
            val fieldPath = ResponsePath.key(path, field.responseKey)
            if (action == RequiredAction.LOG) context.reporter.report(ReadEvent.RequiredFieldNull(fieldPath.toString()))
            return fieldPath
        }
        return null
    }

    /**
     * The errors a `@catch` on [field] catches: those stored on it and, for a composite field, on the fields inside
     * it (through links, list items and the inline fragments the record matches) that no closer `@catch` catches,
     * outside fragment spreads; and a required-field error for each `@required(action: THROW)` field inside that
     * reads null (`required field character.origin.name is null`, with its path), after that field's own errors,
     * as Relay's `@catch` catches a THROW. The Swift runtime's `CaughtErrors.of` is the same walk, in the same order.
     */
    fun fieldErrors(field: Field<*>): List<FieldError> {
        val slot = slot(field, report = false) ?: return emptyList()
        val errors = ArrayList(slot.errors)
        if (field.isComposite) ErrorWalk(true).collect(slot.value, field.selections, ResponsePath.key(path, field.responseKey), 0, errors)
        return errors
    }

    /**
     * The field errors among [selections] (recursively) that no `@catch` handles, outside fragment spreads (each
     * fragment's own policy answers for those, as in Relay): what `@throwOnFieldError` fails on. A THROW null is
     * not among them; it throws at its own getter. The Swift runtime's `CaughtErrors.uncaught`.
     */
    fun uncaughtErrors(selections: List<Selection>): List<FieldError> {
        val errors = ArrayList<FieldError>()
        if (key != null) ErrorWalk(false).collectInRecord(key, selections, path, 0, errors)
        return errors
    }

    /** One walk of [fieldErrors] or [uncaughtErrors]; [requiredNulls] counts THROW nulls (under `@catch`). */
    private inner class ErrorWalk(private val requiredNulls: Boolean) {
        /** Reads THROW fields as their getters would, reporting nothing (the getter reports when the app reads it). */
        private val silent: ReadContext by lazy { ReadContext(context.snapshot, context.variables) }

        fun collectInRecord(
            recordKey: String, selections: List<Selection>, at: ResponsePath?, depth: Int, into: MutableList<FieldError>
        ) {
            if (depth > Json.MAX_DEPTH) return
            val record = context.snapshot[recordKey] ?: return
            loop@ for (selection in selections) {
                when (selection) {
                    is Field<*> -> {
                        if (selection.catches || !context.included(selection.conditions)) continue@loop
                        val fieldPath = ResponsePath.key(at, selection.responseKey)
                        val slot = record.slots[selection.storageKey(context.variables)]
                        if (slot != null) into.addAll(slot.errors)
                        if (requiredNulls && selection.required == RequiredAction.THROW &&
                            RecordReader(silent, recordKey, fieldPath.parent).read(selection) == null
                        ) {
                            into.add(FieldError("required field $fieldPath is null", fieldPath.components))
                        }
                        if (slot != null && selection.isComposite) {
                            collect(slot.value, selection.selections, fieldPath, depth + 1, into)
                        }
                    }
                    is InlineFragment<*> -> if (typeMatches(record.typename, selection.possibleTypes) && context.included(selection.conditions)) {
                        collectInRecord(recordKey, selection.selections, at, depth + 1, into)
                    }
                    is FragmentSpread<*> -> Unit
                }
            }
        }

        fun collect(value: StoredValue, selections: List<Selection>, at: ResponsePath, depth: Int, into: MutableList<FieldError>) {
            if (depth > Json.MAX_DEPTH) return
            when (value) {
                is StoredValue.Link -> collectInRecord(value.key, selections, at, depth + 1, into)
                is StoredValue.Items -> for ((index, item) in value.items.withIndex()) {
                    collect(item, selections, ResponsePath.index(at, index), depth + 1, into)
                }
                else -> Unit
            }
        }
    }
}
