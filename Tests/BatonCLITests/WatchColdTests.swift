import BatonCLI
import BatonCompiler
import BatonTestSupport
import Foundation
import XCTest

/// `check --watch` and `gen --watch` side by side over one project, through every kind of change:
/// after each step the check session prints, in every format, byte for byte what a cold `baton
/// check` prints, and the gen session reports what a cold `gen` reports and (when clean) leaves
/// exactly the files a cold `gen` writes in a fresh copy. The check session validates again only
/// what a change reaches (`KeptValidation`), and the steps are chosen so that a kept document's
/// diagnostics change through another file: a fragment left unused, a name duplicated across files,
/// a cycle made in one file and broken in another.
final class WatchColdTests: XCTestCase {
    static let schema = """
        type Query { hero(id: ID): Hero  heroes: [Hero] }
        type Hero { id: ID!  name: String  friends: [Hero] }

        """
    static let configuration = #"""
        {"schema": "schema.graphqls", "documents": ["Q/**/*.graphql", "F/**/*.graphql", "Sources/**/*.swift"],
         "output": {"swift": {"path": "Generated"}}}
        """#

    var scratch: Scratch!
    var check: WatchSession!
    var gen: WatchSession!

    override func setUpWithError() throws {
        scratch = try Scratch()
        try scratch.write("schema.graphqls", Self.schema)
        try scratch.write("baton.json", Self.configuration)
        try scratch.write("Q/A.graphql", "query A { hero { ...HeroBits } }\n")
        try scratch.write("Q/B.graphql", "query B { heroes { id } }\n")
        try scratch.write("Q/C.graphql", "query C { hero { ...HeroFriends } }\n")
        try scratch.write("F/Bits.graphql", "fragment HeroBits on Hero { id name }\n")
        try scratch.write("F/Friends.graphql", "fragment HeroFriends on Hero { friends { ...HeroBits } }\n")
        try scratch.write("Sources/V.swift", Self.swift(first: "query V { hero { id } }"))
        var driver = Driver(request: ProjectRequest(workingDirectory: scratch.path), targets: .configured)
        driver.options.checksOnly = true
        check = WatchSession(driver: driver, stage: .plan)
        gen = WatchSession(
            driver: Driver(request: ProjectRequest(workingDirectory: scratch.path), targets: .configured),
            stage: .generate)
    }

    override func tearDown() {
        (check, gen, scratch) = (nil, nil, nil)
    }

    static func swift(first: String) -> String {
        "import Baton\n\n@Query(\"\"\"\n\(first)\n\"\"\")\nstruct V {}\n\n@Query(\"\"\"\nquery W { heroes { name } }\n\"\"\")\nstruct W {}\n"
    }

    /// Runs `baton` in `directory`: stdout and stderr.
    func cli(_ arguments: [String], in directory: String) -> (String, String) {
        let context = CommandContext(
            standardOutput: OutputStream(capturingAsTerminal: false),
            standardError: OutputStream(capturingAsTerminal: false), workingDirectory: directory, environment: [:])
        _ = BatonCLI.run(arguments, context: context)
        return (context.standardOutput.text, context.standardError.text)
    }

    /// What the session's diagnostics print as in `format`, as `check` prints them.
    func printed(_ session: WatchSession, _ format: DiagnosticFormat) -> String {
        let context = CommandContext(
            standardOutput: OutputStream(capturingAsTerminal: false),
            standardError: OutputStream(capturingAsTerminal: false), workingDirectory: scratch.path, environment: [:])
        var output = DiagnosticOutput(format: format, quiet: false)
        if session.result.skippedValidation {
            output.summarySuffix = " (not validated: the schema could not be built)"
        }
        output.report(session.result.shownDiagnostics, documentCount: session.result.documentCount, context: context)
        return context.standardOutput.text + context.standardError.text
    }

    /// Every file under `root`/Generated but the manifests, by path.
    func generated(in root: String) throws -> [String: String] {
        let base = root + "/Generated"
        var files: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [:] }
        for case let path as String in walker where !path.hasSuffix(GenerationManifest.fileName) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: base + "/" + path, isDirectory: &isFolder), !isFolder.boolValue
            else { continue }
            files[path] = try String(contentsOfFile: base + "/" + path, encoding: .utf8)
        }
        return files
    }

    /// Applies `edit`, hands both sessions `paths` (relative), and compares them with cold runs.
    func step(
        _ what: String, _ paths: [String], file: StaticString = #filePath, line: UInt = #line,
        _ edit: () throws -> Void
    ) throws {
        let before = try generated(in: scratch.path)
        try edit()
        let absolute = Set(paths.map { scratch.path + "/" + $0 })
        XCTAssertNotNil(check.apply(absolute), "\(what): check saw a change", file: file, line: line)
        XCTAssertNotNil(gen.apply(absolute), "\(what): gen saw a change", file: file, line: line)
        for format in [DiagnosticFormat.text, .json, .sarif, .github] {
            let (out, err) = cli(["check", "--format", format.rawValue], in: scratch.path)
            XCTAssertEqual(printed(check, format), out + err, "\(what): check, \(format)", file: file, line: line)
        }
        // A cold gen in a fresh copy of the inputs.
        let copy = scratch.path + "-cold"
        try? FileManager.default.removeItem(atPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: scratch.path) where name != "Generated" {
            try FileManager.default.copyItem(atPath: scratch.path + "/" + name, toPath: copy + "/" + name)
        }
        let (out, err) = cli(["gen", "--format", "json"], in: copy)
        let cold = Driver(request: ProjectRequest(workingDirectory: copy), targets: .configured).compile(
            upTo: .generate)
        XCTAssertEqual(
            printed(gen, .json), JSONRendererText(cold), "\(what): gen's diagnostics", file: file, line: line)
        if gen.result.status == .clean {
            XCTAssertEqual(
                try generated(in: scratch.path), try generated(in: copy), "\(what): gen's files \(out)\(err)",
                file: file, line: line)
        } else {
            XCTAssertEqual(
                try generated(in: scratch.path), before, "\(what): the last good files stay", file: file, line: line)
        }
    }

    func JSONRendererText(_ result: DriverResult) -> String {
        let context = CommandContext(
            standardOutput: OutputStream(capturingAsTerminal: false),
            standardError: OutputStream(capturingAsTerminal: false), workingDirectory: scratch.path, environment: [:])
        DiagnosticOutput(format: .json, quiet: false).report(
            result.shownDiagnostics, documentCount: result.documentCount, context: context)
        return context.standardOutput.text
    }

    /// How many documents the check session's last validation validated.
    var validated: Int? { check.result.compilations.first?.validatedDocuments }

    func testEverySessionStepIsWhatAColdRunGives() throws {
        XCTAssertEqual(validated, 7, "the first run validates everything")
        try step("an edited operation", ["Q/B.graphql"]) {
            try scratch.write("Q/B.graphql", "query B { heroes { id name } }\n")
        }
        XCTAssertEqual(validated, 1, "B shares no name: it alone is validated again")
        try step("an edited Swift literal", ["Sources/V.swift"]) {
            try scratch.write("Sources/V.swift", Self.swift(first: "query V { hero { id name } }"))
        }
        XCTAssertEqual(validated, 2, "both literals of the file read again")
        try step("a renamed file", ["Q/B.graphql", "Q/Bee.graphql"]) {
            try FileManager.default.moveItem(
                atPath: scratch.path + "/Q/B.graphql", toPath: scratch.path + "/Q/Bee.graphql")
        }
        try step("a deleted document leaves a fragment unused", ["Q/C.graphql"]) {
            try FileManager.default.removeItem(atPath: scratch.path + "/Q/C.graphql")
        }
        XCTAssertEqual(check.result.shownDiagnostics.map(\.rule), ["no-unused-fragments"])
        try step("an added document uses it again", ["Q/C.graphql"]) {
            try scratch.write("Q/C.graphql", "query C { hero { ...HeroFriends } }\n")
        }
        XCTAssertEqual(check.result.shownDiagnostics.count, 0)
        try step("half written", ["Q/A.graphql"]) { try scratch.write("Q/A.graphql", "query A { hero { ...Hero") }
        try step("completed", ["Q/A.graphql"]) {
            try scratch.write("Q/A.graphql", "query A { hero { ...HeroBits } }\n")
        }
        try step("invalid", ["Q/A.graphql"]) { try scratch.write("Q/A.graphql", "query A { hero { nope } }\n") }
        try step("fixed", ["Q/A.graphql"]) { try scratch.write("Q/A.graphql", "query A { hero { ...HeroBits } }\n") }
        try step("a name duplicated across two files", ["Q/Bee.graphql"]) {
            try scratch.write("Q/Bee.graphql", "query A { heroes { id } }\n")
        }
        XCTAssertEqual(check.result.shownDiagnostics.count, 1)
        try step("the other one removed", ["Q/A.graphql"]) {
            try FileManager.default.removeItem(atPath: scratch.path + "/Q/A.graphql")
        }
        try step("and put back under another name", ["Q/A.graphql"]) {
            try scratch.write("Q/A.graphql", "query B { hero { ...HeroBits } }\n")
        }
        try step("a cycle made across files", ["F/Bits.graphql"]) {
            try scratch.write("F/Bits.graphql", "fragment HeroBits on Hero { id friends { ...HeroFriends } }\n")
        }
        XCTAssertFalse(check.result.shownDiagnostics.isEmpty, "the cycle is reported")
        try step("the cycle broken in the other file", ["F/Friends.graphql"]) {
            try scratch.write("F/Friends.graphql", "fragment HeroFriends on Hero { friends { id } }\n")
        }
        XCTAssertEqual(check.result.shownDiagnostics.count, 0)
        try step("a fragment moved to another file", ["F/Bits.graphql", "F/Friends.graphql"]) {
            try FileManager.default.removeItem(atPath: scratch.path + "/F/Bits.graphql")
            try scratch.write(
                "F/Friends.graphql",
                "fragment HeroFriends on Hero { friends { ...HeroBits } }\nfragment HeroBits on Hero { id name }\n")
        }
        try step("an edited schema", ["schema.graphqls"]) {
            try scratch.write("schema.graphqls", Self.schema.replacingOccurrences(of: "  name: String", with: ""))
        }
        XCTAssertFalse(check.result.shownDiagnostics.isEmpty, "name is gone")
        XCTAssertEqual(validated, 6, "a schema built again validates everything")
        try step("the schema put back", ["schema.graphqls"]) { try scratch.write("schema.graphqls", Self.schema) }
        try step("an edited baton.json", ["baton.json"]) {
            try scratch.write(
                "baton.json",
                Self.configuration.replacingOccurrences(of: #""Sources/**/*.swift""#, with: #""Q/*.graphql""#))
        }
        try step("an operation edited after it", ["Q/C.graphql"]) {
            try scratch.write("Q/C.graphql", "query C { hero { ...HeroFriends name } }\n")
        }
        XCTAssertEqual(validated, 3, "C, and the two fragments it spreads")
    }

    /// Keystrokes that keep a document's names reuse the last groups (`KeptValidation`); one that spreads a
    /// fragment joins another group, and the next keystroke must find the document in that group, not in the
    /// one it was alone in: validated alone it would not find the fragment it spreads.
    func testKeystrokesAfterANewSpreadReachTheFragmentsGroup() throws {
        XCTAssertEqual(validated, 7, "the first run validates everything")
        try step("a keystroke", ["Q/B.graphql"]) { try scratch.write("Q/B.graphql", "query B { heroes { id n } }\n") }
        XCTAssertEqual(validated, 1, "B shares no name")
        try step("another keystroke", ["Q/B.graphql"]) {
            try scratch.write("Q/B.graphql", "query B { heroes { id name } }\n")
        }
        XCTAssertEqual(validated, 1, "B still shares no name")
        try step("a spread typed", ["Q/B.graphql"]) {
            try scratch.write("Q/B.graphql", "query B { heroes { id ...HeroBits } }\n")
        }
        XCTAssertEqual(validated, 5, "B, and A, C and the two fragments through HeroBits")
        try step("a keystroke after it", ["Q/B.graphql"]) {
            try scratch.write("Q/B.graphql", "query B { heroes { ...HeroBits } }\n")
        }
        XCTAssertEqual(validated, 5, "B's group is now the fragments'")
        XCTAssertEqual(check.result.shownDiagnostics.count, 0)
    }
}
