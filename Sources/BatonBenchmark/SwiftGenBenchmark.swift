import BatonCodegen
import BatonCodegenSwift
import BatonCompiler
import BatonIR
import BatonSchema
import BatonSyntax
import Foundation

/// Times the Swift generator on the GitHub corpus documents (in process, from the lens model to files in memory),
/// reports generated size per operation and per accessor, and, with `BATON_BENCH_TYPECHECK=1`, how long
/// `swiftc -typecheck` takes on the generated code of one corpus project and of all of them.
func runSwiftGenBenchmark() {
    let shared =
        ProcessInfo.processInfo.environment["BATON_SHARED"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared")
        .standardizedFileURL.path
    let corpus = shared + "/corpus"
    print("## Swift generation (GitHub corpus)")
    // The GitHub corpus projects, each against the schema graphql-js validated it with.
    let projects: [(name: String, schema: String, files: [String], perFile: Bool)] = [
        ("GitHawk", "github/schema.graphql", files(in: corpus + "/documents/github/GitHawk"), false),
        ("git-touch", "github-2021-git-touch/schema.graphql", files(in: corpus + "/documents/github/git-touch"), false),
        (
            "vscode-pull-request-github", "github/schema-2024-07-08.graphql",
            files(in: corpus + "/documents/github/vscode-pull-request-github"), true
        ),
    ]
    var models: [(name: String, model: LensModel)] = []
    for project in projects {
        let (schema, _, _) = ProjectLoader(workingDirectory: "/").loadSchema([corpus + "/schemas/" + project.schema])
        guard let schema else {
            print("  \(project.name): schema not found under \(corpus) (set BATON_SHARED)")
            continue
        }
        let units = project.perFile ? project.files.map { [$0] } : [project.files]
        for unit in units {
            let documents = ProjectLoader(workingDirectory: "/").loadDocuments(unit)
            let (model, _) = LensModelBuilder.build(
                schema: schema, documents: documents.documents, options: GenerationTargets.planOptions())
            let label =
                project.perFile
                ? project.name + "/" + (unit.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "")
                : project.name
            models.append((label, model))
        }
    }
    guard !models.isEmpty else { return }

    // Generation time: every model, median of 20 runs after 3 warm-ups.
    var samples: [Double] = []
    var cpuSamples: [Double] = []
    var files: [[GeneratedFile]] = []
    for run in 0..<23 {
        let start = DispatchTime.now().uptimeNanoseconds
        let cpuStart = threadCPUMilliseconds()
        let generated = models.map { SwiftGenerator(model: $0.model).generate() }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        if run >= 3 {
            samples.append(elapsed)
            cpuSamples.append(threadCPUMilliseconds() - cpuStart)
        }
        files = generated
    }
    samples.sort()
    cpuSamples.sort()
    let operations = models.reduce(0) { $0 + $1.model.operations.count }
    let fragments = models.reduce(0) { $0 + $1.model.fragments.count }
    let accessors = models.reduce(0) {
        $0 + $1.model.operations.reduce(0) { $0 + count($1.lens) }
            + $1.model.fragments.reduce(0) { $0 + count($1.lens) }
    }
    let lines = files.joined().reduce(0) {
        $0 + $1.contents.split(separator: "\n", omittingEmptySubsequences: false).count
    }
    let bytes = files.joined().reduce(0) { $0 + $1.contents.utf8.count }
    print(
        "  generate: \(operations) operations + \(fragments) fragments (\(accessors) accessors) in "
            + String(
                format: "%.2f ms wall (median of 20; min %.2f), %.2f ms CPU (median; min %.2f)",
                samples[samples.count / 2],
                samples[0], cpuSamples[cpuSamples.count / 2], cpuSamples[0]))
    print(
        "  size: \(files.joined().count) files, \(lines) lines, \(bytes / 1024) KB; "
            + String(
                format: "%.1f lines per operation or fragment, %.2f lines per accessor",
                Double(lines) / Double(operations + fragments), Double(lines) / Double(accessors)))
    for (index, (name, model)) in models.enumerated() {
        let unitLines = files[index].reduce(0) {
            $0 + $1.contents.split(separator: "\n", omittingEmptySubsequences: false).count
        }
        let unitAccessors =
            model.operations.reduce(0) { $0 + count($1.lens) } + model.fragments.reduce(0) { $0 + count($1.lens) }
        print(
            "    \(name): \(model.operations.count) operations, \(model.fragments.count) fragments, \(unitAccessors) accessors, \(unitLines) lines"
                + (unitAccessors > 0
                    ? String(format: " (%.2f lines per accessor)", Double(unitLines) / Double(unitAccessors)) : ""))
    }

    if let output = ProcessInfo.processInfo.environment["BATON_BENCH_OUTPUT"] {
        // Keeps each project's generated code (for profiling the type checker by hand).
        for (index, (name, _)) in models.enumerated() {
            let folder = output + "/" + name.replacingOccurrences(of: "/", with: "-")
            _ = try? FileWriter(root: folder, managedExtensions: ["swift"]).write(files[index])
        }
        print("  generated code written under \(output)")
    }
    guard ProcessInfo.processInfo.environment["BATON_BENCH_TYPECHECK"] == "1" else {
        print("  type-check: set BATON_BENCH_TYPECHECK=1 to time swiftc -typecheck on the generated code")
        return
    }
    typecheck(models: models, files: files)
}

/// This thread's CPU time: the machine is shared, so wall-clock time includes waiting for a core.
private func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

/// Accessors in a lens tree.
private func count(_ lens: Lens) -> Int {
    lens.accessors.reduce(lens.accessors.count) { $0 + ($1.lens.map(count) ?? 0) }
}

private func files(in folder: String) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder)
    var result: [String] = []
    while let next = enumerator?.nextObject() as? String {
        if next.hasSuffix(".graphql") || next.hasSuffix(".gql") { result.append(folder + "/" + next) }
    }
    return result.sorted()
}

/// Builds the runtime module once, then times `swiftc -typecheck` (Swift 6, complete concurrency checking) on
/// each project's generated code, and on two sizes: the smallest project alone and every project that compiles.
private func typecheck(models: [(name: String, model: LensModel)], files: [[GeneratedFile]]) {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardizedFileURL
    let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("baton-swiftgen-bench-\(getpid())")
    let swiftc = ProcessInfo.processInfo.environment["SWIFTC"] ?? "/opt/swift/usr/bin/swiftc"
    defer { try? FileManager.default.removeItem(at: temporary) }
    let runtimeSources =
        (FileManager.default.enumerator(atPath: repository.path + "/Sources/Baton")?.allObjects as? [String] ?? [])
        .filter { $0.hasSuffix(".swift") }.map { repository.path + "/Sources/Baton/" + $0 }
    let runtime = temporary.appendingPathComponent("runtime")
    try? FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
    guard
        run(
            swiftc,
            [
                "-swift-version", "6", "-module-name", "Baton", "-parse-as-library", "-emit-module",
                "-emit-module-path", runtime.path + "/Baton.swiftmodule",
            ] + runtimeSources) != nil
    else {
        print("  type-check: could not build the runtime module")
        return
    }
    // Three ways a build checks the same files: one frontend per file (plain `swiftc` without batch mode; every
    // frontend parses every file, so its cost grows with files × size), batch mode with one frontend per core (what
    // SwiftPM and Xcode do in debug builds), and one frontend for the module (release builds).
    let modes: [(name: String, flags: [String])] = [
        ("per-file", []), ("batch -j2", ["-enable-batch-mode", "-j", "2"]), ("wmo", ["-wmo"]),
    ]
    print(
        "  type-check (swiftc -typecheck -swift-version 6 -strict-concurrency=complete; CPU = user + system of swiftc and its frontends):"
    )
    var totals = [(lines: Int, wall: Double, cpu: Double)](repeating: (0, 0, 0), count: modes.count)
    for (index, (name, _)) in models.enumerated() {
        let folder = temporary.appendingPathComponent("project\(index)")
        guard (try? FileWriter(root: folder.path, managedExtensions: ["swift"]).write(files[index])) != nil else {
            continue
        }
        let paths = files[index].map { folder.path + "/" + $0.path }
        let lines = files[index].reduce(0) {
            $0 + $1.contents.split(separator: "\n", omittingEmptySubsequences: false).count
        }
        var figures: [String] = []
        for (modeIndex, mode) in modes.enumerated() {
            let cpuStart = childrenCPUSeconds()
            let arguments =
                ["-typecheck", "-swift-version", "6", "-strict-concurrency=complete", "-I", runtime.path] + mode.flags
                + paths
            guard let seconds = run(swiftc, arguments) else {
                figures.append("\(mode.name): does not compile")
                continue
            }
            let cpu = childrenCPUSeconds() - cpuStart
            totals[modeIndex].lines += lines
            totals[modeIndex].wall += seconds
            totals[modeIndex].cpu += cpu
            figures.append(
                String(
                    format: "%@ %.2f s CPU (%.1f ms per 100 lines), %.2f s wall", mode.name, cpu,
                    cpu * 100_000 / Double(max(lines, 1)), seconds))
        }
        print("    \(name): \(lines) lines, \(files[index].count) files; " + figures.joined(separator: "; "))
    }
    for (modeIndex, mode) in modes.enumerated() {
        let total = totals[modeIndex]
        print(
            "    total \(mode.name): \(total.lines) lines in "
                + String(format: "%.2f s CPU, %.2f s wall", total.cpu, total.wall))
    }
}

/// User and system CPU seconds of this process's finished children (swiftc and the frontend jobs it runs): the
/// machine is shared, so wall-clock time includes waiting for a core.
private func childrenCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(-1, &usage)  // RUSAGE_CHILDREN (-1 on Linux and macOS; imported as an enum by Glibc)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
        usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Runs a program; its wall-clock seconds, or nil when it fails.
private func run(_ program: String, _ arguments: [String]) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = Date()
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    return process.terminationStatus == 0 ? Date().timeIntervalSince(start) : nil
}
