import BatonCodegen
import BatonCodegenKotlin
import BatonCompiler
import BatonIR
import BatonSchema
import BatonSyntax
import Foundation

/// `BatonBenchmark kotlingen`: times the Kotlin generator on the GitHub corpus documents (the Swift generation
/// benchmark's inputs, built the same way), in process from the lens model to files in memory, reports generated
/// size, and, with `BATON_BENCH_KOTLINC=1`, how long kotlinc takes on each project's generated code with the
/// runtime support.
func runKotlinGenerationBenchmark() {
    let shared =
        ProcessInfo.processInfo.environment["BATON_SHARED"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared")
        .standardizedFileURL.path
    let corpus = shared + "/corpus"
    print("## Kotlin generation (GitHub corpus)")
    let projects: [(name: String, schema: String, perFile: Bool)] = [
        ("GitHawk", "github/schema.graphql", false),
        ("git-touch", "github-2021-git-touch/schema.graphql", false),
        ("vscode-pull-request-github", "github/schema-2024-07-08.graphql", true),
    ]
    var models: [(name: String, packageName: String, model: LensModel)] = []
    for project in projects {
        let (schema, _, _) = ProjectLoader(workingDirectory: "/").loadSchema([corpus + "/schemas/" + project.schema])
        guard let schema else {
            print("  \(project.name): schema not found under \(corpus) (set BATON_SHARED)")
            continue
        }
        let files = kotlinBenchmarkFiles(in: corpus + "/documents/github/" + project.name)
        for unit in project.perFile ? files.map({ [$0] }) : [files] {
            let documents = ProjectLoader(workingDirectory: "/").loadDocuments(unit)
            let (model, _) = LensModelBuilder.build(
                schema: schema, documents: documents.documents, options: GenerationTargets.planOptions())
            let label =
                project.perFile
                ? project.name + "/" + (unit.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "")
                : project.name
            let packageName = "corpus." + label.lowercased().filter { $0.isLetter || $0.isNumber }
            models.append((label, packageName, model))
        }
    }
    guard !models.isEmpty else { return }

    var samples: [Double] = []
    var files: [[GeneratedFile]] = []
    for run in 0..<23 {
        let start = kotlinBenchmarkThreadCPUMilliseconds()
        let generated = models.map {
            KotlinGenerator.generate(
                $0.model, options: KotlinGeneratorOptions(packageName: $0.packageName, includeRuntime: false))
        }
        if run >= 3 { samples.append(kotlinBenchmarkThreadCPUMilliseconds() - start) }
        files = generated
    }
    samples.sort()
    func lineCount(_ files: [GeneratedFile]) -> Int {
        files.reduce(0) { $0 + $1.contents.split(separator: "\n", omittingEmptySubsequences: false).count }
    }
    let definitions = models.reduce(0) { $0 + $1.model.operations.count + $1.model.fragments.count }
    let lines = lineCount(Array(files.joined()))
    let bytes = files.joined().reduce(0) { $0 + $1.contents.utf8.count }
    print(
        String(
            format: "  generate: %d operations and fragments in %.2f ms CPU (median of 20; min %.2f)", definitions,
            samples[samples.count / 2], samples[0]))
    print(
        "  size: \(files.joined().count) files, \(lines) lines, \(bytes / 1024) KB (runtime support not counted); "
            + String(format: "%.1f lines per operation or fragment", Double(lines) / Double(max(definitions, 1))))
    for (index, entry) in models.enumerated() {
        print(
            "    \(entry.name): \(entry.model.operations.count) operations, \(entry.model.fragments.count) fragments, \(lineCount(files[index])) lines"
        )
    }
    guard ProcessInfo.processInfo.environment["BATON_BENCH_KOTLINC"] == "1" else {
        print("  kotlinc: set BATON_BENCH_KOTLINC=1 to time kotlinc on the generated code")
        return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-kotlinc-\(UUID().uuidString)")
        .path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let runtime = KotlinRuntime.files(header: FileWriter.header + "\n\n").map {
        GeneratedFile(path: $0.path, contents: $0.contents)
    }
    func compile(_ label: String, _ generated: [GeneratedFile]) {
        let root = folder + "/" + label.filter { $0.isLetter || $0.isNumber }
        for file in runtime + generated {
            let path = root + "/" + file.path
            try? FileManager.default.createDirectory(
                atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path, contents: Data(file.contents.utf8))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["kotlinc", root, "-d", root + "/classes"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = Date()
        guard (try? process.run()) != nil else {
            print("  kotlinc: not found")
            return
        }
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        let outcome = process.terminationStatus == 0 ? "compiled" : "FAILED (exit \(process.terminationStatus))"
        print(
            String(
                format: "  kotlinc %@: %d lines + runtime %@ in %.1f s wall", label, lineCount(generated), outcome,
                seconds))
    }
    compile("runtime support alone", [])
    for (index, entry) in models.enumerated() { compile(entry.name, files[index]) }
}

/// This thread's CPU time: the machine is shared, so wall-clock time includes waiting for a core.
private func kotlinBenchmarkThreadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

private func kotlinBenchmarkFiles(in folder: String) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder)
    var result: [String] = []
    while let next = enumerator?.nextObject() as? String {
        if next.hasSuffix(".graphql") || next.hasSuffix(".gql") { result.append(folder + "/" + next) }
    }
    return result.sorted()
}
