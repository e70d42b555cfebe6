import BatonDiagnostics
import BatonSchema
import BatonSyntax
import Foundation

/// Times parse + build + validate of GitHub's schema (median of N runs after warm-up), beside
/// graphql-js's `parse` + `buildASTSchema` + `assertValidSchema` on the same file
/// (`shared/tools/graphqljs-bench.mjs`) when node is installed.
///
/// GitHub's current schema repeats two fields, which strict graphql-js rejects; graphql-js is
/// timed on it with `--assume-valid-sdl` (no SDL rules), Baton with every rule. The 2024-07-08
/// snapshot is valid and timed strictly by both.
func runSchemaBenchmark() {
    let shared =
        ProcessInfo.processInfo.environment["BATON_SHARED"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared")
        .standardizedFileURL.path
    print("## Schema: parse + build + validate (median of runs, ms)")
    for (file, jsFlags) in [
        ("github/schema.graphql", ["--assume-valid-sdl"]), ("github/schema-2024-07-08.graphql", [String]()),
        ("github-2018-githawk/schema.json", []),
    ] {
        let path = "\(shared)/corpus/schemas/\(file)"
        guard case .success(let source) = SchemaLoader.readFile(path) else {
            print("  \(file): not found under \(shared)/corpus/schemas (set BATON_SHARED)")
            continue
        }
        let baton = SchemaTiming.measure(source, runs: 20, warmup: 3)
        let megabytes = Double(source.bytes.count) / 1_048_576
        var line = "  \(file) (\(String(format: "%.2f", megabytes)) MB): Baton "
        line += "parse \(SchemaTiming.format(baton.parse)) + build+validate \(SchemaTiming.format(baton.build))"
        line +=
            " = \(SchemaTiming.format(baton.total)) (CPU \(SchemaTiming.format(baton.cpu)); \(baton.diagnostics) diagnostics)"
        print(line)
        if let js = SchemaTiming.graphQLJS(schema: path, flags: jsFlags, shared: shared) {
            let ratio = baton.total > 0 ? js.total / baton.total : 0
            print(
                "    graphql-js\(jsFlags.isEmpty ? "" : " " + jsFlags.joined(separator: " ")): parse \(SchemaTiming.format(js.parse)) + build \(SchemaTiming.format(js.build)) + assertValidSchema \(SchemaTiming.format(js.validate)) = \(SchemaTiming.format(js.total)); Baton is \(String(format: "%.1f", ratio))x faster"
            )
        } else {
            print("    graphql-js: not run (node or graphql-js not installed)")
        }
    }
}

/// `BatonBenchmark parse-corpus [DIR]`: reads and parses every `.graphql`, `.graphqls` and `.gql`
/// file under DIR (default: the shared corpus) once, prints one summary line, and exits. Meant to
/// be timed as a whole process (start-up included) with `hyperfine` against node doing the same
/// with graphql-js; the exact command (with the node side, which prints the same summary line) is
/// in Docs/Performance.md, `## Syntax`.
func runParseCorpus(_ directory: String?) {
    let root =
        directory
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/corpus")
        .standardizedFileURL.path
    var paths: [String] = []
    if let enumerator = FileManager.default.enumerator(atPath: root) {
        while let relative = enumerator.nextObject() as? String {
            let lower = relative.lowercased()
            if lower.hasSuffix(".graphql") || lower.hasSuffix(".graphqls") || lower.hasSuffix(".gql") {
                paths.append(root + "/" + relative)
            }
        }
    }
    paths.sort()
    var bytes = 0
    var definitions = 0
    var failures = 0
    for path in paths {
        guard let data = FileManager.default.contents(atPath: path) else {
            failures += 1
            continue
        }
        let source = SourceFile(path: path, bytes: Array(data))
        bytes += source.bytes.count
        if let document = Parser.parse(source).document {
            definitions += document.definitions.count
        } else {
            failures += 1
        }
    }
    print("parsed \(paths.count) files, \(bytes) bytes, \(definitions) definitions, \(failures) with syntax errors")
}

/// `BatonBenchmark schema-loop FILE [N]`: parse + build + validate FILE (SDL or introspection
/// JSON) N times (default 1) and print the diagnostics count. No timing: this is the thing to run
/// under `valgrind --tool=callgrind`, whose instruction counts stay stable on a loaded machine.
func runSchemaLoop(_ arguments: [String]) {
    guard let path = arguments.first, case .success(let source) = SchemaLoader.readFile(path) else {
        print("usage: BatonBenchmark schema-loop FILE [N]")
        return
    }
    let runs = arguments.dropFirst().first.flatMap { Int($0) } ?? 1
    let isJSON = SchemaLoader.isIntrospection(source)
    var diagnostics = 0
    var types = 0
    for _ in 0..<max(1, runs) {
        let built: (GraphQLSchema?, [Diagnostic])?
        if isJSON {
            guard case .success(let value) = JSONParser.parse(source) else { continue }
            built = IntrospectionSchemaBuilder.build(json: value, source: source)
        } else {
            built = Parser.parse(source).document.map { SchemaBuilder.build(documents: [$0]) }
        }
        diagnostics = built?.1.count ?? -1
        types = built?.0?.typeNames.count ?? -1
    }
    print("\(path): \(types) types, \(diagnostics) diagnostics")
}

private enum SchemaTiming {
    struct Result {
        var parse: Double
        var build: Double
        var total: Double
        /// CPU time of this thread for parse + build + validate: what the work costs when the
        /// machine is shared and wall-clock time is inflated by other processes.
        var cpu: Double
        var diagnostics: Int
    }

    static func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    static func measure(_ source: SourceFile, runs: Int, warmup: Int) -> Result {
        var parses: [Double] = []
        var builds: [Double] = []
        var totals: [Double] = []
        var cpus: [Double] = []
        var diagnostics = 0
        let clock = ContinuousClock()
        let isJSON = SchemaLoader.isIntrospection(source)
        for run in 0..<(warmup + runs) {
            // Results stay alive until the clock has stopped: freeing them is not part of the work.
            var json: JSONValue?
            var document: Document?
            var built: (GraphQLSchema?, [Diagnostic])?
            let cpuStart = threadCPUMilliseconds()
            let start = clock.now
            var parsed = clock.now
            if isJSON {
                if case .success(let value) = JSONParser.parse(source) {
                    json = value
                    parsed = clock.now
                    built = IntrospectionSchemaBuilder.build(json: value, source: source)
                }
            } else {
                document = Parser.parse(source).document
                parsed = clock.now
                if let document { built = SchemaBuilder.build(documents: [document]) }
            }
            let end = clock.now
            let cpuEnd = threadCPUMilliseconds()
            diagnostics = built?.1.count ?? -1
            withExtendedLifetime((json, document, built)) {}
            guard run >= warmup else { continue }
            parses.append(milliseconds(parsed - start))
            builds.append(milliseconds(end - parsed))
            totals.append(milliseconds(end - start))
            cpus.append(cpuEnd - cpuStart)
        }
        return Result(
            parse: median(parses), build: median(builds), total: median(totals), cpu: median(cpus),
            diagnostics: diagnostics)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func format(_ milliseconds: Double) -> String { String(format: "%.2f", milliseconds) }

    /// graphql-js's medians for the schema phases, from `graphqljs-bench.mjs`.
    static func graphQLJS(
        schema: String, flags: [String], shared: String
    ) -> (parse: Double, build: Double, validate: Double, total: Double)? {
        let script = "\(shared)/tools/graphqljs-bench.mjs"
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard FileManager.default.fileExists(atPath: script),
            let node = searchPath.split(separator: ":").map({ "\($0)/node" })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = [script, "-n", "10"] + flags + [schema]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let bench = object["bench"] as? [String: Any]
        else { return nil }
        func phase(_ name: String) -> Double { ((bench[name] as? [String: Any])?["median"] as? Double) ?? 0 }
        let parse = phase("parseSchema")
        let build = phase("buildSchema")
        let validate = phase("assertValidSchema")
        return (parse, build, validate, parse + build + validate)
    }
}
