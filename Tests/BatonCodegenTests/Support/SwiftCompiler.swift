import BatonCodegen
import BatonIR
import BatonTestSupport
import Foundation
import XCTest

/// Compiles generated Swift with the toolchain's `swiftc` against the repository's `Baton` runtime, built once
/// per test process from `Sources/Baton` into a temporary folder (independent of SwiftPM's build layout).
///
/// Swift 6 language mode, complete strict concurrency, warnings as errors: what issue 7 promises of generated code.
enum SwiftCompiler {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let flags = ["-swift-version", "6", "-strict-concurrency=complete", "-warnings-as-errors"]

    /// Added to `flags` for a target as Xcode 26 creates a new app: the main actor as default isolation (SwiftPM
    /// `.defaultIsolation(MainActor.self)`, Swift 6.2) with approachable concurrency's upcoming features.
    static let mainActorDefault = [
        "-default-isolation", "MainActor", "-enable-upcoming-feature", "InferIsolatedConformances",
        "-enable-upcoming-feature", "NonisolatedNonsendingByDefault",
    ]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The `swiftc` beside the running toolchain, or on the PATH.
    static var swiftc: String {
        if let path = ProcessInfo.processInfo.environment["SWIFTC"] { return path }
        for candidate in ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return "swiftc"
    }

    /// The compiler in a cache key: its resolved path, size and modification time, so a toolchain installed over it
    /// builds everything again.
    static let compilerIdentity: String = {
        let resolved = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().path
        let attributes = try? FileManager.default.attributesOfItem(atPath: resolved)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(resolved) \(size) \(modified)"
    }()

    /// The runtime's sources.
    static var runtimeSources: [String] {
        let root = repository.appendingPathComponent("Sources/Baton").path
        let enumerator = FileManager.default.enumerator(atPath: root)
        var files: [String] = []
        while let next = enumerator?.nextObject() as? String {
            if next.hasSuffix(".swift") { files.append(root + "/" + next) }
        }
        return files.sorted()
    }

    nonisolated(unsafe) private static var built: [String: Result<URL, Failure>] = [:]
    private static let lock = NSLock()

    #if os(macOS)
        static let runtimeLibrary = "libBaton.dylib"
    #else
        static let runtimeLibrary = "libBaton.so"
    #endif

    /// The runtime's and the test kit's folders, found once per process: their keys hash every source (hundreds of
    /// kilobytes, slow in a debug build), which every type-check and build asked for again.
    private static let runtimeFolder = Once<URL>()
    private static let testKitFolder = Once<URL>()

    /// A folder holding `Baton.swiftmodule` and the runtime library, built on first use.
    static func runtime() throws -> URL {
        try runtimeFolder.get { try buildRuntime() }
    }

    private static func buildRuntime() throws -> URL {
        try cachedFolder("baton-runtime", inputs: runtimeSources, expecting: [runtimeLibrary, "Baton.swiftmodule"]) {
            building in
            try run(
                swiftc,
                [
                    "-swift-version", "6", "-module-name", "Baton", "-parse-as-library", "-emit-library",
                    "-emit-module",
                    "-emit-module-path", building.appendingPathComponent("Baton.swiftmodule").path,
                    "-o", building.appendingPathComponent(runtimeLibrary).path,
                ] + runtimeSources)
        }
    }

    /// `libBatonTesting.so` (or `.dylib`).
    static let testKitLibrary = runtimeLibrary.replacingOccurrences(of: "libBaton.", with: "libBatonTesting.")

    /// A folder holding `BatonTesting.swiftmodule` and its library (`Sources/BatonTesting`), built against the
    /// runtime on first use.
    static func testKit() throws -> URL {
        try testKitFolder.get { try buildTestKit() }
    }

    private static func buildTestKit() throws -> URL {
        let runtime = try runtime()
        let root = repository.appendingPathComponent("Sources/BatonTesting")
        let sources = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
            .sorted().map { root.appendingPathComponent($0).path }
        return try cachedFolder(
            "baton-testing", inputs: sources + runtimeSources, extra: [runtime.path],
            expecting: [testKitLibrary, "BatonTesting.swiftmodule"]
        ) { building in
            try run(
                swiftc,
                flags + [
                    "-module-name", "BatonTesting", "-parse-as-library", "-emit-library",
                    "-emit-module", "-emit-module-path",
                    building.appendingPathComponent("BatonTesting.swiftmodule").path,
                    "-I", runtime.path, "-L", runtime.path, "-lBaton",
                    "-o", building.appendingPathComponent(testKitLibrary).path,
                ] + sources)
        }
    }

    /// A module to typecheck against (`-emit-module`, no library), built once from `sources` with `includes` on the
    /// import path: the folder holding `<name>.swiftmodule`.
    static func module(_ name: String, sources: [String], includes: [URL], flags: [String]) throws -> URL {
        try cachedFolder(
            "baton-module-" + name, inputs: sources, extra: includes.map(\.path) + flags,
            expecting: [name + ".swiftmodule"]
        ) { building in
            try run(
                swiftc,
                flags + ["-module-name", name, "-parse-as-library", "-emit-module"]
                    + includes.flatMap { ["-I", $0.path] }
                    + ["-emit-module-path", building.appendingPathComponent(name + ".swiftmodule").path] + sources)
        }
    }

    /// The name of `cachedFolder`'s folder (in the temporary folder) for these inputs; its lock file is beside it.
    static func cacheKey(_ label: String, inputs: [String], byName: Bool = false, extra: [String] = []) -> String {
        var hasher = SHA256()
        hasher.update(compilerIdentity.utf8)
        hasher.update([0])
        for path in inputs {
            hasher.update((byName ? URL(fileURLWithPath: path).lastPathComponent : path).utf8)
            hasher.update([0])
            let contents = FileManager.default.contents(atPath: path) ?? Data()
            hasher.update(String(contents.count).utf8)
            hasher.update([0])
            hasher.update(contents)
        }
        for item in extra {
            hasher.update(item.utf8)
            hasher.update([0])
        }
        return label + "-" + String(SHA256.hex(hasher.finalize()).prefix(16))
    }

    /// A folder built once per test process by `build`, and reused by later runs: keyed by the compiler, the inputs'
    /// paths (with `byName`, their names only: a generated file's folder is a new temporary one in every run, and
    /// only its name reaches the compiler's answer) and contents, and `extra`, so a changed input gets a new build.
    /// `build` fills a folder beside the final one, which is then moved into place, so a concurrent or interrupted run
    /// never sees half a build; only a success is kept across processes. A lock file per key (`FileLock`) makes another
    /// process asking for the same build (`.ci/run`'s warm-up lane beside `swift test`) wait for it, not build it too.
    static func cachedFolder(
        _ label: String, inputs: [String], byName: Bool = false, extra: [String] = [], expecting files: [String],
        build: (URL) throws -> Void
    ) throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        let key = cacheKey(label, inputs: inputs, byName: byName, extra: extra)
        if let cached = built[key] { return try cached.get() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(key)
        // Another process building the same key (`.ci/run`'s warm-up lane) is waited for, not built beside.
        let result: Result<URL, Failure>
        do {
            result = try FileLock.withLock(folder.appendingPathExtension("lock")) {
                if files.allSatisfy({ FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }) {
                    return .success(folder)
                }
                let building = folder.appendingPathExtension("building-\(getpid())")
                do {
                    try? FileManager.default.removeItem(at: building)
                    try FileManager.default.createDirectory(at: building, withIntermediateDirectories: true)
                    try build(building)
                    try? FileManager.default.removeItem(at: folder)
                    try FileManager.default.moveItem(at: building, to: folder)
                    return .success(folder)
                } catch {
                    // A failed build leaves nothing behind.
                    try? FileManager.default.removeItem(at: building)
                    return .failure(error as? Failure ?? Failure(description: "\(error)"))
                }
            }
        } catch {
            result = .failure(Failure(description: "\(error)"))
        }
        built[key] = result
        return try result.get()
    }

    /// Type-checks `files` (paths) against the runtime, with `extraFlags` after `flags`
    /// (`mainActorDefault`); returns the seconds it took (nearly none when the same check passed before).
    /// With `testKit`, `BatonTesting` is on the import path too.
    @discardableResult
    static func typecheck(_ files: [String], extraFlags: [String] = [], testKit: Bool = false) throws -> Double {
        let runtime = try runtime()
        let kit = testKit ? ["-I", try Self.testKit().path] : []
        let start = Date()
        // `-package-name`: generated code may be `package` (`output.swift.accessModifier`), as SwiftPM compiles it.
        try typecheckOnce(
            "baton-typecheck",
            arguments: ["-typecheck"] + flags + extraFlags + ["-I", runtime.path] + kit
                + ["-module-name", "App", "-package-name", "App"], files: files)
        return Date().timeIntervalSince(start)
    }

    /// Runs `swiftc` with `arguments` and then `files`, unless the same compiler passed the same arguments and
    /// files (names and contents, in order; the modules on the import path are folders named by their own
    /// contents) before, in this process or an earlier one: a pass is kept as a marker (`cachedFolder`), a failure
    /// is reported, and compiled again by the next process that asks.
    static func typecheckOnce(_ label: String, arguments: [String], files: [String]) throws {
        _ = try cachedFolder(label, inputs: files, byName: true, extra: arguments, expecting: ["passed"]) { building in
            try run(swiftc, arguments + files)
            try Data().write(to: building.appendingPathComponent("passed"))
        }
    }

    /// Builds `files` (one of them a `main.swift`) into an executable linked with the runtime, runs it, and returns
    /// its standard output.
    /// With `testKit`, `BatonTesting` is linked too.
    static func buildAndRun(_ files: [String], arguments: [String] = [], testKit: Bool = false) throws -> String {
        let runtime = try runtime()
        let kit = testKit ? try Self.testKit() : nil
        let linkKit = kit.map {
            ["-I", $0.path, "-L", $0.path, "-lBatonTesting", "-Xlinker", "-rpath", "-Xlinker", $0.path]
        }
        let compile =
            flags + [
                "-I", runtime.path, "-L", runtime.path, "-lBaton", "-Xlinker", "-rpath", "-Xlinker", runtime.path,
                "-module-name", "App",
            ] + (linkKit ?? [])
        // Built once for the same compiler, arguments and files (names and contents; the libraries linked are folders
        // named by their contents), as `typecheckOnce` checks once; it runs every time.
        let built = try cachedFolder("baton-app", inputs: files, byName: true, extra: compile, expecting: ["app"]) {
            building in
            try run(swiftc, compile + ["-o", building.appendingPathComponent("app").path] + files)
        }
        return try run(built.appendingPathComponent("app").path, arguments)
    }

    /// Runs a program, failing with its output when it exits with a non-zero status.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { throw Failure(description: "cannot run \(program): \(error)") }
        // Read both pipes before waiting, so a chatty compiler cannot block on a full pipe.
        nonisolated(unsafe) var errorData = Data()
        let reader = Thread { errorData = errors.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1000) }
        let text = String(decoding: outputData, as: UTF8.self)
        if process.terminationStatus != 0 {
            throw Failure(
                description:
                    "\(URL(fileURLWithPath: program).lastPathComponent) failed (\(process.terminationStatus)):\n"
                    + String(decoding: errorData, as: UTF8.self) + text)
        }
        return text
    }
}
