import BatonDiagnostics
import BatonSyntax
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The syntax benchmark: parse throughput on GitHub's schema, time to parse every corpus
/// document, and print time, each the median of several runs; with graphql-js's figures for the
/// same inputs beside them when node is installed.
///
/// Run with `swift run -c release BatonBenchmark` (the corpus is found beside the repository,
/// or at `$BATON_CORPUS`). Beside wall-clock medians it prints the median CPU time of the
/// benchmark thread, which stays meaningful on a machine busy with other work.
func runSyntaxBenchmark() {
    print("## Syntax")
    let corpus = benchmarkCorpusDirectory()
    let schemaPath = corpus.appendingPathComponent("schemas/github/schema.graphql").path
    guard let schemaBytes = FileManager.default.contents(atPath: schemaPath).map(Array.init) else {
        print("  skipped: no corpus schema at \(schemaPath)")
        return
    }
    let documentFiles = graphQLFiles(under: corpus.appendingPathComponent("documents"))
    let documents = documentFiles.compactMap { url in
        FileManager.default.contents(atPath: url.path).map { SourceFile(path: url.path, bytes: Array($0)) }
    }
    let documentBytes = documents.reduce(0) { $0 + $1.bytes.count }
    let runs = 31

    // Parse GitHub's schema (SourceFile creation, i.e. the line table, included).
    var definitions = 0
    let schemaTimes = measure(runs: runs) {
        let result = Parser.parse(SourceFile(path: schemaPath, bytes: schemaBytes))
        definitions = result.document?.definitions.count ?? -1
    }
    let schemaMedian = median(schemaTimes.map(\.wall))
    let schemaCPU = median(schemaTimes.map(\.cpu))
    let megabytes = Double(schemaBytes.count) / 1_000_000
    print(
        "  parse GitHub schema (\(schemaBytes.count) B, \(definitions) definitions): median \(format(schemaMedian)) ms, "
            + "min \(format(schemaTimes.map(\.wall).min() ?? 0)) ms, \(format(megabytes / (schemaMedian / 1000), digits: 0)) MB/s; "
            + "thread CPU median \(format(schemaCPU)) ms, \(format(megabytes / (schemaCPU / 1000), digits: 0)) MB/s")

    // Parse every corpus document.
    var failures = 0
    let documentTimes = measure(runs: runs) {
        failures = 0
        for document in documents where Parser.parse(document).document == nil { failures += 1 }
    }
    print(
        "  parse \(documents.count) corpus documents (\(documentBytes) B): median \(format(median(documentTimes.map(\.wall)))) ms, "
            + "thread CPU median \(format(median(documentTimes.map(\.cpu)))) ms"
            + (failures > 0 ? " (\(failures) with syntax errors)" : ""))

    // Print GitHub's schema.
    if let document = Parser.parse(SourceFile(path: schemaPath, bytes: schemaBytes)).document {
        let printTimes = measure(runs: 11) { _ = Printer.print(document) }
        print(
            "  print GitHub schema: median \(format(median(printTimes.map(\.wall)))) ms, "
                + "thread CPU median \(format(median(printTimes.map(\.cpu)))) ms")
    }

    // graphql-js on the same inputs, in the same invocation.
    if let figures = graphQLJSFigures(
        schemaPath: schemaPath, documents: corpus.appendingPathComponent("documents").path)
    {
        let (parseSchema, parseDocs, version) = figures
        print(
            "  graphql-js \(version): parse GitHub schema median \(format(parseSchema)) ms "
                + "(\(format(megabytes / (parseSchema / 1000), digits: 0)) MB/s, Baton \(format(parseSchema / schemaMedian, digits: 1))× faster); "
                + "parse corpus documents median \(format(parseDocs)) ms "
                + "(Baton \(format(parseDocs / median(documentTimes.map(\.wall)), digits: 1))× faster)")
    } else {
        print("  graphql-js: skipped (node or graphql-js not found)")
    }
}

/// Wall-clock and thread-CPU milliseconds of each of `runs` runs of `body`, after two warm-up runs.
private func measure(runs: Int, _ body: () -> Void) -> [(wall: Double, cpu: Double)] {
    body()
    body()
    let clock = ContinuousClock()
    return (0..<runs).map { _ in
        let cpuStart = threadCPUMilliseconds()
        let elapsed = clock.measure(body)
        let cpu = threadCPUMilliseconds() - cpuStart
        return (Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15, cpu)
    }
}

/// CPU time consumed by the calling thread, in milliseconds.
private func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

private func format(_ value: Double, digits: Int = 2) -> String {
    String(format: "%.\(digits)f", value)
}

/// The shared corpus: `$BATON_CORPUS`, else `shared/corpus` beside the repository.
private func benchmarkCorpusDirectory() -> URL {
    if let path = ProcessInfo.processInfo.environment["BATON_CORPUS"] { return URL(fileURLWithPath: path) }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")
}

/// `.graphql` and `.gql` files under `directory`, sorted (the files graphql-js's bench reads).
private func graphQLFiles(under directory: URL) -> [URL] {
    guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
        return []
    }
    var files: [URL] = []
    for case let url as URL in enumerator where ["graphql", "gql"].contains(url.pathExtension.lowercased()) {
        files.append(url)
    }
    return files.sorted { $0.path < $1.path }
}

/// graphql-js's median parse times (schema, documents) and version from
/// `shared/tools/graphqljs-bench.mjs`, or nil when node or the script is missing.
private func graphQLJSFigures(schemaPath: String, documents: String) -> (Double, Double, String)? {
    let tools = benchmarkCorpusDirectory().deletingLastPathComponent().appendingPathComponent("tools")
    let script = tools.appendingPathComponent("graphqljs-bench.mjs").path
    let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard FileManager.default.fileExists(atPath: script),
        let node = searchPath.split(separator: ":").map({ "\($0)/node" })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: node)
    // GitHub's SDL repeats two fields, which graphql-js's SDL validation rejects.
    process.arguments = [script, "-n", "31", "--assume-valid-sdl", schemaPath, documents]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last,
        let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let bench = json["bench"] as? [String: Any],
        let parseSchema = (bench["parseSchema"] as? [String: Any])?["median"] as? Double,
        let parseDocs = (bench["parseDocs"] as? [String: Any])?["median"] as? Double
    else { return nil }
    return (parseSchema, parseDocs, "\(json["graphqlJs"] ?? "?") on node \(json["node"] ?? "?")")
}
