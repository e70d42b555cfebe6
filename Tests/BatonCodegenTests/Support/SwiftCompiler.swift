import BatonCodegen
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

    nonisolated(unsafe) private static var builtRuntime: Result<URL, Failure>?
    private static let lock = NSLock()

    /// A folder holding `Baton.swiftmodule` and the runtime library, built on first use.
    static func runtime() throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let builtRuntime { return try builtRuntime.get() }
        // Keyed by the runtime's sources, so test runs reuse one build and a changed runtime gets a new one.
        var hasher = SHA256()
        for path in runtimeSources {
            hasher.update(path.utf8)
            hasher.update(FileManager.default.contents(atPath: path) ?? Data())
        }
        let key = String(SHA256.hex(hasher.finalize()).prefix(16))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("baton-runtime-" + key)
        #if os(macOS)
            let library = "libBaton.dylib"
        #else
            let library = "libBaton.so"
        #endif
        let result: Result<URL, Failure>
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(library).path),
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("Baton.swiftmodule").path)
        {
            builtRuntime = .success(folder)
            return folder
        }
        do {
            // Build beside, then move into place, so a concurrent or interrupted run never sees half a build.
            let building = folder.appendingPathExtension("building-\(getpid())")
            try FileManager.default.createDirectory(at: building, withIntermediateDirectories: true)
            try run(
                swiftc,
                [
                    "-swift-version", "6", "-module-name", "Baton", "-parse-as-library", "-emit-library",
                    "-emit-module",
                    "-emit-module-path", building.appendingPathComponent("Baton.swiftmodule").path,
                    "-o", building.appendingPathComponent(library).path,
                ] + runtimeSources)
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.moveItem(at: building, to: folder)
            result = .success(folder)
        } catch let error as Failure {
            result = .failure(error)
        } catch {
            result = .failure(Failure(description: "\(error)"))
        }
        builtRuntime = result
        return try result.get()
    }

    /// Type-checks `files` (paths) against the runtime; returns the compiler's seconds.
    @discardableResult
    static func typecheck(_ files: [String]) throws -> Double {
        let runtime = try runtime()
        let start = Date()
        try run(swiftc, ["-typecheck"] + flags + ["-I", runtime.path, "-module-name", "App"] + files)
        return Date().timeIntervalSince(start)
    }

    /// Builds `files` (one of them a `main.swift`) into an executable linked with the runtime, runs it, and returns
    /// its standard output.
    static func buildAndRun(_ files: [String], arguments: [String] = []) throws -> String {
        let runtime = try runtime()
        let executable = FileManager.default.temporaryDirectory.appendingPathComponent("baton-app-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: executable) }
        try run(
            swiftc,
            flags + [
                "-I", runtime.path, "-L", runtime.path, "-lBaton", "-Xlinker", "-rpath", "-Xlinker", runtime.path,
                "-module-name", "App", "-o", executable.path,
            ] + files)
        return try run(executable.path, arguments)
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
