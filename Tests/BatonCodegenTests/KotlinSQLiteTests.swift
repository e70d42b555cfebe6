import Baton
import BatonSQLite
import BatonTestSupport
import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Kotlin SQLite cache (Kotlin/sqlite) on the JVM over JDBC, with Debian's xerial driver
/// (`.ci/install.d/sqlite-jdbc.sh`): the adapter and its check program (Kotlin/tests-sqlite) are compiled in the
/// shared build (`KotlinBuild`, with kotlinc 1.3 and the current compiler), the driver on the classpath only when
/// they run. The promises are the Swift cache's
/// (`SQLiteCacheTests`, `KillTests`): records read back exactly, one transaction per batch writing only the records
/// it touched, a damaged, foreign or newer file set aside (never deleted), and a writer killed with SIGKILL at any
/// moment reopens to exactly one batch it committed.
final class KotlinSQLiteTests: XCTestCase {
    struct Built {
        var folder: URL
        var classes: URL
        var driver: URL

        /// Runs the check program with `arguments`; its output.
        func run(_ arguments: [String], timeout: TimeInterval = 120) throws -> String {
            try KotlinTestSupport.runMain(
                "baton.tests.sqlite.SQLiteChecksKt", classes: classes, classpath: [driver], arguments: arguments,
                in: folder, timeout: timeout)
        }

        /// The `java` command line that runs the check program with `arguments`.
        func command(_ arguments: [String]) throws -> (java: URL, arguments: [String]) {
            let path = [classes.path, try KotlinTestSupport.standardLibrary().path, driver.path].joined(separator: ":")
            return (
                try KotlinTestSupport.tool("java"), ["-cp", path, "baton.tests.sqlite.SQLiteChecksKt"] + arguments
            )
        }
    }

    /// The xerial SQLite JDBC driver: `sqlite-jdbc.jar` in `BATON_KOTLIN_LIBRARIES` or /usr/share/java.
    static func driver() throws -> URL {
        let folder = ProcessInfo.processInfo.environment["BATON_KOTLIN_LIBRARIES"] ?? "/usr/share/java"
        let jar = URL(fileURLWithPath: folder).appendingPathComponent("sqlite-jdbc.jar")
        guard FileManager.default.fileExists(atPath: jar.path) else {
            throw KotlinTestSupport.unavailable(
                "no SQLite JDBC driver at \(jar.path); install Debian's libxerial-sqlite-jdbc-java "
                    + "(.ci/install.d/sqlite-jdbc.sh) to run this test")
        }
        return jar
    }

    /// The shared build (KotlinBuild, which compiles Kotlin/sqlite and Kotlin/tests-sqlite with the runtime), with
    /// the driver to run it.
    static func build() throws -> Built {
        let driver = try driver()
        let shared = try KotlinBuild.shared()
        return Built(folder: shared.folder, classes: shared.classes, driver: driver)
    }

    private static let checksRun = Once<[String: [String]]>()

    static func checks() throws -> [String: [String]] {
        let build = try build()
        return try checksRun.get {
            let folder = try KotlinTestSupport.temporaryFolder("sqlite-checks")
            defer { try? FileManager.default.removeItem(at: folder) }
            return KotlinTestSupport.sections(try build.run(["checks", folder.path]))
        }
    }

    /// A store's records (slots, field errors, custom scalars as JSON, ages, an invalidation, a `@deleteRecord`ed
    /// record) read back into a new store exactly: equal records, and the same image bytes; the first open logs a
    /// new cache.
    func testAStoreReadsBackExactly() throws {
        XCTAssertEqual(
            try Self.checks()["round trip"],
            [
                "opening: created",
                "opening: Opened(records=4)",
                "records equal: true",
                "image bytes equal: true",
                "field error: [w failed in 7]",
                "invalidated: [Item:2]",
                "deleted: [Item:3 0 slots]",
                "ages: [1.70000000025E9, 1.7000000015E9]",
                "rows: 4",
                #"log: [cacheOpened {"records":0}]"#,
            ])
    }

    /// Counted at the database (a wrapper around the JDBC connection): one transaction per batch, one row per record
    /// the batch touched (the root and the item, not the 99 others), a collection deleting exactly its rows, a
    /// clear one `DELETE`.
    func testOnlyTheRecordsABatchTouchedAreWritten() throws {
        XCTAssertEqual(
            try Self.checks()["only changed rows"],
            [
                "100 items: transactions 1, INSERT OR REPLACE 101; rows 101",
                "one item: transactions 1, INSERT OR REPLACE 2; Item:7 v Number(literal=2), Item:8 v Number(literal=1)",
                "two batches: transactions 2, INSERT OR REPLACE 5",
                "collected 98: transactions 1, DELETE ONE 98; rows 3",
                "clear: transactions 1, DELETE 1; rows 0",
                "statistics: SQLiteCacheStatistics(batches=6, records=206)",
            ])
    }

    /// `flush` returns with the batch committed (another connection reads it, still in the WAL); `durable` and
    /// the `suspend` `awaitDurable` with the WAL checkpointed into the file (emptied); a closed cache throws.
    func testBatchesCanBeAwaitedUntilWrittenAndUntilDurable() throws {
        XCTAssertEqual(
            try Self.checks()["durable"],
            [
                "after flush: rows 3, wal has frames true",
                "after durable: wal bytes 0",
                "suspend written, awaitDurable: rows 4, wal bytes 0",
                "durable after close: SQLite cache: closed",
            ])
    }

    /// A transaction that fails (a full disk, made by a wrapper around the connection) is rolled back whole and logged
    /// `cacheWriteFailed`; the next batch, or `durable`, writes every record again (a `DELETE` and 6 rows), and the
    /// file then reopens to what the store holds.
    func testAFailedWriteIsLoggedAndTheNextBatchWritesEverything() throws {
        XCTAssertEqual(
            try Self.checks()["write failure"],
            [
                "failed batch: transactions 1, INSERT OR REPLACE 2; Item:1 v Number(literal=1)",
                #"log: [cacheWriteFailed {"reason":"[SQLITE_FULL] database or disk is full"}]"#,
                "next batch: transactions 1, DELETE 1, INSERT OR REPLACE 6; Item:1 v Number(literal=2), Item:2 v Number(literal=3)",
                "durable after a failure: transactions 2, DELETE 1, INSERT OR REPLACE 8; Item:3 v Number(literal=4)",
                "reopened equal: true",
            ])
    }

    /// Garbage, a row changed behind the cache's back, a newer format, another program's database and a truncated
    /// file are each renamed beside themselves with their content kept, logged `cacheRejected`, and a new cache
    /// works; an empty file is a new cache; a missing folder is a typed error.
    func testBadFilesAreSetAsideNeverDeleted() throws {
        XCTAssertEqual(
            try Self.checks()["set aside"],
            [
                "garbage: Corrupt: corrupt cache: [SQLITE_NOTADB] File opened that is not a database file (…",
                "  moved beside: true, bytes kept true",
                "  new cache rows 2; log [cacheRejected]",
                "tampered row: Corrupt: corrupt cache: checksum of Item:1",
                "  moved beside: true, rows kept 31",
                "  new cache rows 2; log [cacheRejected]",
                "newer version: FutureVersion: cache format 2 is newer than this build reads (…",
                "  moved beside: true, version kept 2, rows kept 31",
                "  new cache rows 2; log [cacheRejected]",
                "foreign: NotABatonCache: the file is an SQLite database but not a Baton cache",
                "  moved beside: true, tables kept 1",
                "  new cache rows 2; log [cacheRejected]",
                "truncated: Corrupt: corrupt cache: [SQLITE_CORRUPT] The database disk image is malformed (…",
                "  moved beside: true, bytes kept true",
                "  new cache rows 2; log [cacheRejected]",
                "empty file: Opened(records=0)",
                "no folder: SQLiteCacheException, folder made false",
            ])
    }

    /// The two caches share one format: a file the Kotlin cache wrote opens in the Swift cache (`BatonSQLite`) with
    /// every record (the Swift image of them is the Kotlin image's bytes), the Swift cache then writes a batch into it
    /// (a commit), and the Kotlin cache reads the file back to the Swift store's image, byte for byte.
    func testSwiftAndKotlinCachesReadEachOthersFiles() throws {
        let build = try Self.build()
        let folder = try KotlinTestSupport.temporaryFolder("sqlite-exchange")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache.sqlite")
        let kotlinImage = folder.appendingPathComponent("kotlin.image")
        XCTAssertEqual(try build.run(["fill", cache.path, kotlinImage.path]), "filled 4 records\n")

        // A store and cache alone, no environment: nothing here needs a transport.
        let store = Baton.Store(clock: { Date(timeIntervalSince1970: 1_700_000_002) })
        let swiftCache = try SQLiteCache(url: cache, store: store)
        XCTAssertEqual(swiftCache.opening, .opened(records: 4))
        let swiftImage = folder.appendingPathComponent("swift.image")
        _ = try store.saveImage(to: swiftImage)
        XCTAssertEqual(try Data(contentsOf: swiftImage), try Data(contentsOf: kotlinImage), "Swift read other records")
        let extra: [Baton.Selection] = [.field("extra", type: .named("Int"))]
        try store.commit(bytes: Data(#"{"data":{"extra":5}}"#.utf8), selections: extra)
        swiftCache.flush()
        swiftCache.close()
        _ = try store.saveImage(to: swiftImage)

        let readBack = folder.appendingPathComponent("read-back.image")
        XCTAssertEqual(try build.run(["image", cache.path, readBack.path]), "opening: Opened(records=4)\n")
        XCTAssertEqual(try Data(contentsOf: readBack), try Data(contentsOf: swiftImage), "Kotlin read other records")
        XCTAssertNotEqual(try Data(contentsOf: readBack), try Data(contentsOf: kotlinImage), "the Swift batch is lost")
    }

    /// A JVM writer commits numbered batches (flushing each and saying so) and is killed with SIGKILL 10 times at
    /// seeded moments; after each kill the reopened cache is exactly batches 1…K from an empty store (the verifier
    /// replays them), K the last batch it reported or the one it was writing, and the next writer resumes after K.
    /// `BATON_KILL_SEED` picks other moments.
    func testAKilledWriterReopensToExactlyOneCommittedBatch() throws {
        let build = try Self.build()
        let folder = try KotlinTestSupport.temporaryFolder("sqlite-kill")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("cache.sqlite")
        var state = UInt64(ProcessInfo.processInfo.environment["BATON_KILL_SEED"].flatMap { UInt64($0) } ?? 33)
        var held = 0
        var killsMidWrite = 0
        for round in 0..<10 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let moment = Double((state >> 33) % 400) / 1000  // 0 to 0.4 s after the first batch
            let (resumed, batches) = try writeUntilKilled(build, cache, after: moment)
            XCTAssertEqual(resumed, held, "round \(round): the writer resumed after another batch")
            XCTAssertGreaterThan(batches.count, 0, "round \(round): the writer wrote nothing before the kill")
            XCTAssertEqual(batches.first, held + 1, "round \(round): the first batch was not the next one")
            let last = batches.last ?? held
            let verdict = try build.run(["verify", cache.path]).trimmingCharacters(in: .whitespacesAndNewlines)
            guard verdict.hasPrefix("consistent "), let batch = Int(verdict.dropFirst("consistent ".count)) else {
                return XCTFail("round \(round): \(verdict)")
            }
            // The batch it was writing when it died either committed or did not; nothing in between.
            XCTAssertTrue(batch == last || batch == last + 1, "round \(round): holds \(batch), reported \(last)")
            if batch == last + 1 { killsMidWrite += 1 }
            held = batch
        }
        print("Kotlin kill test: 10 kills, \(held) batches, \(killsMidWrite) kills after a commit before its report")
    }

    /// Starts `write`, kills it with SIGKILL `seconds` after it reported its first batch (so the kill lands while it
    /// writes, however slowly the JVM starts); the batch it resumed after and the batches it reported.
    private func writeUntilKilled(_ build: Built, _ cache: URL, after seconds: Double) throws -> (Int?, [Int]) {
        let (java, arguments) = try build.command(["write", cache.path])
        let process = Process()
        process.executableURL = java
        process.arguments = arguments
        process.currentDirectoryURL = build.folder
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var received = Data()
        let deadline = Date().addingTimeInterval(60)
        while !String(decoding: received, as: UTF8.self).contains("batch "), Date() < deadline, process.isRunning {
            received += output.fileHandleForReading.availableData
        }
        Thread.sleep(forTimeInterval: seconds)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "the writer ended before it was killed")
        received += output.fileHandleForReading.readDataToEndOfFile()
        // Only whole lines: a kill may cut the last one short.
        var lines = String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()
        let resumed = lines.first { $0.hasPrefix("resumed after ") }.flatMap { Int($0.dropFirst(14)) }
        let batches = lines.compactMap { $0.hasPrefix("batch ") ? Int($0.dropFirst(6)) : nil }
        return (resumed, batches)
    }
}
