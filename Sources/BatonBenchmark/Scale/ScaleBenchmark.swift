import BatonCompiler
import BatonDiagnostics
import BatonSchema
import BatonSyntax
import Foundation

/// `BatonBenchmark scale [--corpus github|saleor|anilist] [--operations N] [--runs R] [--directory DIR] [--skip-js] [--only project|check|gen|parallel]`:
/// the 10,000-operation project (`ScaleProject`) built from one corpus domain's real documents,
/// measured as whole processes side by side in one run.
///
/// - `baton check` on the project and on the single-file case (GitHub's schema + one file of
///   every kept document), beside gqlparser (`Peers/gqlparser-check`, built here with Debian's
///   `golang-github-vektah-gqlparser-dev` in GOPATH mode) and graphql-js
///   (`../shared/tools/graphqljs-validate.mjs --merge --no-rules`), runs interleaved;
/// - `baton gen --lang swift` and `--lang kotlin`: cold (output folder removed), again with
///   nothing changed, and after editing one document (a `__typename` added to or removed from
///   its operation, alternately, so every edited run really changes one document);
/// - generated files, lines and bytes per operation and per selected field;
/// - in process: the check stages one after another, and a prototype of parallel parsing and
///   validation on `ParallelWork` (the project cut into one unit per worker, each validated
///   merged), with its diagnostics compared to the sequential ones.
///
/// Wall times are medians; every figure pairs with a peer measured in the same run because
/// the machine is shared. Peak memory is each child's `ru_maxrss` (`wait4`). The release `baton`
/// must be built beside this benchmark (`swift build -c release --product baton`).
func runScaleBenchmark(_ arguments: [String]) {
    var options = ScaleOptions()
    guard options.parse(arguments) else {
        print(
            "usage: BatonBenchmark scale [--corpus github|saleor|anilist] [--operations N] [--runs R] [--directory DIR] [--skip-js] [--only project|check|gen|parallel]"
        )
        return
    }
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..")
        .standardizedFileURL.path
    let shared = ProcessInfo.processInfo.environment["BATON_SHARED"] ?? ScaleBenchmark.sharedFolder(above: package)
    let directory =
        options.directory
        ?? "\(package)/.build/scale\(options.domain.name == "github" ? "" : "-\(options.domain.name)")"
    let scratch = "\(directory)/scratch"

    let clock = ContinuousClock()
    let started = clock.now
    guard let corpus = ScaleProject.load(shared: shared, domain: options.domain) else {
        print("scale: \(options.domain.schema) not found under \(shared)/corpus/schemas (set BATON_SHARED)")
        return
    }
    let project: ScaleProject.Written
    do {
        project = try corpus.write(operations: options.operations, to: "\(directory)/project")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    } catch {
        print("scale: cannot write the project under \(directory): \(error)")
        return
    }
    print("## Scale: \(options.operations) operations from the \(options.domain.name) corpus (\(shared)/corpus)")
    print(
        "  kept \(corpus.templates.count) corpus operations that validate alone against \(options.domain.schema) (left out: \(corpus.rejected.count))"
    )
    for rejected in corpus.rejected { print("    left out \(rejected.label): \(rejected.reason)") }
    print(
        String(
            format: "  project: %d files, %.2f MB of GraphQL, %d selected fields, written in %.1f s to %@",
            project.files.count, Double(project.bytes) / 1_000_000, project.fields,
            ScaleBenchmark.seconds(clock.now - started), project.directory))
    print("  single-file case: schema + \(project.singleFile) (\(project.singleFileBytes) bytes)")
    print("  load: \(ScaleBenchmark.uptime())")

    let benchmark = ScaleBenchmark(
        options: options, shared: shared, corpus: corpus, project: project, scratch: scratch,
        baton: ScaleBenchmark.batonExecutable())
    if options.wants("check") { benchmark.runCheck() }
    if options.wants("gen") { benchmark.runGen() }
    if options.wants("parallel") { benchmark.runStages() }
    print("  load: \(ScaleBenchmark.uptime())")
}

struct ScaleOptions {
    var operations = 10_000
    var domain = ScaleProject.Domain.named("github")!
    var runs = 5
    var directory: String?
    var skipJS = false
    var only: Set<String> = []

    func wants(_ part: String) -> Bool { only.isEmpty || only.contains(part) }

    mutating func parse(_ arguments: [String]) -> Bool {
        var index = 0
        func value() -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--operations":
                guard let count = value().flatMap(Int.init), count > 0 else { return false }
                operations = count
            case "--corpus":
                guard let name = value(), let domain = ScaleProject.Domain.named(name) else { return false }
                self.domain = domain
            case "--runs":
                guard let count = value().flatMap(Int.init), count > 0 else { return false }
                runs = count
            case "--directory":
                guard let path = value() else { return false }
                directory = path
            case "--skip-js": skipJS = true
            case "--only":
                guard let part = value(), ["check", "gen", "parallel", "project"].contains(part) else { return false }
                only.insert(part)
            default: return false
            }
            index += 1
        }
        return true
    }
}

struct ScaleBenchmark {
    var options: ScaleOptions
    var shared: String
    var corpus: ScaleProject
    var project: ScaleProject.Written
    var scratch: String
    var baton: String?

    var schema: String { corpus.schemaPath }

    /// The nearest `shared` folder holding the corpus beside the package or a folder above it:
    /// `../shared` in CI, `../../shared` from a worktree under `wt/`.
    static func sharedFolder(above package: String) -> String {
        var folder = URL(fileURLWithPath: package)
        while folder.path != "/" {
            let candidate = folder.deletingLastPathComponent().appendingPathComponent("shared")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("corpus").path) {
                // Resolved, so the project's baton.json names the schema the same way every time.
                return candidate.resolvingSymlinksInPath().path
            }
            folder = folder.deletingLastPathComponent()
        }
        return "\(package)/../shared"
    }

    /// `.build/release/baton`, beside this executable.
    static func batonExecutable() -> String? {
        let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let path = own.deletingLastPathComponent().appendingPathComponent("baton").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    static func uptime() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        let parts = text.split(separator: " ").prefix(3)
        return parts.count == 3 ? "load average \(parts.joined(separator: ", "))" : "load average unknown"
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Builds `Peers/gqlparser-check` with Debian's Go and gqlparser, in GOPATH mode, in a
    /// scratch GOPATH holding links to the peer shim's packages and a copy of the program.
    func buildGQLParser() -> String? {
        let shim = ProcessInfo.processInfo.environment["PEERS_GOPATH"] ?? "/opt/baton-peers/gopath"
        guard let go = ChildRun.find("go") else {
            print("  gqlparser: not run (no `go`; PEERS_GO=1 bash ../shared/tools/install-peers.sh installs it)")
            return nil
        }
        guard FileManager.default.fileExists(atPath: "\(shim)/src/github.com/vektah/gqlparser/v2/gqlparser.go") else {
            print("  gqlparser: not run (no gqlparser under \(shim); PEERS_GO=1 bash ../shared/tools/install-peers.sh)")
            return nil
        }
        let program = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Peers/gqlparser-check/main.go").standardizedFileURL.path
        let gopath = "\(scratch)/gopath"
        let manager = FileManager.default
        try? manager.removeItem(atPath: "\(gopath)/src")
        do {
            try manager.createDirectory(atPath: "\(gopath)/src/github.com", withIntermediateDirectories: true)
            try manager.createDirectory(atPath: "\(gopath)/src/gqlparser-check", withIntermediateDirectories: true)
            for owner in ["vektah", "agnivade"] {
                try manager.createSymbolicLink(
                    atPath: "\(gopath)/src/github.com/\(owner)", withDestinationPath: "\(shim)/src/github.com/\(owner)")
            }
            try manager.copyItem(atPath: program, toPath: "\(gopath)/src/gqlparser-check/main.go")
        } catch {
            print("  gqlparser: not run (cannot prepare \(gopath): \(error))")
            return nil
        }
        let binary = "\(scratch)/gqlparser-check"
        let built = ChildRun.run(
            go, ["build", "-o", binary, "gqlparser-check"], in: gopath, scratch: scratch,
            environment: ["GO111MODULE": "off", "GOPATH": gopath, "GOCACHE": "\(scratch)/gocache", "GOFLAGS": ""])
        guard let built, built.status == 0 else {
            print("  gqlparser: build failed: \(built?.errors ?? "go did not start")")
            return nil
        }
        return binary
    }

    /// One command of a side-by-side comparison.
    struct Contender {
        var name: String
        var executable: String
        var arguments: [String]
        var directory: String
        /// The exit status a correct run has.
        var expectedStatus: Int32 = 0
    }

    /// Runs the contenders in turn, `runs` rounds after one warm-up round, and prints each one's
    /// medians and its ratio to the first.
    func compare(_ title: String, _ contenders: [Contender], runs: Int) -> [RunSeries] {
        print("### \(title)")
        var series = contenders.map { RunSeries(name: $0.name) }
        // A contender whose first run ends with the wrong status (a peer refusing the schema, say)
        // is not timed: its figures would compare nothing.
        var failed = Set<Int>()
        for round in 0...runs {
            for (index, contender) in contenders.enumerated() where !failed.contains(index) {
                guard
                    let run = ChildRun.run(
                        contender.executable, contender.arguments, in: contender.directory, scratch: scratch)
                else {
                    print("  \(contender.name): did not start")
                    continue
                }
                if run.status != contender.expectedStatus && round == 0 {
                    print(
                        "  \(contender.name): exit status \(run.status) (expected \(contender.expectedStatus)); not timed"
                    )
                    print("    stdout: \(run.output.suffix(600))")
                    print("    stderr: \(run.errors.suffix(600))")
                    failed.insert(index)
                    continue
                }
                if round == 0 {
                    let lastLine = (run.output + run.errors).split(separator: "\n").last ?? ""
                    print("  \(contender.name): \(contender.arguments.first ?? "")… → \(lastLine.prefix(160))")
                    continue
                }
                series[index].runs.append(run)
            }
        }
        let first = series.first
        for (index, entry) in series.enumerated() where !failed.contains(index) {
            var line = "  \(entry.name): \(entry.summary)"
            if let first, entry.name != first.name, first.wall > 0 {
                line += String(
                    format: "; %@ is %.2fx its wall time, %.2fx its peak memory", first.name, first.wall / entry.wall,
                    first.peak / entry.peak)
            }
            print(line)
        }
        return series
    }

    func runCheck() {
        guard let baton else {
            print("  check: no release baton beside this benchmark (swift build -c release --product baton)")
            return
        }
        let gqlparser = buildGQLParser()
        let node = options.skipJS ? nil : ChildRun.find("node")
        let script = "\(shared)/tools/graphqljs-validate.mjs"
        let hasJS = node != nil && FileManager.default.fileExists(atPath: script)
        if !hasJS && !options.skipJS { print("  graphql-js: not run (no node or \(script))") }

        var project = [
            Contender(name: "baton check", executable: baton, arguments: ["check"], directory: self.project.directory)
        ]
        var single = [
            Contender(
                name: "baton check", executable: baton,
                arguments: ["check", "--schema", schema, self.project.singleFile], directory: self.project.directory)
        ]
        if let gqlparser {
            project.append(
                Contender(
                    name: "gqlparser", executable: gqlparser, arguments: [schema, "Documents"],
                    directory: self.project.directory))
            single.append(
                Contender(
                    name: "gqlparser", executable: gqlparser, arguments: [schema, self.project.singleFile],
                    directory: self.project.directory))
        }
        if hasJS, let node {
            project.append(
                Contender(
                    name: "graphql-js", executable: node,
                    arguments: [script, "--merge", "--no-rules", schema, "Documents"],
                    directory: self.project.directory))
            single.append(
                Contender(
                    name: "graphql-js", executable: node,
                    arguments: [script, "--merge", "--no-rules", schema, self.project.singleFile],
                    directory: self.project.directory))
        }
        // The prototype of a per-file, parallel check (StreamingCheckPrototype.swift).
        let benchmark = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        for workers in Set([1, ParallelWork.processorCount]).sorted() {
            project.append(
                Contender(
                    name: "prototype, per file, \(workers) worker\(workers == 1 ? "" : "s")", executable: benchmark,
                    arguments: ["check-stream", "--workers", "\(workers)", self.project.directory],
                    directory: self.project.directory))
        }
        _ = compare("check: \(self.project.files.count) operations, one file each", project, runs: options.runs)
        _ = compare("check: single file (schema + \(corpus.templates.count) operations)", single, runs: options.runs)
    }
}
