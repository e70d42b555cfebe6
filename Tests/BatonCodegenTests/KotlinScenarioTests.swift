import BatonCompiler
import BatonTestSupport
import Foundation
import XCTest

/// The guide's scenarios on both runtimes, through one project's generated code (KotlinScenarios: its Swift checked
/// in and compiled into this target, its Kotlin generated from the same model by the test build): each test runs a
/// scenario on the Swift runtime here and compares its lines with what the Kotlin runtime printed for it in the
/// suite's one JVM run (Kotlin/tests/baton/tests/Scenarios.kt).
final class KotlinScenarioTests: XCTestCase {
    static let seed = KotlinProjectSupport.repositoryRoot.appendingPathComponent("Tests/BatonRuntimeTests/Fixtures")

    /// The suite's shared run: the Swift runtime's image written first, then the JVM run, split by section.
    struct SuiteRun {
        var scenarios: SwiftScenarios
        var sections: [String: [String]]
    }

    private static let run = Once<SuiteRun>()

    static func suite() throws -> SuiteRun {
        let build = try KotlinBuild.shared()
        return try run.get {
            try runScenarios(folder: "scenarios", label: "the Kotlin scenarios") { try build.run($0, $1) }
        }
    }

    /// One run of the scenario program (`baton.tests.MainKt scenarios`) by a build's `run`: the Swift runtime's
    /// image written first into a new temporary folder `folder`, the output split by section; `label` names the
    /// run in the log with its time. The 1.3 build's run (`suite()`) and the current compiler's share it.
    static func runScenarios(
        folder name: String, label: String, _ run: (_ mainClass: String, _ arguments: [String]) throws -> String
    ) throws -> SuiteRun {
        let folder = try KotlinTestSupport.temporaryFolder(name)
        let scenarios = SwiftScenarios(
            fixtures: KotlinBuild.scenarios.appendingPathComponent("Fixtures"), seed: seed,
            swiftImage: folder.appendingPathComponent("swift.image"),
            kotlinImage: folder.appendingPathComponent("kotlin.image"))
        try scenarios.writeSwiftImage()
        let start = Date()
        let output = try run(
            "baton.tests.MainKt",
            ["scenarios", scenarios.fixtures.path, seed.path, scenarios.swiftImage.path, scenarios.kotlinImage.path])
        print("\(label) ran in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        return SuiteRun(scenarios: scenarios, sections: KotlinTestSupport.sections(output))
    }

    /// Compares the Kotlin runtime's lines for `name` with the Swift runtime's (a scenario still written twice).
    func compare(_ name: String, _ swift: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let kotlin = try Self.suite().sections[name]
        XCTAssertNotNil(kotlin, "the Kotlin suite printed no section \(name)", file: file, line: line)
        XCTAssertFalse(swift.isEmpty, file: file, line: line)
        if kotlin != swift {
            XCTFail(
                "\(name): the runtimes disagree\n--- Swift\n\(swift.joined(separator: "\n"))\n--- Kotlin\n"
                    + (kotlin ?? []).joined(separator: "\n"), file: file, line: line)
        }
    }

    var scenarios: SwiftScenarios {
        get throws { try Self.suite().scenarios }
    }

    /// `baton gen --check` finds nothing to do in KotlinScenarios: the checked-in Swift is what the generator writes.
    func testTheScenariosGeneratedSwiftIsUpToDate() throws {
        let outcome = Driver(
            request: ProjectRequest(workingDirectory: KotlinBuild.scenarios.path), targets: .named(["swift"])
        ).generate(check: true)
        XCTAssertEqual(outcome.status, .clean, "\(outcome.diagnostics.map(\.message))")
        XCTAssertEqual(
            outcome.folders.flatMap { $0.report.changes.map(\.path) }, [],
            "run `baton gen` in Tests/BatonCodegenTests/KotlinScenarios")
    }

    /// The scenario tables (`ScenarioTables.swift` here, `ScenarioTables.kt` in Kotlin/tests) are what
    /// `ScenarioTablePrinter` writes from Scenarios.json; `BATON_UPDATE_FIXTURES=1` rewrites them.
    func testTheScenarioTablesAreUpToDate() throws {
        let set = try ScenarioSet.load()
        let update = ProcessInfo.processInfo.environment["BATON_UPDATE_FIXTURES"] == "1"
        let operations = try ScenarioTablePrinter.operations()
        for (file, text) in [
            (ScenarioTablePrinter.swiftFile, try ScenarioTablePrinter.swift(set, operations: operations)),
            (ScenarioTablePrinter.kotlinFile, try ScenarioTablePrinter.kotlin(set, operations: operations)),
        ] {
            if update { try text.write(to: file, atomically: true, encoding: .utf8) }
            let current = try String(contentsOf: file, encoding: .utf8)
            XCTAssertEqual(
                current, text,
                "\(file.lastPathComponent) is stale: BATON_UPDATE_FIXTURES=1 swift test --filter "
                    + "KotlinScenarioTests/testTheScenarioTablesAreUpToDate, then build again")
        }
    }

    /// Every scenario of Scenarios.json, interpreted by the Swift runtime here and by the Kotlin runtime in the JVM
    /// run, prints exactly the scenario's expected lines (and so the two runtimes agree).
    func testTheScenarioSetOnBothRuntimes() async throws {
        let set = try ScenarioSet.load()
        XCTAssertFalse(set.scenarios.isEmpty)
        let interpreter = ScenarioInterpreter(
            fixtures: KotlinBuild.scenarios.appendingPathComponent("Fixtures"), seed: Self.seed)
        let sections = try Self.suite().sections
        for scenario in set.scenarios {
            XCTAssertFalse(scenario.expected.isEmpty, "\(scenario.name): no expected lines")
            // A scenario the interpreter cannot run (a bad step, a read missing from the tables) fails alone.
            let swift: [String]
            do { swift = try await interpreter.run(scenario) } catch { swift = ["threw: \(error)"] }
            let kotlin = sections["scenario " + scenario.name]
            for (runtime, lines, expected) in [
                ("Swift", swift, scenario.expected), ("Kotlin", kotlin ?? ["(no section)"], scenario.expectedKotlin),
            ] where lines != expected {
                XCTFail(
                    "\(scenario.name): the \(runtime) runtime printed\n" + lines.joined(separator: "\n")
                        + "\n--- expected\n" + expected.joined(separator: "\n"))
            }
        }
    }

    /// Kotlin says "malformed response: " once before its JSON parser's reason (each runtime's parser words its own
    /// reason, so the text is checked exactly per runtime: Swift's in
    /// `EnvironmentTests.testTransportAndMalformedFailures`; the scenario "transport and malformed failures" of
    /// Scenarios.json prints the failure's kind).
    func testKotlinsMalformedResponseText() throws {
        XCTAssertEqual(
            try Self.suite().sections["malformed text"],
            ["failed: malformed response: JSON: unexpected character '<' at offset 0"])
    }

    /// The image written by Swift read by Kotlin and the reverse, and the same records giving the same bytes.
    func testTheImageInBothDirections() throws {
        let swift = try scenarios.image()
        XCTAssertEqual(swift.first, "the same bytes as the other runtime's image: true")
        try compare("image", swift)
    }

    func testBadImagesAreRejectedTheSameWay() throws {
        try compare("bad images", try scenarios.badImages())
    }
}
