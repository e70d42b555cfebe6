import Foundation

/// Runs a graphql-js script under node for a differential test: node found on PATH (otherwise the test's
/// `Unavailable` error with `reason`), the script's standard output read to its end, its standard error dropped.
package enum NodePeer {
    /// The script's exit status and standard output; `standardInput` is a file node reads as its input.
    package static func run(_ arguments: [String], standardInput: URL? = nil, missing reason: String) throws -> (
        status: Int32, output: Data
    ) {
        guard let node = Unavailable.onPath("node") else { throw Unavailable.error(reason) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = arguments
        if let standardInput { process.standardInput = try FileHandle(forReadingFrom: standardInput) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }
}
