import Foundation

/// A Python script of Tests/Server running beside a test: a server or a proxy that prints `portLine` and its port
/// once it listens and exits when its standard input closes, so a test process that dies never leaves it running.
///
/// Without `python3` (or when the script does not start) the error is `Unavailable`'s: a skip locally, a failure
/// in CI.
package final class PythonScript: @unchecked Sendable {
    package let process: Process
    private let stdin: Pipe
    package let port: Int

    /// Starts `script` with `arguments` (run by `python`, the PATH's `python3` unless given) and waits (30 s at most)
    /// for its port line, then, when `health` names a path, for `GET health` to answer `ok`. `install` says how to
    /// get what the script needs.
    package init(
        script: URL, arguments: [String] = [], portLine: String, health: String? = nil, python: URL? = nil,
        install: String
    ) throws {
        let python = try python ?? Self.python()
        process = Process()
        process.executableURL = python
        process.arguments = ["-u", script.path] + arguments
        stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let handle = stdout.fileHandleForReading
        var buffer = Data()
        let deadline = Date().addingTimeInterval(30)
        var found: Int?
        while found == nil, Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }  // the script exited
            buffer.append(chunk)
            for line in String(decoding: buffer, as: UTF8.self).split(separator: "\n") where line.hasPrefix(portLine) {
                found = Int(line.dropFirst(portLine.count))
            }
        }
        guard let found else {
            process.terminate()
            process.waitUntilExit()
            let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Unavailable.error(
                "\(script.lastPathComponent) did not start (\(install)): \(errors.suffix(600))")
        }
        port = found
        // Keep draining the script's output so a chatty one never blocks on a full pipe.
        handle.readabilityHandler = { $0.availableData.isEmpty ? ($0.readabilityHandler = nil) : () }
        stderr.fileHandleForReading.readabilityHandler = {
            $0.availableData.isEmpty ? ($0.readabilityHandler = nil) : ()
        }
        if let health { try waitUntilAnswering(health) }
    }

    /// Stops the script and waits for it.
    package func stop() {
        try? stdin.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { stop() }

    private func waitUntilAnswering(_ path: String) throws {
        let health = URL(string: "http://127.0.0.1:\(port)\(path)")!
        for _ in 0..<100 {
            if let text = try? String(contentsOf: health, encoding: .utf8), text == "ok" { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Unavailable.error("the script on port \(port) does not answer \(path)")
    }

    /// `python3` on the PATH.
    package static func python() throws -> URL {
        guard let python = Unavailable.onPath("python3") else { throw Unavailable.error("python3 is not on the PATH") }
        return URL(fileURLWithPath: python)
    }

    /// The Python of the virtualenv with graphql-core 3.3 that `.ci/install.d/incremental-server.sh` makes
    /// (`BATON_INCREMENTAL_VENV`, else `~/.cache/baton/incremental-venv`), for Tests/Server/incremental.
    package static func incrementalPython() throws -> URL {
        let venv =
            ProcessInfo.processInfo.environment["BATON_INCREMENTAL_VENV"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/baton/incremental-venv")
            .path
        let python = URL(fileURLWithPath: venv).appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw Unavailable.error(
                "no virtualenv with graphql-core 3.3 at \(venv) (run `bash .ci/install.d/incremental-server.sh`)")
        }
        return python
    }
}
