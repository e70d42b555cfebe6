package baton.tests.sqlite

import baton.runtime.BatonEnvironment
import baton.runtime.Field
import baton.runtime.FixtureTransport
import baton.runtime.LensDecoder
import baton.runtime.ListDecoder
import baton.runtime.MemoryLog
import baton.runtime.Record
import baton.runtime.RecordStore
import baton.runtime.RecordUpdate
import baton.runtime.RetainedRoot
import baton.runtime.Scalars
import baton.runtime.Selection
import baton.runtime.StoreImage
import baton.sqlite.JdbcSQLiteDatabase
import baton.sqlite.SQLiteCache
import baton.sqlite.SQLiteCacheOpening
import baton.sqlite.SQLiteDatabase
import baton.sqlite.SQLiteRow
import baton.sqlite.SQLiteStatement
import baton.sqlite.openSQLiteCache
import java.io.File
import java.sql.DriverManager
import java.util.concurrent.CountDownLatch
import kotlin.coroutines.Continuation
import kotlin.coroutines.EmptyCoroutineContext
import kotlin.coroutines.startCoroutine
import kotlin.system.exitProcess

/**
 * The Kotlin SQLite cache's JVM checks (Tests/BatonCodegenTests/KotlinSQLiteTests.swift runs them with the xerial
 * JDBC driver on the classpath):
 * `checks DIR` prints `== section` blocks the Swift test compares line by line;
 * `write PATH` opens the cache at PATH and commits numbered batches until it is killed, printing `batch K` once
 * batch K is written (flushed), resuming after whatever batch the cache holds;
 * `verify PATH` prints `consistent K` when the cache holds exactly what batches 1…K make from an empty store,
 * otherwise `torn …`;
 * `fill PATH IMAGE` writes a cache for the Swift cache to read, and the image of its records;
 * `image PATH IMAGE` reads a cache (one the Swift cache wrote to) and writes the image of its records.
 */
fun main(arguments: Array<String>) {
    when (arguments.getOrNull(0)) {
        "checks" -> Checks(File(arguments[1])).run()
        "write" -> Kill.write(File(arguments[1]))
        "verify" -> Kill.verify(File(arguments[1]))
        "fill" -> Exchange.fill(File(arguments[1]), File(arguments[2]))
        "image" -> Exchange.image(File(arguments[1]), File(arguments[2]))
        else -> {
            System.err.println("usage: checks DIR | write PATH | verify PATH")
            exitProcess(2)
        }
    }
}

/** The items of the checks and the kill scenario: `batch`, and `items { __typename id v w }`. */
object Scenario {
    const val ITEMS = 40

    private val itemFields = listOf<Selection>(
        Field("__typename", "__typename", "String", Scalars.STRING, true),
        Field("id", "id", "ID", Scalars.ID, true),
        Field("v", "v", "Int", Scalars.INT, false),
        Field("w", "w", "String", Scalars.STRING, false)
    )

    val selections = listOf<Selection>(
        Field("batch", "batch", "Int", Scalars.INT, false),
        Field("items", "items", "Item", ListDecoder(LensDecoder { it }), false, selections = itemFields)
    )

    /** A response writing [ids] with `v` = [k], `w` a text of 100–200 bytes made from [k], and the root's `batch`. */
    fun response(k: Int, ids: List<Int>): String {
        val failed = k % 7 == 0
        val items = ids.mapIndexed { index, id ->
            val text = "$k-".repeat(50 + k % 50).take(100 + k % 100)
            val w = if (failed && index == 0) "null" else "\"$text\""
            "{\"__typename\":\"Item\",\"id\":\"$id\",\"v\":$k,\"w\":$w}"
        }
        var body = "{\"data\":{\"batch\":$k,\"items\":[${items.joinToString(",")}]}"
        if (failed) body += ",\"errors\":[{\"message\":\"w failed in $k\",\"path\":[\"items\",0,\"w\"]}]"
        return "$body}"
    }

    /** Batch [k] of the kill scenario: 8 of the 40 items. */
    fun batch(k: Int): String = response(k, (0 until 8).map { (k * 3 + it) % ITEMS })

    /** The batch a store holds (its root's `batch`), 0 when empty. */
    fun held(store: RecordStore): Int {
        val value = store.record("Query")?.slots?.get("batch")?.value as? baton.runtime.StoredValue.Number
        return value?.literal?.toInt() ?: 0
    }
}

/** A clock the tests set. */
class TestClock(@Volatile var now: Double) {
    val read: () -> Double = { now }
}

/** Counts what the cache asks of the database: transactions, and each statement's runs by its SQL. */
class CountingDatabase(private val inner: SQLiteDatabase) : SQLiteDatabase by inner {
    val runs = java.util.concurrent.ConcurrentHashMap<String, Int>()
    @Volatile var transactions = 0

    override fun prepare(sql: String): SQLiteStatement {
        val statement = inner.prepare(sql)
        val verb = sql.substringBefore(" INTO").substringBefore(" FROM").substringBefore(" WHERE")
        val name = if (sql.contains("WHERE")) "$verb ONE" else verb
        return object : SQLiteStatement by statement {
            override fun run(): Int {
                runs[name] = (runs[name] ?: 0) + 1
                return statement.run()
            }
        }
    }

    /** The next transaction fails as a full disk would (after its statements ran, so SQLite rolls them back). */
    @Volatile var failNext = false

    override fun <T> transaction(body: () -> T): T {
        transactions += 1
        if (failNext) {
            failNext = false
            return inner.transaction {
                body()
                throw baton.sqlite.SQLiteDatabaseException("[SQLITE_FULL] database or disk is full")
            }
        }
        return inner.transaction(body)
    }

    /** What was counted since the last call, sorted, and forgets it. */
    fun take(): String {
        val text = "transactions $transactions" + runs.toSortedMap().map { (sql, count) -> ", $sql $count" }.joinToString("")
        runs.clear()
        transactions = 0
        return text
    }
}

/** Reads a cache file directly over JDBC, as another program would. */
fun <T> direct(file: File, work: (java.sql.Connection) -> T): T {
    Class.forName("org.sqlite.JDBC")
    return DriverManager.getConnection("jdbc:sqlite:${file.path}").shut(work)
}

fun count(file: File, sql: String): Long = direct(file) { connection ->
    connection.createStatement().shut { it.executeQuery(sql).shut { rows -> if (rows.next()) rows.getLong(1) else -1 } }
}

class Checks(private val folder: File) {
    private var serial = 0

    private fun freshFile(): File {
        serial += 1
        val directory = File(folder, "case-$serial")
        directory.mkdirs()
        return File(directory, "cache.sqlite")
    }

    fun run() {
        roundTrip()
        onlyChangedRows()
        durable()
        writeFailure()
        setAside()
    }

    /** A batch that cannot be written is logged and rolled back whole; the next batch writes every record again. */
    private fun writeFailure() {
        println("== write failure")
        val file = freshFile()
        val log = MemoryLog()
        val clock = TestClock(10.0)
        val environment = BatonEnvironment(FixtureTransport(), log, clock.read)
        var counting: CountingDatabase? = null
        val cache = environment.openSQLiteCache(file) { path ->
            CountingDatabase(JdbcSQLiteDatabase.open(path)).also { counting = it }
        }
        val database = counting!!
        environment.store.commit(Scenario.response(1, (0 until 5).toList()), Scenario.selections)
        cache.flush()
        database.take()
        database.failNext = true
        clock.now = 11.0
        environment.store.commit(Scenario.response(2, listOf(1)), Scenario.selections)
        cache.flush()
        println("failed batch: ${database.take()}; Item:1 v ${itemValue(file, "Item:1")}")
        println("log: ${log.lines.filter { it.startsWith("cacheWrite") }}")
        environment.store.commit(Scenario.response(3, listOf(2)), Scenario.selections)
        cache.flush()
        println("next batch: ${database.take()}; Item:1 v ${itemValue(file, "Item:1")}, Item:2 v ${itemValue(file, "Item:2")}")
        database.failNext = true
        environment.store.commit(Scenario.response(4, listOf(3)), Scenario.selections)
        cache.durable()
        println("durable after a failure: ${database.take()}; Item:3 v ${itemValue(file, "Item:3")}")
        cache.close()
        val reopened = BatonEnvironment(FixtureTransport(), MemoryLog(), clock.read)
        reopened.openSQLiteCache(file).close()
        println("reopened equal: ${reopened.store.serverRecords() == environment.store.serverRecords()}")
    }

    /** Records, slots, field errors, ages, invalidations and deleted marks read back exactly, in a new process's store. */
    private fun roundTrip() {
        println("== round trip")
        val file = freshFile()
        val log = MemoryLog()
        val clock = TestClock(1700000000.25)
        val first = BatonEnvironment(FixtureTransport(), log, clock.read)
        val cache = first.openSQLiteCache(file)
        println("opening: ${cache.opening}")
        first.store.commit(Scenario.response(7, listOf(1, 2, 3)), Scenario.selections)
        clock.now = 1700000001.5
        first.store.commit(
            "{\"data\":{\"price\":1.10,\"meta\":{\"b\":[1,{\"c\":null}]},\"tags\":[\"a\",null],\"big\":12345678901234567890}}",
            listOf(
                Field("price", "price", "Decimal", Scalars.CUSTOM, false),
                Field("meta", "meta", "JSON", Scalars.CUSTOM, false),
                Field("tags", "tags", "String", ListDecoder(Scalars.STRING, false), false),
                Field("big", "big", "BigInt", Scalars.CUSTOM, false)
            )
        )
        first.invalidateRecord("Item:2")
        // `@deleteRecord`: the record stays, empty and marked deleted, and reads back so.
        first.store.commit(
            "{\"data\":{\"deleteItem\":\"3\"}}",
            listOf(
                Field(
                    "deleteItem", "deleteItem", "ID", Scalars.ID, false,
                    update = RecordUpdate(RecordUpdate.Kind.DELETE_RECORD, typename = "Item")
                )
            )
        )
        cache.flush()
        cache.close()
        val expected = first.store.serverRecords()

        val second = BatonEnvironment(FixtureTransport(), MemoryLog(), clock.read)
        val reopened = second.openSQLiteCache(file)
        val records = second.store.serverRecords()
        println("opening: ${reopened.opening}")
        println("records equal: ${records == expected}")
        println("image bytes equal: ${StoreImage.encode(records).contentEquals(StoreImage.encode(expected))}")
        println("field error: ${records["Item:1"]?.slots?.get("w")?.errors?.map { it.message }}")
        println("invalidated: ${records.filterValues { it.invalidated }.keys.sorted()}")
        println("deleted: ${records.filterValues { it.isDeleted }.map { "${it.key} ${it.value.slots.size} slots" }}")
        println("ages: ${records.values.map { it.updatedAt }.toSortedSet()}")
        println("rows: ${count(file, "SELECT count(*) FROM records")}")
        println("log: ${log.lines.filter { it.startsWith("cache") }}")
        reopened.close()
    }

    /** One transaction per batch, writing only the records the batch touched; a collection deletes only its rows. */
    private fun onlyChangedRows() {
        println("== only changed rows")
        val file = freshFile()
        val clock = TestClock(100.0)
        val store = RecordStore(clock.read)
        var counting: CountingDatabase? = null
        val cache = SQLiteCache.open(file, store, { path -> CountingDatabase(JdbcSQLiteDatabase.open(path)).also { counting = it } })
        val database = counting!!
        database.take()
        store.commit(Scenario.response(1, (0 until 100).toList()), Scenario.selections)
        cache.flush()
        println("100 items: ${database.take()}; rows ${count(file, "SELECT count(*) FROM records")}")
        clock.now = 101.0
        store.commit(Scenario.response(2, listOf(7)), Scenario.selections)
        cache.flush()
        println("one item: ${database.take()}; Item:7 v ${itemValue(file, "Item:7")}, Item:8 v ${itemValue(file, "Item:8")}")
        store.commit(Scenario.response(2, listOf(7)), Scenario.selections)
        store.commit(Scenario.response(3, listOf(8, 9)), Scenario.selections)
        cache.flush()
        println("two batches: ${database.take()}")
        val kept = listOf<Selection>(Field("items", "items", "Item", ListDecoder(LensDecoder { it }), false, selections = listOf(
            Field("id", "id", "ID", Scalars.ID, true))))
        val removed = store.collectGarbage(listOf(RetainedRoot("Query", kept, emptyMap())))
        cache.flush()
        println("collected $removed: ${database.take()}; rows ${count(file, "SELECT count(*) FROM records")}")
        store.clear()
        cache.flush()
        println("clear: ${database.take()}; rows ${count(file, "SELECT count(*) FROM records")}")
        println("statistics: ${cache.statistics}")
        cache.close()
    }

    private fun itemValue(file: File, key: String): String = direct(file) { connection ->
        connection.prepareStatement("SELECT body FROM records WHERE key = ?").shut { statement ->
            statement.setString(1, key)
            statement.executeQuery().shut { rows ->
                if (!rows.next()) "none" else StoreImage.decodeRecord(rows.getBytes(1), key).slots["v"]?.value.toString()
            }
        }
    }

    /** `flush` returns with the batch committed (another connection sees it); `durable`/`awaitDurable` with the WAL emptied into the file. */
    private fun durable() {
        println("== durable")
        val file = freshFile()
        val store = RecordStore { 5.0 }
        val cache = SQLiteCache.open(file, store)
        store.commit(Scenario.response(1, listOf(1, 2)), Scenario.selections)
        cache.flush()
        val wal = File(file.path + "-wal")
        println("after flush: rows ${count(file, "SELECT count(*) FROM records")}, wal has frames ${wal.length() > 0}")
        cache.durable()
        println("after durable: wal bytes ${wal.length()}")
        store.commit(Scenario.response(2, listOf(3)), Scenario.selections)
        val done = CountDownLatch(1)
        var outcome = "not finished"
        val work: suspend () -> Unit = {
            cache.written()
            val rows = count(file, "SELECT count(*) FROM records")
            cache.awaitDurable()
            outcome = "rows $rows, wal bytes ${wal.length()}"
        }
        work.startCoroutine(Continuation(EmptyCoroutineContext) { result ->
            result.exceptionOrNull()?.let { outcome = "failed: $it" }
            done.countDown()
        })
        done.await()
        println("suspend written, awaitDurable: $outcome")
        cache.close()
        val closed = try {
            cache.durable()
            "returned"
        } catch (error: RuntimeException) {
            error.message
        }
        println("durable after close: $closed")
    }

    /** A damaged, foreign or newer file is renamed aside (never deleted, bytes kept), logged, and a new cache starts. */
    private fun setAside() {
        println("== set aside")
        // Not a database at all.
        val garbage = freshFile()
        val bytes = ByteArray(8192) { (it * 31 + 7).toByte() }
        garbage.writeBytes(bytes)
        report("garbage", garbage) { movedTo -> "bytes kept ${movedTo.readBytes().contentEquals(bytes)}" }
        // A valid cache whose row was changed behind its back (the checksum no longer matches).
        val tampered = filledCache()
        direct(tampered) { it.createStatement().shut { s -> s.executeUpdate("UPDATE records SET body = replace(body, 'Item', 'Itex') WHERE key = 'Item:1'") } }
        report("tampered row", tampered) { movedTo -> "rows kept ${count(movedTo, "SELECT count(*) FROM records")}" }
        // A newer format.
        val newer = filledCache()
        direct(newer) { it.createStatement().shut { s -> s.execute("PRAGMA user_version = 2") } }
        report("newer version", newer) { movedTo -> "version kept ${count(movedTo, "PRAGMA user_version")}, rows kept ${count(movedTo, "SELECT count(*) FROM records")}" }
        // Another program's database.
        val foreign = freshFile()
        direct(foreign) { it.createStatement().shut { s -> s.execute("CREATE TABLE notes(text TEXT)") } }
        report("foreign", foreign) { movedTo -> "tables kept ${count(movedTo, "SELECT count(*) FROM sqlite_master")}" }
        // A file cut short in the middle of its pages.
        val truncated = filledCache()
        val whole = truncated.readBytes()
        truncated.writeBytes(whole.copyOf(whole.size / 2 + 100))
        report("truncated", truncated) { movedTo -> "bytes kept ${movedTo.length() == (whole.size / 2 + 100).toLong()}" }
        // An empty file is a new cache, not a problem.
        val empty = freshFile()
        empty.writeBytes(ByteArray(0))
        val store = RecordStore { 1.0 }
        val cache = SQLiteCache.open(empty, store)
        println("empty file: ${cache.opening}")
        cache.close()
        // No folder: a typed error, nothing made.
        val nowhere = File(folder, "missing/folder/cache.sqlite")
        val failure = try {
            SQLiteCache.open(nowhere, RecordStore()).close()
            "opened"
        } catch (error: baton.sqlite.SQLiteCacheException) {
            "SQLiteCacheException, folder made ${nowhere.parentFile.exists()}"
        }
        println("no folder: $failure")
    }

    /** A closed cache of 30 items (written with a WAL checkpoint, so the file holds them). */
    private fun filledCache(): File {
        val file = freshFile()
        val store = RecordStore { 3.0 }
        val cache = SQLiteCache.open(file, store)
        store.commit(Scenario.response(1, (0 until 30).toList()), Scenario.selections)
        cache.durable()
        cache.close()
        return file
    }

    private fun report(label: String, file: File, kept: (File) -> String) {
        val log = MemoryLog()
        val environment = BatonEnvironment(FixtureTransport(), log, { 9.0 })
        val cache = environment.openSQLiteCache(file)
        val opening = cache.opening
        if (opening !is SQLiteCacheOpening.SetAside) {
            println("$label: not set aside: $opening")
            cache.close()
            return
        }
        val problem = opening.problem.toString().replace(Regex("\\(.*"), "(…")
        println("$label: ${opening.problem.javaClass.simpleName}: $problem")
        println("  moved beside: ${opening.movedTo.parentFile == file.parentFile && opening.movedTo.name.startsWith("cache.sqlite.rejected-")}, ${kept(opening.movedTo)}")
        environment.store.commit(Scenario.response(1, listOf(1)), Scenario.selections)
        cache.flush()
        println("  new cache rows ${count(file, "SELECT count(*) FROM records")}; log ${log.events.map { it.name }}")
        cache.close()
    }
}

/** The kill test's two halves. */
object Kill {
    private fun say(line: String) {
        System.out.println(line)
        System.out.flush()
    }

    /** Commits batch after batch, flushing each and saying so, until killed. */
    fun write(file: File) {
        val clock = TestClock(0.0)
        val store = RecordStore(clock.read)
        val cache = SQLiteCache.open(file, store)
        if (cache.opening is SQLiteCacheOpening.SetAside) {
            say("set aside: ${cache.opening}")
            exitProcess(1)
        }
        var k = Scenario.held(store)
        say("resumed after $k")
        while (true) {
            k += 1
            clock.now = k.toDouble()
            store.commit(Scenario.batch(k), Scenario.selections)
            cache.flush()
            say("batch $k")
        }
    }

    /** Compares the cache with a replay of batches 1…K, K the batch it holds. */
    fun verify(file: File) {
        val store = RecordStore { 0.0 }
        val cache = SQLiteCache.open(file, store)
        if (cache.opening is SQLiteCacheOpening.SetAside) {
            say("set aside: ${cache.opening}")
            exitProcess(1)
        }
        val held = Scenario.held(store)
        val records: Map<String, Record> = store.serverRecords()
        val clock = TestClock(0.0)
        val replay = RecordStore(clock.read)
        for (k in 1..held) {
            clock.now = k.toDouble()
            replay.commit(Scenario.batch(k), Scenario.selections)
        }
        if (records == replay.serverRecords()) {
            say("consistent $held")
        } else {
            say("torn: ${records.size} records do not match batch $held")
        }
        cache.close()
    }
}

/** Runs [block] with this resource and closes it (`use` for `AutoCloseable` is not in Kotlin 1.3's base stdlib). */
inline fun <T : AutoCloseable, R> T.shut(block: (T) -> R): R {
    try {
        return block(this)
    } finally {
        close()
    }
}

/** Files exchanged with the Swift cache (BatonSQLite): the same rows, read by both, shown by the same image bytes. */
object Exchange {
    fun fill(file: File, image: File) {
        val clock = TestClock(1700000000.25)
        val store = RecordStore(clock.read)
        val cache = SQLiteCache.open(file, store)
        store.commit(Scenario.response(7, listOf(1, 2, 3)), Scenario.selections)
        clock.now = 1700000001.5
        store.commit(
            "{\"data\":{\"price\":1.10,\"meta\":{\"b\":[1,{\"c\":null}]},\"tags\":[\"a\",null]}}",
            listOf(
                Field("price", "price", "Decimal", Scalars.CUSTOM, false),
                Field("meta", "meta", "JSON", Scalars.CUSTOM, false),
                Field("tags", "tags", "String", ListDecoder(Scalars.STRING, false), false)
            )
        )
        cache.durable()
        cache.close()
        image.writeBytes(StoreImage.encode(store.serverRecords()))
        println("filled ${store.serverRecords().size} records")
    }

    fun image(file: File, image: File) {
        val store = RecordStore { 0.0 }
        val cache = SQLiteCache.open(file, store)
        println("opening: ${cache.opening}")
        cache.close()
        image.writeBytes(StoreImage.encode(store.serverRecords()))
    }
}
