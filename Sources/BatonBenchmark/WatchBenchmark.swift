import Foundation

/// `BatonBenchmark watch --project DIR [--document PATH] [--generated PATH] [--edits N] [--baton PATH]`:
/// the time from a saved edit of one document to the rewritten generated file, with `baton gen --watch`
/// running on a project (the 10,000-operation one of Performance.md's "One driver" section, whose
/// layout the defaults name: `ops/Q0.graphql`, generated into `out/swift/Q0.graphql.swift`), and from a
/// saved edit to the report line of `baton check --watch`.
///
/// Each edit adds (then removes) an aliased `__typename` at the top of one document's operation, so the
/// generated Swift changes; the clock runs from the `write` of the document until the generated file
/// holds the alias (polled every millisecond), or until `check --watch` prints its line. The watcher
/// waits 40 ms without events before it runs (a save is often several writes): that is part of the
/// figure. `baton` is the release build beside this benchmark unless `--baton` names one.
func runWatchBenchmark(_ arguments: [String]) {
    var project: String?
    var document = "ops/Q0.graphql"
    var generatedFile = "out/swift/Q0.graphql.swift"
    var edits = 10
    var baton = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
        "baton"
    )
    .path
    var index = 0
    while index < arguments.count {
        let value = index + 1 < arguments.count ? arguments[index + 1] : nil
        switch arguments[index] {
        case "--project": project = value
        case "--document": document = value ?? document
        case "--generated": generatedFile = value ?? generatedFile
        case "--edits": edits = value.flatMap(Int.init) ?? edits
        case "--baton": baton = value ?? baton
        default:
            print(
                "usage: BatonBenchmark watch --project DIR [--document PATH] [--generated PATH] [--edits N] [--baton PATH]"
            )
            return
        }
        index += 2
    }
    guard let project, FileManager.default.fileExists(atPath: project + "/baton.json") else {
        print("watch: no project; write the 10,000-operation one with the script in Performance.md (One driver)")
        return
    }
    let path = project + "/" + document
    let generated = project + "/" + generatedFile
    let documents = (FileManager.default.enumerator(atPath: project)?.allObjects as? [String] ?? [])
        .filter { $0.hasSuffix(".graphql") }
    guard let original = try? String(contentsOfFile: path, encoding: .utf8) else {
        return print("watch: cannot read \(path)")
    }
    defer { try? original.write(toFile: path, atomically: false, encoding: .utf8) }
    print("## Watch mode: \(documents.count) documents (\(project))")
    print("  edited: \(document); \(edits) edits each; load: \(WatchTiming.load())")

    for (mode, command) in [
        ("gen --watch", ["gen", "--watch", "--lang", "swift"]), ("check --watch", ["check", "--watch"]),
    ] {
        let watcher = WatchedProcess(baton, command, in: project)
        guard watcher.waitFor("Ctrl-C stops.", seconds: 600) else {
            print("  \(mode): did not start: \(watcher.errors.suffix(500))")
            watcher.stop()
            continue
        }
        var times: [Double] = []
        for edit in 0..<edits {
            let alias = "batonWatch\(edit)"
            let edited =
                edit % 2 == 0
                ? original.replacingOccurrences(
                    of: "{", with: "{ \(alias): __typename ", options: [], range: original.range(of: "{"))
                : original
            let reports = watcher.errors.components(separatedBy: "\n[").count
            let start = WatchTiming.now()
            try? edited.write(toFile: path, atomically: false, encoding: .utf8)
            let done: Bool
            if mode.hasPrefix("gen") {
                done = WatchTiming.poll(seconds: 120) {
                    let text = (try? String(contentsOfFile: generated, encoding: .utf8)) ?? ""
                    return edit % 2 == 0 ? text.contains(alias) : !text.contains("batonWatch")
                }
            } else {
                done = WatchTiming.poll(seconds: 120) { watcher.errors.components(separatedBy: "\n[").count > reports }
            }
            guard done else {
                print("  \(mode): edit \(edit) not seen within 120 s: \(watcher.errors.suffix(500))")
                break
            }
            times.append(WatchTiming.now() - start)
            usleep(200_000)
        }
        watcher.stop()
        guard !times.isEmpty else { continue }
        let sorted = times.sorted()
        let median = sorted[sorted.count / 2]
        let target = mode.hasPrefix("gen") ? "the rewritten file" : "the report"
        print(
            "  \(mode): saved edit to \(target): median \(WatchTiming.ms(median)), min \(WatchTiming.ms(sorted[0])), max \(WatchTiming.ms(sorted[sorted.count - 1])) (\(times.count) edits)"
        )
    }
}

/// A `baton … --watch` process, its stderr collected.
private final class WatchedProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var collected = Data()

    init(_ executable: String, _ arguments: [String], in directory: String) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.lock()
            self.collected.append(data)
            self.lock.unlock()
        }
        try? process.run()
    }

    var errors: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }

    func waitFor(_ text: String, seconds: Double) -> Bool {
        WatchTiming.poll(seconds: seconds) { self.errors.contains(text) }
    }

    func stop() {
        if process.isRunning { process.interrupt() }
        process.waitUntilExit()
    }
}

private enum WatchTiming {
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    static func ms(_ seconds: Double) -> String { String(format: "%.0f ms", seconds * 1000) }

    /// Polls `condition` every millisecond for at most `seconds`.
    static func poll(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = now() + seconds
        while now() < deadline {
            if condition() { return true }
            usleep(1000)
        }
        return false
    }

    static func load() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "unknown"
    }
}
