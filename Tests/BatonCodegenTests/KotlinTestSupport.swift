import Foundation
import XCTest

/// Compiles Kotlin with the real `kotlinc` (Debian's 1.3.31 in CI) and runs the result.
///
/// kotlinc starts a JVM and takes seconds per call, so tests batch every file into one compilation.
enum KotlinTestSupport {
    /// The `kotlinc` executable on PATH, or an `XCTSkip` saying why the test cannot run.
    static func tool(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw XCTSkip("\(name) is not on PATH; install Debian's kotlin package (CI's .ci/run does) to run this test")
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
    }

    /// Runs `executable` with `arguments`, capturing its output.
    static func run(_ executable: URL, _ arguments: [String], in folder: URL) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
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
        try process.run()
        process.waitUntilExit()
        try output.close()
        try errors.close()
        return Run(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            errors: String(decoding: try Data(contentsOf: errorsURL), as: UTF8.self))
    }

    /// Compiles every `.kt` file under `folder` into `folder/classes`; fails the test with kotlinc's
    /// diagnostics when compilation fails. Returns the classes folder.
    static func compile(folder: URL, file: StaticString = #filePath, line: UInt = #line) throws -> URL? {
        let kotlinc = try tool("kotlinc")
        var sources: [String] = []
        if let walker = FileManager.default.enumerator(atPath: folder.path) {
            for case let path as String in walker where path.hasSuffix(".kt") { sources.append(path) }
        }
        sources.sort()
        let start = Date()
        let run = try self.run(kotlinc, sources + ["-d", "classes"], in: folder)
        let seconds = Date().timeIntervalSince(start)
        print("kotlinc compiled \(sources.count) files in \(String(format: "%.1f", seconds)) s")
        let diagnostics = run.errors.split(separator: "\n").filter {
            !$0.hasPrefix("OpenJDK") && !$0.hasPrefix("warning: ")
        }
        if run.status != 0 {
            XCTFail("kotlinc failed:\n" + diagnostics.joined(separator: "\n"), file: file, line: line)
            return nil
        }
        return folder.appendingPathComponent("classes")
    }

    /// Runs `mainClass` from `classes` with the Kotlin runtime on the class path; returns its standard output.
    static func runMain(_ mainClass: String, classes: URL, arguments: [String] = [], in folder: URL) throws -> String {
        let kotlin = try tool("kotlin")
        let run = try self.run(kotlin, ["-cp", classes.path, mainClass] + arguments, in: folder)
        if run.status != 0 {
            XCTFail("\(mainClass) exited with \(run.status):\n\(run.errors)")
        }
        return run.output
    }
}
