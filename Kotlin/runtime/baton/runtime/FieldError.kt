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

    /** The error as a response's `errors` entry: `message`, then `path`, `locations` and `extensions` when set. */
    fun toJson(): Map<String, Any?> {
        val entry = LinkedHashMap<String, Any?>()
        entry["message"] = message
        if (path != null) {
            entry["path"] = path.map<PathComponent, Any> { component ->
                when (component) {
                    is PathComponent.Key -> component.name
                    is PathComponent.Index -> JsonNumber(component.index.toString())
                }
            }
        }
        if (locations.isNotEmpty()) {
            entry["locations"] = locations.map {
                linkedMapOf<String, Any?>("line" to JsonNumber(it.line.toString()), "column" to JsonNumber(it.column.toString()))
            }
        }
        if (extensions != null) entry["extensions"] = extensions
        return entry
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
    RuntimeException("required field ${pathText(path)} is null")

/** A read under `@throwOnFieldError` met field errors no `@catch` handled. */
class FieldErrorsException(val errors: FieldErrors) : RuntimeException("field errors: $errors")

/** A read under `@throwOnFieldError` found no value stored for the field (reported as missing data too). */
class MissingDataException(val path: List<PathComponent>) : RuntimeException("missing data at ${pathText(path)}")

/** A read under `@throwOnFieldError` found a value its type cannot hold, such as a null in a non-null field. */
class UnexpectedValueException(val path: List<PathComponent>, val reason: String) :
    RuntimeException("unexpected value at ${pathText(path)}: $reason")

/** A response with `errors` and no `data`: the request failed as a whole and nothing was committed. */
class RequestFailedException(val errors: FieldErrors) : RuntimeException("request failed: $errors")
