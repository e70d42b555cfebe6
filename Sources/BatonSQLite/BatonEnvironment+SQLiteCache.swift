@_spi(Persistence) import Baton
import Foundation

extension BatonEnvironment {
    /// Opens the SQLite cache at `url` for this environment's store, replacing the store's records with the
    /// cache's, and logs what it found: `cacheOpened {"records":N}` (`0` for a new cache), or
    /// `cacheRejected {"reason":…,"movedTo":…}` when the file was set aside. A batch that cannot be written is
    /// logged as `cacheWriteFailed {"reason":…}` (the next batch writes every record again).
    public func openSQLiteCache(at url: URL) throws(SQLiteCacheError) -> SQLiteCache {
        let log = self.log
        let cache = try SQLiteCache(url: url, store: store) { reason in
            log.record(LogEvent("cacheWriteFailed", JSONObject([("reason", .string(reason))])))
        }
        switch cache.opening {
        case .created:
            log.record(LogEvent("cacheOpened", JSONObject([("records", .number("0"))])))
        case .opened(let records):
            log.record(LogEvent("cacheOpened", JSONObject([("records", .number(String(records)))])))
        case .setAside(let problem, let movedTo):
            log.record(
                LogEvent(
                    "cacheRejected",
                    JSONObject([("reason", .string(problem.description)), ("movedTo", .string(movedTo.path))])))
        }
        return cache
    }
}
