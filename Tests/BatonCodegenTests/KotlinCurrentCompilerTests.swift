import BatonCodegen
import BatonCompiler
import BatonTestSupport
import Foundation
import XCTest

/// The same Kotlin with a current compiler and the real kotlinx-coroutines: kotlinc-jvm 2.4 and coroutines 1.10
/// from the kotlin-jupyter-kernel wheel (`.ci/install.d/kotlin-current.sh`), beside Debian's kotlinc 1.3.31 and
/// coroutines 1.0.1 that the rest of the Kotlin tests use. One compilation per run: the runtime, both adapters,
/// the generated Kotlin of the Examples, the hostile schema, the scenarios, the network operations and every
/// generator fixture, the JVM test programs, and the Flow checks (Kotlin/tests-current), which need the real Flow.
/// Every warning the compiler prints must be one `knownWarnings` records (Docs/Kotlin.md explains each).
final class KotlinCurrentCompilerTests: XCTestCase {
    /// Where the installer puts the compiler; `BATON_KOTLIN_CURRENT` overrides it.
    static let home = URL(
        fileURLWithPath: ProcessInfo.processInfo.environment["BATON_KOTLIN_CURRENT"]
            ?? "/opt/baton-peers/kotlin-current")

    /// The warnings the current compiler prints for the build, as `file: warning: message` (line and column left
    /// out, so edits elsewhere in the file do not move them); Docs/Kotlin.md explains each.
    static let knownWarnings: [String] = [
        "baton/runtime/Pagination.kt: warning: this class is not recommended for use in Kotlin. Use 'kotlin.Any' instead."
    ]

    struct CurrentBuild {
        var folder: URL
        var classes: URL
        var classpath: [URL]
        var warnings: [String]
        var version: String
        var seconds: Double

        func run(_ mainClass: String, _ arguments: [String]) throws -> String {
            try KotlinTestSupport.runMain(
                mainClass, classes: classes, classpath: classpath, arguments: arguments, in: folder,
                standardLibrary: KotlinCurrentCompilerTests.home.appendingPathComponent("lib/kotlin-stdlib.jar"))
        }
    }

    private static let built = Once<CurrentBuild>()

    /// The build, compiled on first use. The kotlinc 1.3 build (`KotlinBuild`), which the scenario comparison needs
    /// too, is started beside it on another thread: each compiler leaves part of the two cores idle.
    static func build() throws -> CurrentBuild {
        try built.get {
            Thread { _ = try? KotlinBuild.shared() }.start()
            return try compile()
        }
    }

    /// The compiler wrapper and the jars the build needs, or `unavailable` saying how to install them.
    static func tools() throws -> (kotlinc: URL, classpath: [URL]) {
        let kotlinc = home.appendingPathComponent("bin/kotlinc-current")
        let coroutines = home.appendingPathComponent("lib/kotlinx-coroutines-core.jar")
        guard FileManager.default.isExecutableFile(atPath: kotlinc.path),
            FileManager.default.fileExists(atPath: coroutines.path)
        else {
            throw KotlinTestSupport.unavailable(
                "no current Kotlin compiler at \(home.path); run .ci/install.d/kotlin-current.sh")
        }
        // OkHttp and okio for the OkHttp adapter: Debian's (.ci/install.d/kotlin-libraries.sh), Java libraries
        // that do not depend on the Kotlin version.
        guard let debian = KotlinTestSupport.adapterLibraries() else {
            throw KotlinTestSupport.unavailable(
                "OkHttp or okio is missing from /usr/share/java; run .ci/install.d/kotlin-libraries.sh")
        }
        let okHttp = debian.filter { ["okhttp.jar", "okio.jar"].contains($0.lastPathComponent) }
        return (kotlinc, [coroutines] + okHttp)
    }

    /// Every generator fixture's Kotlin, each case in a package of its own (`fixture.<case>`), so the cases
    /// compile together.
    static func fixtureSources() throws -> [(path: String, contents: String)] {
        let folder = GeneratorFixtureTests.fixtures
        let schema = try Data(contentsOf: folder.appendingPathComponent("schema.graphql"))
        var files: [(path: String, contents: String)] = []
        for fixture in GeneratorFixtureTests.cases where !fixture.isInvalid {
            var sections = try fixture.sections(keepsPreamble: true)
            if !sections.contains(where: { $0.path == "baton.json" }) {
                sections.insert(("baton.json", GeneratorFixtureTests.defaultConfiguration), at: 0)
            }
            let project = FixtureProject(
                sections: sections, defaultSchema: ("schema.graphql", Array(schema)), upTo: .generate,
                targets: .configured)
            let name = fixture.file.deletingPathExtension().lastPathComponent
            let package = "fixture." + name.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            for output in project.compilation.outputs where output.target.name == "kotlin" {
                for file in output.files where !file.path.hasPrefix("baton/runtime/") {
                    files.append(
                        (
                            path: "fixtures/\(name)/\(file.path)",
                            contents: Self.repackaged(file.contents, into: package)
                        ))
                }
            }
        }
        return files
    }

    /// `contents` with its `package` line (the fixtures' configured package) replaced by `package`.
    static func repackaged(_ contents: String, into package: String) -> String {
        contents.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("package ") ? "package \(package)" : String(line)
        }.joined(separator: "\n")
    }

    /// Compiled once per set of sources and compiler (`KotlinCompileCache`: another process may have done it); the
    /// compiler's diagnostics and version are kept beside the classes.
    private static func compile() throws -> CurrentBuild {
        let (kotlinc, classpath) = try tools()
        var files = try KotlinBuild.sources().filter { !$0.path.contains("/flowstandin/") }
        if KotlinBuild.adapterLibraries == nil {
            for adapter in ["Kotlin/tests/baton/tests/adapters", "Kotlin/coroutines", "Kotlin/flow", "Kotlin/okhttp"] {
                files += try KotlinBuild.repositoryFiles(under: adapter)
            }
        }
        files += try fixtureSources()
        files += try KotlinBuild.repositoryFiles(under: "Kotlin/tests-current")
        let kotlin = files.map(\.path).filter { $0.hasSuffix(".kt") }.sorted()
        let java = files.map(\.path).filter { $0.hasSuffix(".java") }.sorted()
        let jars = classpath.map(\.path).joined(separator: ":")
        let stamp = (try? String(contentsOf: home.appendingPathComponent("VERSION"), encoding: .utf8)) ?? ""
        let start = Date()
        let folder = try KotlinCompileCache.folder(
            "current", files: files, inputs: [kotlinc.path, stamp] + classpath.map(\.path)
        ) { folder in
            try KotlinTestSupport.write(files, under: folder)
            let compiled = try KotlinTestSupport.run(
                kotlinc, ["-cp", jars] + kotlin + java + ["-d", "classes"], in: folder, timeout: 900)
            print(
                "kotlinc-current compiled \(kotlin.count) Kotlin files (with \(java.count) Java) in "
                    + String(format: "%.1f", Date().timeIntervalSince(start)) + " s")
            guard compiled.status == 0, !compiled.timedOut else {
                let lines = compiled.errors.split(separator: "\n").map(String.init)
                throw Failure("kotlinc-current failed:\n" + lines.prefix(60).joined(separator: "\n"))
            }
            let classes = folder.appendingPathComponent("classes")
            if !java.isEmpty {
                let path = ([classes, home.appendingPathComponent("lib/kotlin-stdlib.jar")] + classpath).map(\.path)
                let javac = try KotlinTestSupport.run(
                    try KotlinTestSupport.tool("javac"), ["-cp", path.joined(separator: ":"), "-d", "classes"] + java,
                    in: folder)
                guard javac.status == 0 else { throw Failure("javac failed:\n" + javac.errors) }
            }
            let version = try KotlinTestSupport.run(kotlinc, ["-version"], in: folder)
            try Data(compiled.errors.utf8).write(to: folder.appendingPathComponent("kotlinc-diagnostics.txt"))
            try Data(version.errors.utf8).write(to: folder.appendingPathComponent("kotlinc-version.txt"))
        }
        let diagnostics = try String(
            contentsOf: folder.appendingPathComponent("kotlinc-diagnostics.txt"), encoding: .utf8)
        let version = try String(contentsOf: folder.appendingPathComponent("kotlinc-version.txt"), encoding: .utf8)
        let lines = diagnostics.split(separator: "\n").map(String.init)
        return CurrentBuild(
            folder: folder, classes: folder.appendingPathComponent("classes"), classpath: classpath,
            warnings: lines.filter { $0.contains("warning:") }.map { Self.relative($0, to: folder) },
            version: version.trimmingCharacters(in: .whitespacesAndNewlines), seconds: Date().timeIntervalSince(start))
    }

    /// A diagnostic with the build folder's prefix, and its line and column, dropped from its path.
    static func relative(_ line: String, to folder: URL) -> String {
        let text = line.replacingOccurrences(of: "file://", with: "").replacingOccurrences(
            of: folder.path + "/", with: "")
        return text.replacingOccurrences(of: #"^([^:]+):\d+:\d+:"#, with: "$1:", options: .regularExpression)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The build compiles with the pinned compiler, and every warning is a known one.
    func testEverythingCompilesWithTheCurrentCompiler() throws {
        let build = try Self.build()
        XCTAssertTrue(build.version.contains("kotlinc-jvm 2.4.0-dev-6891"), build.version)
        XCTAssertEqual(build.warnings, Self.knownWarnings, "record each new warning in Docs/Kotlin.md, or fix it")
        let fixtures = try Self.fixtureSources()
        XCTAssertGreaterThan(Set(fixtures.map { $0.path.split(separator: "/")[1] }).count, 3)
    }

    /// The scenario project's run, compiled by the current compiler, prints what the 1.3 build prints for it, line
    /// for line (KotlinScenarioTests compares that with the Swift runtime).
    func testTheScenariosPrintWhatTheyPrintWithKotlinOnePointThree() async throws {
        let build = try Self.build()
        let old = try await KotlinScenarioTests.suite()
        let sections = try await KotlinScenarioTests.runScenarios(
            folder: "current-scenarios", label: "the scenarios (current Kotlin)"
        ) { try build.run($0, $1) }.sections
        XCTAssertGreaterThan(sections.count, 10)
        XCTAssertEqual(sections.keys.sorted(), old.sections.keys.sorted())
        for (name, lines) in old.sections.sorted(by: { $0.key < $1.key }) where sections[name] != lines {
            XCTFail(
                "\(name): 1.3 printed\n\(lines.joined(separator: "\n"))\n--- current printed\n"
                    + (sections[name] ?? []).joined(separator: "\n"))
        }
    }

    /// The coroutine adapters over real kotlinx-coroutines: the same lines as over Debian's 1.0.1 (with the
    /// Flow stand-in), then the Flow checks that need the real Flow and StateFlow.
    func testTheFlowAdapterWithRealKotlinxCoroutines() throws {
        let build = try Self.build()
        let fixtures = KotlinBuild.scenarios.appendingPathComponent("Fixtures").path
        let adapters = KotlinTestSupport.sections(try build.run("baton.tests.adapters.AdapterChecksKt", [fixtures]))
        XCTAssertEqual(adapters["coroutines"]?.last, "states() flow, first: Rick Sanchez")
        XCTAssertEqual(adapters["coroutines"]?.count, 7, "\(adapters["coroutines"] ?? [])")
        let sections = KotlinTestSupport.sections(try build.run("baton.tests.flow.FlowChecksKt", [fixtures]))
        XCTAssertEqual(
            sections["flow phases"],
            [
                "before collecting: handles 0, store subscriptions 0",
                "while loading: handles 1, store subscriptions 1",
                "phases: loading → ready, name Rick Sanchez",
                "first ready state is ready: true",
                "after the collector stopped: handles 0, store subscriptions 0",
            ])
        XCTAssertEqual(
            sections["flow field error"],
            ["ready, name Rick Sanchez, origin nil", "origin's error in the store: [no origin]"])
        XCTAssertEqual(
            sections["flow request error and retry"],
            [
                "loading",
                "failed: rate limited, last error rate limited",
                "ready, name Rick Sanchez",
                "requests: 2",
                #"fetchStarted {"operation":"CharacterDetail"}"#,
                #"fetchFailed {"operation":"CharacterDetail","error":["rate limited"]}"#,
                #"refetch {"operation":"CharacterDetail","reason":"retry"}"#,
                #"fetchStarted {"operation":"CharacterDetail"}"#,
                #"committed {"kind":"server","changed":7}"#,
                #"fetchCompleted {"operation":"CharacterDetail"}"#,
            ])
        XCTAssertEqual(
            sections["flow cancellation"],
            [
                "before: handles 0, store subscriptions 0",
                "three collectors, loading: handles 3, store subscriptions 3",
                "cancelled while fetching: handles 0, store subscriptions 0",
                "fetches cancelled, nothing committed: true, 3 fetchCancelled",
                "collected while attached: [loading]",
            ])
        XCTAssertEqual(
            sections["state flow"],
            [
                "state flow holds: ready, name Rick Sanchez, handles 1, store subscriptions 1",
                "a copy of the state is equal: true, data equal true, emissions 1",
                "after a commit: unequal true, old data still reads Rick Sanchez",
                "the screen went: handles 0, store subscriptions 0",
                "screen saw: nothing yet → loading → ready, name Rick Sanchez → ready, name Rick C-137",
            ])
    }
}
