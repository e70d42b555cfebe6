import BatonTestSupport
import Foundation
import XCTest

/// Compiles Kotlin with the real `kotlinc` (Debian's 1.3.31 in CI) and runs the result on the JVM.
///
/// kotlinc starts a JVM and takes seconds per call, so tests batch every file into one compilation. A missing tool
/// skips the test with the reason, except under `CI`, where it fails: CI installs every peer.
enum KotlinTestSupport {
    /// Why a test cannot run: a skip locally, a failure in CI (BatonTestSupport's `Unavailable`).
    static func unavailable(_ reason: String) -> any Error {
        Unavailable.error(Unavailable.inCI ? reason + " (CI installs it: .ci/run)" : reason)
    }

    /// The executable `name` on PATH, or `unavailable` saying how to get it.
    static func tool(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw unavailable("\(name) is not on PATH; install Debian's kotlin package to run this test")
    }

    /// The Kotlin standard library kotlinc ships with (`<kotlinc>/../lib/kotlin-stdlib.jar`).
    static func standardLibrary() throws -> URL {
        let kotlinc = try tool("kotlinc").resolvingSymlinksInPath()
        let jar = kotlinc.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib/kotlin-stdlib.jar")
        guard FileManager.default.fileExists(atPath: jar.path) else {
            throw unavailable("no kotlin-stdlib.jar beside \(kotlinc.path)")
        }
        return jar
    }

    /// The JVM libraries the adapters build on (kotlinx-coroutines with atomicfu, OkHttp with okio), from
    /// Debian's `/usr/share/java` (`.ci/install.d/kotlin-libraries.sh`) or `BATON_KOTLIN_LIBRARIES`; nil when
    /// any is missing.
    static func adapterLibraries() -> [URL]? {
        let folder = ProcessInfo.processInfo.environment["BATON_KOTLIN_LIBRARIES"] ?? "/usr/share/java"
        let jars = ["kotlinx-coroutines-core.jar", "atomicfu.jar", "okhttp.jar", "okio.jar"].map {
            URL(fileURLWithPath: folder).appendingPathComponent($0)
        }
        return jars.allSatisfy { FileManager.default.fileExists(atPath: $0.path) } ? jars : nil
    }

    /// A fresh temporary folder.
    static func temporaryFolder(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("baton-kotlin-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `files` (relative path → contents) under `folder`.
    static func write(_ files: [(path: String, contents: String)], under folder: URL) throws {
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.contents.utf8).write(to: url)
        }
    }

    /// The result of running a process.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
        var timedOut: Bool
    }

    /// A kotlinc's environment: its JVM with the client compiler only and the serial collector
    /// (`JAVA_TOOL_OPTIONS`, which both compilers' launchers pass to `java`), unless the caller set its own. A batch
    /// compile on the default JVM spends most of its CPU in the optimizing JIT's and the parallel collector's
    /// threads: on the 31 files of `Kotlin/runtime`, kotlinc 1.3 took 44.7 s of CPU by default and 18.1 s so
    /// (23.8 → 18.6 s wall), kotlinc-current 56.0 → 24.1 s (31.1 → 16.9 s), on the 2-core machine where CI runs
    /// two compilers beside the suite (Docs/Performance.md, "The test suite"). The classes are the same: a JIT
    /// setting does not change what the compiler writes, so `KotlinCompileCache`'s keys leave it out.
    static func compilerEnvironment(_ environment: [String: String]) -> [String: String] {
        var environment = environment
        if environment["JAVA_TOOL_OPTIONS"] == nil {
            environment["JAVA_TOOL_OPTIONS"] = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
        }
        return environment
    }

    /// Runs `executable` with `arguments`, capturing its output; a run longer than `timeout` seconds is killed.
    static func run(_ executable: URL, _ arguments: [String], in folder: URL, timeout: TimeInterval = 600) throws -> Run
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if executable.lastPathComponent.hasPrefix("kotlinc") {
            process.environment = compilerEnvironment(ProcessInfo.processInfo.environment)
        }
        // Output goes to files, not pipes, so a chatty process can never block on a full pipe.
        let outputURL = folder.appendingPathComponent(".stdout-\(UUID().uuidString)")
        let errorsURL = folder.appendingPathComponent(".stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorsURL)
        }
        let output = try FileHandle(forWritingTo: outputURL)
        let errors = try FileHandle(forWritingTo: errorsURL)
        process.standardOutput = output
        process.standardError = errors
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        let timedOut = finished.wait(timeout: .now() + timeout) == .timedOut
        if timedOut {
            process.terminate()
            finished.wait()
        }
        try output.close()
        try errors.close()
        return Run(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            errors: String(decoding: try Data(contentsOf: errorsURL), as: UTF8.self), timedOut: timedOut)
    }

    /// Why a compilation failed: the compilers' diagnostics.
    struct CompileFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Compiles every `.kt` file under `folder` (with its `.java` files, which javac then compiles against the
    /// Kotlin classes) into `folder/classes`, with `classpath` jars; throws the compilers' diagnostics when
    /// compilation fails (every test that needs the build then fails with them). Returns the classes folder.
    static func compile(folder: URL, classpath: [URL] = []) throws -> URL {
        let kotlinc = try tool("kotlinc")
        var sources: [String] = []
        var javaSources: [String] = []
        if let walker = FileManager.default.enumerator(atPath: folder.path) {
            for case let path as String in walker {
                if path.hasSuffix(".kt") { sources.append(path) }
                if path.hasSuffix(".java") { javaSources.append(path) }
            }
        }
        sources.sort()
        javaSources.sort()
        let start = Date()
        let jars = classpath.map(\.path).joined(separator: ":")
        let run = try self.run(
            kotlinc, (jars.isEmpty ? [] : ["-cp", jars]) + sources + javaSources + ["-d", "classes"], in: folder)
        print("kotlinc compiled \(sources.count) files in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
        let diagnostics = run.errors.split(separator: "\n").filter {
            !$0.hasPrefix("OpenJDK") && !$0.hasPrefix("warning: ")
        }
        if run.status != 0 {
            throw CompileFailure(description: "kotlinc failed:\n" + diagnostics.joined(separator: "\n"))
        }
        let classes = folder.appendingPathComponent("classes")
        if !javaSources.isEmpty {
            let javac = try tool("javac")
            let path = ([classes.path, try standardLibrary().path] + classpath.map(\.path)).joined(separator: ":")
            let compiled = try self.run(javac, ["-cp", path, "-d", "classes"] + javaSources, in: folder)
            if compiled.status != 0 { throw CompileFailure(description: "javac failed:\n" + compiled.errors) }
        }
        return classes
    }

    /// Runs `mainClass` from `classes` on the JVM with the Kotlin standard library and `classpath`; returns its
    /// standard output (with `standardLibrary` instead of kotlinc 1.3's, for another compiler's classes). Fails the
    /// test when it exits with an error or runs longer than `timeout` seconds.
    static func runMain(
        _ mainClass: String, classes: URL, classpath: [URL] = [], arguments: [String] = [], in folder: URL,
        timeout: TimeInterval = 120, standardLibrary: URL? = nil
    ) throws -> String {
        let java = try tool("java")
        let library = try standardLibrary ?? self.standardLibrary()
        let path = ([classes.path, library.path] + classpath.map(\.path)).joined(separator: ":")
        let run = try self.run(java, ["-cp", path, mainClass] + arguments, in: folder, timeout: timeout)
        if run.timedOut { XCTFail("\(mainClass) ran longer than \(Int(timeout)) s and was stopped:\n\(run.errors)") }
        if run.status != 0, !run.timedOut { XCTFail("\(mainClass) exited with \(run.status):\n\(run.errors)") }
        return run.output
    }

    /// A suite's output split into its `== name` sections.
    static func sections(_ output: String) -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var current: String?
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("== ") {
                current = String(line.dropFirst(3))
                sections[current ?? ""] = []
            } else if let name = current {
                sections[name, default: []].append(String(line))
            }
        }
        return sections.mapValues { lines in
            var lines = lines
            while lines.last == "" { lines.removeLast() }
            return lines
        }
    }
}
