import CSQLite
import Foundation

/// An SQLite error: the result code and SQLite's message.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String

    /// The primary result code (`SQLITE_CORRUPT` for every `SQLITE_CORRUPT_*`).
    var primary: Int32 { code & 0xFF }

    /// Whether the file is damaged or is not a database.
    var meansCorrupt: Bool { primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB }

    var description: String { "\(message) (SQLite \(code))" }
}

/// One SQLite connection and its prepared statements: the thin, checked layer `SQLiteCache` talks through.
/// Not thread-safe: the cache uses it from one serial queue.
final class SQLiteConnection {
    private var handle: OpaquePointer?

    init(path: String) throws(SQLiteError) {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        handle = opened
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code, message: opened.map { String(cString: sqlite3_errmsg($0)) } ?? "")
            sqlite3_close_v2(opened)
            handle = nil
            throw error
        }
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_timeout(opened, 5_000)
    }

    deinit { close() }

    /// Closes the connection (finalizing nothing is left to do: statements are finalized by their owners first).
    func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// The first column of the first row of `sql` as an integer (a pragma).
    func integer(_ sql: String) throws(SQLiteError) -> Int64 {
        let statement = try prepare(sql)
        guard try statement.step() else { return 0 }
        return statement.integer(0)
    }

    func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw error(code) }
        return Statement(prepared, connection: self)
    }

    /// A prepared statement: bind, step, read columns, reset.
    final class Statement {
        private let statement: OpaquePointer
        private unowned let connection: SQLiteConnection

        init(_ statement: OpaquePointer, connection: SQLiteConnection) {
            self.statement = statement
            self.connection = connection
        }

        deinit { sqlite3_finalize(statement) }

        func reset() {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }

        /// Binds text; SQLite copies it (the statement outlives the Swift string's buffer).
        func bind(_ index: Int32, _ text: String) throws(SQLiteError) {
            let code = sqlite3_bind_text(statement, index, text, -1, SQLiteConnection.transient)
            guard code == SQLITE_OK else { throw connection.error(code) }
        }

        func bind(_ index: Int32, _ blob: [UInt8]) throws(SQLiteError) {
            let code = blob.withUnsafeBytes { raw in
                sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), SQLiteConnection.transient)
            }
            guard code == SQLITE_OK else { throw connection.error(code) }
        }

        func bind(_ index: Int32, _ value: Int64) throws(SQLiteError) {
            let code = sqlite3_bind_int64(statement, index, value)
            guard code == SQLITE_OK else { throw connection.error(code) }
        }

        /// Steps once: true when a row is ready, false when done.
        func step() throws(SQLiteError) -> Bool {
            let code = sqlite3_step(statement)
            if code == SQLITE_ROW { return true }
            if code == SQLITE_DONE { return false }
            throw connection.error(code)
        }

        /// Steps a statement that returns no rows, then resets it.
        func run() throws(SQLiteError) {
            defer { reset() }
            _ = try step()
        }

        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        func text(_ column: Int32) -> String {
            guard let text = sqlite3_column_text(statement, column) else { return "" }
            let count = Int(sqlite3_column_bytes(statement, column))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }

        /// Calls `body` with a blob column's bytes (valid only inside).
        func withBlob<Result>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
            -> Result
        {
            let count = Int(sqlite3_column_bytes(statement, column))
            let bytes = sqlite3_column_blob(statement, column)?.assumingMemoryBound(to: UInt8.self)
            return try body(UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
        }
    }

    /// `SQLITE_TRANSIENT`, which C defines as a cast of -1 that Swift does not import.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
