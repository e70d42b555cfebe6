import BatonCompiler
import BatonTestSupport
import Foundation
import XCTest

/// The guide's scenarios on both runtimes, through one project's generated code (KotlinScenarios: its Swift checked
/// in and compiled into this target, its Kotlin generated from the same model by the test build): each scenario of
/// Scenarios.json runs on the Swift runtime here, and its lines and the lines the Kotlin runtime printed for it in the
/// suite's one JVM run (Kotlin/tests/baton/tests/ScenarioInterpreter.kt) must be its expected lines.
final class KotlinScenarioTests: XCTestCase {
    static let seed = KotlinProjectSupport.repositoryRoot.appendingPathComponent("Tests/BatonRuntimeTests/Fixtures")

    /// The suite's shared run: the folder of both runtimes' images, and the JVM run's output split by section.
    struct SuiteRun: Sendable {
        var images: URL
        var sections: [String: [String]]
    }

    private static let run = Once<Task<SuiteRun, any Error>>()

    static func suite() async throws -> SuiteRun {
        let task = try run.get {
            Task {
                let build = try KotlinBuild.shared()
                return try await runScenarios(folder: "scenarios", label: "the Kotlin scenarios") {
                    try build.run($0, $1)
                }
            }
        }
        return try await task.value
    }

    /// One run of the scenario program (`baton.tests.MainKt scenarios`) by a build's `run`, its images in a new
    /// temporary folder `folder`: first the Swift runtime runs each scenario's steps before `awaitOtherRuntime`
    /// (the images the JVM run reads), then the JVM runs every scenario whole; `label` names the run in the log
    /// with its time. The 1.3 build's run (`suite()`) and the current compiler's share it.
    static func runScenarios(
        folder name: String, label: String, _ run: (_ mainClass: String, _ arguments: [String]) throws -> String
    ) async throws -> SuiteRun {
        let images = try KotlinTestSupport.temporaryFolder(name)
        let fixtures = KotlinBuild.scenarios.appendingPathComponent("Fixtures")
        let interpreter = ScenarioInterpreter(fixtures: fixtures, seed: seed, images: images) {
            throw ScenarioInterpreter.Failure(description: "a first phase awaits no other runtime")
        }
        for scenario in try ScenarioSet.load().scenarios.compactMap(\.firstPhase) {
            _ = try await interpreter.run(scenario)
        }
        let start = Date()
        let output = try run("baton.tests.MainKt", ["scenarios", fixtures.path, seed.path, images.path])
        print("\(label) ran in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        return SuiteRun(images: images, sections: KotlinTestSupport.sections(output))
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
        let run = try await Self.suite()
        // The Swift runtime runs each scenario whole, in the JVM run's image folder: at `awaitOtherRuntime` the
        // JVM run has run (it started after the Swift runtime's first phases).
        let interpreter = ScenarioInterpreter(
            fixtures: KotlinBuild.scenarios.appendingPathComponent("Fixtures"), seed: Self.seed, images: run.images
        ) { _ = try await Self.suite() }
        let sections = run.sections
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
    func testKotlinsMalformedResponseText() async throws {
        let sections = try await Self.suite().sections
        XCTAssertEqual(
            sections["malformed text"],
            ["failed: malformed response: JSON: unexpected character '<' at offset 0"])
    }
}
