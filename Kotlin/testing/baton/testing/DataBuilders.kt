package baton.testing

import baton.runtime.Json
import baton.runtime.JsonNumber

/**
 * A field's value in a test data builder: a value, null, a field error, or left out of the response. A builder's
 * property of this type left `null` is filled by the default resolver (what the schema says is non-null gets a
 * deterministic value, the rest is null). [built] makes a value: `title = built("Crash")`.
 * The same as `BatonTesting.BuiltField` in Swift.
 */
sealed class BuiltField<out T> {
    /** The value. */
    class Value<out T>(val value: T) : BuiltField<T>()

    /** `null` in `data`. */
    object Null : BuiltField<Nothing>()

    /** A field error: `null` in `data` and an entry in `errors` with the message, the field's path and extensions. */
    class Error @JvmOverloads constructor(val message: String, val extensions: Map<String, Any?> = emptyMap()) :
        BuiltField<Nothing>()

    /** Left out of `data`: the store has no value there (missing data, which the runtime reports and heals). */
    object Missing : BuiltField<Nothing>()
}

/** A field's value: `built("Crash")`, `built(listOf(built(Nodes())))`. */
fun <T> built(value: T): BuiltField<T> = BuiltField.Value(value)

/** A generated builder of one selection's data: an object of the response. */
interface DataBuilder {
    /**
     * The builder's object. [parent] is the record's `__typename` when a parent builder decided it (a spread's or an
     * inline fragment's builder takes its parent's); null lets the builder decide.
     */
    fun buildObject(context: BuildContext, parent: String?): BuiltObject
}

/** A generated builder of an operation's data: what [resolve] answers the operation with. */
interface OperationDataBuilder : DataBuilder {
    /** The operation's GraphQL name, which the mock answers. */
    val operationName: String
}

/**
 * The response [builder] makes: `data` (the root without `__typename`, which operations do not select) and the field
 * errors built into it, filled by [resolver].
 */
@JvmOverloads
fun response(builder: OperationDataBuilder, resolver: BuilderResolver = BuilderResolver()): BuiltResponse {
    val context = BuildContext(resolver)
    val root = builder.buildObject(context, null)
    root.removeTypename()
    return BuiltResponse(root)
}

/** Answers the most recent pending request of [builder]'s operation with the response it builds. */
@JvmOverloads
fun MockEnvironment.resolve(builder: OperationDataBuilder, resolver: BuilderResolver = BuilderResolver()) {
    val built = response(builder, resolver)
    resolve(builder.operationName, built.data, built.errors)
}

/**
 * What fills a field a builder leaves unset, replaceable by a test: deterministic by default. [id] makes an `ID`
 * (`Type:n`, counted from 1 per `__typename` within one response); [scalar] a scalar by its GraphQL name and the
 * field's name (`String` the field's name, `Int` 0, `Float` 0.0, `Boolean` false, a custom scalar its name as text);
 * [enumValue] an enum's value (its first in schema order).
 */
class BuilderResolver @JvmOverloads constructor(
    val id: (String, Int) -> Any? = { typename, number -> "$typename:$number" },
    val scalar: (String, String) -> Any? = ::standardScalar,
    val enumValue: (String, String) -> String = { _, first -> first }
) {
    companion object {
        /** The standard samples. */
        @JvmStatic
        fun standardScalar(scalar: String, field: String): Any? = when (scalar) {
            "String" -> field
            "Int" -> JsonNumber("0")
            "Float" -> JsonNumber("0.0")
            "Boolean" -> false
            else -> scalar
        }
    }
}

/** The state of one build: the resolver and the numbers given out per type. */
class BuildContext(val resolver: BuilderResolver) {
    private val numbers = HashMap<String, Int>()

    /** The next `ID` of a record of [typename]. */
    fun nextId(typename: String): Any? {
        val number = (numbers[typename] ?: 0) + 1
        numbers[typename] = number
        return resolver.id(typename, number)
    }

    companion object {
        /**
         * A builder's `__typename`: its parent's when the parent decided it, else the one the test gave, else the
         * first type the first set narrowing part (a spread or inline fragment on some types) applies to, else
         * [standard].
         */
        @JvmStatic
        fun typename(parent: String?, given: String?, narrowing: List<BuilderNarrowing>, standard: String): String {
            if (parent != null) return parent
            if (given != null) return given
            for (part in narrowing) {
                if (part.isSet && part.types.isNotEmpty()) return part.types[0]
            }
            return standard
        }
    }
}

/** A spread or inline fragment on some types, and whether the test set it: what can name a record's `__typename`. */
class BuilderNarrowing(val isSet: Boolean, val types: List<String>)

/** What a field a builder leaves unset holds (`TestBuilderShape.Fill`, spelled by the generated builder). */
sealed class BuilderFill {
    object Null : BuilderFill()
    object EmptyList : BuilderFill()
    object Id : BuilderFill()
    class Scalar(val scalar: String, val field: String) : BuilderFill()
    class EnumValue(val enumName: String, val first: String) : BuilderFill()
    class Object(val builder: DataBuilder) : BuilderFill()
}

/** One value of a response being built. */
sealed class BuiltNode {
    /** A scalar (as [Json.write] takes it), or null. */
    class Value(val json: Any?) : BuiltNode()
    class Object(val value: BuiltObject) : BuiltNode()
    class ListNode(val items: List<BuiltNode>) : BuiltNode()

    /** A field error: null in `data`, and an error at the field's path. */
    class Error(val message: String, val extensions: Map<String, Any?>) : BuiltNode()

    /** Left out of the response. */
    object Missing : BuiltNode()

    companion object {
        /** [value] (a `BuiltField`, a list, a builder or a scalar) as a node. */
        @JvmStatic
        fun of(value: Any?, context: BuildContext): BuiltNode = when (value) {
            is BuiltField.Value<*> -> of(value.value, context)
            is BuiltField.Null -> Value(null)
            is BuiltField.Error -> Error(value.message, value.extensions)
            is BuiltField.Missing -> Missing
            is DataBuilder -> Object(value.buildObject(context, null))
            is List<*> -> ListNode(value.map { of(it, context) })
            is Double -> Value(if (value.isNaN() || value.isInfinite()) null else JsonNumber(value.toString()))
            else -> Value(value)
        }
    }
}

/**
 * An object of a response being built: its members in order, each set by the test or filled by default. Builders of
 * one record are merged member by member as Swift's `BuiltObject` merges them: a member the test set wins over a
 * filled one; two objects merge; two lists of one length merge item by item; otherwise the first written stays; a
 * filled member's nested builder completes a value set by another builder.
 */
class BuiltObject private constructor(internal val members: ArrayList<Member>) {
    internal class Member(val key: String, var node: BuiltNode, var isSet: Boolean, var template: DataBuilder?)

    /** An object whose `__typename` is [typename] ([isSet] when the test gave it). */
    constructor(typename: String, isSet: Boolean) :
        this(arrayListOf(Member("__typename", BuiltNode.Value(typename), isSet, null)))

    internal fun removeTypename() {
        members.removeAll { it.key == "__typename" }
    }

    /** The `__typename` member's text. */
    internal val typename: String?
        get() = (members.firstOrNull { it.key == "__typename" }?.node as? BuiltNode.Value)?.json as? String

    /** Writes the field [key]: [value] when the test set it, otherwise [fill]; [template] is its nested builder. */
    @JvmOverloads
    fun field(key: String, value: BuiltField<*>?, context: BuildContext, fill: BuilderFill, template: DataBuilder? = null) {
        if (value != null) {
            add(Member(key, BuiltNode.of(value, context), true, template), context)
            return
        }
        val node: BuiltNode = when (fill) {
            is BuilderFill.Null -> BuiltNode.Value(null)
            is BuilderFill.EmptyList -> BuiltNode.ListNode(emptyList())
            is BuilderFill.Id -> BuiltNode.Value(context.nextId(typename ?: ""))
            is BuilderFill.Scalar -> BuiltNode.Value(context.resolver.scalar(fill.scalar, fill.field))
            is BuilderFill.EnumValue -> BuiltNode.Value(context.resolver.enumValue(fill.enumName, fill.first))
            is BuilderFill.Object -> BuiltNode.Object(fill.builder.buildObject(context, null))
        }
        add(Member(key, node, false, template), context)
    }

    /**
     * Merges a spread's or an inline fragment's builder: [value] when the test set it, otherwise [standard] when the
     * part applies to [typename] ([appliesTo] null: to every record).
     */
    fun spread(value: DataBuilder?, standard: DataBuilder, appliesTo: List<String>?, typename: String, context: BuildContext) {
        if (value != null) {
            merge(value.buildObject(context, typename), context)
        } else if (appliesTo == null || appliesTo.contains(typename)) {
            merge(standard.buildObject(context, typename), context)
        }
    }

    internal fun merge(other: BuiltObject, context: BuildContext) {
        for (member in other.members) add(member, context)
    }

    private fun add(member: Member, context: BuildContext) {
        val index = members.indexOfFirst { it.key == member.key }
        if (index < 0) {
            members.add(Member(member.key, member.node, member.isSet, member.template))
            return
        }
        members[index] = merged(members[index], member, context)
    }

    private companion object {
        fun merged(first: Member, second: Member, context: BuildContext): Member {
            val template = first.template ?: second.template
            if (first.isSet == second.isSet) {
                return Member(first.key, mergedNodes(first.node, second.node, context), first.isSet, template)
            }
            val set = if (first.isSet) first else second
            val filled = if (first.isSet) second else first
            return Member(first.key, completed(set.node, filled.node, filled.template, context), true, template)
        }

        fun mergedNodes(first: BuiltNode, second: BuiltNode, context: BuildContext): BuiltNode {
            if (first is BuiltNode.Object && second is BuiltNode.Object) {
                val copy = first.value.copy()
                copy.merge(second.value, context)
                return BuiltNode.Object(copy)
            }
            if (first is BuiltNode.ListNode && second is BuiltNode.ListNode && first.items.size == second.items.size) {
                val merged = ArrayList<BuiltNode>()
                for (index in first.items.indices) merged.add(mergedNodes(first.items[index], second.items[index], context))
                return BuiltNode.ListNode(merged)
            }
            return first
        }

        fun completed(set: BuiltNode, filled: BuiltNode, template: DataBuilder?, context: BuildContext): BuiltNode {
            if (set is BuiltNode.Object) {
                val copy = set.value.copy()
                if (filled is BuiltNode.Object) {
                    copy.merge(filled.value, context)
                } else if (template != null) {
                    copy.merge(template.buildObject(context, copy.typename), context)
                }
                return BuiltNode.Object(copy)
            }
            if (set is BuiltNode.ListNode) {
                if (template == null) return set
                val items = ArrayList<BuiltNode>()
                for (item in set.items) items.add(completed(item, BuiltNode.Missing, template, context))
                return BuiltNode.ListNode(items)
            }
            return set
        }
    }

    /** A copy whose member list can change without changing this one's (a value, as Swift's struct is). */
    private fun copy(): BuiltObject =
        BuiltObject(ArrayList(members.map { Member(it.key, it.node, it.isSet, it.template) }))
}

/** A built response: [data] as JSON text and the field [errors] built into it, at their paths. */
class BuiltResponse internal constructor(root: BuiltObject) {
    /** `data`'s JSON text, members in selection order. */
    val data: String

    /** The field errors, in the order their fields appear in `data`. */
    val errors: List<MockFieldError>

    init {
        val found = ArrayList<MockFieldError>()
        data = Json.write(json(BuiltNode.Object(root), emptyList(), found))
        errors = found
    }

    /** The response body: `{"data": …, "errors": […]}` (no `errors` when there are none). */
    val body: String
        get() {
            val text = StringBuilder("{\"data\":").append(data)
            if (errors.isNotEmpty()) text.append(",\"errors\":").append(Json.write(errors.map { it.json() }))
            return text.append("}").toString()
        }

    private companion object {
        fun json(node: BuiltNode, path: List<Any>, errors: MutableList<MockFieldError>): Any? = when (node) {
            is BuiltNode.Value -> node.json
            is BuiltNode.Missing -> null
            is BuiltNode.Error -> {
                errors.add(MockFieldError(node.message, path, node.extensions))
                null
            }
            is BuiltNode.ListNode -> node.items.mapIndexed { index, item -> json(item, path + index, errors) }
            is BuiltNode.Object -> {
                val result = LinkedHashMap<String, Any?>()
                for (member in node.value.members) {
                    if (member.node is BuiltNode.Missing) continue
                    result[member.key] = json(member.node, path + member.key, errors)
                }
                result
            }
        }
    }
}
