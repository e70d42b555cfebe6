import BatonCLI
import BatonCodegen
import BatonCodegenKotlin
import BatonCodegenSwift
import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonIR
import BatonPlate
import BatonSchema
import BatonSyntax
import BatonTestSupport
import BatonValidation
import Foundation
import XCTest

/// Hostile input never crashes, traps, hangs or overflows the stack anywhere in the compiler:
/// parse, schema build, validation (the spec's rules and Baton's), the lens model, plates and
/// both generators, the configuration loader and the Swift literal extractor.
///
/// The fuzz tests are deterministic: a seeded generator mutates every corpus document and
/// schema, the Examples and Baton's rule fixtures. `BATON_FUZZ_SEED` and `BATON_FUZZ_ITERATIONS`
/// run other seeds and longer runs; `BATON_FUZZ_DUMP=/path` writes each input there before it
/// runs, so the input of a crash is the file's content.
final class RobustnessTests: XCTestCase {
    static let environment = ProcessInfo.processInfo.environment
    static var seed: UInt64 { environment["BATON_FUZZ_SEED"].flatMap(UInt64.init) ?? 20_251_101 }
    static func iterations(_ standard: Int) -> Int {
        environment["BATON_FUZZ_ITERATIONS"].flatMap(Int.init) ?? standard
    }

    nonisolated(unsafe) static var cachedCorpus: FuzzCorpus?
    static var corpus: FuzzCorpus {
        if let cachedCorpus { return cachedCorpus }
        let loaded = FuzzCorpus.load()
        cachedCorpus = loaded
        return loaded
    }

    // MARK: - Fuzzing

    func testFuzzDocuments() throws {
        let corpus = Self.corpus
        XCTAssertFalse(corpus.projects.isEmpty)
        var random = SeededGenerator(seed: Self.seed)
        var pipeline = Pipeline()
        let started = Date()
        let count = Self.iterations(400)
        for iteration in 0..<count {
            let project = random.pick(corpus.projects)
            guard !project.documents.isEmpty else { continue }
            let index = random.below(project.documents.count)
            let original = project.documents[index]
            let mutant = Mutator.mutate(original.bytes, &random)
            let label = "seed \(Self.seed) #\(iteration) \(original.path)"
            pipeline.dump(label, mutant)
            let others = project.fragmentDocuments(for: mutant, excluding: index)
            pipeline.run(
                schema: project.schema, sources: [SourceFile(path: original.path, bytes: mutant)] + others, label: label
            )
        }
        report(
            "fuzz documents: seed \(Self.seed), \(count) iterations over \(corpus.documentCount) documents in "
                + "\(String(format: "%.1f", Date().timeIntervalSince(started))) s: \(pipeline.figures)")
    }

    func testFuzzSchemas() throws {
        let corpus = Self.corpus
        let projects = corpus.projects.filter { !$0.schemaSources.isEmpty }
        XCTAssertFalse(projects.isEmpty)
        var random = SeededGenerator(seed: Self.seed ^ 0x5C4E_AA)
        var pipeline = Pipeline()
        var built = 0
        let started = Date()
        let count = Self.iterations(150)
        for iteration in 0..<count {
            let project = random.pick(projects)
            let sourceIndex = random.below(project.schemaSources.count)
            let original = project.schemaSources[sourceIndex]
            let mutant = Mutator.mutate(original.bytes, &random)
            let label = "seed \(Self.seed) schema #\(iteration) \(original.path)"
            pipeline.dump(label, mutant)
            var sources = project.schemaSources
            sources[sourceIndex] = SourceFile(path: original.path, bytes: mutant)
            let (schema, diagnostics) = SchemaLoader.load(sources: sources)
            Pipeline.checkDiagnostics(diagnostics, label)
            guard let schema else { continue }
            built += 1
            Pipeline.checkDiagnostics(BatonSchemaRules.check(schema), label)
            // Schema errors other than `schema` itself can be turned off in baton.json, so
            // documents meet even an invalid schema.
            if !project.documents.isEmpty {
                let document = random.pick(project.documents)
                pipeline.run(schema: schema, sources: [document], label: label + " with " + document.path)
            }
        }
        report(
            "fuzz schemas: seed \(Self.seed), \(count) iterations, \(built) built, in "
                + "\(String(format: "%.1f", Date().timeIntervalSince(started))) s: \(pipeline.figures)")
    }

    static let configurations: [String] = [
        #"""
        {
          "$schema": "../../Docs/baton.schema.json",
          "schema": "schema.graphql",
          "documents": ["**/*.swift", "Queries/**/*.graphql"],
          "exclude": ["Generated/**"],
          "customScalarTypes": {
            "DateTime": { "swift": "Foundation.Date", "kotlin": { "type": "java.time.Instant", "converter": "app.DateTimes" } },
            "URI": { "swift": "Foundation.URL" }
          },
          "onError": "NULL",
          "output": {
            "swift": { "path": "Generated/Swift" },
            "kotlin": { "path": "Generated/Kotlin", "package": "com.example.github" }
          },
          "rules": { "no-unused-fragments": "warning", "required-action-mismatch": "off", "deprecated-usage": "error" }
        }
        """#,
        #"{"projects": ["a/baton.json", "b/baton.json", "baton.json"], "rules": {"no-unused-variables": "off"}}"#,
        #"{"schema": ["a.graphql", "b.json"], "documents": "**/*.{graphql,gql}", "output": {"swift": {"path": "../out"}}}"#,
    ]

    func testFuzzConfiguration() throws {
        var random = SeededGenerator(seed: Self.seed ^ 0xC0_4F16)
        var inputs = Self.configurations.map { Array($0.utf8) }
        for example in ["GitHub", "RickAndMorty"] {
            let url = FuzzCorpus.packageRoot.appendingPathComponent("Examples/\(example)/baton.json")
            if let data = try? Data(contentsOf: url) { inputs.append(Array(data)) }
        }
        let scratch = try Scratch()
        let jsonSnippets = [
            "{", "}", "[", "]", ",", ":", "\"", "null", "true", "-0.5e99", "1e999999", "\"\\ud800\"", "\"\\u12\"",
            "{\"projects\": [\"baton.json\"]}",
            "\"schema\": 3", "\"output\": []", "\"rules\": {\"x\": \"loud\"}", "\"documents\": [[]]",
            "\"../../../etc/passwd\"",
            "\"/\"", "\"**\"", "\"[\"", "\"{a,{b,c}}\"", String(repeating: "[", count: 200),
            String(repeating: "{\"a\":", count: 200),
        ]
        let count = Self.iterations(400)
        for iteration in 0..<count {
            var bytes = random.pick(inputs)
            for _ in 0...random.below(3) {
                if random.chance(40) {
                    let at = random.below(bytes.count + 1)
                    bytes.insert(contentsOf: Array(random.pick(jsonSnippets).utf8), at: at)
                } else {
                    bytes = Mutator.edit(bytes, &random)
                }
            }
            let label = "seed \(Self.seed) config #\(iteration)"
            Pipeline().dump(label, bytes)
            try scratch.write("baton.json", bytes: bytes)
            let loaded = ConfigurationLoader.load(
                path: "baton.json", workingDirectory: scratch.path, knownRules: RuleCatalog.ruleIDs)
            Pipeline.checkDiagnostics(loaded.diagnostics, label)
            for project in loaded.projects {
                let schema = DocumentDiscovery.schemaFiles(of: project)
                let documents = DocumentDiscovery.documentFiles(of: project)
                Pipeline.checkDiagnostics(schema.diagnostics + documents.diagnostics, label)
                _ = DocumentValidation.options(for: project)
                _ = project.applyingRuleSettings(to: [])
            }
        }
    }

    func testFuzzSwiftExtractor() throws {
        var random = SeededGenerator(seed: Self.seed ^ 0x5_1F7)
        var inputs: [[UInt8]] = [
            Array(
                #"""
                struct A {
                    @Query("query A { viewer { login } }") var a: A
                    @Fragment(#"fragment B on User { name \#("x") }"#) var b: B
                    @Mutation(""\"
                        mutation C($id: ID!) { closeIssue(id: $id) { id } }
                        ""\") var c: C
                    @Subscription(##"subscription D { e }"##) var d: D
                    let s = "\(1 + "\(2)")" /* nested /* comment */ */ // @Query("no")
                    let r = #/a\/b/#
                    @Query("\u{1F600}\t\n\\ \0") var e: E
                }
                """#.utf8)
        ]
        for url in FuzzCorpus.files(
            in: FuzzCorpus.packageRoot.appendingPathComponent("Examples"), extensions: ["swift"])
        where !url.path.contains("/Generated/") {
            if let data = try? Data(contentsOf: url) { inputs.append(Array(data)) }
        }
        let swiftSnippets = [
            "\"", "\"\"\"", "#", "##", "\\(", ")", "/*", "*/", "//", "\n", "\\", "\\u{", "\\u{110000}", "\\#(", "#/",
            "/#", "`",
            "@Query(", "@Fragment(\"", "@Query(#\"\"\"", "(", "@Query", "@Query(\"\"\"\n", "\r", "\\u{D800}",
        ]
        let count = Self.iterations(2_000)
        var documents = 0
        for iteration in 0..<count {
            var bytes = random.pick(inputs)
            for _ in 0...random.below(3) {
                if random.chance(50) {
                    bytes.insert(contentsOf: Array(random.pick(swiftSnippets).utf8), at: random.below(bytes.count + 1))
                } else {
                    bytes = Mutator.edit(bytes, &random)
                }
            }
            let label = "seed \(Self.seed) swift #\(iteration)"
            Pipeline().dump(label, bytes)
            let host = SourceFile(path: "Hostile.swift", bytes: bytes)
            let (extracted, diagnostics) = SwiftDocumentExtractor.extract(from: host)
            Pipeline.checkDiagnostics(diagnostics, label)
            for document in extracted {
                documents += 1
                XCTAssert(document.literalSpan.end <= bytes.count, label)
                let parsed = Parser.parse(document.source)
                Pipeline.checkDiagnostics(parsed.diagnostics, label)
            }
        }
        report("fuzz swift extractor: seed \(Self.seed), \(count) iterations, \(documents) literals")
    }

    /// Found by the fuzz (seed 1, swift #2204): an escape cut off by the end of the file was
    /// reported with a range one byte past the end.
    func testEscapeAtTheEndOfASwiftFileIsInsideTheFile() {
        for text in [#"@Query("query A \"#, ##"@Query(#"query A \#"##, #"@Query("query A \("#] {
            let host = SourceFile(path: "End.swift", text: text)
            let (_, diagnostics) = SwiftDocumentExtractor.extract(from: host)
            XCTAssertFalse(diagnostics.isEmpty, text)
            Pipeline.checkDiagnostics(diagnostics, text)
        }
    }

    // MARK: - Deep nesting

    /// A schema every depth case uses: a recursive output type, a recursive input type, a list
    /// nested 1,000 levels deep.
    static let deepSchema = """
        type Query { a: Query b: Int f(arg: [Int], i: I, l: [[Int]]): Int deep: \(String(repeating: "[", count: 999))Int\(String(repeating: "]", count: 999)) node: Node }
        input I { i: I x: Int }
        interface Node { id: ID }
        """

    /// Documents at the parser's nesting limit, in every shape that nests.
    static let deepDocuments: [(String, String)] = {
        let levels = Parser.maximumDepth - 1
        let open = String(repeating: "a { ", count: levels)
        let close = String(repeating: "}", count: levels)
        return [
            ("selections", "query Q { \(open) b \(close) }"),
            (
                "required selections",
                "query Q { \(String(repeating: "a @required(action: LOG) { ", count: levels)) b \(close) }"
            ),
            ("caught selections", "query Q { \(String(repeating: "a @catch { ", count: levels)) b \(close) }"),
            ("inline fragments", "query Q { \(String(repeating: "... on Query { ", count: levels)) b \(close) }"),
            (
                "conditional inline fragments",
                "query Q($v: Boolean!) { \(String(repeating: "... @include(if: $v) { a { ", count: levels / 2)) b \(String(repeating: "}}", count: levels / 2)) }"
            ),
            (
                "list value",
                "query Q { f(arg: \(String(repeating: "[", count: levels))1\(String(repeating: "]", count: levels))) }"
            ),
            (
                "object value",
                "query Q { f(i: \(String(repeating: "{i: ", count: levels))null\(String(repeating: "}", count: levels))) }"
            ),
            (
                "variable list type",
                "query Q($v: \(String(repeating: "[", count: levels))Int\(String(repeating: "]", count: levels))) { f(l: $v) }"
            ),
            (
                "default value",
                "query Q($v: I = \(String(repeating: "{i: ", count: levels)){x: 1}\(String(repeating: "}", count: levels))) { f(i: $v) }"
            ),
            ("deep list field", "query Q { deep }"),
            ("fragment", "query Q { ...F } fragment F on Query { \(open) b \(close) }"),
            // Two fields of one response key: their sub-selections are compared level by level.
            (
                "overlapping selections",
                "query Q { \(String(repeating: "a { ", count: levels / 2)) b \(String(repeating: "}", count: levels / 2)) \(String(repeating: "a { ", count: levels / 2)) b: a { b } \(String(repeating: "}", count: levels / 2)) }"
            ),
        ]
    }()

    /// Deep documents through the whole pipeline, on the test thread and on a 512 KiB thread
    /// (as small as a Dispatch or Swift Concurrency thread's). The documents are parsed on the
    /// test thread (the parser's own stack guard would stop them early on the small one), so
    /// validation, the lens model and the generators see all 1,000 levels on both.
    func testDeepNestingOnEveryThread() throws {
        let (schema, schemaDiagnostics) = SchemaLoader.load(sources: [
            SourceFile(path: "deep.graphql", text: Self.deepSchema)
        ])
        XCTAssertEqual(schemaDiagnostics.map(\.message), [])
        let built = try XCTUnwrap(schema)
        Pipeline.checkDiagnostics(BatonSchemaRules.check(built), "deep schema")
        var documents: [(String, Document)] = []
        for (name, text) in Self.deepDocuments {
            let parsed = Parser.parse(SourceFile(path: "\(name).graphql", text: text))
            XCTAssertEqual(parsed.diagnostics.map(\.message), [], name)
            if let document = parsed.document { documents.append((name, document)) }
        }
        // Generating code for a lens 200 levels deep takes seconds in a debug build (the fuzz and
        // the chain test generate deep lenses already).
        let generated: Set<String> = ["deep list field", "list value"]
        var pipeline = Pipeline()
        pipeline.typePlates = false
        for (name, document) in documents {
            pipeline.run(schema: built, documents: [document], label: name, generate: generated.contains(name))
        }
        // A small stack stops the parser early (with a diagnostic); the deep schema is built here.
        let small = Parser.parse(SourceFile(path: "deep.graphql", text: Self.deepSchema))
        let parsed = documents
        onThread(stackSize: 512 * 1024) {
            Pipeline.checkDiagnostics(small.diagnostics, "deep schema on a small stack")
            Pipeline.checkDiagnostics(BatonSchemaRules.check(built), "deep schema on a small stack")
            var pipeline = Pipeline()
            pipeline.typePlates = false
            for (name, document) in parsed {
                report("small stack: \(name)")
                pipeline.run(
                    schema: built, documents: [document], label: name + " on a small stack",
                    generate: generated.contains(name))
            }
        }
    }

    /// Nesting that the parser's limit cannot see: fragments spreading each other in a chain,
    /// each adding one level.
    func testLongFragmentChains() throws {
        let schema = try XCTUnwrap(
            SchemaLoader.load(sources: [SourceFile(path: "deep.graphql", text: Self.deepSchema)]).0)
        let length = RobustnessTests.environment["BATON_CHAIN_LENGTH"].flatMap(Int.init) ?? 250
        var flat = "query Q { ...F0 }\n"
        var nested = "query Q { ...F0 }\n"
        for index in 0..<length {
            let next = index + 1 < length ? "...F\(index + 1)" : "b"
            flat += "fragment F\(index) on Query { b \(next) }\n"
            nested += "fragment F\(index) on Query { a { \(next) } }\n"
        }
        let cycle =
            "query Q { ...F0 }\n"
            + (0..<length).map { "fragment F\($0) on Query { a { ...F\(($0 + 1) % length) } }" }.joined(separator: "\n")
        let inlineCycle =
            "query Q { ...F0 }\n"
            + (0..<length).map { "fragment F\($0) on Query { ... on Query { ...F\(($0 + 1) % length) } }" }.joined(
                separator: "\n")
        let cases = [("flat chain", flat), ("nested chain", nested), ("cycle", cycle), ("inline cycle", inlineCycle)]
        onThread(stackSize: 512 * 1024) {
            var pipeline = Pipeline()
            for (name, text) in cases {
                pipeline.run(
                    schema: schema, sources: [SourceFile(path: "\(name).graphql", text: text)],
                    label: name + " on a small stack")
            }
        }
        var pipeline = Pipeline()
        for (name, text) in cases {
            pipeline.run(schema: schema, sources: [SourceFile(path: "\(name).graphql", text: text)], label: name)
        }
    }
}

extension Scratch {
    func write(_ relative: String, bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }
}

/// `baton gen` and `baton check` on hostile files and folders, in process.
final class RobustnessCLITests: XCTestCase {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    func baton(_ arguments: [String], in directory: String) -> Outcome {
        let context = CommandContext(
            standardOutput: OutputStream(capturingAsTerminal: false),
            standardError: OutputStream(capturingAsTerminal: false),
            workingDirectory: directory, environment: [:])
        let code = BatonCLI.run(arguments, context: context)
        return Outcome(status: code.rawValue, stdout: context.standardOutput.text, stderr: context.standardError.text)
    }

    static let schema = "type Query { hello: String issue: Issue }\ntype Issue { title: String! }\n"

    func project(output: String) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.write("app/schema.graphql", Self.schema)
        try scratch.write("app/Q.graphql", "query Q { hello issue { title } }\n")
        try scratch.write(
            "app/baton.json",
            #"{"schema": "schema.graphql", "documents": "**/*.graphql", "output": {"swift": {"path": "\#(output)"}}}"#)
        return scratch
    }

    /// Every file under `folder`, relative, with symbolic links listed (not followed).
    func listing(_ folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        return enumerator.compactMap { $0 as? String }.sorted()
    }

    /// An output folder outside the project (`../outside`) is the user's choice: baton.json is
    /// trusted like any build file. Generation writes there and nowhere else.
    func testOutputFolderOutsideTheProjectGetsOnlyGeneratedFiles() throws {
        let scratch = try project(output: "../outside")
        let before = listing(scratch.path).filter { !$0.hasPrefix("outside") }
        let run = baton(["gen"], in: scratch.path + "/app")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(listing(scratch.path).filter { !$0.hasPrefix("outside") }, before)
        let written = listing(scratch.path + "/outside")
        XCTAssertFalse(written.isEmpty)
        for file in written where !file.hasSuffix("/") {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: scratch.path + "/outside/" + file, isDirectory: &isFolder)
            // Generated Swift, and gen's manifest of the folder (Docs/Codegen.md, "Incremental runs").
            if exists && !isFolder.boolValue {
                XCTAssertTrue(file.hasSuffix(".swift") || file == ".baton-manifest", file)
            }
        }
    }

    /// A symbolic link in the output folder pointing outside it: a link where a generated file
    /// goes is an error (the target is not written), a linked folder is never entered to remove
    /// files, and files Baton did not generate are never removed.
    func testSymlinksInTheOutputFolderAreNotFollowed() throws {
        let scratch = try project(output: "Generated")
        try scratch.write(
            "elsewhere/Old.graphql.swift",
            "// @generated by Baton from GraphQL documents. Do not edit; run `baton gen`.\n")
        try scratch.write("elsewhere/Q.graphql.swift", "precious\n")
        try scratch.write("app/Generated/Mine.swift", "// written by hand\n")
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path + "/app/Generated/linked", withDestinationPath: scratch.path + "/elsewhere")
        // First run: the linked folder is left alone, the hand-written file stays.
        var run = baton(["gen"], in: scratch.path + "/app")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            try String(contentsOfFile: scratch.path + "/elsewhere/Q.graphql.swift", encoding: .utf8), "precious\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.path + "/elsewhere/Old.graphql.swift"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.path + "/app/Generated/Mine.swift"))
        // A generated file replaced by a link to a file outside: refused, the target untouched.
        let generated = listing(scratch.path + "/app/Generated").filter {
            $0.hasSuffix(".graphql.swift") && !$0.hasPrefix("linked")
        }
        let victim = try XCTUnwrap(generated.first)
        try FileManager.default.removeItem(atPath: scratch.path + "/app/Generated/" + victim)
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path + "/app/Generated/" + victim,
            withDestinationPath: scratch.path + "/elsewhere/Q.graphql.swift")
        run = baton(["gen"], in: scratch.path + "/app")
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertFalse(run.stderr.isEmpty)
        XCTAssertEqual(
            try String(contentsOfFile: scratch.path + "/elsewhere/Q.graphql.swift", encoding: .utf8), "precious\n")
    }

    /// Binary and huge documents get a located diagnostic (exit 1); a named pipe is refused
    /// rather than waited on (exit 2).
    func testBinaryHugeAndSpecialFilesAsDocuments() throws {
        let scratch = try Scratch()
        try scratch.write("schema.graphql", Self.schema)
        var binary: [UInt8] = []
        var random = SeededGenerator(seed: 7)
        for _ in 0..<100_000 { binary.append(UInt8(truncatingIfNeeded: random.next())) }
        try scratch.write("Binary.graphql", bytes: binary)
        var run = baton(["check", "--schema", "schema.graphql", "Binary.graphql"], in: scratch.path)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("Binary.graphql:"), run.stderr)

        // 10 MB of one long selection set, never closed.
        let huge = Array("query Q {".utf8) + Array(String(repeating: " hello", count: 1_700_000).utf8)
        try scratch.write("Huge.graphql", bytes: huge)
        run = baton(["check", "--schema", "schema.graphql", "Huge.graphql"], in: scratch.path)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("Huge.graphql:1:"), run.stderr)

        XCTAssertEqual(mkfifo(scratch.path + "/Pipe.graphql", 0o644), 0)
        run = baton(["check", "--schema", "schema.graphql", "Pipe.graphql"], in: scratch.path)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("Pipe.graphql"), run.stderr)
    }
}
