import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One run of a child process, measured as a whole: wall time from spawn to exit, CPU time
/// from `wait4`'s `rusage`, and peak resident memory.
///
/// Peak memory needs care on Linux: a process's `ru_maxrss` survives `execve`, and a child
/// spawned from this benchmark (which holds GitHub's schema) starts with the benchmark's own
/// high-water mark. So when GNU time is installed (`/usr/bin/time`, Debian's `time`) every child
/// runs under it, and the peak is the one `time` reads for its own small child (`%M`). Without
/// it the figure is `wait4`'s and says so (`peakIsExact` false).
struct ChildRun {
    var status: Int32
    var wallMilliseconds: Double
    var userMilliseconds: Double
    var systemMilliseconds: Double
    /// Peak resident set size, in MiB.
    var peakMiB: Double
    /// Whether `peakMiB` is the child's own (measured through GNU time).
    var peakIsExact: Bool
    /// What the child wrote to its standard output and standard error (kept in files, read back).
    var output: String
    var errors: String

    /// Runs `executable` with `arguments` in `directory`; stdin is /dev/null.
    static func run(
        _ executable: String, _ arguments: [String], in directory: String, scratch: String,
        environment: [String: String] = [:]
    ) -> ChildRun? {
        let outPath = "\(scratch)/child.out"
        let errPath = "\(scratch)/child.err"
        let timePath = "\(scratch)/child.time"
        let timer = "/usr/bin/time"
        let timed = FileManager.default.isExecutableFile(atPath: timer)
        try? FileManager.default.removeItem(atPath: timePath)
        let command = timed ? [timer, "-f", "%M", "-o", timePath, executable] + arguments : [executable] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        var variables = ProcessInfo.processInfo.environment
        for (key, value) in environment { variables[key] = value }
        let argv = command.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        // The child starts in `directory` (posix_spawn_file_actions_addchdir_np is not in the
        // imported headers); the benchmark spawns from one thread, so changing ours is safe.
        let previous = FileManager.default.currentDirectoryPath
        guard FileManager.default.changeCurrentDirectoryPath(directory) else { return nil }
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let start = DispatchTime.now().uptimeNanoseconds
        guard posix_spawn(&pid, command[0], &actions, nil, argv, envp) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            if errno != EINTR { return nil }
        }
        let end = DispatchTime.now().uptimeNanoseconds
        func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
        // WEXITSTATUS, spelled out (the macro is not imported).
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        var peak = Double(usage.ru_maxrss) / 1024
        if timed {
            // `time` writes "Command exited with non-zero status N" first when the command failed.
            let report = (try? String(contentsOfFile: timePath, encoding: .utf8)) ?? ""
            guard let kibibytes = report.split(separator: "\n").last.flatMap({ Double($0) }) else { return nil }
            peak = kibibytes / 1024
        }
        return ChildRun(
            status: exitStatus, wallMilliseconds: Double(end - start) / 1e6,
            userMilliseconds: milliseconds(usage.ru_utime), systemMilliseconds: milliseconds(usage.ru_stime),
            peakMiB: peak, peakIsExact: timed,
            output: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    /// The first executable named `name` on `PATH`.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}

/// Runs of one command: medians of wall time, CPU time and peak memory.
struct RunSeries {
    var name: String
    var runs: [ChildRun] = []

    var wall: Double { median(runs.map(\.wallMilliseconds)) }
    var cpu: Double { median(runs.map { $0.userMilliseconds + $0.systemMilliseconds }) }
    var peak: Double { median(runs.map(\.peakMiB)) }

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// `wall 123.4 ms (min 120.1; CPU 110.2 ms), peak 21.3 MiB`.
    var summary: String {
        let minimum = runs.map(\.wallMilliseconds).min() ?? 0
        let exact = runs.allSatisfy(\.peakIsExact) ? "" : " (wait4: includes the benchmark's own; install GNU time)"
        return String(
            format: "wall %.1f ms (min %.1f; CPU %.1f ms), peak %.1f MiB%@, %d runs", wall, minimum, cpu, peak, exact,
            runs.count)
    }
}
