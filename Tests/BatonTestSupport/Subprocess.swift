import Foundation

/// A program run to its end, for tests of scripts and tools: its status, what it printed (stdout
/// and stderr together, in order) and how long it took.
package struct Subprocess {
    package var status: Int32
    package var output: String
    package var seconds: Double

    /// Runs `executable` with `arguments` in `directory`; `environment` replaces the inherited one
    /// when given (a test of a stock machine passes only what such a machine has). With
    /// `discardingErrors`, `output` is standard output alone (a tool printing one document).
    package static func run(
        _ executable: String, _ arguments: [String], in directory: String, environment: [String: String]? = nil,
        discardingErrors: Bool = false
    ) throws -> Subprocess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = discardingErrors ? FileHandle.nullDevice : output
        let started = Date()
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Subprocess(status: process.terminationStatus, output: text, seconds: Date().timeIntervalSince(started))
    }
}
