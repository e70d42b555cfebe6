@_spi(Persistence) import Baton
import CSQLite
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a cache file was set aside.
public enum SQLiteCacheProblem: Sendable, Hashable, CustomStringConvertible {
    /// Written by a newer Baton (its format version).
    case futureVersion(Int)
    /// An SQLite database that is not a Baton cache.
    case notABatonCache
    /// Not an SQLite database, damaged, or holding a record that does not read back (with SQLite's reason).
    case corrupt(String)

    public var description: String {
        switch self {
        case .futureVersion(let version):
            "cache format \(version) is newer than this build reads (\(SQLiteCache.formatVersion))"
        case .notABatonCache: "the file is an SQLite database but not a Baton cache"
        case .corrupt(let reason): "corrupt cache: \(reason)"
        }
    }
}

/// What opening a cache found.
public enum SQLiteCacheOpening: Sendable, Hashable {
    /// There was no cache file (a first launch); an empty one was made.
    case created
    /// The cache was read into the store.
    case opened(records: Int)
    /// The file could not be used: it was renamed to `movedTo` (never deleted) and the store starts empty.
    case setAside(SQLiteCacheProblem, movedTo: URL)
}

/// The cache file could not be opened or made at all (a missing folder, no permission, a full disk).
public struct SQLiteCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { "SQLite cache: \(message)" }
}

/// A persisted cache that keeps the store's records in SQLite, writing only the records each batch changed.
///
/// Opening reads every record into the store (replacing what it held), then the cache hears of every batch the
/// store applies (`StoreBatch`: a server commit, an invalidation, a garbage collection's removed keys, deleted in
/// one transaction, an image load, a clear) and writes it on a
/// queue of its own, one transaction per batch, in the order the store applied them. Each record is one row: its
/// key, its body as the image writes a record (`{"t":…,"u":…,"i":…,"s":{…}}`, so slots, field errors, ages and
/// invalidations read back exactly) and the FNV-1a 64 checksum of the body. The database is in WAL mode with
/// `synchronous=NORMAL`: a process that dies at any moment (a crash, a kill) reopens to the last batch whose
/// transaction committed, never a torn record; a power loss may also lose the last few batches, never the file.
///
/// When a batch is where: the store hands it to the cache as it applies it (within `commit`), the cache's queue
/// writes it soon after; `written()` (or the blocking `flush()`) returns once every batch applied before the call
/// has committed (it then survives the process dying); `durable()` returns once they are also on the disk (it
/// checkpoints the WAL into the database file, which SQLite syncs: they then survive a power loss).
///
/// A file from a newer format version, an SQLite database that is not a Baton cache, or a damaged file (SQLite
/// reports it, or a record's checksum or body does not read back) is renamed beside itself
/// (`cache.sqlite.rejected-<seconds>`, with its `-wal` and `-shm`), reported in `opening`, and the cache starts
/// empty: nothing is deleted.
public final class SQLiteCache: @unchecked Sendable {
    /// The format this build writes and reads (`PRAGMA user_version`).
    public static let formatVersion = 1
    /// `PRAGMA application_id`: "BATN".
    static let applicationID: Int64 = 0x4241_544E

    public let url: URL
    /// What opening found.
    public let opening: SQLiteCacheOpening

    /// Every database call runs on this queue (the connection is not shared across threads).
    private let queue = DispatchQueue(label: "baton.sqlite-cache")
    private let connection: SQLiteConnection
    private let upsert: SQLiteConnection.Statement
    private let deleteAll: SQLiteConnection.Statement
    /// Deletes one row: a garbage collection's removed records, one transaction per collection.
    private let deleteOne: SQLiteConnection.Statement
    private weak var store: Store?
    private let onWriteFailure: (@Sendable (String) -> Void)?
    /// Queue-only state.
    private var needsRewrite = false
    private var closed = false
    private let counters = CacheCounters()

    /// Opens (or makes) the cache at `url` and reads it into `store`, replacing the store's records; from then on
    /// every batch the store applies is written. `onWriteFailure` hears of a batch that could not be written (the
    /// next batch then writes every record again).
    public init(url: URL, store: Store, onWriteFailure: (@Sendable (String) -> Void)? = nil) throws(SQLiteCacheError) {
        self.url = url
        self.store = store
        self.onWriteFailure = onWriteFailure
        var opened = try Self.open(url)
        var records: [RecordKey: Record] = [:]
        var opening: SQLiteCacheOpening
        do throws(SQLiteCacheProblemOrError) {
            opening = opened.existed ? .opened(records: 0) : .created
            // Read before writing anything, so a file that is set aside is kept exactly as it was found.
            if try Self.check(opened.connection, existed: opened.existed) {
                records = try Self.load(opened.connection)
                opening = .opened(records: records.count)
            }
            try Self.configure(opened.connection)
        } catch {
            guard case .problem(let problem) = error else {
                if case .sqlite(let failure) = error { throw SQLiteCacheError(message: failure.description) }
                throw SQLiteCacheError(message: "\(error)")
            }
            opened.connection.close()
            let movedTo = try Self.setAside(url)
            opening = .setAside(problem, movedTo: movedTo)
            opened = try Self.open(url)
            do {
                try Self.configure(opened.connection)
            } catch {
                throw SQLiteCacheError(message: "cannot make a new cache after setting one aside: \(error)")
            }
            records = [:]
        }
        self.opening = opening
        connection = opened.connection
        do {
            upsert = try connection.prepare(
                "INSERT INTO records(key, body, checksum) VALUES(?, ?, ?) "
                    + "ON CONFLICT(key) DO UPDATE SET body = excluded.body, checksum = excluded.checksum")
            deleteAll = try connection.prepare("DELETE FROM records")
            deleteOne = try connection.prepare("DELETE FROM records WHERE key = ?")
        } catch {
            throw SQLiteCacheError(message: error.description)
        }
        let queue = self.queue
        let sink = WeakCache(self)
        store.replaceRecords(records) { batch in
            queue.async { sink.cache?.write(batch) }
        }
    }

    /// Waits until every batch the store applied so far is written (or failed). Blocks the calling thread: from
    /// async code, `await written()`.
    public func flush() { queue.sync {} }

    /// Returns once every batch the store applied before the call has committed to the file (or failed: then the
    /// next batch, or `durable()`, writes every record again); a batch written survives the process dying, not a
    /// power loss.
    public func written() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// Returns once every batch the store applied before the call is on the disk: committed, then the WAL
    /// checkpointed into the database file (`PRAGMA wal_checkpoint(TRUNCATE)`; SQLite syncs the WAL before the
    /// checkpoint and the database after it), so it survives a power loss as well as the process dying. A batch
    /// that failed to write is written again first (every record). Throws when the cache is closed or the file
    /// cannot be written or synced.
    public func durable() async throws(SQLiteCacheError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            queue.async { [self] in continuation.resume(returning: makeDurable()) }
        }
        if let result { throw SQLiteCacheError(message: result) }
    }

    /// On the queue: writes again what failed, then checkpoints the WAL fully; why it could not, or nil.
    private func makeDurable() -> String? {
        guard !closed else { return "closed" }
        if needsRewrite {
            write(.records([]))
            if needsRewrite { return "a batch could not be written" }
        }
        do {
            // Its first column is 1 when a reader blocked the checkpoint (none can: the connection is the cache's).
            if try connection.integer("PRAGMA wal_checkpoint(TRUNCATE)") != 0 { return "the checkpoint was blocked" }
            return nil
        } catch {
            return error.description
        }
    }

    /// Stops writing (after the batches so far) and closes the file; the store keeps its records.
    public func close() {
        if let store { store.stopObservingBatches() }
        queue.sync {
            closed = true
            connection.close()
        }
    }

    /// How many batches and records were written so far (what "only the records a batch changed" is measured by); a
    /// row a garbage collection deleted counts as a record written.
    public var statistics: (batches: Int, records: Int) { counters.read() }

    // MARK: Writing

    fileprivate func write(_ batch: StoreBatch) {
        guard !closed else { return }
        var records: [(key: RecordKey, record: Record)] = []
        var removed: [RecordKey] = []
        var replaceAll = false
        switch batch {
        case .records(let changed):
            records = changed
        case .removed(let keys):
            removed = keys
        case .replaced(let all):
            records = all.map { ($0.key, $0.value) }
            replaceAll = true
        }
        if needsRewrite, let store {
            // An earlier batch failed: write everything the store holds now (later batches write theirs again).
            records = store.snapshot().records.map { ($0.key, $0.value) }
            removed = []
            replaceAll = true
        }
        do {
            try connection.execute("BEGIN IMMEDIATE")
            do {
                if replaceAll { try deleteAll.run() }
                for key in removed {
                    try deleteOne.bind(1, key)
                    try deleteOne.run()
                }
                for (key, record) in records {
                    let body = StoreImage.encodeRecord(record)
                    try upsert.bind(1, key)
                    try upsert.bind(2, body)
                    try upsert.bind(3, Int64(bitPattern: StoreImage.fnv1a(body)))
                    try upsert.run()
                }
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
            needsRewrite = false
            counters.add(records: records.count + removed.count)
        } catch {
            needsRewrite = true
            onWriteFailure?("\(error)")
        }
    }

    // MARK: Opening

    private static func open(_ url: URL) throws(SQLiteCacheError) -> (connection: SQLiteConnection, existed: Bool) {
        let existed = FileManager.default.fileExists(atPath: url.path)
        do {
            return (try SQLiteConnection(path: url.path), existed)
        } catch {
            throw SQLiteCacheError(message: "cannot open \(url.path): \(error)")
        }
    }

    /// Whether the file holds a Baton cache to read (false: no file, or an empty one); throws when it holds
    /// something this build must not use.
    private static func check(_ connection: SQLiteConnection, existed: Bool) throws(SQLiteCacheProblemOrError) -> Bool {
        guard existed else { return false }
        let application: Int64
        let version: Int64
        let objects: Int64
        do throws(SQLiteError) {
            application = try connection.integer("PRAGMA application_id")
            version = try connection.integer("PRAGMA user_version")
            objects = try connection.integer("SELECT count(*) FROM sqlite_master")
        } catch {
            throw classify(error)
        }
        if application == 0, version == 0, objects == 0 { return false }  // an empty file: nothing to keep
        guard application == applicationID else { throw .problem(.notABatonCache) }
        if version > Int64(formatVersion) { throw .problem(.futureVersion(Int(version))) }
        guard version == Int64(formatVersion) else { throw .problem(.corrupt("format version \(version)")) }
        return true
    }

    private static func configure(_ connection: SQLiteConnection) throws(SQLiteCacheProblemOrError) {
        do throws(SQLiteError) {
            try connection.execute("PRAGMA journal_mode = WAL")
            try connection.execute("PRAGMA synchronous = NORMAL")
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS records(key TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL, "
                    + "checksum INTEGER NOT NULL) WITHOUT ROWID")
            try connection.execute("PRAGMA application_id = \(applicationID)")
            try connection.execute("PRAGMA user_version = \(formatVersion)")
        } catch {
            throw classify(error)
        }
    }

    /// Every record; a row whose checksum or body does not read back makes the whole file corrupt.
    private static func load(_ connection: SQLiteConnection) throws(SQLiteCacheProblemOrError) -> [RecordKey: Record] {
        let rows: SQLiteConnection.Statement
        do throws(SQLiteError) {
            rows = try connection.prepare("SELECT key, body, checksum FROM records")
        } catch {
            throw classify(error)
        }
        var records: [RecordKey: Record] = [:]
        records.reserveCapacity(Int((try? connection.integer("SELECT count(*) FROM records")) ?? 0))
        while true {
            do throws(SQLiteError) {
                guard try rows.step() else { break }
            } catch {
                throw classify(error)
            }
            let key = rows.text(0)
            let checksum = UInt64(bitPattern: rows.integer(2))
            let record: Result<Record, SQLiteCacheProblemOrError> = rows.withBlob(1) { body in
                guard StoreImage.fnv1a(body) == checksum else {
                    return .failure(.problem(.corrupt("checksum of \(key)")))
                }
                do {
                    return .success(try StoreImage.decodeRecord(body, key: key))
                } catch {
                    return .failure(.problem(.corrupt("record \(key): \(error)")))
                }
            }
            records[key] = try record.get()
        }
        return records
    }

    /// Renames the file and its `-wal` and `-shm` beside themselves; returns the new name of the file.
    private static func setAside(_ url: URL) throws(SQLiteCacheError) -> URL {
        let stamp = Int(Date().timeIntervalSince1970)
        var target = URL(fileURLWithPath: url.path + ".rejected-\(stamp)")
        var attempt = 1
        while FileManager.default.fileExists(atPath: target.path) {
            attempt += 1
            target = URL(fileURLWithPath: url.path + ".rejected-\(stamp)-\(attempt)")
        }
        for suffix in ["-wal", "-shm", ""] where FileManager.default.fileExists(atPath: url.path + suffix) {
            guard rename(url.path + suffix, target.path + suffix) == 0 else {
                throw SQLiteCacheError(message: "cannot set \(url.path + suffix) aside (errno \(errno))")
            }
        }
        return target
    }
}

/// A problem that sets the file aside, or an SQLite failure that does not (the file may be fine).
enum SQLiteCacheProblemOrError: Error {
    case problem(SQLiteCacheProblem)
    case sqlite(SQLiteError)
}

/// Sorts an SQLite failure: damage sets the file aside, anything else is an error (the file may be fine).
private func classify(_ error: SQLiteError) -> SQLiteCacheProblemOrError {
    error.meansCorrupt ? .problem(.corrupt(error.description)) : .sqlite(error)
}

/// The cache as the store's batch observer holds it: weakly, so a dropped cache stops writing.
private final class WeakCache: @unchecked Sendable {
    weak var cache: SQLiteCache?
    init(_ cache: SQLiteCache) { self.cache = cache }
}

/// The write counters, read from any thread.
private final class CacheCounters: @unchecked Sendable {
    private let lock = NSLock()
    private var batches = 0
    private var records = 0

    func add(records count: Int) {
        lock.lock()
        batches += 1
        records += count
        lock.unlock()
    }

    func read() -> (batches: Int, records: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (batches, records)
    }
}
