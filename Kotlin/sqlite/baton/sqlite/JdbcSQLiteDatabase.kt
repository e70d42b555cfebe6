package baton.sqlite

import java.sql.Connection
import java.sql.DriverManager
import java.sql.PreparedStatement
import java.sql.ResultSet
import java.sql.SQLException

/**
 * [SQLiteDatabase] over JDBC with the xerial driver (`org.sqlite.JDBC`, Debian's `libxerial-sqlite-jdbc-java`,
 * `/usr/share/java/sqlite-jdbc.jar`), which must be on the classpath at run time; nothing of it is needed to compile.
 * The connection stays in auto-commit mode; [transaction] issues `BEGIN IMMEDIATE`/`COMMIT` itself.
 */
class JdbcSQLiteDatabase private constructor(private val connection: Connection) : SQLiteDatabase {
    companion object {
        /** Opens (or makes) the database file at [path]; throws [SQLiteDatabaseException] when it cannot. */
        fun open(path: String): JdbcSQLiteDatabase {
            try {
                Class.forName("org.sqlite.JDBC")
            } catch (error: ClassNotFoundException) {
                throw SQLiteDatabaseException("the SQLite JDBC driver (org.sqlite.JDBC) is not on the classpath", cause = error)
            }
            return JdbcSQLiteDatabase(guarded { DriverManager.getConnection("jdbc:sqlite:$path") })
        }

        /** SQLite's primary result codes that mean a damaged file or not a database. */
        private const val SQLITE_CORRUPT = 11
        private const val SQLITE_NOTADB = 26

        /** Runs [work], turning an [SQLException] into an [SQLiteDatabaseException] that says whether it is damage. */
        private fun <T> guarded(work: () -> T): T = try {
            work()
        } catch (error: SQLException) {
            val code = error.errorCode and 0xff
            val text = error.message ?: error.toString()
            val corrupt = code == SQLITE_CORRUPT || code == SQLITE_NOTADB ||
                text.contains("SQLITE_CORRUPT") || text.contains("SQLITE_NOTADB")
            throw SQLiteDatabaseException(text, corrupt, error)
        }
    }

    override fun execute(sql: String) {
        guarded { connection.createStatement().closing { it.execute(sql) } }
    }

    override fun integer(sql: String): Long = guarded {
        connection.createStatement().closing { statement ->
            statement.executeQuery(sql).closing { rows -> if (rows.next()) rows.getLong(1) else 0L }
        }
    }

    override fun query(sql: String, row: (SQLiteRow) -> Unit) {
        guarded {
            connection.createStatement().closing { statement ->
                statement.executeQuery(sql).closing { rows ->
                    val current = JdbcRow(rows)
                    while (rows.next()) row(current)
                }
            }
        }
    }

    override fun prepare(sql: String): SQLiteStatement = JdbcStatement(guarded { connection.prepareStatement(sql) })

    override fun <T> transaction(body: () -> T): T {
        execute("BEGIN IMMEDIATE")
        val result = try {
            body()
        } catch (error: Throwable) {
            try {
                execute("ROLLBACK")
            } catch (ignored: SQLiteDatabaseException) {
                // SQLite rolled back already (a full disk, an I/O error): nothing is left to undo.
            }
            throw error
        }
        execute("COMMIT")
        return result
    }

    override fun close() {
        guarded { connection.close() }
    }

    private class JdbcRow(private val rows: ResultSet) : SQLiteRow {
        override fun text(column: Int): String = rows.getString(column + 1) ?: ""
        override fun blob(column: Int): ByteArray = rows.getBytes(column + 1) ?: ByteArray(0)
        override fun long(column: Int): Long = rows.getLong(column + 1)
    }

    private class JdbcStatement(private val statement: PreparedStatement) : SQLiteStatement {
        override fun bind(index: Int, text: String) = guarded { statement.setString(index, text) }
        override fun bind(index: Int, blob: ByteArray) = guarded { statement.setBytes(index, blob) }
        override fun bind(index: Int, value: Long) = guarded { statement.setLong(index, value) }

        override fun run(): Int = guarded {
            val count = statement.executeUpdate()
            statement.clearParameters()
            count
        }

        override fun close() = guarded { statement.close() }
    }
}

/** Runs [block] with this resource and closes it (`use` for `AutoCloseable` is not in Kotlin 1.3's base stdlib). */
internal inline fun <T : AutoCloseable, R> T.closing(block: (T) -> R): R {
    try {
        return block(this)
    } finally {
        close()
    }
}
