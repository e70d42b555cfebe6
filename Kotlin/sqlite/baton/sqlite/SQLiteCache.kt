package baton.sqlite

import baton.runtime.BatonEnvironment
import baton.runtime.ImageException
import baton.runtime.LogEvent
import baton.runtime.Record
import baton.runtime.RecordStore
import baton.runtime.StoreBatch
import baton.runtime.StoreImage
import java.io.File
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import kotlin.coroutines.resume
import kotlin.coroutines.suspendCoroutine

/** Why a cache file was set aside (the Swift cache's `SQLiteCacheProblem`, with its texts). */
sealed class SQLiteCacheProblem {
    /** Written by a newer Baton (its format version). */
    data class FutureVersion(val version: Long) : SQLiteCacheProblem() {
        override fun toString(): String =
            "cache format $version is newer than this build reads (${SQLiteCache.FORMAT_VERSION})"
    }

    /** An SQLite database that is not a Baton cache. */
    object NotABatonCache : SQLiteCacheProblem() {
        override fun toString(): String = "the file is an SQLite database but not a Baton cache"
    }

    /** Not an SQLite database, damaged, or holding a record that does not read back (with the reason). */
    data class Corrupt(val reason: String) : SQLiteCacheProblem() {
        override fun toString(): String = "corrupt cache: $reason"
    }
}

/** What opening a cache found. */
sealed class SQLiteCacheOpening {
    /** There was no cache file (a first launch); an empty one was made. */
    object Created : SQLiteCacheOpening() {
        override fun toString(): String = "created"
    }

    /** The cache was read into the store. */
    data class Opened(val records: Int) : SQLiteCacheOpening()

    /** The file could not be used: it was renamed to [movedTo] (never deleted) and the store starts empty. */
    data class SetAside(val problem: SQLiteCacheProblem, val movedTo: File) : SQLiteCacheOpening()
}

/** The cache file could not be opened or made at all (a missing folder, no permission, a full disk, no driver). */
class SQLiteCacheException(message: String, cause: Throwable? = null) : RuntimeException("SQLite cache: $message", cause)

/** How many batches and rows a cache wrote (a row a batch deleted counts as one written). */
data class SQLiteCacheStatistics(val batches: Int, val records: Int)

/**
 * A persisted cache that keeps a [RecordStore]'s records in SQLite, writing only the records each batch changed:
 * the Kotlin twin of the Swift `SQLiteCache` (BatonSQLite), with its file format, so its promises hold the same way.
 *
 * Opening reads every row into the store (replacing what it held), then the cache hears of every batch the store
 * applies ([StoreBatch]: a server commit, an invalidation, a garbage collection's removed keys, an image load, a
 * clear) and writes it on a thread of its own, one transaction per batch, in the order the store applied them. Each
 * record is one row: its key, its body as the image writes a record ([StoreImage.encodeRecord]) and the FNV-1a 64
 * checksum of the body. The database is in WAL mode with `synchronous=NORMAL`: a process that dies at any moment (a
 * crash, a kill -9) reopens to the last batch whose transaction committed, never a torn record; a power loss may also
 * lose the last few batches, never the file.
 *
 * When a batch is where: the store hands it to the cache as it applies it (within `commit`); the cache's thread
 * writes it soon after; [flush] (blocking) or [written] (`suspend`) returns once every batch applied before the call
 * has committed (it then survives the process dying); [durable] (blocking) or [awaitDurable] (`suspend`) returns once
 * they are also on the disk (the WAL checkpointed into the database file, which SQLite syncs: they then survive a
 * power loss).
 *
 * A file from a newer format version, an SQLite database that is not a Baton cache, or a damaged file (SQLite says
 * so, or a row's checksum or body does not read back) is renamed beside itself (`cache.sqlite.rejected-<seconds>`,
 * with its `-wal` and `-shm`), reported in [opening], and the cache starts empty: nothing is deleted.
 */
class SQLiteCache private constructor(
    /** The cache file. */
    val file: File,
    /** What opening found. */
    val opening: SQLiteCacheOpening,
    private val database: SQLiteDatabase,
    private val store: RecordStore,
    private val onWriteFailure: ((String) -> Unit)?
) {
    companion object {
        /** The format this build writes and reads (`PRAGMA user_version`), the Swift cache's. */
        const val FORMAT_VERSION: Long = 1

        /** `PRAGMA application_id`: "BATN". */
        const val APPLICATION_ID: Long = 0x4241544E

        /**
         * Opens (or makes) the cache at [file] over the database [connect] opens (JDBC by default; an Android app
         * passes its own [SQLiteDatabase]) and reads it into [store], replacing the store's records; from then on
         * every batch the store applies is written. [onWriteFailure] hears of a batch that could not be written
         * (the next batch then writes every record again). Throws [SQLiteCacheException] when no cache can be had.
         */
        fun open(
            file: File, store: RecordStore, connect: (String) -> SQLiteDatabase = { JdbcSQLiteDatabase.open(it) },
            onWriteFailure: ((String) -> Unit)? = null
        ): SQLiteCache {
            var (database, existed) = connectTo(file, connect)
            var records: Map<String, Record> = emptyMap()
            var opening: SQLiteCacheOpening = if (existed) SQLiteCacheOpening.Opened(0) else SQLiteCacheOpening.Created
            try {
                // Read before writing anything, so a file that is set aside is kept exactly as it was found.
                if (check(database, existed)) {
                    records = load(database)
                    opening = SQLiteCacheOpening.Opened(records.size)
                }
                configure(database)
            } catch (error: ProblemException) {
                closeQuietly(database)
                val movedTo = setAside(file)
                opening = SQLiteCacheOpening.SetAside(error.problem, movedTo)
                database = connectTo(file, connect).first
                try {
                    configure(database)
                } catch (again: Exception) {
                    closeQuietly(database)
                    throw SQLiteCacheException("cannot make a new cache after setting one aside: ${again.message}", again)
                }
                records = emptyMap()
            } catch (error: SQLiteDatabaseException) {
                closeQuietly(database)
                throw SQLiteCacheException("cannot open ${file.path}: ${error.message}", error)
            }
            val cache = try {
                SQLiteCache(file, opening, database, store, onWriteFailure)
            } catch (error: SQLiteDatabaseException) {
                closeQuietly(database)
                throw SQLiteCacheException("cannot open ${file.path}: ${error.message}", error)
            }
            store.replaceRecords(records) { batch -> cache.enqueue(batch) }
            return cache
        }

        private fun connectTo(file: File, connect: (String) -> SQLiteDatabase): Pair<SQLiteDatabase, Boolean> {
            val existed = file.exists()
            return try {
                Pair(connect(file.path), existed)
            } catch (error: SQLiteDatabaseException) {
                throw SQLiteCacheException("cannot open ${file.path}: ${error.message}", error)
            }
        }

        private fun closeQuietly(database: SQLiteDatabase) {
            try {
                database.close()
            } catch (ignored: SQLiteDatabaseException) {
                // Closing a connection that failed: nothing to keep.
            }
        }

        /** Runs [work], turning SQLite's word that the file is damaged into a [ProblemException]. */
        private fun <T> classified(work: () -> T): T = try {
            work()
        } catch (error: SQLiteDatabaseException) {
            if (error.corrupt) throw ProblemException(SQLiteCacheProblem.Corrupt(error.message ?: "damaged"))
            throw error
        }

        /**
         * Whether the file holds a Baton cache to read (false: no file, or an empty one); throws [ProblemException]
         * when it holds something this build must not use.
         */
        private fun check(database: SQLiteDatabase, existed: Boolean): Boolean {
            if (!existed) return false
            val application = classified { database.integer("PRAGMA application_id") }
            val version = classified { database.integer("PRAGMA user_version") }
            val objects = classified { database.integer("SELECT count(*) FROM sqlite_master") }
            if (application == 0L && version == 0L && objects == 0L) return false // an empty file: nothing to keep
            if (application != APPLICATION_ID) throw ProblemException(SQLiteCacheProblem.NotABatonCache)
            if (version > FORMAT_VERSION) throw ProblemException(SQLiteCacheProblem.FutureVersion(version))
            if (version != FORMAT_VERSION) throw ProblemException(SQLiteCacheProblem.Corrupt("format version $version"))
            return true
        }

        private fun configure(database: SQLiteDatabase) = classified {
            database.execute("PRAGMA journal_mode = WAL")
            database.execute("PRAGMA synchronous = NORMAL")
            database.execute(
                "CREATE TABLE IF NOT EXISTS records(key TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL, " +
                    "checksum INTEGER NOT NULL) WITHOUT ROWID"
            )
            database.execute("PRAGMA application_id = $APPLICATION_ID")
            database.execute("PRAGMA user_version = $FORMAT_VERSION")
        }

        /** Every record; a row whose checksum or body does not read back makes the whole file corrupt. */
        private fun load(database: SQLiteDatabase): Map<String, Record> {
            val records = HashMap<String, Record>()
            classified {
                database.query("SELECT key, body, checksum FROM records") { row ->
                    val key = row.text(0)
                    val body = row.blob(1)
                    if (StoreImage.fnv1a(body, 0) != row.long(2)) {
                        throw ProblemException(SQLiteCacheProblem.Corrupt("checksum of $key"))
                    }
                    records[key] = try {
                        StoreImage.decodeRecord(body, key)
                    } catch (error: ImageException) {
                        throw ProblemException(SQLiteCacheProblem.Corrupt("record $key: ${error.message}"))
                    }
                }
            }
            return records
        }

        /** Renames the file and its `-wal` and `-shm` beside themselves; returns the new name of the file. */
        private fun setAside(file: File): File {
            val stamp = System.currentTimeMillis() / 1000
            var target = File(file.path + ".rejected-$stamp")
            var attempt = 1
            while (target.exists()) {
                attempt += 1
                target = File(file.path + ".rejected-$stamp-$attempt")
            }
            for (suffix in listOf("-wal", "-shm", "")) {
                val source = File(file.path + suffix)
                if (source.exists() && !source.renameTo(File(target.path + suffix))) {
                    throw SQLiteCacheException("cannot set ${source.path} aside")
                }
            }
            return target
        }
    }

    /** A file this build must not use (set aside), as opposed to a failure that leaves the file alone. */
    private class ProblemException(val problem: SQLiteCacheProblem) : RuntimeException(problem.toString())

    private val upsert = database.prepare("INSERT OR REPLACE INTO records(key, body, checksum) VALUES(?, ?, ?)")
    private val deleteAll = database.prepare("DELETE FROM records")

    /** Deletes one row: a garbage collection's removed records, one transaction per collection. */
    private val deleteOne = database.prepare("DELETE FROM records WHERE key = ?")

    /** Every database call after opening runs on this one thread, in the order batches were applied. */
    private val writer: ExecutorService = Executors.newSingleThreadExecutor { work ->
        Thread(work, "baton-sqlite-cache").apply { isDaemon = true }
    }

    /** Writer-thread state. */
    private var needsRewrite = false
    private var closed = false

    private val counterLock = Any()
    private var batchCount = 0
    private var recordCount = 0

    /** Called by the store under its lock: hands the batch to the writer thread. */
    private fun enqueue(batch: StoreBatch) {
        writer.execute { write(batch) }
    }

    /** Runs [work] on the writer thread and waits for its result; null when the cache is closed. */
    private fun <T> onWriter(work: () -> T): T? = try {
        writer.submit<T> { work() }.get()
    } catch (error: java.util.concurrent.RejectedExecutionException) {
        null
    }

    /**
     * Waits until every batch the store applied before the call has committed to the file (or failed: then the next
     * batch, or [durable], writes every record again); a batch written survives the process dying, not a power loss.
     * Blocks the calling thread; from a coroutine, [written].
     */
    fun flush() {
        onWriter { Unit }
    }

    /** [flush], suspending instead of blocking. */
    suspend fun written() {
        if (writer.isShutdown) return
        suspendCoroutine<Unit> { continuation ->
            try {
                writer.execute { continuation.resume(Unit) }
            } catch (error: java.util.concurrent.RejectedExecutionException) {
                continuation.resume(Unit)
            }
        }
    }

    /**
     * Returns once every batch the store applied before the call is on the disk: committed, then the WAL checkpointed
     * into the database file (`PRAGMA wal_checkpoint(TRUNCATE)`; SQLite syncs the WAL before the checkpoint and the
     * database after it), so it survives a power loss as well as the process dying. A batch that failed to write is
     * written again first (every record). Throws [SQLiteCacheException] when the cache is closed or the file cannot
     * be written or synced. Blocks the calling thread; from a coroutine, [awaitDurable].
     */
    fun durable() {
        val failure = onWriter { makeDurable() } ?: "closed"
        if (failure.isNotEmpty()) throw SQLiteCacheException(failure)
    }

    /** [durable], suspending instead of blocking. */
    suspend fun awaitDurable() {
        val failure = suspendCoroutine<String> { continuation ->
            try {
                writer.execute { continuation.resume(makeDurable()) }
            } catch (error: java.util.concurrent.RejectedExecutionException) {
                continuation.resume("closed")
            }
        }
        if (failure.isNotEmpty()) throw SQLiteCacheException(failure)
    }

    /** On the writer thread: writes again what failed, then checkpoints the WAL fully; why it could not, or "". */
    private fun makeDurable(): String {
        if (closed) return "closed"
        if (needsRewrite) {
            write(StoreBatch(emptyList()))
            if (needsRewrite) return "a batch could not be written"
        }
        return try {
            // Its first column is 1 when a reader blocked the checkpoint (none can: the connection is the cache's).
            if (database.integer("PRAGMA wal_checkpoint(TRUNCATE)") != 0L) "the checkpoint was blocked" else ""
        } catch (error: SQLiteDatabaseException) {
            error.message ?: error.toString()
        }
    }

    /** Stops writing (after the batches so far) and closes the file; the store keeps its records. */
    fun close() {
        store.stopObservingBatches()
        onWriter {
            if (!closed) {
                closed = true
                for (statement in listOf(upsert, deleteAll, deleteOne)) {
                    try {
                        statement.close()
                    } catch (ignored: SQLiteDatabaseException) {
                        // Closing anyway.
                    }
                }
                closeQuietly(database)
            }
        }
        writer.shutdown()
        writer.awaitTermination(1, TimeUnit.MINUTES)
    }

    /** How many batches and records were written so far (what "only the records a batch changed" is measured by). */
    val statistics: SQLiteCacheStatistics get() = synchronized(counterLock) { SQLiteCacheStatistics(batchCount, recordCount) }

    /** On the writer thread: one batch, one transaction. */
    private fun write(batch: StoreBatch) {
        if (closed) return
        var records = batch.records
        var removed = batch.removed
        var replaceAll = batch.replacesAll
        if (needsRewrite) {
            // An earlier batch failed: write everything the store holds now (later batches write theirs again).
            records = store.serverRecords().toList()
            removed = emptyList()
            replaceAll = true
        }
        try {
            database.transaction {
                if (replaceAll) deleteAll.run()
                for (key in removed) {
                    deleteOne.bind(1, key)
                    deleteOne.run()
                }
                for ((key, record) in records) {
                    val body = StoreImage.encodeRecord(record)
                    upsert.bind(1, key)
                    upsert.bind(2, body)
                    upsert.bind(3, StoreImage.fnv1a(body, 0))
                    upsert.run()
                }
            }
            needsRewrite = false
            synchronized(counterLock) {
                batchCount += 1
                recordCount += records.size + removed.size
            }
        } catch (error: SQLiteDatabaseException) {
            needsRewrite = true
            onWriteFailure?.invoke(error.message ?: error.toString())
        }
    }
}

/**
 * Opens the SQLite cache at [file] for this environment's store (see [SQLiteCache.open]) and logs what it found, as
 * the Swift runtime does: `cacheOpened {"records":N}` (0 for a new cache), or `cacheRejected {"reason":…,"movedTo":…}`
 * when the file was set aside. A batch that cannot be written is logged as `cacheWriteFailed {"reason":…}`.
 */
fun BatonEnvironment.openSQLiteCache(
    file: File, connect: (String) -> SQLiteDatabase = { JdbcSQLiteDatabase.open(it) }
): SQLiteCache {
    val log = this.log
    val cache = SQLiteCache.open(file, store, connect) { reason ->
        log.record(LogEvent("cacheWriteFailed", linkedMapOf<String, Any?>("reason" to reason)))
    }
    when (val opening = cache.opening) {
        is SQLiteCacheOpening.Created -> log.record(LogEvent("cacheOpened", linkedMapOf<String, Any?>("records" to 0)))
        is SQLiteCacheOpening.Opened ->
            log.record(LogEvent("cacheOpened", linkedMapOf<String, Any?>("records" to opening.records)))
        is SQLiteCacheOpening.SetAside -> log.record(
            LogEvent(
                "cacheRejected",
                linkedMapOf<String, Any?>("reason" to opening.problem.toString(), "movedTo" to opening.movedTo.path)
            )
        )
    }
    return cache
}
