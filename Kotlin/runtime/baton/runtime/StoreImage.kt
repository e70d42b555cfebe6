package baton.runtime

import java.io.File
import java.io.IOException
import java.math.BigDecimal
import java.math.MathContext
import java.math.RoundingMode

/** Why an image was not loaded or saved; [message] is the Swift runtime's text for it. */
class ImageException(val kind: Kind, message: String) : RuntimeException(message) {
    /** The kinds of failure. */
    enum class Kind {
        /** No image file (a first launch): not a failure worth logging. */
        ABSENT,

        /** The file is not a Baton image, or its body does not match its header (corrupt or truncated). */
        CORRUPT,

        /** An image written by a newer Baton. */
        FUTURE_VERSION,

        /** The file could not be read or written. */
        IO
    }

    companion object {
        internal fun corrupt(reason: String) = ImageException(Kind.CORRUPT, "corrupt image: $reason")
    }
}

/**
 * The store's image: every record with its slots, errors and age, in one file, in the Swift runtime's format,
 * so an image either runtime writes, the other reads, and the same records give the same bytes.
 *
 * The file is a header line `BATON-IMAGE <version> <body bytes> <FNV-1a 64 of the body, hex>` and a JSON body
 * `{"records":{"Character:1":{"t":"Character","u":1700000000.5,"i":false,"s":{…}}}}` where a slot is
 * `{"v":value,"e":[errors]}` and a value is `null`, `true`/`false`, `{"s":text}`, `{"n":literal}`, `{"j":json}`,
 * `{"l":key}` or a list. Records and slots are sorted by key; `u` is written as Swift prints a `Double`. The
 * length and checksum catch truncation and corruption; the whole image is decoded before the store sees any of
 * it, so a bad image never half-loads.
 */
object StoreImage {
    /** The format version this build writes and reads. */
    const val VERSION: Int = 1

    private const val MAGIC = "BATON-IMAGE"

    /** [records] as an image file's bytes. */
    fun encode(records: Map<String, Record>): ByteArray {
        val recordsObject = LinkedHashMap<String, Any?>()
        for (key in sortedKeys(records.keys)) {
            val record = records[key] ?: continue
            recordsObject[key] = recordObject(record, markDeleted = false)
        }
        val body = Json.write(linkedMapOf<String, Any?>("records" to recordsObject)).toByteArray(Charsets.UTF_8)
        val header = "$MAGIC $VERSION ${body.size} ${java.lang.Long.toUnsignedString(fnv1a(body, 0), 16)}\n"
        return header.toByteArray(Charsets.UTF_8) + body
    }

    /**
     * One record as the image writes it, `{"t":…,"u":…,"i":…,"s":{…}}` in UTF-8, with `"d":true` after `i` for a
     * record `@deleteRecord` deleted (an image never holds one; a cache row may): what the SQLite cache stores per row.
     */
    fun encodeRecord(record: Record): ByteArray = Json.write(recordObject(record, markDeleted = true)).toByteArray(Charsets.UTF_8)

    /** The record [encodeRecord] wrote; throws [ImageException] (corrupt) when [data] is not one. */
    fun decodeRecord(data: ByteArray, key: String): Record {
        val json = try {
            Json.parse(String(data, Charsets.UTF_8))
        } catch (error: JsonException) {
            throw ImageException.corrupt(error.message ?: "bad JSON")
        }
        return decodeRecord(json, key)
    }

    /** [record] as JSON values; `"d":true` when [markDeleted] and it is deleted (a row, never an image). */
    private fun recordObject(record: Record, markDeleted: Boolean): Map<String, Any?> {
        val slots = LinkedHashMap<String, Any?>()
        for (storageKey in sortedKeys(record.slots.keys)) {
            val slot = record.slots[storageKey] ?: continue
            val encoded = LinkedHashMap<String, Any?>()
            encoded["v"] = encodeValue(slot.value)
            if (slot.errors.isNotEmpty()) encoded["e"] = slot.errors.map { it.toJson() }
            slots[storageKey] = encoded
        }
        val entry = LinkedHashMap<String, Any?>()
        if (record.typename != null) entry["t"] = record.typename
        entry["u"] = JsonNumber(swiftDouble(record.updatedAt))
        entry["i"] = record.invalidated
        if (markDeleted && record.isDeleted) entry["d"] = true
        entry["s"] = slots
        return entry
    }

    private fun decodeRecord(value: Any?, key: String): Record {
        val entry = value as? Map<*, *>
        val slotsObject = entry?.get("s") as? Map<*, *>
        val updatedAt = (entry?.get("u") as? JsonNumber)?.literal?.toDoubleOrNull()
        val invalidated = entry?.get("i") as? Boolean
        if (slotsObject == null || updatedAt == null || invalidated == null) throw ImageException.corrupt("bad record $key")
        val slots = HashMap<String, Slot>(slotsObject.size * 2)
        for ((rawStorageKey, encoded) in slotsObject) {
            val storageKey = rawStorageKey.toString()
            val slot = encoded as? Map<*, *>
            if (slot == null || !slot.containsKey("v")) throw ImageException.corrupt("bad slot $key.$storageKey")
            val errors = (slot["e"] as? List<*>)?.map { FieldError.fromJson(it) } ?: emptyList()
            slots[storageKey] = Slot(decodeValue(slot["v"], 0), errors)
        }
        return Record(entry["t"] as? String, slots, updatedAt, invalidated, entry["d"] == true)
    }

    private fun encodeValue(value: StoredValue): Any? = when (value) {
        is StoredValue.Null -> null
        is StoredValue.Bool -> value.value
        is StoredValue.Text -> linkedMapOf<String, Any?>("s" to value.text)
        is StoredValue.Number -> linkedMapOf<String, Any?>("n" to JsonNumber(value.literal))
        is StoredValue.JsonText -> linkedMapOf<String, Any?>("j" to RawJson(value.json))
        is StoredValue.Link -> linkedMapOf<String, Any?>("l" to value.key)
        is StoredValue.Items -> value.items.map { encodeValue(it) }
    }

    /** The records of an image file's bytes; throws [ImageException] (corrupt, future version). */
    fun decode(data: ByteArray): Map<String, Record> {
        val newline = data.indexOf(0x0A.toByte())
        if (newline < 0) throw ImageException.corrupt("no header")
        val header = String(data, 0, newline, Charsets.UTF_8).split(" ")
        val version = header.getOrNull(1)?.toIntOrNull()
        if (header.size != 4 || header[0] != MAGIC || version == null) throw ImageException.corrupt("not a Baton image")
        if (version > VERSION) {
            throw ImageException(
                ImageException.Kind.FUTURE_VERSION, "image version $version is newer than this build reads ($VERSION)"
            )
        }
        val length = header[2].toIntOrNull()
        val checksum = try {
            java.lang.Long.parseUnsignedLong(header[3], 16)
        } catch (error: NumberFormatException) {
            null
        }
        if (version != VERSION || length == null || checksum == null) throw ImageException.corrupt("bad header")
        val bodyCount = data.size - newline - 1
        if (bodyCount != length) throw ImageException.corrupt("expected $length bytes, found $bodyCount (truncated?)")
        if (fnv1a(data, newline + 1) != checksum) throw ImageException.corrupt("checksum mismatch")
        val json = try {
            Json.parse(String(data, newline + 1, bodyCount, Charsets.UTF_8))
        } catch (error: JsonException) {
            throw ImageException.corrupt(error.message ?: "bad JSON")
        }
        val recordsObject = (json as? Map<*, *>)?.get("records") as? Map<*, *> ?: throw ImageException.corrupt("no records")
        val records = HashMap<String, Record>(recordsObject.size * 2)
        for ((rawKey, value) in recordsObject) {
            val key = rawKey.toString()
            records[key] = decodeRecord(value, key)
        }
        return records
    }

    private fun decodeValue(json: Any?, depth: Int): StoredValue {
        if (depth > Json.MAX_DEPTH) throw ImageException.corrupt("bad value")
        return when (json) {
            null -> StoredValue.Null
            is Boolean -> StoredValue.Bool(json)
            is List<*> -> StoredValue.Items(json.map { decodeValue(it, depth + 1) })
            is Map<*, *> -> {
                if (json.size != 1) throw ImageException.corrupt("bad value")
                val (name, value) = json.entries.first()
                when {
                    name == "s" && value is String -> StoredValue.Text(value)
                    name == "n" && value is JsonNumber -> StoredValue.Number(value.literal)
                    name == "j" -> StoredValue.JsonText(Json.write(value))
                    name == "l" && value is String -> StoredValue.Link(value)
                    else -> throw ImageException.corrupt("bad value")
                }
            }
            else -> throw ImageException.corrupt("bad value")
        }
    }

    /**
     * Writes [store]'s records to [file] atomically (a temporary file beside it, then a rename); returns how many.
     * Only server data is written (never an optimistic layer), only the records in [keeping] when it is given (the
     * environment passes what its roots reach), and no deleted record.
     */
    fun save(store: RecordStore, file: File, keeping: Set<String>? = null): Int {
        val records = store.serverRecords().filter { (key, record) -> !record.isDeleted && (keeping == null || key in keeping) }
        val data = encode(records)
        val folder = file.absoluteFile.parentFile ?: throw ImageException(ImageException.Kind.IO, "image I/O: no folder for ${file.path}")
        val temporary = File(folder, ".${file.name}.${java.util.UUID.randomUUID()}.tmp")
        try {
            temporary.writeBytes(data)
        } catch (error: IOException) {
            throw ImageException(ImageException.Kind.IO, "image I/O: cannot write ${temporary.path}: ${error.message}")
        }
        if (!temporary.renameTo(file)) {
            temporary.delete()
            throw ImageException(ImageException.Kind.IO, "image I/O: cannot rename onto ${file.path}")
        }
        return records.size
    }

    /** Replaces [store]'s records with [file]'s image; on any failure the store is left empty and this throws. */
    fun load(store: RecordStore, file: File): Int {
        if (!file.exists()) {
            store.clear()
            throw ImageException(ImageException.Kind.ABSENT, "no image")
        }
        try {
            val data = try {
                file.readBytes()
            } catch (error: IOException) {
                throw ImageException(ImageException.Kind.IO, "image I/O: ${error.message}")
            }
            val records = decode(data)
            store.replaceRecords(records)
            return records.size
        } catch (error: ImageException) {
            store.clear()
            throw error
        } catch (error: RuntimeException) {
            store.clear()
            throw ImageException(ImageException.Kind.IO, "image I/O: $error")
        }
    }

    /** FNV-1a 64 of [data] from [start]. */
    fun fnv1a(data: ByteArray, start: Int): Long {
        var hash = -0x340d631b7bdddcdbL // 0xcbf29ce484222325
        for (index in start until data.size) {
            hash = hash xor (data[index].toLong() and 0xff)
            hash *= 0x100000001b3L
        }
        return hash
    }

    /** [keys] in the order Swift sorts strings here: by Unicode code point. */
    private fun sortedKeys(keys: Collection<String>): List<String> = keys.sortedWith(CODE_POINT_ORDER)

    private val CODE_POINT_ORDER = Comparator<String> { left, right ->
        var i = 0
        var j = 0
        while (i < left.length && j < right.length) {
            val a = left.codePointAt(i)
            val b = right.codePointAt(j)
            if (a != b) return@Comparator if (a < b) -1 else 1
            i += Character.charCount(a)
            j += Character.charCount(b)
        }
        (left.length - i).compareTo(right.length - j)
    }

    private var lastBits = 0x7ff8000000000001L
    private var lastText = ""

    /**
     * [value] as Swift's `String(Double)` prints it: the shortest digits that read back as the same value, in
     * fixed notation with at least one decimal (`1700000000.5`, `0.0001`, `100.0`) from 1e-4 up to 2^53, otherwise
     * exponential (`1e-05`, `1.2e+16`).
     */
    fun swiftDouble(value: Double): String = synchronized(this) {
        val bits = value.toRawBits()
        if (bits == lastBits) return lastText
        val text = formatSwiftDouble(value)
        lastBits = bits
        lastText = text
        text
    }

    private fun formatSwiftDouble(value: Double): String {
        if (value.isNaN()) return "nan"
        if (value.isInfinite()) return if (value > 0) "inf" else "-inf"
        if (value == 0.0) return if (1.0 / value < 0) "-0.0" else "0.0"
        val sign = if (value < 0) "-" else ""
        val magnitude = Math.abs(value)
        val shortest = shortestDigits(magnitude)
        val digits = shortest.unscaledValue().toString().trimEnd('0').ifEmpty { "0" }
        // magnitude = 0.d1d2… × 10^exponent
        val exponent = shortest.precision() - shortest.scale()
        val fixed = exponent >= -3 && magnitude <= 9007199254740992.0
        if (fixed) {
            return sign + when {
                exponent <= 0 -> "0." + "0".repeat(-exponent) + digits
                exponent >= digits.length -> digits + "0".repeat(exponent - digits.length) + ".0"
                else -> digits.substring(0, exponent) + "." + digits.substring(exponent)
            }
        }
        val mantissa = if (digits.length == 1) digits else digits[0] + "." + digits.substring(1)
        val power = exponent - 1
        val powerText = Math.abs(power).toString().padStart(2, '0')
        return sign + mantissa + "e" + (if (power < 0) "-" else "+") + powerText
    }

    /** The decimal with the fewest significant digits that reads back as [value], the closest such one. */
    private fun shortestDigits(value: Double): BigDecimal {
        val exact = BigDecimal(value)
        for (precision in 1..17) {
            val nearest = exact.round(MathContext(precision, RoundingMode.HALF_EVEN))
            if (nearest.toDouble() == value) return nearest
            val down = exact.round(MathContext(precision, RoundingMode.FLOOR))
            val up = exact.round(MathContext(precision, RoundingMode.CEILING))
            val downFits = down.toDouble() == value
            val upFits = up.toDouble() == value
            if (downFits && upFits) {
                return if (exact.subtract(down).abs() <= up.subtract(exact).abs()) down else up
            }
            if (downFits) return down
            if (upFits) return up
        }
        return exact.round(MathContext(17, RoundingMode.HALF_EVEN))
    }
}

/** JSON text written as it is (a custom scalar's stored JSON inside an image). */
internal class RawJson(val text: String)
