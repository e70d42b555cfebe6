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

// MARK: - A seeded pseudo-random generator

// MARK: - Mutations of GraphQL text

/// Token- and line-level edits of GraphQL (or JSON, or Swift) text. Every edit works on bytes,
/// so it can produce invalid UTF-8 and cut multi-byte characters, as hostile files do.
enum Mutator {
    static let punctuation: [String] = [
        "{", "}", "(", ")", "[", "]", "...", "@", "$", ":", "=", "!", "|", "&", "\"", "\"\"\"", "#", ",", "\\",
    ]
    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x00],
    ]
    /// Snippets that use Baton's directives, and the spec's, in odd places and with wrong values.
    static let snippets: [String] = [
        " @required(action: NONE) ", " @required(action: LOG) ", " @required(action: THROW) ", " @required ",
        " @required(action: $v) ", " @required(action: \"THROW\") ", " @required(action: THROW, action: LOG) ",
        " @required(action: THROW) @required(action: LOG) ", " @catch ", " @catch(to: NULL) ", " @catch(to: RESULT) ",
        " @catch(to: WRONG) ", " @catch(to: $v) ", " @catch @catch ", " @catch(to: [NULL]) ", " @throwOnFieldError ",
        " @throwOnFieldError(x: 1) ", " @semanticNonNull ", " @semanticNonNull(levels: [0, 1, 99]) ",
        " @include(if: true) ", " @skip(if: $v) ", " @include(if: \"yes\") ", " @defer ", " @defer(label: \"a\") ",
        " @stream(initialCount: -1) ", " @deprecated ", " @oneOf ", " __typename ", " __schema { types { name } } ",
        " ... on Query { __typename } ", " ... { __typename } ", " ...Missing ", " alias: __typename ", " { } ",
        " (a: 1) ", " ($v: Int = 1) ", " ($v: [[Int!]!]) ", " (x: {a: {b: [1, {c: null}]}}) ",
        " (first: 99999999999999999999999) ", " (first: 1e400) ", " (id: \"\\uD800\") ", " query Q ", " mutation ",
        " subscription S ", " fragment F on Query { __typename } ", " fragment F on Nope { x } ",
        " extend type Query { z: Int } ",
        " type T { f: T } ", " schema { query: Query } ", " scalar S ", " directive @d on FIELD ", " \"\"\"doc\"\"\" ",
        " $v ", " null ", " [ ", " ] ", " { ", " } ",
    ]

    /// One to three random edits of `bytes`.
    static func mutate(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var result = bytes
        for _ in 0...random.below(3) { result = edit(result, &random) }
        return result
    }

    static func edit(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        let tokens = tokenRanges(bytes)
        switch random.below(14) {
        case 0:  // truncate
            return Array(bytes.prefix(random.below(bytes.count + 1)))
        case 1:  // delete a token
            guard let range = tokens.isEmpty ? nil : random.pick(tokens) else { return bytes }
            bytes.removeSubrange(range)
        case 2:  // duplicate a token
            guard let range = tokens.isEmpty ? nil : random.pick(tokens) else { return bytes }
            bytes.insert(contentsOf: Array(bytes[range]) + [32], at: range.lowerBound)
        case 3:  // swap two tokens
            guard tokens.count >= 2 else { return bytes }
            var a = random.pick(tokens)
            var b = random.pick(tokens)
            if a.lowerBound > b.lowerBound { swap(&a, &b) }
            guard a.upperBound <= b.lowerBound else { return bytes }
            let first = Array(bytes[a])
            let second = Array(bytes[b])
            bytes.replaceSubrange(b, with: first)
            bytes.replaceSubrange(a, with: second)
        case 4:  // insert punctuation
            let at = random.below(bytes.count + 1)
            bytes.insert(contentsOf: Array(random.pick(punctuation).utf8), at: at)
        case 5:  // insert invalid UTF-8
            bytes.insert(contentsOf: random.pick(invalidUTF8), at: random.below(bytes.count + 1))
        case 6:  // delete a line
            let lines = lineRanges(bytes)
            guard !lines.isEmpty else { return bytes }
            bytes.removeSubrange(random.pick(lines))
        case 7:  // duplicate a line
            let lines = lineRanges(bytes)
            guard !lines.isEmpty else { return bytes }
            let line = random.pick(lines)
            bytes.insert(contentsOf: Array(bytes[line]), at: line.lowerBound)
        case 8:  // duplicate a fragment of text somewhere else
            guard !bytes.isEmpty else { return bytes }
            let start = random.below(bytes.count)
            let end = min(bytes.count, start + 1 + random.below(200))
            bytes.insert(contentsOf: Array(bytes[start..<end]), at: random.below(bytes.count + 1))
        case 9, 10:  // a snippet after a token (directives in odd places, wrong types)
            let at = tokens.isEmpty ? 0 : random.pick(tokens).upperBound
            bytes.insert(contentsOf: Array(random.pick(snippets).utf8), at: at)
        case 11:  // replace a name by another name of the text (wrong field, wrong type, wrong fragment)
            let names = tokens.filter { isNameStart(bytes[$0.lowerBound]) }
            guard names.count >= 2 else { return bytes }
            let target = random.pick(names)
            bytes.replaceSubrange(target, with: Array(bytes[random.pick(names)]))
        case 12:  // wrap a selection in more selection sets: `{ x }` → `{ x { x { … } } }`
            guard let open = tokens.filter({ bytes[$0] == [UInt8(ascii: "{")] }).randomElement(using: &random) else {
                return bytes
            }
            let levels = 1 + random.below(20)
            let wrapperName = names(bytes, tokens).randomElement(using: &random) ?? Array("a".utf8)
            var prefix: [UInt8] = []
            var suffix: [UInt8] = []
            for _ in 0..<levels {
                prefix += [UInt8(ascii: " ")] + wrapperName + [UInt8(ascii: " "), UInt8(ascii: "{")]
                suffix += [UInt8(ascii: "}")]
            }
            bytes.insert(contentsOf: prefix, at: open.upperBound)
            // Close the wrappers before the matching brace of `open`.
            var depth = 1
            var index = open.upperBound + prefix.count
            while index < bytes.count && depth > 0 {
                if bytes[index] == UInt8(ascii: "{") { depth += 1 }
                if bytes[index] == UInt8(ascii: "}") { depth -= 1 }
                if depth > 0 { index += 1 }
            }
            bytes.insert(contentsOf: suffix, at: index)
        default:  // make a fragment spread another (cycles, self-spreads)
            let fragmentNames = fragmentNames(bytes)
            guard let name = fragmentNames.randomElement(using: &random) else { return bytes }
            guard let open = tokens.filter({ bytes[$0] == [UInt8(ascii: "{")] }).randomElement(using: &random) else {
                return bytes
            }
            bytes.insert(contentsOf: Array(" ...".utf8) + name + [32], at: open.upperBound)
        }
        return bytes
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    static func isNameContinue(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// Rough token ranges: names and numbers as runs, every other non-space byte alone.
    static func tokenRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 32 || byte == 10 || byte == 13 || byte == 9 || byte == 44 {
                index += 1
                continue
            }
            let start = index
            if isNameContinue(byte) || byte == UInt8(ascii: "-") {
                index += 1
                while index < bytes.count && (isNameContinue(bytes[index]) || bytes[index] == UInt8(ascii: ".")) {
                    index += 1
                }
            } else {
                index += 1
            }
            ranges.append(start..<index)
        }
        return ranges
    }

    static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 10 {
            ranges.append(start..<(index + 1))
            start = index + 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        return ranges
    }

    static func names(_ bytes: [UInt8], _ tokens: [Range<Int>]) -> [[UInt8]] {
        tokens.filter { isNameStart(bytes[$0.lowerBound]) }.map { Array(bytes[$0]) }
    }

    /// Names following `fragment`.
    static func fragmentNames(_ bytes: [UInt8]) -> [[UInt8]] {
        let tokens = tokenRanges(bytes)
        var result: [[UInt8]] = []
        for (index, token) in tokens.enumerated()
        where Array(bytes[token]) == Array("fragment".utf8) && index + 1 < tokens.count {
            result.append(Array(bytes[tokens[index + 1]]))
        }
        return result
    }
}

// MARK: - The pipeline in process

/// Runs every compiler stage on one input and checks the invariants that hold for any input:
/// nothing traps (a trap ends the test process), and every error names a place.
struct Pipeline {
    /// Stage counts, for the report.
    struct Figures: CustomStringConvertible {
        var runs = 0
        var parsed = 0
        var valid = 0
        var modelled = 0
        var generatedFiles = 0
        var description: String {
            "\(runs) runs, \(parsed) parsed, \(valid) valid, \(modelled) models built, \(generatedFiles) files generated"
        }
    }

    var figures = Figures()
    /// Whether plates of the query type are printed too (every lens reading it: the output is
    /// quadratic in the nesting depth, so deep cases leave it out).
    var typePlates = true
    /// Stages slower than this are reported (a hang shows as a stage that never ends).
    static let slowStage = 2.0

    /// Runs one stage, reporting it when it is slow.
    @discardableResult
    static func stage<T>(_ name: String, _ label: String, _ body: () -> T) -> T {
        let started = Date()
        let result = body()
        let elapsed = Date().timeIntervalSince(started)
        if elapsed > slowStage { report("slow: \(name) took \(String(format: "%.1f", elapsed)) s on \(label)") }
        return result
    }
    /// Where each input is written before it runs, so that the input of a crash is known.
    let dumpPath = ProcessInfo.processInfo.environment["BATON_FUZZ_DUMP"]

    func dump(_ label: String, _ bytes: [UInt8]) {
        guard let dumpPath else { return }
        _ = FileManager.default.createFile(atPath: dumpPath, contents: Data(Array("# \(label)\n".utf8) + bytes))
    }

    /// Asserts every error has a location or a path, that ranges lie inside their files, and
    /// that each renderer accepts the diagnostics.
    static func checkDiagnostics(
        _ diagnostics: [Diagnostic], _ label: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        for diagnostic in diagnostics {
            if diagnostic.severity == .error {
                XCTAssert(
                    diagnostic.range != nil || diagnostic.path != nil,
                    "\(label): error without location: [\(diagnostic.rule)] \(diagnostic.message)", file: file,
                    line: line)
            }
            XCTAssertFalse(
                diagnostic.message.isEmpty, "\(label): empty message [\(diagnostic.rule)]", file: file, line: line)
            if let range = diagnostic.range {
                let count = range.file.bytes.count
                XCTAssert(
                    range.span.start <= range.span.end && range.span.end <= count,
                    "\(label): range \(range.span) outside its file (\(count) bytes): \(diagnostic.message)",
                    file: file, line: line)
            }
            for note in diagnostic.notes {
                if let range = note.range {
                    XCTAssert(
                        range.span.start <= range.span.end && range.span.end <= range.file.bytes.count,
                        "\(label): note range")
                }
            }
        }
        _ = TextRenderer.render(diagnostics)
        _ = JSONRenderer.render(diagnostics)
        _ = SARIFRenderer.render(diagnostics, descriptions: [:], version: "0")
        _ = GitHubRenderer.render(diagnostics)
    }

    /// Parses `sources` as documents and runs validation, the lens model, plates and both
    /// generators. The lens model and the generators run even when validation finds errors:
    /// baton.json's `rules` can turn any rule off, so they must survive any parsed document.
    mutating func run(schema: GraphQLSchema, sources: [SourceFile], label: String, generate: Bool = true) {
        figures.runs += 1
        var documents: [Document] = []
        var diagnostics: [Diagnostic] = []
        for source in sources {
            let result = Self.stage("parse", label) { Parser.parse(source) }
            diagnostics += result.diagnostics
            if let document = result.document {
                documents.append(document)
                Self.stage("print", label) { _ = Printer.print(document) }
            }
        }
        Self.checkDiagnostics(diagnostics, label)
        if documents.count == sources.count { figures.parsed += 1 }
        let allParsed = documents.count == sources.count
        let valid = run(schema: schema, documents: documents, label: label, generate: generate)
        if allParsed && valid { figures.valid += 1 }
    }

    /// Validation, the lens model, plates and both generators on parsed documents; true when
    /// validation found nothing.
    @discardableResult
    mutating func run(schema: GraphQLSchema, documents: [Document], label: String, generate: Bool = true) -> Bool {
        var diagnostics: [Diagnostic] = []
        do {
            let options = ValidationOptions(
                scalarMappings: ["DateTime": [.swift, .kotlin], "URI": [.swift]], outputLanguages: [.swift, .kotlin])
            diagnostics += Self.stage("validate", label) {
                Validator.validate(
                    schema: schema, documents: documents, rules: DocumentValidation.rules, mode: .merged,
                    options: options)
            }
        }
        Self.checkDiagnostics(diagnostics, label)
        runModel(schema: schema, documents: documents, label: label, generate: generate)
        return diagnostics.isEmpty
    }

    mutating func runModel(schema: GraphQLSchema, documents: [Document], label: String, generate: Bool) {
        guard !documents.isEmpty else { return }
        let options = LensModelOptions(
            customScalars: [
                "DateTime": CustomScalarMapping(
                    swiftType: "Foundation.Date", kotlinType: "java.time.Instant", kotlinConverter: "app.D")
            ],
            onError: nil)
        let (model, modelDiagnostics) = Self.stage("lens model", label) {
            LensModelBuilder.build(
                schema: schema, documents: documents, options: GenerationTargets.planOptions(options))
        }
        Self.checkDiagnostics(modelDiagnostics, label + " (lens model)")
        figures.modelled += 1
        // The lens model's errors cannot be turned off: `baton gen` stops on them, as here.
        guard generate, !modelDiagnostics.contains(where: { $0.severity == .error }) else { return }
        Self.stage("plates", label) {
            var plates =
                model.operations.map { Plate(subject: .operation($0)) }
                + model.fragments.map { Plate(subject: .fragment($0)) }
            let catalog = PlateCatalog(model: model, schemaTypeNames: schema.typeNames)
            if typePlates, case .plates(let found) = catalog.lookup(schema.rootType(for: .query)?.name ?? "Query") {
                plates += found
            }
            for format in PlateFormat.allCases { _ = PlateRenderer.render(plates, format: format) }
            _ = LensModelJSON.model(model).rendered()
        }
        let swift = Self.stage("swift", label) { SwiftGenerator(model: model).generate() }
        let kotlin = Self.stage("kotlin", label) {
            KotlinGenerator.generate(
                model, options: KotlinGeneratorOptions(packageName: "com.example.fuzz", includeRuntime: false))
        }
        figures.generatedFiles += swift.count + kotlin.count
    }
}

// MARK: - Inputs

/// The corpus documents and schemas, read in place, grouped by the schema they are written against.
struct FuzzCorpus {
    struct Project {
        var name: String
        var schema: GraphQLSchema
        /// Schema texts (SDL only), for schema mutations of the small ones.
        var schemaSources: [SourceFile]
        var documents: [SourceFile]
        /// Fragment name → index of the document defining it.
        var fragmentOwners: [String: Int]
    }

    var projects: [Project] = []

    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let packageRoot = testsFolder.deletingLastPathComponent()
    static let corpus = TestPaths.corpus

    static func read(_ url: URL, as path: String) -> SourceFile? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return SourceFile(path: path, bytes: Array(data))
    }

    static func files(in folder: URL, extensions: Set<String>) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var urls: [URL] = []
        for case let url as URL in enumerator where extensions.contains(url.pathExtension) { urls.append(url) }
        return urls.sorted { $0.path < $1.path }
    }

    /// Loads the corpus (if present), the Examples and Baton's rule fixtures.
    static func load() -> FuzzCorpus {
        var result = FuzzCorpus()
        let documentExtensions: Set<String> = ["graphql", "gql"]
        let schemaFolder = corpus.appendingPathComponent("schemas")
        // Each corpus schema folder's main schema, and the documents written against it.
        let schemaFiles = [
            "anilist": "schema.graphqls", "github": "schema.graphql", "rickandmorty": "schema.graphqls",
            "saleor": "schema.graphql", "swapi": "schema.graphql",
        ]
        for (name, file) in schemaFiles.sorted(by: { $0.key < $1.key }) {
            guard
                let source = read(
                    schemaFolder.appendingPathComponent(name).appendingPathComponent(file), as: "\(name)/\(file)")
            else { continue }
            guard let schema = SchemaLoader.load(sources: [source]).0 else { continue }
            let documents = files(
                in: corpus.appendingPathComponent("documents").appendingPathComponent(name),
                extensions: documentExtensions
            )
            .compactMap { read($0, as: String($0.path.dropFirst(corpus.path.count + 1))) }
            result.add(
                name: name, schema: schema, schemaSources: source.bytes.count < 200_000 ? [source] : [],
                documents: documents)
        }
        // The Examples: schema, GraphQL files and Swift sources' literals.
        for example in ["GitHub", "RickAndMorty"] {
            let folder = packageRoot.appendingPathComponent("Examples").appendingPathComponent(example)
            let schemaURLs = files(in: folder, extensions: ["graphql", "graphqls"]).filter {
                $0.lastPathComponent.hasPrefix("schema")
            }
            let sources = schemaURLs.compactMap { read($0, as: "Examples/\(example)/\($0.lastPathComponent)") }
            guard !sources.isEmpty, let schema = SchemaLoader.load(sources: sources).0 else { continue }
            var documents = files(in: folder, extensions: documentExtensions).filter {
                !$0.lastPathComponent.hasPrefix("schema")
            }
            .compactMap { read($0, as: "Examples/\(example)/\($0.lastPathComponent)") }
            for swift in files(in: folder, extensions: ["swift"]) where !swift.path.contains("/Generated/") {
                if let host = read(swift, as: swift.lastPathComponent) {
                    documents += SwiftDocumentExtractor.extract(from: host).documents.map {
                        SourceFile(path: "\(example)-literal.graphql", bytes: $0.source.bytes)
                    }
                }
            }
            result.add(
                name: example, schema: schema, schemaSources: sources.filter { $0.bytes.count < 200_000 },
                documents: documents)
        }
        // Baton's rule fixtures: a schema with @semanticNonNull, and documents using Baton's directives.
        let fixtures = packageRoot.appendingPathComponent("Tests/BatonValidationTests/BatonFixtures")
        if let source = read(fixtures.appendingPathComponent("schema.graphqls"), as: "BatonFixtures/schema.graphqls"),
            let schema = SchemaLoader.load(sources: [source]).0
        {
            let documents = files(in: fixtures, extensions: documentExtensions).compactMap {
                read(
                    $0, as: "BatonFixtures/\($0.deletingLastPathComponent().lastPathComponent)/\($0.lastPathComponent)")
            }
            result.add(name: "BatonFixtures", schema: schema, schemaSources: [source], documents: documents)
        }
        return result
    }

    mutating func add(name: String, schema: GraphQLSchema, schemaSources: [SourceFile], documents: [SourceFile]) {
        var owners: [String: Int] = [:]
        for (index, document) in documents.enumerated() {
            for fragment in Mutator.fragmentNames(document.bytes) {
                owners[String(decoding: fragment, as: UTF8.self)] = index
            }
        }
        projects.append(
            Project(
                name: name, schema: schema, schemaSources: schemaSources, documents: documents, fragmentOwners: owners))
    }

    var documentCount: Int { projects.reduce(0) { $0 + $1.documents.count } }
}

extension FuzzCorpus.Project {
    /// The documents defining the fragments `bytes` spreads, transitively (at most 30).
    func fragmentDocuments(for bytes: [UInt8], excluding index: Int) -> [SourceFile] {
        var wanted: [Int] = []
        var seen: Set<Int> = [index]
        var queue = [bytes]
        while let next = queue.popLast(), wanted.count < 30 {
            let tokens = Mutator.tokenRanges(next)
            for (position, token) in tokens.enumerated() where Array(next[token]) == [UInt8(ascii: ".")] {
                guard position + 1 < tokens.count else { continue }
                let name = String(decoding: next[tokens[position + 1]], as: UTF8.self)
                if let owner = fragmentOwners[name], !seen.contains(owner) {
                    seen.insert(owner)
                    wanted.append(owner)
                    queue.append(documents[owner].bytes)
                }
            }
        }
        return wanted.map { documents[$0] }
    }
}

// MARK: - Running on a small stack

/// Runs `body` on a new thread with `stackSize` bytes of stack (as small as a secondary thread
/// of Dispatch or Swift Concurrency) and waits for it.
func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
}

/// Prints at once (stdout of a test process is buffered until it ends, or is lost if it crashes).
func report(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
