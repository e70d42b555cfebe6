package baton.sqlite

import java.io.Closeable

/**
 * The little of an SQLite connection the cache uses, so one cache runs over JDBC on the JVM ([JdbcSQLiteDatabase])
 * and over `android.database.sqlite` on Android (an implementation of this interface; none ships here, see
 * Docs/Kotlin.md). One thread uses a connection at a time: the cache calls it from its writer thread only (and
 * from the opening thread before the writer starts).
 */
interface SQLiteDatabase : Closeable {
    /** Runs one statement that returns no rows (a pragma setting, `CREATE TABLE`, `DELETE`). */
    fun execute(sql: String)

    /** The first column of the first row of [sql] as an integer (0 when it returns no row). */
    fun integer(sql: String): Long

    /** Calls [row] with each row [sql] returns. */
    fun query(sql: String, row: (SQLiteRow) -> Unit)

    /** A statement to run many times with arguments (`?` placeholders, numbered from 1). */
    fun prepare(sql: String): SQLiteStatement

    /**
     * Runs [body] in one write transaction (`BEGIN IMMEDIATE` … `COMMIT`): everything it did commits together, or,
     * when it throws, nothing does (rolled back, and the exception passes on).
     */
    fun <T> transaction(body: () -> T): T
}

/** One row of a query's result: columns numbered from 0. */
interface SQLiteRow {
    fun text(column: Int): String
    fun blob(column: Int): ByteArray
    fun long(column: Int): Long
}

/** A prepared statement: bind arguments, then [run]; bindings are cleared after each run. */
interface SQLiteStatement : Closeable {
    fun bind(index: Int, text: String)
    fun bind(index: Int, blob: ByteArray)
    fun bind(index: Int, value: Long)

    /** Runs the statement with what is bound; returns how many rows it changed. */
    fun run(): Int
}

/**
 * An SQLite call failed. [corrupt] when SQLite said the file is damaged or not a database (`SQLITE_CORRUPT`,
 * `SQLITE_NOTADB`): the cache then sets the file aside; any other failure (no folder, no permission, a full disk)
 * leaves the file alone.
 */
class SQLiteDatabaseException(message: String, val corrupt: Boolean = false, cause: Throwable? = null) :
    RuntimeException(message, cause)
