import BatonDiagnostics
import BatonIR
import BatonPlate
import BatonSchema
import BatonSyntax
import BatonValidation
import Foundation

/// `BatonBenchmark lens`: builds the lens model and renders every plate for the valid corpus
/// projects (the same list as the IR corpus test), timing the model build and the plates apart
/// from parsing, schema building and validation.
enum LensBenchmark {
    static let projects: [(String, String)] = [
        ("anilist/AniHyou-android", "anilist/schema.graphqls"),
        ("github/GitHawk", "github/schema.graphql"),
        ("rickandmorty/MortyComposeKMM", "rickandmorty/schema.graphqls"),
        ("rickandmorty/RickComposeMultiplatform", "rickandmorty/schema.graphqls"),
        ("rickandmorty/rickandmortyapi050425", "rickandmorty/schema.graphqls"),
        ("saleor/saleor-apps-anonymizer", "saleor/schema.graphql"),
        ("saleor/saleor-apps-avatax", "saleor/schema.graphql"),
        ("saleor/saleor-apps-dummy-payment-app", "saleor/schema.graphql"),
        ("saleor/saleor-apps-np-atobarai", "saleor/schema.graphql"),
        ("saleor/saleor-apps-search", "saleor/schema.graphql"),
        ("saleor/saleor-apps-segment", "saleor/schema.graphql"),
        ("saleor/saleor-apps-stripe", "saleor/schema.graphql"),
        ("saleor/saleor-apps-webhook-utils", "saleor/schema.graphql"),
    ]

    static func run(iterations: Int = Int(ProcessInfo.processInfo.environment["BATON_LENS_ITERATIONS"] ?? "") ?? 20) {
        let corpus: URL
        if let path = ProcessInfo.processInfo.environment["BATON_CORPUS"] {
            corpus = URL(fileURLWithPath: path)
        } else {
            // Sources/BatonBenchmark/LensBenchmark.swift → repository → its parent → shared/corpus
            corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")
        }
        var inputs: [(GraphQLSchema, [Document])] = []
        var schemas: [String: GraphQLSchema] = [:]
        for (project, schemaPath) in projects {
            if schemas[schemaPath] == nil {
                let url = corpus.appendingPathComponent("schemas").appendingPathComponent(schemaPath)
                guard let data = try? Data(contentsOf: url) else {
                    print("lens: no corpus schema at \(url.path)")
                    return
                }
                schemas[schemaPath] = SchemaBuilder.build(sources: [SourceFile(path: schemaPath, bytes: Array(data))]).0
            }
            guard let schema = schemas[schemaPath] else { continue }
            let folder = corpus.appendingPathComponent("documents").appendingPathComponent(project)
            var documents: [Document] = []
            let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            var urls: [URL] = []
            while let url = enumerator?.nextObject() as? URL {
                if ["graphql", "gql"].contains(url.pathExtension) { urls.append(url) }
            }
            for url in urls.sorted(by: { $0.path < $1.path }) {
                guard let data = try? Data(contentsOf: url) else { continue }
                if let document = Parser.parse(SourceFile(path: url.path, bytes: Array(data))).document {
                    documents.append(document)
                }
            }
            guard Validator.validate(schema: schema, documents: documents).isEmpty else { continue }
            inputs.append((schema, documents))
        }

        var definitions = 0
        var accessors = 0
        var buildSeconds: [Double] = []
        var plateSeconds: [Double] = []
        for iteration in 0..<iterations {
            var models: [LensModel] = []
            let start = cpuNanoseconds()
            for (schema, documents) in inputs {
                models.append(LensModelBuilder.build(schema: schema, documents: documents).0)
            }
            let built = cpuNanoseconds()
            var printed = 0
            defer { if printed == 0 { print("lens: nothing printed") } }
            for model in models {
                let plates =
                    model.operations.map { Plate(subject: .operation($0)) }
                    + model.fragments.map { Plate(subject: .fragment($0)) }
                printed += PlateRenderer.render(plates, format: .text).utf8.count
            }
            let rendered = cpuNanoseconds()
            buildSeconds.append(Double(built - start) / 1e9)
            plateSeconds.append(Double(rendered - built) / 1e9)
            if iteration == 0 {
                for model in models {
                    definitions += model.operations.count + model.fragments.count
                    for lens in model.operations.map(\.lens) + model.fragments.map(\.lens) {
                        accessors += count(lens)
                    }
                }
            }
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] * 1000 }
        let fastest = { (values: [Double]) in (values.min() ?? 0) * 1000 }
        print(
            "lens: \(inputs.count) projects, \(definitions) operations and fragments, \(accessors) accessors; "
                + String(
                    format: "model build %.2f ms CPU (fastest %.2f), plates %.2f ms (fastest %.2f); median of %d runs",
                    median(buildSeconds), fastest(buildSeconds), median(plateSeconds), fastest(plateSeconds), iterations
                ))
    }

    /// This thread's CPU time: the machine is shared, so wall time would measure the neighbours.
    static func cpuNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func count(_ lens: Lens) -> Int {
        lens.accessors.reduce(0) { $0 + 1 + ($1.lens.map(count) ?? 0) }
    }
}

/// The lens model and plates on the corpus (`BatonBenchmark lens`).
func runLensBenchmark() { LensBenchmark.run() }
