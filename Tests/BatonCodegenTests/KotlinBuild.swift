import BatonCodegen
import BatonCodegenKotlin
import BatonCompiler
import BatonIR
import BatonTestSupport
import Foundation
import XCTest

/// The one kotlinc compilation the Kotlin tests share (kotlinc takes seconds to start): the runtime (Kotlin/runtime),
/// the generated code of both Examples, of the hostile schema, of the `@defer`/`@stream` fixture, of the runtime scenarios (KotlinScenarios) and of the
/// network tests' operations (Tests/BatonNetworkTests), a converter, the test kit (Kotlin/testing), the JVM test
/// programs (Kotlin/tests), the SQLite cache with its checks (Kotlin/sqlite, Kotlin/tests-sqlite), and, when their
/// libraries are installed, the adapters (Kotlin/coroutines, Kotlin/flow, Kotlin/okhttp).
enum KotlinBuild {
    struct Built {
        /// The folder holding the sources.
        var folder: URL
        /// The compiled classes.
        var classes: URL
        /// The adapters' libraries when the build has the adapters; nil when they are not installed.
        var adapterLibraries: [URL]?

        /// Runs a suite's main class; its output.
        func run(_ mainClass: String, _ arguments: [String], timeout: TimeInterval = 120) throws -> String {
            try KotlinTestSupport.runMain(
                mainClass, classes: classes, classpath: adapterLibraries ?? [], arguments: arguments, in: folder,
                timeout: timeout)
        }
    }

    /// Why a Kotlin build's sources could not be gathered.
    struct KotlinBuildError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The Kotlin package of the runtime scenarios' generated code.
    static let scenarioPackage = "scenarios"

    /// The Kotlin package of the network tests' operations.
    static let networkPackage = "network"

    /// The network tests' project (Tests/BatonNetworkTests): the server's schema, its operations and their manifest.
    static let network = KotlinProjectSupport.repositoryRoot.appendingPathComponent("Tests/BatonNetworkTests")

    /// The folder of the runtime scenarios' project (baton.json, schema, documents, fixtures, generated Swift).
    static let scenarios = KotlinProjectSupport.repositoryRoot.appendingPathComponent(
        "Tests/BatonCodegenTests/KotlinScenarios")

    private static let built = Once<Built>()

    /// The shared build, compiled on first use; skips (XCTSkip) when kotlinc is missing.
    static func shared() throws -> Built {
        _ = try KotlinTestSupport.tool("kotlinc")
        return try built.get { try compile() }
    }

    /// Every Kotlin source of the build, relative path → text.
    static func sources() throws -> [(path: String, contents: String)] {
        var files = try runtimeFiles()
        for name in ["RickAndMorty", "GitHub"] {
            let project = try KotlinProjectSupport.example(name)
            let generated = KotlinGenerator.generate(
                project.model, options: KotlinGeneratorOptions(packageName: project.packageName, includeRuntime: false))
            files += generated.map { (path: "\(name)/\($0.path)", contents: $0.contents) }
        }
        // The guide's test builders (package `com.example.github`), which Docs/Testing.md's JUnit test uses.
        let github = try KotlinProjectSupport.example("GitHub")
        files += KotlinGenerator.generateTestBuilders(github.model, packageName: github.packageName).map {
            (path: "GitHub-builders/\($0.path)", contents: $0.contents)
        }
        let scenarioProject = try KotlinProjectSupport.project(at: scenarios)
        files += KotlinGenerator.generate(
            scenarioProject.model, options: KotlinGeneratorOptions(packageName: scenarioPackage, includeRuntime: false)
        ).map { (path: "scenarios/\($0.path)", contents: $0.contents) }
        // The network tests' operations (Tests/BatonNetworkTests), whose persisted ids the test server's manifest lists.
        let networkProject = try KotlinProjectSupport.project(at: network)
        files += KotlinGenerator.generate(
            networkProject.model, options: KotlinGeneratorOptions(packageName: networkPackage, includeRuntime: false)
        ).map { (path: "network/\($0.path)", contents: $0.contents) }
        // The seeded fault run's operations (Tests/BatonNetworkTests/Notes), against the notes server.
        let notesProject = try KotlinProjectSupport.project(at: network.appendingPathComponent("Notes"))
        files += KotlinGenerator.generate(
            notesProject.model, options: KotlinGeneratorOptions(packageName: "notes", includeRuntime: false)
        ).map { (path: "notes/\($0.path)", contents: $0.contents) }
        // The incremental-delivery network tests' operations (Tests/BatonNetworkTests/Incremental), package
        // `incremental.network`: `KotlinIncrementalTests` runs them against Tests/Server/incremental.
        let incrementalProject = try KotlinProjectSupport.project(at: network.appendingPathComponent("Incremental"))
        files += KotlinGenerator.generate(
            incrementalProject.model,
            options: KotlinGeneratorOptions(packageName: "incremental.network", includeRuntime: false)
        ).map { (path: "incrementalnetwork/\($0.path)", contents: $0.contents) }
        // The generator fixture of `public` access with the operation suffix, a mutation, a connection and
        // pagination: its Kotlin (package `paged`) compiles.
        files += try fixtureKotlin("public-pagination").map { (path: "paged/\($0.path)", contents: $0.contents) }
        // The generator fixture of declared record keys (package `keyed`), which `KotlinRecordKeyTests` runs.
        files += try fixtureKotlin("record-keys").map { (path: "keyed/\($0.path)", contents: $0.contents) }
        // The fixture of `@defer` and `@stream` (package `fixture`): deferred phases and streamed lists compile.
        files += try fixtureKotlin("incremental").map { (path: "incremental/\($0.path)", contents: $0.contents) }
        // The fixture of names built to break every template (package `hostile.names.when`).
        files += try fixtureKotlin("hostile-names").map { (path: "hostilenames/\($0.path)", contents: $0.contents) }
        // Test data builders (package `builders`, and the hostile names'), and the calls whose JSON Swift's match.
        files += try TestBuilderAgreementTests.fixtureFiles("kotlin").map {
            (path: "builders/\($0.path)", contents: $0.contents)
        }
        files += try TestBuilderAgreementTests.fixtureFiles("kotlin-test-builders").map {
            (path: "builders-test/\($0.path)", contents: $0.contents)
        }
        files += try fixtureKotlin("hostile-names", target: "kotlin-test-builders").map {
            (path: "hostilenames-builders/\($0.path)", contents: $0.contents)
        }
        // The builders of types with declared keys write the key fields (package `keyed`, as the fixture's lenses).
        files += try fixtureKotlin("record-keys", target: "kotlin-test-builders").map {
            (path: "keyed-builders/\($0.path)", contents: $0.contents)
        }
        files.append((path: "check/builders/BuilderCalls.kt", contents: TestBuilderAgreementTests.kotlinProgram))
        files += try repositoryFiles(
            under: "Kotlin/tests", excluding: adapterLibraries == nil ? ["adapters", "flowstandin"] : [])
        // The test kit (`baton.testing`), which a test program runs the guide's screen through.
        files += try repositoryFiles(under: "Kotlin/testing")
        // The SQLite cache and its checks (KotlinSQLiteTests): JDBC is the JDK's, the driver is needed only to run.
        files += try repositoryFiles(under: "Kotlin/sqlite") + repositoryFiles(under: "Kotlin/tests-sqlite")
        if adapterLibraries != nil {
            for folder in ["Kotlin/coroutines", "Kotlin/flow", "Kotlin/okhttp"] {
                files += try repositoryFiles(under: folder)
            }
        }
        let hostile = KotlinGenerator.generate(
            try KotlinHostileSchema.model(),
            options: KotlinGeneratorOptions(packageName: KotlinHostileSchema.packageName, includeRuntime: false))
        files += hostile.map { (path: "hostile/\($0.path)", contents: $0.contents) }
        files.append((path: "app/DateTimes.kt", contents: KotlinHostileSchema.converter))
        files.append((path: "check/runtime/RuntimeCheck.kt", contents: KotlinRuntimeTests.program))
        files.append((path: "check/plan/PlanCheck.kt", contents: KotlinRuntimeTests.planProgram))
        files.append((path: "check/incremental/IncrementalCheck.kt", contents: KotlinIncrementalTests.program))
        files.append((path: "check/incremental/EnvironmentCheck.kt", contents: KotlinIncrementalTests.environmentProgram))
        files.append((path: "check/incremental/ServerCheck.kt", contents: KotlinIncrementalTests.serverProgram))
        files.append((path: "check/seed/ReadSeedFixtures.kt", contents: KotlinExampleTests.readerProgram))
        files.append((path: "check/hostile/Hostile.kt", contents: KotlinHostileSchema.program))
        files.append((path: "check/scalars/ScalarShapes.kt", contents: KotlinCustomScalarTests.program))
        files.append((path: "check/keys/RecordKeys.kt", contents: KotlinRecordKeyTests.program))
        return files
    }

    /// A generator fixture's Kotlin as `baton gen` writes it (its baton.json's options), without the runtime.
    static func fixtureKotlin(_ name: String, target: String = "kotlin") throws -> [GeneratedFile] {
        guard let fixture = GeneratorFixtureTests.cases.first(where: { $0.name == name + ".graphql" }) else {
            throw KotlinBuildError(message: "no generator fixture \(name)")
        }
        let schema = try Data(contentsOf: GeneratorFixtureTests.fixtures.appendingPathComponent("schema.graphql"))
        var sections = try fixture.sections(keepsPreamble: true)
        if !sections.contains(where: { $0.path == "baton.json" }) {
            sections.insert(("baton.json", GeneratorFixtureTests.defaultConfiguration), at: 0)
        }
        let project = FixtureProject(
            sections: sections, defaultSchema: ("schema.graphql", Array(schema)),
            upTo: .generate, targets: .named(["kotlin"]))
        guard let output = project.compilation.outputs.first(where: { $0.target.name == target }) else {
            throw KotlinBuildError(message: "\(name): \(project.diagnostics.map(\.message))")
        }
        return output.files.filter { !$0.path.hasPrefix("baton/runtime/") && !$0.path.hasPrefix("baton/testing/") }
    }

    /// The runtime's `.kt` files as they are in the repository (Kotlin/runtime/baton/runtime), the single source
    /// `baton` reads and writes out (`KotlinRuntimeFiles`).
    static func runtimeFiles() throws -> [(path: String, contents: String)] {
        let folder = KotlinProjectSupport.repositoryRoot.appendingPathComponent("Kotlin/runtime/baton/runtime")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".kt") }
        return try names.sorted().map { name in
            (
                path: "baton/runtime/\(name)",
                contents: try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            )
        }
    }

    /// The adapters' libraries, when installed: under `CI` they must be.
    static let adapterLibraries = KotlinTestSupport.adapterLibraries()

    /// The `.kt` and `.java` files under `folder` (relative to the repository), skipping subfolders named in
    /// `excluding`, as (path relative to the repository, contents).
    static func repositoryFiles(under folder: String, excluding: Set<String> = []) throws -> [(
        path: String, contents: String
    )] {
        let root = KotlinProjectSupport.repositoryRoot.appendingPathComponent(folder)
        var files: [(path: String, contents: String)] = []
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        for case let path as String in walker where path.hasSuffix(".kt") || path.hasSuffix(".java") {
            if path.split(separator: "/").contains(where: { excluding.contains(String($0)) }) { continue }
            files.append(
                (
                    path: folder + "/" + path,
                    contents: try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                ))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Compiled once per set of sources and compiler (`KotlinCompileCache`: another process may have done it).
    private static func compile() throws -> Built {
        let files = try sources()
        let kotlinc = try KotlinTestSupport.tool("kotlinc").resolvingSymlinksInPath()
        let folder = try KotlinCompileCache.folder(
            "build", files: files, inputs: [kotlinc.path] + (adapterLibraries ?? []).map(\.path)
        ) { folder in
            try KotlinTestSupport.write(files, under: folder)
            _ = try KotlinTestSupport.compile(folder: folder, classpath: adapterLibraries ?? [])
        }
        return Built(
            folder: folder, classes: folder.appendingPathComponent("classes"), adapterLibraries: adapterLibraries)
    }
}
