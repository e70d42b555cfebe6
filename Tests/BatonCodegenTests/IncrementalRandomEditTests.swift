import BatonCodegen
import BatonCompiler
import BatonTestSupport
import Foundation
import XCTest

/// An incremental `gen` against a cold one, over seeded random sequences of edits: after every
/// edit the project is generated incrementally in place (reading only what the edit reaches where
/// it can, `GenerationRun.partial`) and cold in a fresh copy, and the two must agree: the same
/// errors, and when there are none the same files byte for byte (Swift, Kotlin and the
/// persisted-query manifest), with nothing left for `gen --check`.
final class IncrementalRandomEditTests: XCTestCase {
    /// A definition of the random project: its name, kind, text and file.
    struct Definition {
        enum Kind { case query, mutation, fragment }
        var name: String
        var kind: Kind
        var fields: [String]
        /// Names of the fragments it spreads (a fragment spreads only fragments of lower number).
        var spreads: [String]
        var file: Int

        /// Odd-numbered fragments are on the interface `Being`, the others on the object type `Hero`.
        var isOnInterface: Bool { kind == .fragment && (Int(name.filter(\.isNumber)) ?? 0) % 2 == 1 }

        var text: String {
            let spreadText = spreads.map { "...\($0)" }
            switch kind {
            case .fragment where isOnInterface:
                // On the interface: its fields, and the spreads in place (a Hero is a Being).
                let own = fields.filter { $0 == "id" || $0 == "name" }
                return "fragment \(name) on Being { \(((own.isEmpty ? ["id"] : own) + spreadText).joined(separator: " ")) }"
            case .fragment:
                let own = fields.filter { $0 != "friends" }
                let nested = spreads.isEmpty ? [] : ["friends { \(spreadText.joined(separator: " ")) }"]
                return "fragment \(name) on Hero { \((own + nested).joined(separator: " ")) }"
            case .query:
                return "query \(name) { hero(id: \"1\") { \((fields + spreadText).joined(separator: " ")) } }"
            case .mutation:
                return "mutation \(name)($id: ID!) { cheer(id: $id) { \((fields + spreadText).joined(separator: " ")) } }"
            }
        }
    }

    var folder = ""
    let files = 12

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "baton-random-edits-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // With an interface, so that fragments on an abstract type are generated too.
        let schema =
            IncrementalGenTests.schema.replacingOccurrences(of: "type Hero {", with: "type Hero implements Being {")
            + "interface Being { id: ID! name: String }\ntype Droid implements Being { id: ID! name: String }\n"
        try schema.write(toFile: folder + "/schema.graphql", atomically: true, encoding: .utf8)
        try IncrementalGenTests.configuration.write(toFile: folder + "/baton.json", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func randomFields(_ random: inout SeededGenerator) -> [String] {
        let all = ["id", "name", "mood"]
        let chosen = all.filter { _ in random.chance(60) }
        return chosen.isEmpty ? ["id"] : chosen
    }

    /// At most one fragment of number below `limit`, often none: the project stays in several
    /// groups of documents, so that an edit reaches only some of them.
    func randomSpreads(_ random: inout SeededGenerator, below limit: Int, fragments: [Definition]) -> [String] {
        let candidates = fragments.filter { Int($0.name.dropFirst(4)).map { $0 < limit } ?? false }
        guard !candidates.isEmpty, random.chance(55) else { return [] }
        return [candidates[random.below(candidates.count)].name]
    }

    /// Writes the project: every definition into its file, fragments no operation reaches left out
    /// (they would be unused), files holding nothing removed.
    func write(_ definitions: [Definition]) throws -> [Definition] {
        var kept = definitions
        while true {
            var reached: Set<String> = []
            var pending = kept.filter { $0.kind != .fragment }.flatMap(\.spreads)
            while let name = pending.popLast() {
                guard reached.insert(name).inserted else { continue }
                pending += kept.first { $0.name == name }?.spreads ?? []
            }
            let before = kept.count
            kept.removeAll { $0.kind == .fragment && !reached.contains($0.name) }
            if kept.count == before { break }
        }
        let documents = folder + "/Documents"
        try FileManager.default.createDirectory(atPath: documents, withIntermediateDirectories: true)
        for file in 0..<files {
            let path = documents + "/D\(file).graphql"
            let texts = kept.filter { $0.file == file }.map(\.text)
            if texts.isEmpty {
                try? FileManager.default.removeItem(atPath: path)
            } else {
                let text = texts.joined(separator: "\n") + "\n"
                if (try? String(contentsOfFile: path, encoding: .utf8)) != text {
                    try text.write(toFile: path, atomically: false, encoding: .utf8)
                }
            }
        }
        return kept
    }

    /// True to run `gen` as a build plugin does (`--build-map`: a Swift file per document).
    var buildMap = false

    func gen(in root: String, check: Bool = false) -> DriverResult {
        guard buildMap else {
            return Driver(request: ProjectRequest(workingDirectory: root), targets: .configured).generate(check: check)
        }
        let documents = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/Documents")) ?? []).sorted()
            .map { root + "/Documents/" + $0 }
        var outputs: [String: String] = [:]
        for document in documents { outputs[document] = (document as NSString).lastPathComponent + ".swift" }
        let layout = SwiftBuildLayout(documents: documents, outputs: outputs, shared: "Shared.swift")
        var request = ProjectRequest(workingDirectory: root)
        request.buildDocuments = documents
        request.swiftOutputPath = root + "/Generated/Swift"
        return Driver(request: request, targets: .named(["swift"]), swiftLayout: layout).generate(check: check)
    }

    func errors(_ result: DriverResult) -> [String] {
        result.diagnostics.filter { $0.severity == .error }.map { "\($0.displayPath ?? "-"): \($0.message)" }.sorted()
    }

    func outputs(in root: String) throws -> [String: Data] {
        let base = root + "/Generated"
        var found: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [:] }
        for case let path as String in walker where !path.hasSuffix(GenerationManifest.fileName) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isFolder), !isFolder.boolValue
            else { continue }
            found[path] = FileManager.default.contents(atPath: base + "/" + path)
        }
        return found
    }

    /// The cold run of the project as it is now, in a fresh copy: its result and files.
    func cold() throws -> (DriverResult, [String: Data]) {
        try IncrementalGenTests.inFreshCopy(of: folder) { copy in (gen(in: copy), try outputs(in: copy)) }
    }

    func testIncrementalRunsAgreeWithColdRunsOverRandomEdits() throws {
        try runRandomEdits(seed: 0x5EED_0002)
    }

    /// The same for a build plugin's runs (`gen --build-map`), another sequence.
    func testBuildMapRunsAgreeWithColdRunsOverRandomEdits() throws {
        buildMap = true
        try runRandomEdits(seed: 0x5EED_0003)
    }

    func runRandomEdits(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var definitions: [Definition] = []
        for number in 0..<6 {
            let fragments = definitions.filter { $0.kind == .fragment }
            definitions.append(
                Definition(
                    name: "Frag\(number)", kind: .fragment, fields: randomFields(&random),
                    spreads: randomSpreads(&random, below: number, fragments: fragments), file: random.below(files)))
        }
        let fragments = definitions
        for number in 0..<6 {
            definitions.append(
                Definition(
                    name: "Query\(number)", kind: .query, fields: randomFields(&random),
                    spreads: randomSpreads(&random, below: 6, fragments: fragments), file: random.below(files)))
        }
        for number in 0..<4 {
            definitions.append(
                Definition(
                    name: "Change\(number)", kind: .mutation, fields: randomFields(&random),
                    spreads: randomSpreads(&random, below: 6, fragments: fragments), file: random.below(files)))
        }
        definitions = try write(definitions)
        XCTAssertEqual(errors(gen(in: folder)), [])
        var all = definitions
        var partialRuns = 0
        var namesTaken = 0
        var failedRuns = 0
        var nextName = 6
        for step in 0..<36 {
            var what = ""
            let index = random.below(all.count)
            switch random.below(10) {
            case 0, 1, 2:
                what = "new fields for \(all[index].name)"
                all[index].fields = randomFields(&random)
            case 3, 4:
                let number = Int(all[index].name.filter(\.isNumber)) ?? 6
                let limit = all[index].kind == .fragment ? number : 6
                what = "new spreads for \(all[index].name)"
                all[index].spreads = randomSpreads(
                    &random, below: limit, fragments: all.filter { $0.kind == .fragment })
            case 5:
                what = "\(all[index].name) moved"
                all[index].file = random.below(files)
            case 6:
                what = "a query added"
                all.append(
                    Definition(
                        name: "Query\(nextName)", kind: .query, fields: randomFields(&random),
                        spreads: randomSpreads(&random, below: 6, fragments: all.filter { $0.kind == .fragment }),
                        file: random.below(files)))
                nextName += 1
            case 7:
                guard all[index].kind == .query, all.filter({ $0.kind == .query }).count > 2 else { continue }
                what = "\(all[index].name) removed"
                all.remove(at: index)
            case 8:
                // Sometimes an error: an operation's name taken by another's, in another file.
                let operations = all.indices.filter { all[$0].kind != .fragment }
                let other = operations[random.below(operations.count)]
                guard all[index].kind != .fragment, other != index else { continue }
                what = "\(all[index].name) named \(all[other].name)"
                var duplicate = all[index]
                duplicate.name = all[other].name
                duplicate.file = (all[other].file + 1) % files
                let written = try write(all + [duplicate])
                XCTAssertEqual(written.count, all.count + 1)
                let incremental = gen(in: folder)
                let (coldResult, _) = try cold()
                XCTAssertFalse(errors(incremental).isEmpty, "step \(step), \(what): an error")
                XCTAssertEqual(errors(incremental), errors(coldResult), "step \(step), \(what): the errors")
                failedRuns += 1
                continue
            default:
                what = "a file written again unchanged"
                let path = folder + "/Documents/D\(all[index].file).graphql"
                if let text = try? String(contentsOfFile: path, encoding: .utf8) {
                    try text.write(toFile: path, atomically: true, encoding: .utf8)
                }
            }
            all = try write(all)
            let incremental = gen(in: folder)
            if incremental.compilations.first?.generation.partial != nil { partialRuns += 1 }
            // A names digest taken as recorded (`plannedNamesAreRecorded`) is the one the plan's names hash to.
            if let compilation = incremental.compilations.first, let model = compilation.model,
                compilation.generation.namesDigest != nil
            {
                if compilation.plannedNamesAreRecorded() { namesTaken += 1 }
                XCTAssertEqual(
                    compilation.generation.namesDigest, PlanDigests.names(model), "step \(step), \(what): the names")
            }
            let (coldResult, coldFiles) = try cold()
            XCTAssertEqual(errors(incremental), errors(coldResult), "step \(step), \(what): the errors")
            guard errors(coldResult).isEmpty else { continue }
            let files = try outputs(in: folder)
            XCTAssertEqual(files.keys.sorted(), coldFiles.keys.sorted(), "step \(step), \(what): the files")
            for (path, data) in coldFiles where files[path] != data {
                XCTFail("step \(step), \(what): \(path) differs from a cold run's")
            }
            XCTAssertEqual(gen(in: folder, check: true).status, .clean, "step \(step), \(what): --check")
        }
        // The sequence must exercise what it is for: runs that read only part of the project, and errors.
        XCTAssertGreaterThan(partialRuns, 10, "runs that read only what an edit reaches")
        XCTAssertGreaterThan(namesTaken, 0, "runs that take the names digest as recorded")
        XCTAssertGreaterThan(failedRuns, 0, "runs with an error")
    }
}
