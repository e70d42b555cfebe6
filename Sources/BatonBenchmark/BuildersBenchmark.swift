import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonCompiler
import BatonIR
import Foundation

/// `BatonBenchmark builders`: the test data builders (issue 29) on a synthetic schema of more than 10,000 types with
/// a few operations, and on a corpus app (GitHawk). Builders are written only for what the operations reach, so
/// their size follows the documents, not the schema: the figures are the plan's time, each generator's time for the
/// lenses and for the builders, and the files' sizes.
func runBuildersBenchmark() {
    print("## Test data builders")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-builders-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (schema, documents, types) = syntheticBuildersProject(types: 10_000)
        let schemaPath = folder.appendingPathComponent("schema.graphql").path
        let documentsPath = folder.appendingPathComponent("operations.graphql").path
        try schema.write(toFile: schemaPath, atomically: true, encoding: .utf8)
        try documents.write(toFile: documentsPath, atomically: true, encoding: .utf8)
        measureBuilders(
            label: "synthetic schema (\(types) types, 4 operations, 1 fragment)", schema: schemaPath,
            documents: [documentsPath])
    } catch {
        print("  synthetic schema: \(error)")
    }
    let shared =
        ProcessInfo.processInfo.environment["BATON_SHARED"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared")
        .standardizedFileURL.path
    let githawk = shared + "/corpus/documents/github/GitHawk"
    let files = (FileManager.default.enumerator(atPath: githawk)?.allObjects as? [String] ?? [])
        .filter { $0.hasSuffix(".graphql") }.sorted().map { githawk + "/" + $0 }
    if files.isEmpty {
        print("  GitHawk: not found under \(shared)/corpus (set BATON_SHARED)")
    } else {
        measureBuilders(
            label: "GitHawk (corpus)", schema: shared + "/corpus/schemas/github/schema.graphql", documents: files)
    }
}

/// Plans the project once per run and times each generator: median of 5 runs after 1 warm-up, wall and this
/// thread's CPU.
private func measureBuilders(label: String, schema schemaPath: String, documents: [String]) {
    let loader = ProjectLoader(workingDirectory: "/")
    let schemaStart = DispatchTime.now().uptimeNanoseconds
    let (schema, _, _) = loader.loadSchema([schemaPath])
    guard let schema else {
        print("  \(label): the schema did not load")
        return
    }
    let schemaMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - schemaStart) / 1e6
    let loaded = loader.loadDocuments(documents)
    var plan: LensModel?
    let planTime = timed {
        plan =
            LensModelBuilder.build(
                schema: schema, documents: loaded.documents, options: GenerationTargets.planOptions()
            ).0
    }
    guard let model = plan else { return }
    print("  \(label): \(model.operations.count) operations, \(model.fragments.count) fragments")
    print(String(format: "    schema load %.0f ms; plan %.1f ms", schemaMilliseconds, planTime.wall))
    func row(_ name: String, _ generate: () -> [GeneratedFile]) {
        var files: [GeneratedFile] = []
        let time = timed { files = generate() }
        let bytes = files.reduce(0) { $0 + $1.contents.utf8.count }
        let lines = files.reduce(0) { $0 + $1.contents.split(separator: "\n", omittingEmptySubsequences: false).count }
        print(
            "    " + name.padding(toLength: 18, withPad: " ", startingAt: 0)
                + String(
                    format: "%3d files %9d bytes %7d lines   %7.1f ms wall %7.1f ms CPU", files.count, bytes, lines,
                    time.wall, time.cpu))
    }
    let swift = SwiftGenerator(model: model)
    row("Swift lenses") { swift.generate(workers: 1) }
    row("Swift builders") { swift.generateTestBuilders() }
    let options = KotlinGeneratorOptions(packageName: "app", includeRuntime: false)
    row("Kotlin lenses") { KotlinGenerator.generate(model, options: options, workers: 1) }
    row("Kotlin builders") { KotlinGenerator.generateTestBuilders(model, packageName: "app") }
}

/// The median wall and CPU milliseconds of `work` over 5 runs after 1 warm-up.
private func timed(_ work: () -> Void) -> (wall: Double, cpu: Double) {
    var walls: [Double] = []
    var cpus: [Double] = []
    for run in 0..<6 {
        let start = DispatchTime.now().uptimeNanoseconds
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        let cpuStart = Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
        work()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        if run > 0 {
            walls.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            cpus.append(Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6 - cpuStart)
        }
    }
    return (walls.sorted()[walls.count / 2], cpus.sorted()[cpus.count / 2])
}

/// A schema of `types` object types (`T0` … each with an id, scalars, an enum, a list and a link to the next), an
/// interface every one implements, a union of the first 100, an enum of 50 values, and a query type reaching them;
/// and four operations and a fragment that reach a handful of them: what builders are written for.
private func syntheticBuildersProject(types: Int) -> (schema: String, documents: String, count: Int) {
    var schema = "interface Node { id: ID! }\n"
    schema += "enum Kind { " + (0..<50).map { "K\($0)" }.joined(separator: " ") + " }\n"
    schema += "union Some = " + (0..<100).map { "T\($0)" }.joined(separator: " | ") + "\n"
    for index in 0..<types {
        let next = (index + 1) % types
        schema += """
            type T\(index) implements Node { id: ID! name: String count: Int! score: Float kind: Kind! \
            tags: [String!]! next: T\(next) items: [T\(next)] }

            """
    }
    schema += "type Query { node(id: ID!): Node some: [Some!]! "
    schema += (0..<types).map { "t\($0): T\($0)" }.joined(separator: " ") + " }\n"
    let documents = """
        query First { t0 { id name count kind tags next { id name next { id count items { id kind } } } } }
        query Deep { t500 { ...Row next { ...Row next { ...Row next { ...Row } } } } }
        query Nodes($id: ID!) { node(id: $id) { id ... on T7 { name score } ... on T9000 { kind ...Row } } }
        query Union { some { ... on T1 { id name } ... on T2 { id count } ... on T99 { id tags } } }
        fragment Row on Node { id ... on T500 { name count } }
        """
    return (schema, documents, types + 3)
}
