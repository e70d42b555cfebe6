import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonFiles
import BatonWatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `check --watch` and `gen --watch`: a `WatchSession` fed by a `FileWatcher`, one short report per
/// change (the diagnostics, then one line: when, what changed, the outcome, how long it took), until
/// the process is stopped (Ctrl-C).
enum WatchLoop {
    /// The option both commands take.
    static let option = OptionSpec.flag(
        "watch",
        help:
            "Keep running: run again on every change to a document, the schema or baton.json, with one report per change (Ctrl-C stops)."
    )

    /// Why `--watch` cannot be used with `format`: a machine format prints one document, and a watch
    /// prints one report per change.
    static func formatProblem(_ format: DiagnosticFormat) -> String? {
        format == .text || format == .pretty
            ? nil : "--watch prints a report per change; use it with --format text or pretty, not \(format.rawValue)."
    }

    /// Runs for ever (returns only when the first run cannot start: a usage error).
    static func run(driver: Driver, stage: Compilation.Stage, format: DiagnosticFormat, context: CommandContext)
        -> ExitCode
    {
        let started = Clock.now()
        let session = WatchSession(driver: driver, stage: stage)
        var shownBefore = Set<String>()
        report(
            session.result, changed: nil, since: started, format: format, stage: stage, shownBefore: &shownBefore,
            context: context)
        let forcePolling = context.environment["BATON_WATCH_POLL"].map { !$0.isEmpty && $0 != "0" } ?? false
        let watcher = FileWatcher(
            folders: session.watchedFolders, ignoring: session.ignoredFolders, forcePolling: forcePolling)
        context.standardError.write(
            "Watching \(session.watchedFolders.map { Path.display($0, from: context.workingDirectory) }.joined(separator: ", ")) (\(watcher.backend.rawValue)); Ctrl-C stops.\n"
        )
        flush(context)
        while true {
            let changes = watcher.nextChanges()
            let start = Clock.now()
            guard let outcome = session.apply(changes) else { continue }
            report(
                session.result, changed: outcome.changed, since: start, format: format, stage: stage,
                shownBefore: &shownBefore, context: context)
            if outcome.resolvedAgain {
                watcher.update(folders: session.watchedFolders, ignoring: session.ignoredFolders)
            }
        }
    }

    /// One report: diagnostics, then `[12:00:01] Q.graphql: 1 error (12 ms)`. Errors are always
    /// printed; a warning only when the previous report did not print it as it is now (a save that
    /// reaches many documents would otherwise repeat all their warnings), and the line says how
    /// many were not repeated.
    static func report(
        _ result: DriverResult, changed: [String]?, since start: UInt64, format: DiagnosticFormat,
        stage: Compilation.Stage, shownBefore: inout Set<String>, context: CommandContext
    ) {
        let shown = result.shownDiagnostics
        let (printed, repeated) = newSinceLastReport(shown, shownBefore: &shownBefore)
        if !printed.isEmpty {
            DiagnosticOutput(format: format, quiet: true).report(printed, documentCount: nil, context: context)
        }
        let errors = shown.filter { $0.severity == .error }.count
        let warnings = shown.count - errors
        var outcome: String
        if errors > 0 || warnings > 0 {
            outcome = [plural(errors, "error"), plural(warnings, "warning")].filter { !$0.hasPrefix("0 ") }
                .joined(separator: ", ")
            if repeated > 0 { outcome += " (\(plural(repeated, "warning")) as before, not repeated)" }
        } else {
            outcome = "no problems in \(plural(result.documentCount ?? 0, "document"))"
        }
        if stage == .generate, errors == 0 {
            let written = result.folders.reduce(0) { $0 + $1.report.changes.count }
            outcome += written == 0 ? ", generated code unchanged" : ", \(plural(written, "file")) written"
        }
        var subject = stage == .generate ? "gen" : "check"
        if let changed {
            subject =
                changed.prefix(3).joined(separator: ", ") + (changed.count > 3 ? " and \(changed.count - 3) more" : "")
        }
        let milliseconds = (Clock.now() - start) / 1_000_000
        context.standardError.write("[\(Clock.timeOfDay())] \(subject): \(outcome) (\(milliseconds) ms)\n")
        flush(context)
    }

    /// The diagnostics of this report to print: every error, and the warnings the last report
    /// did not show as they are now (same place, same text); and how many warnings were left out.
    /// `shownBefore` becomes this report's.
    static func newSinceLastReport(_ shown: [Diagnostic], shownBefore: inout Set<String>) -> (
        printed: [Diagnostic], repeated: Int
    ) {
        var printed: [Diagnostic] = []
        var now = Set<String>()
        for diagnostic in shown {
            let key = TextRenderer.render([diagnostic])
            now.insert(key)
            if diagnostic.severity == .error || !shownBefore.contains(key) { printed.append(diagnostic) }
        }
        shownBefore = now
        return (printed, shown.count - printed.count)
    }

    static func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }

    static func flush(_ context: CommandContext) {
        context.standardOutput.flush()
        context.standardError.flush()
    }
}

/// The clocks a watch report reads.
enum Clock {
    /// Monotonic nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// `HH:MM:SS`, local time.
    static func timeOfDay() -> String {
        var seconds = time(nil)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
