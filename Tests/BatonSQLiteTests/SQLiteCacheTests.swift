import Baton
import BatonTesting
import BatonSQLite
import CSQLite
import Foundation
import XCTest

/// The SQLite cache keeps what the store holds exactly, writes only what each batch changed, and sets aside
/// (never deletes) a file it cannot read.
final class SQLiteCacheTests: XCTestCase {
    var directory: URL!
    var url: URL { directory.appendingPathComponent("cache.sqlite") }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    static let character: [Selection] = [
        .field(
            "character", arguments: [("id", .literal("1"))], type: .named("Character"),
            selections: [
                .field("id", type: .named("ID")), .field("name", type: .named("String")),
                .field(
                    "origin", type: .named("Location"),
                    selections: [.field("id", type: .named("ID")), .field("name", type: .named("String"))]),
                .field("status", type: .named("String")), .field("image", type: .named("String")),
                .field(
                    "location", type: .named("Location"),
                    selections: [
                        .field("id", type: .named("ID")), .field("name", type: .named("String")),
                        .field("dimension", type: .named("String")),
                    ]),
                .field("gender", type: .named("String")), .field("species", type: .named("String")),
                .field("type", type: .named("String")),
            ])
    ]

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BatonRuntimeTests/Fixtures")

    /// An environment on a clock that reads `now`.
    func environment(_ now: Double, log: MemoryLog = MemoryLog()) -> BatonEnvironment {
        BatonEnvironment(transport: FixtureTransport(), log: log, clock: { Date(timeIntervalSince1970: now) })
    }

    func testRecordsErrorsAgesAndInvalidationsReadBackExactly() throws {
        let log = MemoryLog()
        let first = environment(1_700_000_000.25, log: log)
        let cache = try first.openSQLiteCache(at: url)
        XCTAssertEqual(cache.opening, .created)
        try first.store.commit(
            bytes: Data(contentsOf: Self.fixtures.appendingPathComponent("character-errors.json")),
            selections: Self.character)
        try first.store.commit(
            bytes: Data(
                #"{"data":{"price":1.10,"meta":{"b":[1,{"c":null}]},"tags":["a",null],"big":12345678901234567890}}"#
                    .utf8),
            selections: [
                .field("price", type: .named("Decimal")), .field("meta", type: .named("JSON")),
                .field("tags", type: .list(.named("String"))), .field("big", type: .named("Int")),
            ])
        first.invalidate(record: "Location:20")
        cache.close()
        let expected = first.store.snapshot().records
        XCTAssertEqual(expected["Character:1"]?.slots["gender"]?.errors.map(\.message), ["gender is private"])
        XCTAssertEqual(expected["Location:20"]?.invalidated, true)

        let relaunchLog = MemoryLog()
        let second = environment(0, log: relaunchLog)
        let reopened = try second.openSQLiteCache(at: url)
        XCTAssertEqual(reopened.opening, .opened(records: expected.count))
        XCTAssertEqual(second.store.snapshot().records, expected)
        XCTAssertEqual(relaunchLog.lines, [#"cacheOpened {"records":\#(expected.count)}"#])
        XCTAssertEqual(log.lines.first, #"cacheOpened {"records":0}"#)
    }

    func testOnlyTheRecordsABatchChangedAreWrittenOneTransactionEach() throws {
        let environment = environment(10)
        let cache = try environment.openSQLiteCache(at: url)
        let items = (0..<500).map { #"{"id":"\#($0)","v":\#($0)}"# }.joined(separator: ",")
        let selections: [Selection] = [
            .field(
                "items", type: .list(.named("Item")),
                selections: [.field("id", type: .named("ID")), .field("v", type: .named("Int"))])
        ]
        try environment.store.commit(bytes: Data(#"{"data":{"items":[\#(items)]}}"#.utf8), selections: selections)
        cache.flush()
        XCTAssertEqual(cache.statistics.batches, 1)
        XCTAssertEqual(cache.statistics.records, 501)  // 500 items and the root
        // Two items and the root: three records, one batch.
        try environment.store.commit(
            bytes: Data(#"{"data":{"items":[{"id":"7","v":70},{"id":"9","v":9}]}}"#.utf8), selections: selections)
        environment.invalidate(record: "Item:3")
        environment.invalidate(record: "Item:3")  // already invalidated: no batch
        cache.flush()
        XCTAssertEqual(cache.statistics.batches, 3)
        XCTAssertEqual(cache.statistics.records, 501 + 3 + 1)
        let expected = environment.store.snapshot().records
        cache.close()
        let reopened = self.environment(0)
        _ = try reopened.openSQLiteCache(at: url)
        XCTAssertEqual(reopened.store.snapshot().records, expected)
    }

    /// `written()` awaits the batches applied so far as committed; `durable()` also checkpoints them into the
    /// database file (the WAL is then empty: everything is in the file SQLite synced), and a copy of the database file
    /// alone, without its WAL, reads back every record.
    func testABatchCanBeAwaitedUntilWrittenAndUntilDurable() async throws {
        let environment = environment(10)
        let cache = try environment.openSQLiteCache(at: url)
        let selections: [Selection] = [
            .field(
                "items", type: .list(.named("Item")),
                selections: [.field("id", type: .named("ID")), .field("v", type: .named("Int"))])
        ]
        try environment.store.commit(
            bytes: Data(#"{"data":{"items":[{"id":"1","v":1}]}}"#.utf8), selections: selections)
        await cache.written()
        XCTAssertEqual(cache.statistics.batches, 1)
        let wal = URL(fileURLWithPath: url.path + "-wal")
        let walSize = { (try? FileManager.default.attributesOfItem(atPath: wal.path)[.size] as? Int) ?? -1 }
        XCTAssertGreaterThan(walSize(), 0, "written: committed to the WAL")
        try environment.store.commit(
            bytes: Data(#"{"data":{"items":[{"id":"2","v":2}]}}"#.utf8), selections: selections)
        try await cache.durable()
        XCTAssertEqual(cache.statistics.batches, 2)
        XCTAssertEqual(walSize(), 0, "durable: checkpointed into the database file")
        let expected = environment.store.snapshot().records
        // The database file alone (no WAL beside it) holds both batches.
        let copy = directory.appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: url, to: copy)
        let reopened = self.environment(0)
        _ = try reopened.openSQLiteCache(at: copy)
        XCTAssertEqual(reopened.store.snapshot().records, expected)
        cache.close()
        do {
            try await cache.durable()
            XCTFail("a closed cache cannot make anything durable")
        } catch {
            XCTAssertEqual(error.description, "SQLite cache: closed")
        }
    }

    /// A garbage collection reaches the file as the keys it removed: those rows are deleted in one transaction,
    /// nothing else is rewritten, and the file reopens to exactly what the store kept.
    func testAGarbageCollectionDeletesOnlyTheRowsItRemoved() throws {
        let environment = environment(10)
        let cache = try environment.openSQLiteCache(at: url)
        func list(_ name: String, _ range: Range<Int>) -> String {
            #""\#(name)":["# + range.map { #"{"id":"\#($0)","v":\#($0)}"# }.joined(separator: ",") + "]"
        }
        let item: [Selection] = [.field("id", type: .named("ID")), .field("v", type: .named("Int"))]
        let kept = Field("kept", type: .list(.named("Item")), selections: item)
        let dropped = Field("dropped", type: .list(.named("Item")), selections: item)
        try environment.store.commit(
            bytes: Data(("{\"data\":{" + list("kept", 0..<300) + "," + list("dropped", 300..<500) + "}}").utf8),
            selections: [.field(kept), .field(dropped)])
        cache.flush()
        XCTAssertEqual(cache.statistics.batches, 1)
        XCTAssertEqual(cache.statistics.records, 501)
        let removed = environment.store.collectGarbage(keeping: [
            RetainedRoot(key: "Query", selections: [.field(kept)], variables: [:])
        ])
        XCTAssertEqual(removed, 200)
        cache.flush()
        XCTAssertEqual(cache.statistics.batches, 2, "one transaction for the collection")
        XCTAssertEqual(cache.statistics.records, 501 + 200, "the 200 rows deleted, the 301 kept not rewritten")
        let expected = environment.store.snapshot().records
        XCTAssertEqual(expected.count, 301)
        XCTAssertNil(expected["Item:300"])
        cache.close()
        let reopened = self.environment(0)
        XCTAssertEqual(try reopened.openSQLiteCache(at: url).opening, .opened(records: 301))
        XCTAssertEqual(reopened.store.snapshot().records, expected)
    }

    func testAnImageLoadAndAClearReplaceWhatTheCacheHolds() throws {
        let source = environment(5)
        try source.store.commit(
            bytes: Data(contentsOf: Self.fixtures.appendingPathComponent("character-errors.json")),
            selections: Self.character)
        let image = directory.appendingPathComponent("store.image")
        // An image saves what the environment's roots reach: the commit is retained.
        let retention = source.retain(RetainedRoot(key: "Query", selections: Self.character, variables: [:]))
        try source.saveImage(to: image)
        retention.release()

        let environment = environment(9)
        let cache = try environment.openSQLiteCache(at: url)
        try environment.store.commit(
            bytes: Data(#"{"data":{"x":1}}"#.utf8), selections: [.field("x", type: .named("Int"))])
        XCTAssertTrue(environment.loadImage(from: image))
        cache.close()
        let reopened = self.environment(0)
        _ = try reopened.openSQLiteCache(at: url)
        XCTAssertEqual(reopened.store.snapshot().records, source.store.snapshot().records)

        let clearing = try reopened.openSQLiteCache(at: url)
        reopened.store.clear()
        clearing.close()
        let empty = self.environment(0)
        XCTAssertEqual(try empty.openSQLiteCache(at: url).opening, .opened(records: 0))
    }

    func testAFailedWriteIsLoggedAndTheNextBatchWritesEverything() throws {
        let log = MemoryLog()
        let environment = environment(3, log: log)
        let cache = try environment.openSQLiteCache(at: url)
        let selections: [Selection] = [.field("x", type: .named("Int")), .field("y", type: .named("Int"))]
        try environment.store.commit(bytes: Data(#"{"data":{"x":1}}"#.utf8), selections: selections)
        cache.flush()
        // Another connection takes the table away: the next batch cannot be written.
        try execute("DROP TABLE records")
        try environment.store.commit(bytes: Data(#"{"data":{"x":2}}"#.utf8), selections: selections)
        cache.flush()
        XCTAssertEqual(log.events.map(\.name), ["cacheOpened", "cacheWriteFailed"])
        try execute(
            "CREATE TABLE records(key TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL, checksum INTEGER NOT NULL) WITHOUT ROWID"
        )
        try environment.store.commit(bytes: Data(#"{"data":{"y":3}}"#.utf8), selections: selections)
        cache.close()
        let reopened = self.environment(0)
        _ = try reopened.openSQLiteCache(at: url)
        XCTAssertEqual(reopened.store.snapshot().records, environment.store.snapshot().records)
        XCTAssertEqual(reopened.store.record("Query")?.slots["x"]?.value, .number("2"))
    }

    // MARK: Files that cannot be read

    /// Writes a cache holding one record, closes it and returns its bytes.
    func makeCache() throws -> Data {
        let environment = environment(1)
        let cache = try environment.openSQLiteCache(at: url)
        try environment.store.commit(
            bytes: Data(#"{"data":{"x":1}}"#.utf8), selections: [.field("x", type: .named("Int"))])
        cache.close()
        return try Data(contentsOf: url)
    }

    /// Runs SQL on the file with a connection of its own.
    func execute(_ sql: String) throws {
        var handle: OpaquePointer?
        XCTAssertEqual(sqlite3_open(url.path, &handle), SQLITE_OK)
        defer { sqlite3_close(handle) }
        XCTAssertEqual(sqlite3_exec(handle, sql, nil, nil, nil), SQLITE_OK, String(cString: sqlite3_errmsg(handle)))
    }

    /// Opens the cache at `url`, expecting the file to be set aside for `problem` with its bytes intact.
    func assertSetAside(
        _ problem: (SQLiteCacheProblem) -> Bool, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = try Data(contentsOf: url)
        let log = MemoryLog()
        let environment = environment(0, log: log)
        let cache = try environment.openSQLiteCache(at: url)
        guard case .setAside(let found, let movedTo) = cache.opening else {
            return XCTFail("not set aside: \(cache.opening)", file: file, line: line)
        }
        XCTAssertTrue(problem(found), "\(found)", file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: movedTo), before, "the file is kept as it was", file: file, line: line)
        XCTAssertTrue(environment.store.snapshot().records.isEmpty, file: file, line: line)
        XCTAssertEqual(log.events.map(\.name), ["cacheRejected"], file: file, line: line)
        XCTAssertEqual(log.events.first?.payload["movedTo"]?.stringValue, movedTo.path, file: file, line: line)
        // The new cache works.
        try environment.store.commit(
            bytes: Data(#"{"data":{"y":2}}"#.utf8), selections: [.field("y", type: .named("Int"))])
        cache.close()
        let reopened = self.environment(0)
        XCTAssertEqual(try reopened.openSQLiteCache(at: url).opening, .opened(records: 1), file: file, line: line)
        try FileManager.default.removeItem(at: url)
    }

    func testANewerFormatIsSetAside() throws {
        _ = try makeCache()
        try execute("PRAGMA user_version = 2")
        try assertSetAside { $0 == .futureVersion(2) }
        XCTAssertEqual(
            SQLiteCacheProblem.futureVersion(2).description, "cache format 2 is newer than this build reads (1)")
    }

    func testCorruptAndForeignFilesAreSetAside() throws {
        // Not SQLite at all.
        try Data("not a database, but someone's data".utf8).write(to: url)
        try assertSetAside { if case .corrupt = $0 { true } else { false } }
        // An SQLite database of something else.
        try execute("CREATE TABLE notes(text TEXT); INSERT INTO notes VALUES('keep me')")
        try assertSetAside { $0 == .notABatonCache }
        // A record whose body no longer matches its checksum.
        _ = try makeCache()
        try execute("UPDATE records SET body = CAST('{\"u\":0,\"i\":false,\"s\":{}}' AS BLOB)")
        try assertSetAside { $0 == .corrupt("checksum of Query") }
        // A record whose body is not a record (with a matching checksum).
        _ = try makeCache()
        let body = Array("[1,2]".utf8)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        try execute("UPDATE records SET body = CAST('[1,2]' AS BLOB), checksum = \(Int64(bitPattern: hash))")
        try assertSetAside { if case .corrupt(let reason) = $0 { reason.hasPrefix("record Query") } else { false } }
        // Truncated: the first page only of a larger cache.
        let environment = environment(1)
        let cache = try environment.openSQLiteCache(at: url)
        let items = (0..<300).map { #"{"id":"\#($0)","v":"\#(String(repeating: "x", count: 200))"}"# }.joined(
            separator: ",")
        try environment.store.commit(
            bytes: Data(#"{"data":{"items":[\#(items)]}}"#.utf8),
            selections: [
                .field(
                    "items", type: .list(.named("Item")),
                    selections: [.field("id", type: .named("ID")), .field("v", type: .named("String"))])
            ])
        cache.close()
        try execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let whole = try Data(contentsOf: url)
        XCTAssertGreaterThan(whole.count, 8192)
        try whole.prefix(whole.count / 2).write(to: url)
        try assertSetAside { if case .corrupt = $0 { true } else { false } }
    }
}
