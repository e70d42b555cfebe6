import Baton
import BatonSQLite
import Foundation

/// The persistence benchmark: saving one changed record and opening the store, with the SQLite cache and with the
/// whole-store image, at 1,000, 10,000 and 100,000 records. The cache writes only what a batch changed, so its
/// save should not grow with the store; the image writes every record each time. Figures go in
/// Docs/Performance.md under "## Persistence".
func runPersistenceBenchmark() {
    print("## Persistence")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-persistence-\(UUID())")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let selections: [Selection] = [
        .field(
            "items", type: .list(.named("Item")),
            selections: [
                .field("__typename", type: .named("String")), .field("id", type: .named("ID")),
                .field("name", type: .named("String")), .field("count", type: .named("Int")),
                .field("tags", type: .list(.named("String"))),
            ])
    ]
    func body(_ range: Range<Int>, count: Int = 1) -> Data {
        let items = range.map {
            #"{"__typename":"Item","id":"\#($0)","name":"Item number \#($0)","count":\#(count),"tags":["a","b"]}"#
        }
        return Data(#"{"data":{"items":[\#(items.joined(separator: ","))]}}"#.utf8)
    }
    for size in [1_000, 10_000, 100_000] {
        let cacheURL = directory.appendingPathComponent("cache-\(size).sqlite")
        let imageURL = directory.appendingPathComponent("store-\(size).image")
        let store = Store()
        guard let cache = try? SQLiteCache(url: cacheURL, store: store) else {
            print("persistence: cannot open \(cacheURL.path)")
            return
        }
        var start = 0
        let fill = PersistenceTiming.measure {
            while start < size {
                let end = min(size, start + 5_000)
                _ = try? store.commit(bytes: body(start..<end), selections: selections)
                start = end
            }
            cache.flush()
        }
        // One changed record per batch: commit, then wait for the cache's transaction.
        var save = PersistenceTiming()
        var imageSave = PersistenceTiming()
        for round in 0..<15 {
            let one = body(7..<8, count: round + 2)
            save.keepBest(
                PersistenceTiming.measure {
                    _ = try? store.commit(bytes: one, selections: selections)
                    cache.flush()
                })
            if round < 5 { imageSave.keepBest(PersistenceTiming.measure { _ = try? store.saveImage(to: imageURL) }) }
        }
        cache.close()
        var open = PersistenceTiming()
        var imageLoad = PersistenceTiming()
        var opened = 0
        for _ in 0..<3 {
            let fresh = Store()
            open.keepBest(
                PersistenceTiming.measure {
                    if let reopened = try? SQLiteCache(url: cacheURL, store: fresh) {
                        opened = fresh.snapshot().records.count
                        reopened.close()
                    }
                })
            imageLoad.keepBest(PersistenceTiming.measure { _ = Store().loadImage(from: imageURL) })
        }
        let cacheBytes = ["", "-wal"].reduce(0) { total, suffix in
            total + (((try? FileManager.default.attributesOfItem(atPath: cacheURL.path + suffix))?[.size] as? Int) ?? 0)
        }
        let imageBytes = ((try? FileManager.default.attributesOfItem(atPath: imageURL.path))?[.size] as? Int) ?? 0
        print(
            String(
                format:
                    "%7d records: save one changed record: cache %.3f ms, image %.1f ms; open: cache %.1f ms (%d records), image %.1f ms; first write %.0f ms; files: cache %.1f MB, image %.1f MB",
                size, save.wall * 1000, imageSave.wall * 1000, open.wall * 1000, opened, imageLoad.wall * 1000,
                fill.wall * 1000, Double(cacheBytes) / 1_048_576, Double(imageBytes) / 1_048_576))
    }
}

/// The best wall-clock time seen, in seconds (the cache's writes run on its own queue, so thread CPU time would
/// miss them).
private struct PersistenceTiming {
    var wall = Double.infinity

    mutating func keepBest(_ other: PersistenceTiming) { wall = min(wall, other.wall) }

    static func measure(_ body: () -> Void) -> PersistenceTiming {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return PersistenceTiming(wall: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}
