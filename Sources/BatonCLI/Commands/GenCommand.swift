import BatonCodegen
import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonFiles

/// `baton gen [--lang swift|kotlin] [--check]`: writes the generated code of every project of baton.json.
package enum GenCommand: Command {
    package static let name = "gen"
    package static let abstract = "Generate Swift (or Kotlin) lenses for the project's operations and fragments."
    package static let discussion = """
        Reads baton.json, validates the documents like `baton check` (errors stop generation), builds the \
        lens model and writes one file per operation, per fragment and per schema type the documents use \
        under output.<language>.path. Files are rewritten only when their content changes, each write is \
        atomic, and files Baton generated earlier that are no longer generated are removed (only files \
        carrying Baton's generated-file header, never anything else).

        A run writes all of its files or none: every problem in baton.json, the schema, the documents and \
        every language's settings is found before the first file is written, and every output folder is \
        checked before any is written to.

        With --check nothing is written: the files that would change are listed and the exit status is 1 \
        if there are any (for CI and pre-commit hooks). With --format json, sarif or github, stdout holds \
        exactly one document (json lists the files in it; sarif and github list them on stderr).

        Exit status: 0 done (or, with --check, up to date); 1 errors in the documents, or --check found \
        stale files; 2 usage, configuration or I/O error.
        """

    package static var signature: CommandSignature {
        CommandSignature(
            options: [
                .value(
                    "config", valueName: "path",
                    help: "The baton.json to use, or a folder holding one (default: the nearest one up from here)."),
                .value(
                    "lang", valueName: "language", choices: GenerationTargets.languages, repeatable: true,
                    help: "The language to generate (default: every language baton.json has an output for)."),
                .flag("check", help: "Write nothing; list the files that would change and exit 1 if any would."),
                .value(
                    "swift-out", valueName: "path", help: "Write Swift into this folder instead of output.swift.path."),
                .value(
                    "build-map", valueName: "path",
                    help:
                        "For build systems (the SwiftPM plugin, Xcode): a JSON map of the target's documents and the Swift file each one's definitions go to (Docs/BuildIntegration.md)."
                ),
                .flag(
                    "absolute-paths",
                    help: "Show absolute paths in diagnostics and file lists (build logs; Xcode and SwiftPM link them)."
                ),
                .value(
                    "kotlin-runtime-out", valueName: "path",
                    help:
                        "Write the Kotlin runtime once, into this folder (it receives baton/runtime/), instead of where each project's output.kotlin.runtime says."
                ),
                DiagnosticFormat.option,
                .flag("warnings-as-errors", help: "Treat warnings as errors: they stop generation (exit status 1)."),
                .flag("quiet", short: "q", help: "Report errors only: no warnings, no file list, no summary line."),
                WatchLoop.option,
            ],
            arguments: [])
    }

    package static func run(_ arguments: ParsedArguments, context: CommandContext) -> ExitCode {
        let format = arguments.value("format").flatMap(DiagnosticFormat.init(rawValue:)) ?? .text
        let check = arguments.flag("check")
        let policy = DiagnosticPolicy(
            warningsAsErrors: arguments.flag("warnings-as-errors"), quiet: arguments.flag("quiet"))
        let absolute = { (path: String) in Path.absolute(path, relativeTo: context.workingDirectory) }
        // With --absolute-paths every path is resolved here and shown from `/`.
        let shownFrom = arguments.flag("absolute-paths") ? "/" : context.workingDirectory
        var request = ProjectRequest(
            workingDirectory: shownFrom,
            configPath: arguments.value("config").map(absolute)
                ?? (shownFrom == "/" ? ConfigurationLoader.find(startingAt: context.workingDirectory) : nil),
            allowsSchemaWithoutConfiguration: false)
        request.swiftOutputPath = arguments.value("swift-out").map(absolute)
        var layout: SwiftBuildLayout?
        if let map = arguments.value("build-map") {
            switch SwiftBuildLayout.load(absolute(map)) {
            case .success(let loaded): layout = loaded
            case .failure(let problem):
                context.standardError.write("Error: \(problem.message)\n")
                return .usage
            }
            request.buildDocuments = layout?.documents
        }
        var languages = arguments.allValues("lang")
        if layout != nil, languages.isEmpty { languages = [GenerationTargets.swift.name] }
        let driver = Driver(
            request: request, policy: policy,
            targets: languages.isEmpty ? .configured : .named(languages, testBuilders: layout == nil),
            kotlinRuntimeOutput: arguments.value("kotlin-runtime-out").map(absolute), swiftLayout: layout)
        if arguments.flag("watch") {
            if let problem = WatchLoop.formatProblem(format)
                ?? (check ? "--watch writes files; leave out --check." : nil)
            {
                context.standardError.write("Error: \(problem)\n")
                return .usage
            }
            return WatchLoop.run(driver: driver, stage: .generate, format: format, context: context)
        }
        let result = driver.generate(check: check)
        context.keepUntilExit(result)
        let shown = result.shownDiagnostics
        let exitCode = ExitCode(result.status(shown: shown))

        let display = { (path: String) in Path.display(path, from: shownFrom) }
        var changes: [(path: String, change: FileWriteReport.Change)] = []
        for folder in result.folders {
            for (path, change) in folder.report.changes {
                changes.append((display(Path.join(folder.root, path)), change))
            }
        }
        let unchanged = result.folders.reduce(0) { $0 + $1.report.unchanged }
        let summary: String
        if check {
            summary =
                changes.isEmpty
                ? "Generated code is up to date (\(unchanged) files)."
                : "\(changes.count) generated \(changes.count == 1 ? "file is" : "files are") out of date; run `baton gen`."
        } else {
            summary = "\(changes.count) \(changes.count == 1 ? "file" : "files") changed, \(unchanged) unchanged."
        }
        let lines = changes.map { check ? "would \($0.change.verb): \($0.path)" : "\($0.change.pastTense) \($0.path)" }
        let finished = exitCode == .success || (check && exitCode == .failure && !changes.isEmpty)

        let output = DiagnosticOutput(format: format, quiet: true)
        switch format {
        case .text, .pretty:
            // Diagnostics, then what was written, on stderr; stdout lists the files (`would …` for --check).
            if !shown.isEmpty { output.report(shown, documentCount: nil, context: context) }
            // A build (--build-map) shows its problems only: the files are the build system's business.
            if !policy.quiet, layout == nil {
                for line in lines { context.standardOutput.write(line + "\n") }
                if finished { context.standardError.write(summary + "\n") }
            }
        case .json:
            // One document on stdout: the diagnostics, and the files written (or that would be).
            let files = changes.map { change in
                JSONText.object([
                    ("path", JSONText.quote(change.path)), ("change", JSONText.quote(change.change.rawValue)),
                ])
            }
            var extra = [("files", JSONText.array(files))]
            if check { extra.append(("check", "true")) }
            context.standardOutput.write(JSONRenderer.render(shown, extra: extra))
        case .sarif, .github:
            // One document on stdout; what was written goes to stderr.
            output.report(shown, documentCount: nil, context: context)
            if !policy.quiet {
                for line in lines { context.standardError.write(line + "\n") }
                if finished { context.standardError.write(summary + "\n") }
            }
        }
        return exitCode
    }

}

extension FileWriteReport.Change {
    var verb: String {
        switch self {
        case .create: "create"
        case .update: "update"
        case .remove: "remove"
        }
    }

    var pastTense: String {
        switch self {
        case .create: "created"
        case .update: "updated"
        case .remove: "removed"
        }
    }
}
