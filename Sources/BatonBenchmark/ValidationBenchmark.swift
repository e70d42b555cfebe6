import BatonDiagnostics
import BatonSchema
import BatonSyntax
import BatonValidation
import Foundation

/// Times `Validator.validate` in process (median of N runs after warm-up) on every schema and
/// document pair of the shared corpus, in the mode each pair is validated in (merged project or
/// per file), and on synthetic worst cases of field merging; beside graphql-js's `validate` on
/// the same documents (`shared/tools/graphqljs-bench.mjs`, its `validateDocs` median) when node
/// is installed. Parsing and schema building are not part of either figure.
func runValidationBenchmark() {
    let shared =
        ProcessInfo.processInfo.environment["BATON_SHARED"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared")
        .standardizedFileURL.path
    let runs = Int(ProcessInfo.processInfo.environment["BATON_BENCH_RUNS"] ?? "") ?? 20
    // The walker as it was before rules declared their hooks, for a same-binary comparison.
    Validator.callsEveryHook = ProcessInfo.processInfo.environment["BATON_BENCH_ALL_HOOKS"] != nil
    if ProcessInfo.processInfo.environment["BATON_BENCH_PROFILE"] != nil {
        ValidationBenchmark.profileRules(shared: shared)
        return
    }
    print("## Validation: Validator.validate, every spec rule (median of \(runs) runs, ms)")
    let pairs = ValidationBenchmark.corpusPairs(shared: shared)
    if pairs.isEmpty { print("  corpus not found under \(shared) (set BATON_SHARED)") }
    var schemas: [String: GraphQLSchema] = [:]
    var batonTotal = 0.0
    var jsTotal = 0.0
    var jsComplete = true
    for pair in pairs {
        guard let schema = schemas[pair.schema] ?? ValidationBenchmark.loadSchema(pair.schema) else {
            print("  \(pair.name): schema did not load")
            continue
        }
        schemas[pair.schema] = schema
        let documents = ValidationBenchmark.parse(ValidationBenchmark.documentFiles(under: pair.directory))
        let mode: ValidationMode = pair.merge ? .merged : .perFile
        var errors = 0
        let baton = ValidationBenchmark.median(runs: runs, warmup: 3) {
            errors = Validator.validate(schema: schema, documents: documents, mode: mode).count
        }
        batonTotal += baton
        var line =
            "  \(pair.name) (\(documents.count) files, \(pair.merge ? "merged" : "per file")): Baton \(ValidationBenchmark.format(baton)) (\(errors) errors)"
        if let js = ValidationBenchmark.graphQLJS(
            shared: shared, schema: pair.schema, paths: [pair.directory], merge: pair.merge,
            assumeValidSDL: pair.assumeValidSDL, runs: 5)
        {
            jsTotal += js
            line += ", graphql-js \(ValidationBenchmark.format(js)) (\(ValidationBenchmark.ratio(js, baton)))"
        } else {
            jsComplete = false
        }
        print(line)
    }
    if !pairs.isEmpty {
        var line = "  corpus total (\(pairs.count) pairs): Baton \(ValidationBenchmark.format(batonTotal))"
        if jsComplete {
            line +=
                ", graphql-js \(ValidationBenchmark.format(jsTotal)) (\(ValidationBenchmark.ratio(jsTotal, batonTotal)))"
        }
        print(line)
    }

    print("## Validation: synthetic worst cases of field merging (GitHub schema, median, ms)")
    let schemaPath = "\(shared)/corpus/schemas/github/schema-2024-07-08.graphql"
    guard let schema = schemas[schemaPath] ?? ValidationBenchmark.loadSchema(schemaPath) else {
        print("  GitHub schema not found")
        return
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("baton-validation-bench")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for (name, text) in ValidationBenchmark.worstCases() {
        let path = directory.appendingPathComponent(name + ".graphql").path
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let documents = ValidationBenchmark.parse([path])
        var errors = 0
        let baton = ValidationBenchmark.median(runs: runs, warmup: 3) {
            errors = Validator.validate(schema: schema, documents: documents).count
        }
        var line = "  \(name): Baton \(ValidationBenchmark.format(baton)) (\(errors) errors)"
        // graphql-js is quadratic on these: one timed run after one warm-up.
        if let js = ValidationBenchmark.graphQLJS(
            shared: shared, schema: schemaPath, paths: [path], merge: false, assumeValidSDL: false, runs: 1, warmup: 1)
        {
            line += ", graphql-js \(ValidationBenchmark.format(js)) (\(ValidationBenchmark.ratio(js, baton)))"
        }
        print(line)
    }
}

/// `BatonBenchmark validation-loop [N]`: validates every corpus pair N times (default 200) and
/// prints the total, without graphql-js: a steady workload for `perf record` or callgrind
/// (`BATON_BENCH_RULES=none` or a comma-separated list of rule ids narrows the rules).
func runValidationLoop(_ arguments: [String]) {
    let shared =
        ProcessInfo.processInfo.environment["BATON_SHARED"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared")
        .standardizedFileURL.path
    let count = arguments.first.flatMap { Int($0) } ?? 200
    var units: [(GraphQLSchema, [Document], ValidationMode)] = []
    var schemas: [String: GraphQLSchema] = [:]
    for pair in ValidationBenchmark.corpusPairs(shared: shared) {
        guard let schema = schemas[pair.schema] ?? ValidationBenchmark.loadSchema(pair.schema) else { continue }
        schemas[pair.schema] = schema
        let documents = ValidationBenchmark.parse(ValidationBenchmark.documentFiles(under: pair.directory))
        units.append((schema, documents, pair.merge ? .merged : .perFile))
    }
    // `BATON_BENCH_RULES=none` walks without rules; `=id,id` runs only those rules.
    var rules = specifiedRules
    if let only = ProcessInfo.processInfo.environment["BATON_BENCH_RULES"] {
        let ids = Set(only.split(separator: ",").map(String.init))
        rules = specifiedRules.filter { ids.contains($0.id) }
    }
    var errors = 0
    let clock = ContinuousClock()
    let elapsed = clock.measure {
        for _ in 0..<count {
            for (schema, documents, mode) in units {
                errors += Validator.validate(schema: schema, documents: documents, rules: rules, mode: mode).count
            }
        }
    }
    let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
    print(
        String(
            format: "validation-loop: %d passes over %d pairs, %.3f ms per pass, %d errors per pass", count,
            units.count, milliseconds / Double(count), errors / max(1, count)))
}

private enum ValidationBenchmark {
    /// Times the walker alone and each rule alone on the largest corpus projects
    /// (`BATON_BENCH_RULE=<id>`: that rule with the walker, `BATON_BENCH_RULE_RUNS` times, default 200).
    static func profileRules(shared: String) {
        for pair in corpusPairs(shared: shared) where pair.name.hasPrefix("AniHyou") || pair.name.hasPrefix("vscode") {
            guard let schema = loadSchema(pair.schema) else { continue }
            let documents = parse(documentFiles(under: pair.directory))
            let mode: ValidationMode = pair.merge ? .merged : .perFile
            print(pair.name)
            if let only = ProcessInfo.processInfo.environment["BATON_BENCH_RULE"],
                let rule = specifiedRules.first(where: { $0.id == only })
            {
                let ruleRuns = Int(ProcessInfo.processInfo.environment["BATON_BENCH_RULE_RUNS"] ?? "") ?? 200
                let time = median(runs: ruleRuns, warmup: 2) {
                    _ = Validator.validate(schema: schema, documents: documents, rules: [rule], mode: mode)
                }
                print("  \(only) with the walker: \(format(time))")
                continue
            }
            let none = median(runs: 10, warmup: 2) {
                _ = Validator.validate(schema: schema, documents: documents, rules: [], mode: mode)
            }
            print("  walker only: \(format(none))")
            for rule in specifiedRules {
                let time = median(runs: 10, warmup: 2) {
                    _ = Validator.validate(schema: schema, documents: documents, rules: [rule], mode: mode)
                }
                print("  \(rule.id): \(format(time - none))")
            }
        }
    }

    struct Pair {
        let name: String
        let schema: String
        let directory: String
        let merge: Bool
        let assumeValidSDL: Bool
    }

    /// The pairs recorded in each `GRAPHQLJS-RESULTS.jsonl` project line.
    static func corpusPairs(shared: String) -> [Pair] {
        let documents = "\(shared)/corpus/documents"
        var pairs: [Pair] = []
        for group in ((try? FileManager.default.contentsOfDirectory(atPath: documents)) ?? []).sorted() {
            guard let data = FileManager.default.contents(atPath: "\(documents)/\(group)/GRAPHQLJS-RESULTS.jsonl")
            else {
                continue
            }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let project = object["project"] as? [String: Any], let name = project["project"] as? String,
                    let against = project["validatedAgainst"] as? String, let mode = project["mode"] as? String
                else { continue }
                pairs.append(
                    Pair(
                        name: "\(name) vs \(against)", schema: "\(shared)/corpus/schemas/\(against)",
                        directory: "\(documents)/\(group)/\(name)", merge: mode.hasPrefix("merge"),
                        assumeValidSDL: mode.contains("assumeValidSDL")))
            }
        }
        return pairs
    }

    static func loadSchema(_ path: String) -> GraphQLSchema? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let source = SourceFile(path: path, bytes: Array(data))
        return path.hasSuffix(".json")
            ? IntrospectionSchemaBuilder.build(source: source).0 : SchemaBuilder.build(sources: [source]).0
    }

    static func documentFiles(under directory: String) -> [String] {
        var result: [String] = []
        func walk(_ path: String) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
            if isDirectory.boolValue {
                let entries = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
                for entry in entries { walk(path + "/" + entry) }
            } else if path.hasSuffix(".graphql") || path.hasSuffix(".gql") {
                result.append(path)
            }
        }
        walk(directory)
        return result
    }

    static func parse(_ files: [String]) -> [Document] {
        files.compactMap { file in
            FileManager.default.contents(atPath: file).flatMap {
                Parser.parse(SourceFile(path: file, bytes: Array($0))).document
            }
        }
    }

    /// The median wall time of `body` in milliseconds.
    static func median(runs: Int, warmup: Int, _ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        var times: [Double] = []
        for run in 0..<(warmup + max(1, runs)) {
            let elapsed = clock.measure(body)
            if run >= warmup {
                times.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
            }
        }
        times.sort()
        return times.count % 2 == 1
            ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
    }

    static func format(_ milliseconds: Double) -> String { String(format: "%.3f ms", milliseconds) }

    static func ratio(_ js: Double, _ baton: Double) -> String {
        baton > 0 ? String(format: "Baton %.1fx faster", js / baton) : "n/a"
    }

    /// graphql-js's median `validateDocs` time, or nil when node or graphql-js is missing.
    static func graphQLJS(
        shared: String, schema: String, paths: [String], merge: Bool, assumeValidSDL: Bool, runs: Int,
        warmup: Int = 2
    ) -> Double? {
        guard
            let node = ["/usr/bin/node", "/usr/local/bin/node", "/opt/homebrew/bin/node"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return nil }
        var arguments = ["\(shared)/tools/graphqljs-bench.mjs", "-n", "\(runs)", "--warmup", "\(warmup)"]
        if merge { arguments.append("--merge") }
        if assumeValidSDL { arguments.append("--assume-valid-sdl") }
        arguments.append(schema)
        arguments += paths
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last,
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let bench = object["bench"] as? [String: Any], let validate = bench["validateDocs"] as? [String: Any]
        else { return nil }
        return (validate["median"] as? NSNumber)?.doubleValue
    }

    /// Documents against GitHub's schema that make naive field merging quadratic or worse.
    static func worstCases() -> [(String, String)] {
        var chain = "query Chain { viewer { " + String(repeating: "...F0 ", count: 200) + "} }\n"
        for index in 0..<60 {
            chain += "fragment F\(index) on User { login name "
            if index + 1 < 60 { chain += String(repeating: "...F\(index + 1) ", count: 3) }
            if index + 2 < 60 { chain += String(repeating: "...F\(index + 2) ", count: 2) }
            chain += "company }\n"
        }
        return [
            ("2000-identical-fields", "query Leaves { viewer { " + String(repeating: "login ", count: 2_000) + "} }\n"),
            (
                "500-identical-fields-with-selections",
                "query Nested { "
                    + String(repeating: "viewer { login repositories(first: 10) { totalCount } } ", count: 500)
                    + "}\n"
            ),
            (
                "2000-fields-spreading-a-fragment",
                "query Spreads { " + String(repeating: "viewer { ...U } ", count: 2_000) + "}\n"
                    + "fragment U on User { login name }\n"
            ),
            ("fragments-spread-into-each-other", chain),
        ]
    }
}
