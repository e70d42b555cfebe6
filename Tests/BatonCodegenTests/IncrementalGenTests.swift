import BatonCodegen
import BatonCompiler
import Foundation
import XCTest

/// `baton gen` with the output folders' manifests (`GenerationManifest`): after each kind of edit
/// the incremental run's output is byte for byte what a cold run writes in a fresh copy of the
/// project, stale files are removed, a run with nothing changed runs no compilation, and a
/// missing, corrupt or foreign manifest, or a generated file edited by hand, costs a full run,
/// never wrong output.
final class IncrementalGenTests: XCTestCase {
    var folder = ""

    static let schema = """
        type Query { hero(id: ID!): Hero heroes(filter: HeroFilter): [Hero!]! }
        type Mutation { cheer(id: ID!): Hero }
        type Hero { id: ID! name: String mood: Mood friends: [Hero!]! }
        enum Mood { HAPPY SAD }
        input HeroFilter { mood: Mood }

        """
    static let configuration = #"""
        {"schema": "schema.graphql", "documents": "Documents/**/*.graphql",
         "output": {"swift": {"path": "Generated/Swift"}, "kotlin": {"path": "Generated/Kotlin", "package": "app"},
                    "persistedQueries": {"path": "Generated/persisted.json"}}}
        """#
    static let documents = [
        "Documents/Fragments/HeroBits.graphql": "fragment HeroBits on Hero { id name }\n",
        "Documents/Fragments/HeroFriends.graphql": "fragment HeroFriends on Hero { friends { ...HeroBits } }\n",
        "Documents/Queries/A.graphql": "query HeroA($id: ID!) { hero(id: $id) { ...HeroFriends mood } }\n",
        "Documents/Queries/B.graphql": "query HeroB($f: HeroFilter) { heroes(filter: $f) { ...HeroBits } }\n",
        "Documents/Queries/C.graphql": "query HeroC { hero(id: \"1\") { id } }\n",
        "Documents/Mutations/Cheer.graphql": "mutation Cheer($id: ID!) { cheer(id: $id) { id mood } }\n",
    ]

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "baton-incremental-" + UUID().uuidString
        try write("schema.graphql", Self.schema)
        try write("baton.json", Self.configuration)
        for (path, text) in Self.documents { try write(path, text) }
        let cold = gen()
        XCTAssertEqual(cold.status, .clean, "\(cold.diagnostics.map(\.message))")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func write(_ path: String, _ text: String, in root: String? = nil) throws {
        let full = (root ?? folder) + "/" + path
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// Seconds the driver's clock runs ahead of the system's: a test that needs its files settled
    /// (`FileStamp.isSettled`, over 2 s old) moves it forward rather than sleeping.
    var clockAhead: Int64 = 0

    func gen(in root: String? = nil, check: Bool = false, targets: TargetSelection = .configured) -> DriverResult {
        var driver = Driver(request: ProjectRequest(workingDirectory: root ?? folder), targets: targets)
        let ahead = clockAhead
        driver.clock = { Int64(time(nil)) + ahead }
        return driver.generate(check: check)
    }

    /// Every file under `Generated` but the manifests, by path.
    func outputs(in root: String? = nil) throws -> [String: String] {
        let base = (root ?? folder) + "/Generated"
        var files: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [:] }
        for case let path as String in walker {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isFolder),
                !isFolder.boolValue,
                !path.hasSuffix(GenerationManifest.fileName)
            else { continue }
            files[path] = try String(contentsOfFile: base + "/" + path, encoding: .utf8)
        }
        return files
    }

    /// What a cold run writes for the project's inputs as they are now, in a fresh copy.
    func coldOutputs(targets: TargetSelection = .configured) throws -> [String: String] {
        try Self.inFreshCopy(of: folder) { copy in
            let result = gen(in: copy, targets: targets)
            XCTAssertEqual(result.status, .clean, "\(result.diagnostics.map(\.message))")
            return try outputs(in: copy)
        }
    }

    /// `body`'s answer for a fresh copy of the project in `folder` without its generated code
    /// (`folder` + `-cold`, removed afterwards).
    static func inFreshCopy<Answer>(of folder: String, _ body: (String) throws -> Answer) throws -> Answer {
        let copy = folder + "-cold"
        try? FileManager.default.removeItem(atPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name != "Generated" {
            try FileManager.default.copyItem(atPath: folder + "/" + name, toPath: copy + "/" + name)
        }
        return try body(copy)
    }

    /// Runs `gen` after `edit` and checks its output against a cold run's; returns the run and how many files it kept.
    @discardableResult
    func assertIncrementalIsCold(
        _ what: String, targets: TargetSelection = .configured, file: StaticString = #filePath, line: UInt = #line,
        _ edit: () throws -> Void
    ) throws -> (result: DriverResult, kept: Int) {
        try edit()
        let result = gen(targets: targets)
        XCTAssertEqual(result.status, .clean, "\(what): \(result.diagnostics.map(\.message))", file: file, line: line)
        var incremental = try outputs()
        if case .named(let languages, _) = targets, !languages.contains("kotlin") {
            incremental = incremental.filter { !$0.key.hasPrefix("Kotlin/") }  // the other language's, untouched
        }
        let cold = try coldOutputs(targets: targets)
        XCTAssertEqual(incremental.keys.sorted(), cold.keys.sorted(), "\(what): the files", file: file, line: line)
        for (path, text) in cold where incremental[path] != text {
            XCTFail("\(what): \(path) differs from a cold run's", file: file, line: line)
        }
        // The names an incremental run takes as recorded (`plannedNamesAreRecorded`) are the names its plan has.
        if let compilation = result.compilations.first, let model = compilation.model {
            XCTAssertEqual(
                compilation.generation.namesDigest, PlanDigests.names(model), "\(what): the names digest", file: file,
                line: line)
        }
        XCTAssertEqual(gen(check: true, targets: targets).status, .clean, "\(what): --check", file: file, line: line)
        let kept = result.compilations.flatMap(\.outputs).flatMap(\.files).filter(\.kept).count
        return (result, kept)
    }

    func testNothingChangedRunsNoCompilation() throws {
        let again = gen()
        XCTAssertEqual(again.status, .clean)
        XCTAssertNotNil(again.compilations.first?.generation.upToDate, "every folder's manifest matches")
        XCTAssertNil(again.compilations.first?.model, "nothing is parsed or planned")
        XCTAssertFalse(again.folders.contains { $0.report.hasChanges })
        let files = try outputs()
        XCTAssertEqual(again.folders.reduce(0) { $0 + $1.report.unchanged }, files.count)
        XCTAssertEqual(try coldOutputs(), files)
    }

    func testAnEditedOperationRendersOnlyItsOwnFiles() throws {
        let (result, kept) = try assertIncrementalIsCold("an edited operation") {
            try write("Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id name } }\n")
        }
        XCTAssertNil(result.compilations.first?.generation.upToDate)
        // Swift and Kotlin: HeroBits, HeroFriends, HeroA, HeroB, Cheer kept in each; HeroC rendered.
        XCTAssertEqual(kept, 10)
    }

    /// The documents an incremental run read, validated and planned (`GenerationRun.partial`), by
    /// path under the project; nil when it read every document.
    func documentsRead(_ result: DriverResult) -> [String]? {
        guard let compilation = result.compilations.first, let partial = compilation.generation.partial else {
            return nil
        }
        let prefix = folder + "/"
        return partial.units.map { $0.path.hasPrefix(prefix) ? String($0.path.dropFirst(prefix.count)) : $0.path }
    }

    func testAnIncrementalRunReadsOnlyTheDocumentsAnEditReaches() throws {
        let (edited, _) = try assertIncrementalIsCold("an operation no other document names") {
            try write("Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id name } }\n")
        }
        XCTAssertEqual(documentsRead(edited), ["Documents/Queries/C.graphql"])
        // The others as one block (`LensModel.block`; `testAnEditPlansTheUnreachedDefinitionsAsOneBlock`).
        let editedBlock = try XCTUnwrap(edited.compilations.first?.model?.block)
        XCTAssertEqual(editedBlock.operations.map { editedBlock.lines.name(at: $0) }, ["Cheer", "HeroA", "HeroB"])
        let (fragment, _) = try assertIncrementalIsCold("a fragment others spread") {
            try write("Documents/Fragments/HeroBits.graphql", "fragment HeroBits on Hero { id name mood }\n")
        }
        XCTAssertEqual(
            documentsRead(fragment),
            [
                "Documents/Fragments/HeroBits.graphql", "Documents/Fragments/HeroFriends.graphql",
                "Documents/Queries/A.graphql", "Documents/Queries/B.graphql",
            ])
        // A mutation that starts spreading a fragment gives the fragment an optimistic-response builder.
        let (optimistic, _) = try assertIncrementalIsCold("a mutation newly spreading a fragment") {
            try write(
                "Documents/Mutations/Cheer.graphql", "mutation Cheer($id: ID!) { cheer(id: $id) { ...HeroBits } }\n")
        }
        XCTAssertEqual(documentsRead(optimistic)?.first, "Documents/Fragments/HeroBits.graphql")
        XCTAssertTrue(try outputs()["Swift/HeroBits.graphql.swift"]?.contains("struct Optimistic") == true)
        try assertIncrementalIsCold("the mutation no longer spreading it") {
            try write("Documents/Mutations/Cheer.graphql", "mutation Cheer($id: ID!) { cheer(id: $id) { id } }\n")
        }
        XCTAssertFalse(try outputs()["Swift/HeroBits.graphql.swift"]?.contains("struct Optimistic") == true)
    }

    func testAnIncrementalRunFindsWhatTheWholeProjectWouldFind() throws {
        let before = try outputs()
        // Two documents that shared no name until the edit: the other one is read too, with its group.
        try write("Documents/Queries/C.graphql", "query HeroA { hero(id: \"1\") { id } }\n")
        let failed = gen()
        XCTAssertEqual(failed.status, .problems)
        XCTAssertEqual(
            documentsRead(failed),
            [
                "Documents/Fragments/HeroBits.graphql", "Documents/Fragments/HeroFriends.graphql",
                "Documents/Queries/A.graphql", "Documents/Queries/B.graphql", "Documents/Queries/C.graphql",
            ])
        XCTAssertTrue(
            failed.diagnostics.contains { $0.message == "There can be only one operation named \"HeroA\"." },
            "\(failed.diagnostics.map(\.message))")
        XCTAssertEqual(try outputs(), before, "a run with an error writes nothing")
        try assertIncrementalIsCold("the error mended, another operation added") {
            try write(
                "Documents/Queries/C.graphql",
                "query HeroC { hero(id: \"1\") { id } }\nquery HeroC2 { hero(id: \"2\") { name } }\n")
        }
        // A summarized definition's file edited by hand: every document is planned after all.
        let (mended, _) = try assertIncrementalIsCold("a kept file edited by hand beside an edit") {
            try write("Generated/Kotlin/HeroA.kt", "// @generated by Baton, edited\n")
            try write(
                "Documents/Queries/C.graphql",
                "query HeroC { hero(id: \"1\") { name } }\nquery HeroC2 { hero(id: \"2\") { name } }\n")
        }
        XCTAssertNil(documentsRead(mended))
        XCTAssertEqual(mended.compilations.first?.model?.summarized.operations, [])
        XCTAssertNil(mended.compilations.first?.model?.block)
    }

    func testAFragmentUsedByOthersRendersEveryDefinitionSpreadingIt() throws {
        let (_, kept) = try assertIncrementalIsCold("an edited fragment") {
            try write("Documents/Fragments/HeroBits.graphql", "fragment HeroBits on Hero { id name mood }\n")
        }
        // HeroBits, HeroFriends (spreads it), HeroA (through HeroFriends), HeroB rendered; HeroC and Cheer kept.
        XCTAssertEqual(kept, 4)
    }

    func testRenamesDeletionsAdditionsAndMovesMatchAColdRun() throws {
        try assertIncrementalIsCold("a renamed operation") {
            try write("Documents/Queries/C.graphql", "query HeroSee { hero(id: \"1\") { id } }\n")
        }
        XCTAssertNil(try outputs()["Swift/HeroC.graphql.swift"], "the old name's file is removed")
        try assertIncrementalIsCold("a deleted document") {
            try FileManager.default.removeItem(atPath: folder + "/Documents/Queries/B.graphql")
        }
        try assertIncrementalIsCold("an added document") {
            try write("Documents/Queries/D.graphql", "query HeroD { heroes { ...HeroFriends } }\n")
        }
        try assertIncrementalIsCold("a fragment moved to another file") {
            try FileManager.default.removeItem(atPath: folder + "/Documents/Fragments/HeroBits.graphql")
            try write(
                "Documents/Fragments/HeroFriends.graphql",
                "fragment HeroFriends on Hero { friends { ...HeroBits } }\nfragment HeroBits on Hero { id name }\n")
        }
        try assertIncrementalIsCold("a name that collides with a schema type") {
            try write("Documents/Queries/E.graphql", "query Mood { hero(id: \"2\") { mood } }\n")
        }
    }

    /// A name is claimed ignoring case, earlier in the plan's (byte) order first (`TopLevelLayout`): a definition an
    /// edit adds or renames to `HEROC` sorts before the untouched `HeroC` and takes its name and file, which then
    /// get a `_`; removing it gives them back. The untouched definition's output changes with no edit of its own.
    func testANameCollidingWithAnUntouchedDefinitionMatchesAColdRun() throws {
        try assertIncrementalIsCold("an added operation taking an untouched one's name") {
            try write("Documents/Queries/F.graphql", "query HEROC { hero(id: \"3\") { name } }\n")
        }
        var files = try outputs()
        XCTAssertNotNil(files["Swift/HEROC.graphql.swift"])
        XCTAssertNotNil(files["Swift/HeroC_.graphql.swift"], "the untouched HeroC's file moved: \(files.keys.sorted())")
        XCTAssertNil(files["Swift/HeroC.graphql.swift"])
        try assertIncrementalIsCold("an added fragment taking a spread one's name") {
            try write(
                "Documents/Fragments/Bits.graphql",
                "fragment HEROBITS on Hero { id }\nquery HeroG { hero(id: \"4\") { ...HEROBITS } }\n")
        }
        XCTAssertNotNil(try outputs()["Swift/HeroBits_.graphql.swift"])
        try assertIncrementalIsCold("an operation renamed to take an untouched one's name") {
            try write("Documents/Mutations/Cheer.graphql", "mutation HEROA($id: ID!) { cheer(id: $id) { id mood } }\n")
        }
        XCTAssertNotNil(try outputs()["Swift/HeroA_.graphql.swift"])
        try assertIncrementalIsCold("the colliding documents deleted") {
            try FileManager.default.removeItem(atPath: folder + "/Documents/Queries/F.graphql")
            try FileManager.default.removeItem(atPath: folder + "/Documents/Fragments/Bits.graphql")
        }
        files = try outputs()
        XCTAssertNotNil(files["Swift/HeroC.graphql.swift"], "HeroC has its name back")
        XCTAssertNil(files["Swift/HeroC_.graphql.swift"])
        XCTAssertNil(files["Swift/HeroBits_.graphql.swift"])
    }

    /// An edit whose documents keep their names plans the definitions it does not reach as one block
    /// (`LensModel.block`: no stand-in model, no name claimed again), for Swift, Kotlin and the persisted-query
    /// manifest alike, each file a cold run's; an added name colliding with an untouched definition's does not
    /// (every name claimed again, a full run), and the name it pushed is then recorded and taken from the block.
    func testAnEditPlansTheUnreachedDefinitionsAsOneBlock() throws {
        let (plain, _) = try assertIncrementalIsCold("a selection edited") {
            try write("Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id name } }\n")
        }
        let compilation = try XCTUnwrap(plain.compilations.first)
        XCTAssertNotNil(compilation.generation.partial)
        let block = try XCTUnwrap(compilation.model?.block, "the untouched definitions as one block")
        XCTAssertEqual(block.operations.map { block.lines.name(at: $0) }, ["Cheer", "HeroA", "HeroB"])
        XCTAssertEqual(block.fragments.map { block.lines.name(at: $0) }, ["HeroBits", "HeroFriends"])
        XCTAssertEqual(compilation.model?.operations.map(\.name), ["HeroC"])
        XCTAssertEqual(compilation.model?.summarized.operations, [])

        let (added, _) = try assertIncrementalIsCold("an added operation taking an untouched one's name") {
            try write("Documents/Queries/F.graphql", "query HEROC { hero(id: \"3\") { name } }\n")
        }
        XCTAssertNil(added.compilations.first?.model?.block)
        XCTAssertNil(added.compilations.first?.generation.partial, "a name changed: every document read")
        XCTAssertNotNil(try outputs()["Swift/HeroC_.graphql.swift"])

        let (beside, _) = try assertIncrementalIsCold("an edit beside the pushed name") {
            try write("Documents/Mutations/Cheer.graphql", "mutation Cheer($id: ID!) { cheer(id: $id) { mood id } }\n")
        }
        let pushed = try XCTUnwrap(beside.compilations.first?.model?.block, "the names as recorded: a block")
        let heroC = pushed.operations.first { pushed.lines.name(at: $0) == "HeroC" }
        XCTAssertEqual(heroC.map { pushed.lines.names(at: $0).typeName }, "HeroC_", "the pushed name, recorded")
        XCTAssertNotNil(try outputs()["Swift/HeroC_.graphql.swift"])
    }

    /// An edit that keeps the names planned again takes the recorded names digest unhashed
    /// (`plannedNamesAreRecorded`); one that changes which schema types the documents read again use tells
    /// nothing by itself (another document may use the type too), so the digest is computed: the run stays
    /// incremental when the names are the same after all, and is a full one when a type's file comes or goes.
    func testEditsChangingWhichSchemaTypesAreUsedMatchAColdRun() throws {
        func takenAsRecorded(_ result: DriverResult) -> Bool? {
            guard let compilation = result.compilations.first else { return nil }
            return compilation.plannedNamesAreRecorded()
        }
        let (plain, plainKept) = try assertIncrementalIsCold("a selection edited, no name or type changed") {
            try write("Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id name } }\n")
        }
        XCTAssertEqual(takenAsRecorded(plain), true)
        XCTAssertEqual(plainKept, 10)
        let (shared, sharedKept) = try assertIncrementalIsCold("an input object another document uses too") {
            try write("Documents/Queries/C.graphql", "query HeroC($f: HeroFilter) { heroes(filter: $f) { id } }\n")
        }
        XCTAssertEqual(takenAsRecorded(shared), false)
        XCTAssertNotNil(shared.compilations.first?.generation.partial, "the same names: still incremental")
        XCTAssertEqual(sharedKept, 10)
        try assertIncrementalIsCold("the other user of the input object edited") {
            try write("Documents/Queries/B.graphql", "query HeroB { heroes { ...HeroBits } }\n")
        }
        XCTAssertNotNil(try outputs()["Swift/HeroFilter.graphql.swift"])
        let (last, _) = try assertIncrementalIsCold("the last user of the input object edited") {
            try write("Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id } }\n")
        }
        XCTAssertNil(last.compilations.first?.generation.partial, "a type's file goes: a full run")
        XCTAssertNil(try outputs()["Swift/HeroFilter.graphql.swift"])
        try assertIncrementalIsCold("a document using it again") {
            try write("Documents/Queries/C.graphql", "query HeroC($f: HeroFilter) { heroes(filter: $f) { id } }\n")
        }
        XCTAssertNotNil(try outputs()["Swift/HeroFilter.graphql.swift"])
    }

    func testSchemaConfigurationAndOptionsInvalidateEverything() throws {
        let (_, keptAfterSchema) = try assertIncrementalIsCold("a changed schema") {
            try write("schema.graphql", Self.schema.replacingOccurrences(of: "HAPPY SAD", with: "HAPPY SAD CALM"))
        }
        XCTAssertEqual(keptAfterSchema, 0)
        let (_, keptAfterConfiguration) = try assertIncrementalIsCold("a changed baton.json") {
            try write(
                "baton.json",
                Self.configuration.replacingOccurrences(
                    of: #""persistedQueries""#, with: #""operationSuffix": true, "persistedQueries""#))
        }
        XCTAssertEqual(keptAfterConfiguration, 0)
        try assertIncrementalIsCold("one language", targets: .named(["swift"])) {}
        let strict = Driver(
            request: ProjectRequest(workingDirectory: folder), policy: DiagnosticPolicy(warningsAsErrors: true),
            targets: .configured
        ).generate(check: false)
        XCTAssertEqual(strict.status, .clean)
        XCTAssertNil(strict.compilations.first?.generation.upToDate, "other options are other inputs")
    }

    func testHandEditsAndBadManifestsCostAFullRunNotWrongOutput() throws {
        let swift = folder + "/Generated/Swift/"
        try assertIncrementalIsCold("a generated file edited by hand") {
            try write("Generated/Swift/HeroA.graphql.swift", "// @generated by Baton, edited\n")
        }
        try assertIncrementalIsCold("a generated file removed") {
            try FileManager.default.removeItem(atPath: swift + "HeroB.graphql.swift")
        }
        try assertIncrementalIsCold("the persisted-query manifest edited") {
            try write("Generated/persisted.json", "{}\n")
        }
        for (what, text) in [
            (
                "a truncated manifest",
                String(try String(contentsOfFile: swift + ".baton-manifest", encoding: .utf8).prefix(300))
            ),
            (
                "a version-2 manifest",
                try String(contentsOfFile: swift + ".baton-manifest", encoding: .utf8).replacingOccurrences(
                    of: "baton-gen-manifest 5\n", with: "baton-gen-manifest 4\n")
            ),
            (
                "a file line's stamp corrupted",
                try String(contentsOfFile: swift + ".baton-manifest", encoding: .utf8).replacingOccurrences(
                    of: "\nfile 1", with: "\nfile x1")
            ),
            ("a foreign manifest", "{\"version\": 1}\n"), ("an empty manifest", ""),
        ] {
            let (result, kept) = try assertIncrementalIsCold(what) {
                try write("Generated/Swift/.baton-manifest", text)
                try write(
                    "Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id a\(what.count): name } }\n")
            }
            XCTAssertEqual(
                result.compilations.first?.outputs.first { $0.target.name == "swift" }?.files.filter(\.kept).count, 0,
                what)
            XCTAssertGreaterThan(kept, 0, "\(what): the Kotlin folder's manifest still serves")
        }
    }

    /// The block's kept files are counted, not listed by key (`Compilation.findKeptWithBlock`): a manifest listing
    /// one block definition's line twice in place of another's, whose file is gone, counts the line once, so
    /// the block is short of one and the run is a full one, never one keeping the missing file.
    func testABlockDefinitionsLineListedTwiceCountsOnce() throws {
        // Swift alone (a Kotlin folder's check reads the recorded digests from the Swift manifest, which would no
        // longer list `HeroB`: a full run whatever the Swift folder's count).
        try write(
            "baton.json",
            #"{"schema": "schema.graphql", "documents": "Documents/**/*.graphql", "output": {"swift": {"path": "Generated/Swift"}}}"#
        )
        try? FileManager.default.removeItem(atPath: folder + "/Generated")
        XCTAssertEqual(gen().status, .clean)
        let swift = folder + "/Generated/Swift/"
        let manifest = try String(contentsOfFile: swift + ".baton-manifest", encoding: .utf8)
        var lines = manifest.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heroA = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("file ") && $0.contains(" o:HeroA ") })
        let heroB = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("file ") && $0.contains(" o:HeroB ") })
        lines[heroB] = lines[heroA]
        let (result, _) = try assertIncrementalIsCold("a block definition's line in place of another's") {
            try write("Generated/Swift/.baton-manifest", lines.joined(separator: "\n"))
            try FileManager.default.removeItem(atPath: swift + "HeroB.graphql.swift")
            try write("Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id name } }\n")
        }
        XCTAssertNotNil(try outputs()["Swift/HeroB.graphql.swift"], "the missing file written again")
        XCTAssertNil(result.compilations.first?.model?.block, "the block short of one: planned in full")
    }

    /// Two edits in a row: the second run reads the manifest the first wrote after its edit (the kept files' lines
    /// copied from the cold run's, `ManifestFiles`), keeps files by it and writes a cold run's output; each
    /// manifest written after an edit holds the bytes its values spell.
    func testTwoEditsInARowReadTheManifestTheFirstWrote() throws {
        let swift = folder + "/Generated/Swift"
        for (what, path, text) in [
            ("the first edit", "Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id name } }\n"),
            (
                "the second edit", "Documents/Mutations/Cheer.graphql",
                "mutation Cheer($id: ID!) { cheer(id: $id) { id } }\n"
            ),
            ("the first edit undone", "Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id } }\n"),
        ] {
            let (_, kept) = try assertIncrementalIsCold(what) { try write(path, text) }
            XCTAssertGreaterThan(kept, 0, "\(what): files kept by the last manifest")
            let written = try XCTUnwrap(GenerationManifest.load(root: swift), what)
            XCTAssertNotNil(written.files.line(at: 0), what)
            var spelt = written
            spelt.files = ManifestFiles(Array(written.files))
            XCTAssertEqual(written.bytes, spelt.bytes, what)
            XCTAssertEqual(
                try XCTUnwrap(spelt.bytes),
                Array(try Data(contentsOf: URL(fileURLWithPath: swift + "/.baton-manifest"))),
                what)
        }
    }

    /// A run with nothing changed that records stamps settled since (a project generated at once
    /// after it was copied) rewrites its manifest in place: the output folders, which a build system
    /// may watch, keep their modification times.
    func testRecordingSettledStampsLeavesTheFoldersAsTheyWere() throws {
        let swift = folder + "/Generated/Swift"
        XCTAssertEqual(GenerationManifest.load(root: swift)?.documentStamps.count, 0, "written just now: not settled")
        let before = try FileManager.default.attributesOfItem(atPath: swift)[.modificationDate] as? Date
        clockAhead = 3
        let again = gen()
        XCTAssertNotNil(again.compilations.first?.generation.upToDate)
        XCTAssertEqual(GenerationManifest.load(root: swift)?.documentStamps.count, Self.documents.count, "recorded now")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: swift)[.modificationDate] as? Date, before)
        XCTAssertNil(gen().compilations.first?.model, "and the next run still has nothing to do")
    }

    /// A run after an edit that keeps files takes the folder's manifest for its listing
    /// (`Compilation.recordedUnkept`): the stale files are the recorded ones it no longer writes, and
    /// a file put in the folder by hand is not looked for, as a run with nothing changed does not;
    /// a full run (here `--check`'s comparison, then a run without a manifest) walks the folder.
    func testAnEditLooksForStaleFilesInTheManifestOnly() throws {
        let swift = folder + "/Generated/Swift"
        try write("Generated/Swift/Extra.swift", "// @generated by Baton, recorded\n")
        try write("Generated/Swift/ByHand.swift", "// @generated by Baton, by hand\n")
        var manifest = try XCTUnwrap(GenerationManifest.load(root: swift))
        let stamp = try XCTUnwrap(FileStamp(of: swift + "/Extra.swift"))
        manifest.files.append(GenerationManifest.Entry(path: "Extra.swift", stamp: stamp, definition: "-", digest: "-"))
        try Data(try XCTUnwrap(manifest.bytes)).write(
            to: URL(fileURLWithPath: swift + "/" + GenerationManifest.fileName))
        try write("Documents/Queries/C.graphql", "query HeroC { hero(id: \"1\") { id name } }\n")
        let edited = gen()
        XCTAssertEqual(edited.status, .clean, "\(edited.diagnostics.map(\.message))")
        XCTAssertGreaterThan(edited.compilations.flatMap(\.outputs).flatMap(\.files).filter(\.kept).count, 0)
        var files = try outputs()
        XCTAssertNil(files["Swift/Extra.swift"], "recorded, not written now: stale")
        XCTAssertNotNil(files.removeValue(forKey: "Swift/ByHand.swift"), "not recorded: not looked for")
        XCTAssertEqual(files, try coldOutputs())
        XCTAssertEqual(gen(check: true).status, .problems, "--check walks the folder")
        GenerationManifest.remove(root: swift)
        XCTAssertEqual(gen().status, .clean)
        XCTAssertEqual(try outputs(), try coldOutputs(), "a full run walks the folder")
    }

    func testACheckRunIgnoresTheManifest() throws {
        try write("Generated/Swift/HeroC.graphql.swift", "// @generated by Baton, stale\n")
        let check = gen(check: true)
        XCTAssertEqual(check.status, .problems, "--check compares with what a cold run writes")
        XCTAssertNil(check.compilations.first?.generation.upToDate)
        XCTAssertEqual(gen().status, .clean)
        XCTAssertEqual(try outputs(), try coldOutputs())
    }
}
