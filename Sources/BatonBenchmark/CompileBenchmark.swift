import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonCompiler
import BatonIR
import BatonSchema
import BatonSyntax
import Foundation

/// The JVM options kotlinc runs with when `JAVA_OPTS` is not set: a heap as large as a Gradle build's Kotlin daemon
/// is usually given, and a deeper thread stack for long generated files.
let kotlincJavaOptions = "-Xmx8g -Xss4m"

/// The environment for a kotlinc child: `JAVA_OPTS` as set, or `kotlincJavaOptions`.
var kotlincEnvironment: [String: String] {
    ProcessInfo.processInfo.environment["JAVA_OPTS"] == nil ? ["JAVA_OPTS": kotlincJavaOptions] : [:]
}

/// `BatonBenchmark compile [--only NAME,…] [--operations N] [--runs R] [--no-kotlin] [--keep DIR]`: the compile
/// of what Baton generates (issue #34).
///
/// Generates the Swift and Kotlin of every corpus app that has a schema and documents (each app's documents as one
/// unit, against the schema graphql-js validated it with) and of the first `N` operations (1,000) of the scale
/// project, in process, then compiles them as an app's build would:
/// - Swift debug: `swiftc -c -Onone -g`, batch mode with one frontend per core (SwiftPM's and Xcode's debug build),
///   with `-warn-long-function-bodies=100` and `-warn-long-expression-type-checking=100`: every generated function
///   or expression over 100 ms to type-check is listed;
/// - Swift release: `swiftc -c -O -wmo` (one frontend for the module);
/// - Kotlin: `kotlinc` (Debian's 1.3) and `kotlinc-current` when on `PATH`, against the runtime support compiled once,
///   with `JAVA_OPTS` of `kotlincJavaOptions` unless the environment sets its own (Debian's script defaults to a
///   256 MB heap; kotlinc 1.3 held over 5 GB resident compiling the 1,000-operation slice's 295,000 lines).
///
/// Both languages compile against a runtime built once per run (`Baton` as a Swift module, `-O -wmo`; the Kotlin
/// runtime support as classes, once per kotlinc). CPU is user + system of the compiler and everything it starts, from
/// `wait4`; the machine is shared, so CPU is the figure to compare and wall only says how long one waited. A project
/// whose documents do not validate is skipped and says why.
func runCompileBenchmark(_ arguments: [String]) {
    var options = CompileBenchmarkOptions()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
        switch argument {
        case "--only": options.only = Set((remaining.popFirst() ?? "").split(separator: ",").map(String.init))
        case "--operations": options.operations = remaining.popFirst().flatMap { Int($0) } ?? options.operations
        case "--runs": options.runs = max(1, remaining.popFirst().flatMap { Int($0) } ?? 1)
        case "--no-kotlin": options.kotlin = false
        case "--no-swift": options.swift = false
        case "--keep": options.keep = remaining.popFirst()
        default:
            print("compile: unknown argument \(argument)")
            return
        }
    }
    CompileBenchmark(options: options).run()
}

struct CompileBenchmarkOptions {
    /// Project names to compile (all when empty); `scale` is the scale project's slice.
    var only: Set<String> = []
    var operations = 1000
    var runs = 1
    var swift = true
    var kotlin = true
    /// Where to write the generated code and keep it (a temporary folder, removed afterwards, when nil).
    var keep: String?
}

/// One project's generated code and what compiling it cost.
private struct CompiledProject {
    var name: String
    var operations: Int
    var fragments: Int
    var swift: [GeneratedFile]
    var kotlin: [GeneratedFile]
    var swiftDebug: RunSeries?
    var swiftRelease: RunSeries?
    var swiftWarnings = 0
    var slow: [(milliseconds: Int, text: String)] = []
    var kotlinc: [(compiler: String, series: RunSeries)] = []
    var failures: [String] = []
}

private struct CompileBenchmark {
    var options: CompileBenchmarkOptions
    let shared =
        ProcessInfo.processInfo.environment["BATON_SHARED"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared")
        .standardizedFileURL.path
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardizedFileURL.path
    let swiftc = ProcessInfo.processInfo.environment["SWIFTC"] ?? "/opt/swift/usr/bin/swiftc"

    /// The corpus apps: name, schema files (relative to `corpus/schemas`), documents folder (relative to
    /// `corpus/documents`), each against the schema graphql-js validated it with (GRAPHQLJS-RESULTS.jsonl).
    static let apps: [(name: String, schemas: [String], documents: String)] =
        [
            (
                "AniHyou", ["anilist/schema.graphqls", "anilist/apollo-client-extra.graphqls"],
                "anilist/AniHyou-android"
            ),
            ("GitHawk", ["github/schema.graphql"], "github/GitHawk"),
            ("git-touch", ["github-2021-git-touch/schema.graphql"], "github/git-touch"),
            ("vscode-pull-request-github", ["github/schema-2024-07-08.graphql"], "github/vscode-pull-request-github"),
            ("MortyComposeKMM", ["rickandmorty/schema.graphqls"], "rickandmorty/MortyComposeKMM"),
            ("RickComposeMultiplatform", ["rickandmorty/schema.graphqls"], "rickandmorty/RickComposeMultiplatform"),
            ("rickandmortyapi050425", ["rickandmorty/schema.graphqls"], "rickandmorty/rickandmortyapi050425"),
            ("swapi-graphql-examples", ["swapi/schema.graphql"], "swapi/swapi-graphql-examples"),
        ]
        + [
            "anonymizer", "app-problems", "avatax", "cms", "dummy-payment-app", "klaviyo", "np-atobarai", "onboarding",
            "products-feed", "search", "segment", "smtp", "stripe", "webhook-utils",
        ].map { ("saleor-apps-" + $0, ["saleor/schema.graphql"], "saleor/saleor-apps-" + $0) }

    func wanted(_ name: String) -> Bool { options.only.isEmpty || options.only.contains(name) }

    func run() {
        let corpus = shared + "/corpus"
        let scratch =
            options.keep
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("baton-compile-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { if options.keep == nil { try? FileManager.default.removeItem(atPath: scratch) } }
        print("## Compile of generated code (corpus apps and \(options.operations) operations of the scale project)")
        print("  load average at the start (1, 5, 15 min): \(loadAverage())")

        // The fixed cost of a compiler run: one file importing the runtime, no operation.
        var projects: [CompiledProject] = [
            CompiledProject(
                name: "empty (fixed cost)", operations: 0, fragments: 0,
                swift: [GeneratedFile(path: "Empty.swift", contents: "import Baton\n")],
                kotlin: [GeneratedFile(path: "Empty.kt", contents: "package corpus.empty\n\nimport baton.runtime.*\n")])
        ]
        for app in CompileBenchmark.apps where wanted(app.name) {
            let files = sourceFiles(in: corpus + "/documents/" + app.documents)
            if let project = generate(
                name: app.name, schemas: app.schemas.map { corpus + "/schemas/" + $0 }, documents: files)
            {
                projects.append(project)
            }
        }
        if wanted("scale"), let scale = ScaleProject.load(shared: shared) {
            let folder = scratch + "/scale-documents"
            if let written = try? scale.write(operations: options.operations, to: folder),
                let project = generate(
                    name: "scale (\(options.operations) operations)", schemas: [scale.schemaPath],
                    documents: written.files)
            {
                projects.append(project)
            }
        }
        guard !projects.isEmpty else { return }

        let childScratch = scratch + "/child"
        try? FileManager.default.createDirectory(atPath: childScratch, withIntermediateDirectories: true)
        if options.swift, let runtime = buildSwiftRuntime(scratch: scratch, childScratch: childScratch) {
            for index in projects.indices {
                compileSwift(&projects[index], runtime: runtime, scratch: scratch, childScratch: childScratch)
            }
        }
        if options.kotlin {
            let compilers = [
                ("kotlinc 1.3", "/usr/bin/kotlinc"), ("kotlinc-current", ChildRun.find("kotlinc-current")),
            ]
            .compactMap { name, path in
                path.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? (name, $0) : nil }
            }
            for (name, path) in compilers {
                guard
                    let runtime = buildKotlinRuntime(
                        compiler: name, path: path, scratch: scratch, childScratch: childScratch)
                else { continue }
                for index in projects.indices {
                    compileKotlin(
                        &projects[index], compiler: name, path: path, runtime: runtime, scratch: scratch,
                        childScratch: childScratch)
                }
            }
        }
        report(projects)
        print("  load average at the end (1, 5, 15 min): \(loadAverage())")
    }

    /// `/proc/loadavg`'s three averages: other engineers build on this machine.
    func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3)
            .joined(separator: " ")
    }

    /// Loads, validates and generates one project; nil (and a line saying why) when its documents do not validate.
    func generate(name: String, schemas: [String], documents: [String]) -> CompiledProject? {
        let loader = ProjectLoader(workingDirectory: "/")
        let (schema, _, _) = loader.loadSchema(schemas)
        guard let schema else {
            print("  \(name): skipped, schema not found (set BATON_SHARED)")
            return nil
        }
        let loaded = loader.loadDocuments(documents)
        // `no-unused-fragments` is left out: apps keep shared fragments, and baton.json can make it a warning.
        let errors = (loaded.diagnostics + DocumentValidation.validate(schema: schema, documents: loaded.documents))
            .filter { $0.severity == .error && $0.rule != "no-unused-fragments" }
        if let first = errors.first {
            print("  \(name): skipped, \(errors.count) errors (first: \(first.message) [\(first.rule)])")
            return nil
        }
        let (model, _) = LensModelBuilder.build(
            schema: schema, documents: loaded.documents, options: GenerationTargets.planOptions())
        guard !model.operations.isEmpty else {
            print("  \(name): skipped, no operation")
            return nil
        }
        let package = "corpus." + name.lowercased().filter { $0.isLetter || $0.isNumber }
        return CompiledProject(
            name: name, operations: model.operations.count, fragments: model.fragments.count,
            swift: SwiftGenerator(model: model).generate(),
            kotlin: KotlinGenerator.generate(
                model, options: KotlinGeneratorOptions(packageName: package, includeRuntime: false)))
    }

    /// `Baton` as a module, built once (`-O -wmo`); the folder holding `Baton.swiftmodule`.
    func buildSwiftRuntime(scratch: String, childScratch: String) -> String? {
        let folder = scratch + "/swift-runtime"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let sources = sourceFiles(in: repository + "/Sources/Baton", extensions: [".swift"])
        let arguments =
            [
                "-swift-version", "6", "-module-name", "Baton", "-parse-as-library", "-O", "-wmo", "-c", "-o",
                folder + "/Baton.o", "-emit-module", "-emit-module-path", folder + "/Baton.swiftmodule",
            ] + sources
        guard let run = ChildRun.run(swiftc, arguments, in: folder, scratch: childScratch), run.status == 0 else {
            print("  Swift runtime: does not build")
            return nil
        }
        print(
            String(
                format: "  Swift runtime (Baton, %d files, -O -wmo), built once: %.1f s CPU, %.1f s wall",
                sources.count, (run.userMilliseconds + run.systemMilliseconds) / 1000, run.wallMilliseconds / 1000))
        return folder
    }

    /// The Kotlin runtime support compiled once by one compiler; the classes folder.
    func buildKotlinRuntime(compiler: String, path: String, scratch: String, childScratch: String) -> String? {
        let tag = compiler.filter { $0.isLetter || $0.isNumber }
        let sources = scratch + "/kotlin-runtime-sources"
        let runtime = KotlinRuntime.files(header: FileWriter.header + "\n\n").map {
            GeneratedFile(path: $0.path, contents: $0.contents)
        }
        write(runtime, to: sources)
        let classes = scratch + "/kotlin-runtime-" + tag
        guard
            let run = ChildRun.run(
                path, [sources, "-d", classes], in: scratch, scratch: childScratch, environment: kotlincEnvironment),
            run.status == 0
        else {
            print("  \(compiler): the runtime support does not compile")
            return nil
        }
        print(
            String(
                format: "  Kotlin runtime support with %@, compiled once: %.1f s CPU, %.1f s wall", compiler,
                (run.userMilliseconds + run.systemMilliseconds) / 1000, run.wallMilliseconds / 1000))
        return classes
    }

    func compileSwift(_ project: inout CompiledProject, runtime: String, scratch: String, childScratch: String) {
        let folder = scratch + "/" + tag(project.name) + "/swift"
        write(project.swift, to: folder)
        let paths = project.swift.map { folder + "/" + $0.path }
        let common = ["-c", "-swift-version", "6", "-parse-as-library", "-module-name", "Generated", "-I", runtime]
        let debugFlags = [
            "-Onone", "-g", "-enable-batch-mode", "-j", "2", "-Xfrontend", "-warn-long-function-bodies=100",
            "-Xfrontend", "-warn-long-expression-type-checking=100",
        ]
        let releaseFlags = ["-O", "-wmo", "-num-threads", "0", "-o", "Generated.o"]
        var debug = RunSeries(name: "debug")
        var release = RunSeries(name: "release")
        for _ in 0..<options.runs {
            for (flags, isDebug) in [(debugFlags, true), (releaseFlags, false)] {
                let objects = scratch + "/" + tag(project.name) + (isDebug ? "/debug" : "/release")
                try? FileManager.default.removeItem(atPath: objects)
                try? FileManager.default.createDirectory(atPath: objects, withIntermediateDirectories: true)
                guard let run = ChildRun.run(swiftc, common + flags + paths, in: objects, scratch: childScratch) else {
                    continue
                }
                guard run.status == 0 else {
                    project.failures.append(
                        "Swift \(isDebug ? "debug" : "release") exit \(run.status): " + String(run.errors.prefix(800)))
                    continue
                }
                if isDebug {
                    debug.runs.append(run)
                    project.swiftWarnings = run.errors.components(separatedBy: ": warning: ").count - 1
                    project.slow = slowTypeChecks(run.errors)
                } else {
                    release.runs.append(run)
                }
            }
        }
        project.swiftDebug = debug.runs.isEmpty ? nil : debug
        project.swiftRelease = release.runs.isEmpty ? nil : release
        print(
            String(
                format: "  %@: Swift debug %.1f s CPU (%.1f wall), release %.1f s CPU (%.1f wall), %d over 100 ms",
                project.name, debug.cpu / 1000, debug.wall / 1000, release.cpu / 1000, release.wall / 1000,
                project.slow.count))
    }

    /// The `-warn-long-…` warnings: `path:line:col: warning: instance method 'x' took 123ms to type-check (limit: 100ms)`.
    func slowTypeChecks(_ errors: String) -> [(milliseconds: Int, text: String)] {
        var result: [(milliseconds: Int, text: String)] = []
        // Only the diagnostic's own line (it starts with the file's path), not the source excerpt that repeats it.
        for line in errors.split(separator: "\n") where line.hasPrefix("/") && line.contains("ms to type-check") {
            guard let took = line.range(of: " took ") else { continue }
            let digits = line[took.upperBound...].prefix { $0.isNumber }
            let location = line.split(separator: "/").last.map(String.init) ?? String(line)
            result.append((Int(digits) ?? 0, location))
        }
        return result.sorted { $0.milliseconds > $1.milliseconds }
    }

    func compileKotlin(
        _ project: inout CompiledProject, compiler: String, path: String, runtime: String, scratch: String,
        childScratch: String
    ) {
        let folder = scratch + "/" + tag(project.name) + "/kotlin"
        write(project.kotlin, to: folder)
        var series = RunSeries(name: compiler)
        for _ in 0..<options.runs {
            let classes = scratch + "/" + tag(project.name) + "/classes-" + tag(compiler)
            try? FileManager.default.removeItem(atPath: classes)
            guard
                let run = ChildRun.run(
                    path, [folder, "-cp", runtime, "-d", classes], in: scratch, scratch: childScratch,
                    environment: kotlincEnvironment)
            else { continue }
            guard run.status == 0 else {
                project.failures.append("\(compiler) exit \(run.status): " + String(run.errors.prefix(800)))
                continue
            }
            series.runs.append(run)
        }
        if !series.runs.isEmpty { project.kotlinc.append((compiler, series)) }
        print(
            String(
                format: "  %@: %@ %.1f s CPU (%.1f wall)", project.name, compiler, series.cpu / 1000,
                series.wall / 1000))
    }

    func report(_ projects: [CompiledProject]) {
        func lines(_ files: [GeneratedFile]) -> Int {
            files.reduce(0) { $0 + $1.contents.split(separator: "\n", omittingEmptySubsequences: false).count }
        }
        func bytes(_ files: [GeneratedFile]) -> Int { files.reduce(0) { $0 + $1.contents.utf8.count } }
        func seconds(_ series: RunSeries?) -> String {
            guard let series else { return "—" }
            return String(format: "%.1f (%.1f)", series.cpu / 1000, series.wall / 1000)
        }
        func perOperation(_ series: RunSeries?, _ operations: Int) -> String {
            guard let series, operations > 0 else { return "—" }
            return String(format: "%.0f", series.cpu / Double(operations))
        }
        print("")
        print("### Swift (CPU s, wall in brackets; per operation: CPU ms, lines, bytes)")
        print(
            "| project | operations | fragments | files | lines | bytes | debug -Onone | release -O -wmo | debug ms/op | release ms/op | lines/op | bytes/op | warnings | >100 ms |"
        )
        print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        var totals = (operations: 0, lines: 0, bytes: 0, debug: 0.0, release: 0.0)
        for project in projects {
            let (swiftLines, swiftBytes) = (lines(project.swift), bytes(project.swift))
            print(
                "| \(project.name) | \(project.operations) | \(project.fragments) | \(project.swift.count) | \(swiftLines) | \(swiftBytes) | \(seconds(project.swiftDebug)) | \(seconds(project.swiftRelease)) | \(perOperation(project.swiftDebug, project.operations)) | \(perOperation(project.swiftRelease, project.operations)) | \(swiftLines / max(project.operations, 1)) | \(swiftBytes / max(project.operations, 1)) | \(project.swiftWarnings) | \(project.slow.count) |"
            )
            if project.operations > 0, !project.name.hasPrefix("scale"), project.swiftDebug != nil,
                project.swiftRelease != nil
            {
                totals.operations += project.operations
                totals.lines += swiftLines
                totals.bytes += swiftBytes
                totals.debug += project.swiftDebug?.cpu ?? 0
                totals.release += project.swiftRelease?.cpu ?? 0
            }
        }
        if totals.operations > 0 {
            print(
                String(
                    format:
                        "| corpus apps that compiled | %d | | | %d | %d | %.1f | %.1f | %.0f | %.0f | %d | %d | | |",
                    totals.operations, totals.lines, totals.bytes, totals.debug / 1000, totals.release / 1000,
                    totals.debug / Double(totals.operations), totals.release / Double(totals.operations),
                    totals.lines / totals.operations, totals.bytes / totals.operations))
        }
        let compilers = Array(Set(projects.flatMap { $0.kotlinc.map(\.compiler) })).sorted()
        if !compilers.isEmpty {
            print("")
            print("### Kotlin (CPU s, wall in brackets; per operation: CPU ms, lines, bytes)")
            print(
                "| project | operations | files | lines | bytes | "
                    + compilers.map { "\($0) | \($0) ms/op" }.joined(separator: " | ") + " | lines/op | bytes/op |")
            print("|---|--:|--:|--:|--:|" + compilers.map { _ in "--:|--:|" }.joined() + "--:|--:|")
            for project in projects {
                let (kotlinLines, kotlinBytes) = (lines(project.kotlin), bytes(project.kotlin))
                let cells = compilers.map { compiler in
                    let series = project.kotlinc.first { $0.compiler == compiler }?.series
                    return "\(seconds(series)) | \(perOperation(series, project.operations))"
                }
                print(
                    "| \(project.name) | \(project.operations) | \(project.kotlin.count) | \(kotlinLines) | \(kotlinBytes) | "
                        + cells.joined(separator: " | ")
                        + " | \(kotlinLines / max(project.operations, 1)) | \(kotlinBytes / max(project.operations, 1)) |"
                )
            }
        }
        print("")
        print("### Generated functions and expressions over 100 ms to type-check (debug compile)")
        var anySlow = false
        for project in projects {
            for slow in project.slow {
                anySlow = true
                print("  \(project.name): \(slow.text)")
            }
        }
        if !anySlow { print("  none") }
        for project in projects where !project.failures.isEmpty {
            print("  \(project.name) FAILED: " + project.failures.joined(separator: "\n    "))
        }
    }

    func tag(_ name: String) -> String { name.filter { $0.isLetter || $0.isNumber || $0 == "-" } }

    func write(_ files: [GeneratedFile], to folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
        for file in files {
            let path = folder + "/" + file.path
            try? FileManager.default.createDirectory(
                atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path, contents: Data(file.contents.utf8))
        }
    }

    func sourceFiles(in folder: String, extensions: [String] = [".graphql", ".gql"]) -> [String] {
        ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? [])
            .filter { path in extensions.contains { path.hasSuffix($0) } }.sorted().map { folder + "/" + $0 }
    }
}
