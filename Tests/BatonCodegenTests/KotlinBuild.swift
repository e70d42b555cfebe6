import BatonCodegen
import BatonCodegenKotlin
import BatonIR
import Foundation
import XCTest

/// The one kotlinc compilation the Kotlin tests share (kotlinc takes seconds to start): the runtime support,
/// the generated code of both Examples and of the hostile schema, a converter, and the test programs.
enum KotlinBuild {
    struct Built {
        /// The folder holding the sources.
        var folder: URL
        /// The compiled classes.
        var classes: URL
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cached: Result<Built, any Error>?

    /// The shared build, compiled on first use; skips (XCTSkip) when kotlinc is missing.
    static func shared() throws -> Built {
        _ = try KotlinTestSupport.tool("kotlinc")
        lock.lock()
        defer { lock.unlock() }
        if let cached { return try cached.get() }
        let result = Result { try compile() }
        cached = result
        return try result.get()
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
        let hostile = KotlinGenerator.generate(
            try KotlinHostileSchema.model(),
            options: KotlinGeneratorOptions(packageName: KotlinHostileSchema.packageName, includeRuntime: false))
        files += hostile.map { (path: "hostile/\($0.path)", contents: $0.contents) }
        files.append((path: "app/DateTimes.kt", contents: KotlinHostileSchema.converter))
        files.append((path: "check/runtime/RuntimeCheck.kt", contents: KotlinRuntimeTests.program))
        files.append((path: "check/seed/ReadSeedFixtures.kt", contents: KotlinExampleTests.readerProgram))
        files.append((path: "check/hostile/Hostile.kt", contents: KotlinHostileSchema.program))
        files.append((path: "check/scalars/ScalarShapes.kt", contents: KotlinCustomScalarTests.program))
        return files
    }

    /// The runtime's `.kt` files as they are in the repository (Kotlin/runtime/baton/runtime), the single source
    /// the `baton` executable embeds: the tests compile these, not the embedded copy.
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

    private static func compile() throws -> Built {
        let folder = try KotlinTestSupport.temporaryFolder("build")
        try KotlinTestSupport.write(try sources(), under: folder)
        guard let classes = try KotlinTestSupport.compile(folder: folder) else {
            throw XCTSkip("kotlinc failed; see the failure above")
        }
        return Built(folder: folder, classes: classes)
    }
}
