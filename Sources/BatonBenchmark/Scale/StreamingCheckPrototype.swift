import BatonCompiler
import BatonConfig
import BatonDiagnostics
import BatonSchema
import BatonSyntax
import Foundation

/// `BatonBenchmark check-stream [--workers N] DIR`: a prototype of the check pipeline the
/// next round's driver can have, run as a whole process so `scale` can time it and read its
/// peak memory beside `baton check` and gqlparser.
///
/// It reads `DIR/baton.json` as `check` does, builds the schema, then reads, parses and
/// validates each document file on its own on `ParallelWork` (N workers, default 1) and keeps
/// only the diagnostics, so each file's AST is freed as soon as it has been validated. Output is
/// the same whatever N is. This is exact only for a project whose files validate alone and whose
/// names are unique across files, as the scale project's are: a real driver keeps the fragments
/// of every file and runs the cross-file rules (unique names, unused and unknown fragments) in
/// one pass over all of them.
func runCheckStream(_ arguments: [String]) {
    var workers = 1
    var directory: String?
    var index = 0
    while index < arguments.count {
        if arguments[index] == "--workers", index + 1 < arguments.count, let count = Int(arguments[index + 1]) {
            workers = max(1, count)
            index += 2
            continue
        }
        directory = arguments[index]
        index += 1
    }
    guard let directory else {
        print("usage: BatonBenchmark check-stream [--workers N] DIR")
        exit(2)
    }
    let loaded = ConfigurationLoader.load(
        path: "\(directory)/baton.json", workingDirectory: directory, knownRules: RuleCatalog.ruleIDs)
    guard let configuration = loaded.projects.first else {
        print("check-stream: \(directory)/baton.json did not load")
        exit(2)
    }
    let files = DocumentDiscovery.documentFiles(of: configuration).files
    let loader = ProjectLoader(workingDirectory: directory)
    let (built, _, schemaDiagnostics) = loader.loadSchema(
        DocumentDiscovery.schemaFiles(of: configuration).files)
    guard let schema = built else {
        print("check-stream: the schema did not build")
        exit(2)
    }
    let perFile = ParallelWork.map(files, workers: workers) { path -> [Diagnostic] in
        switch loader.read(path) {
        case .failure(let diagnostic): return [diagnostic]
        case .success(let source):
            let parsed = Parser.parse(source)
            guard let document = parsed.document else { return parsed.diagnostics }
            return DocumentValidation.validate(schema: schema, documents: [document], configuration: configuration)
        }
    }
    let diagnostics = schemaDiagnostics + perFile.flatMap { $0 }
    let errors = diagnostics.filter { $0.severity == .error }.count
    print("check-stream: \(files.count) documents, \(errors) errors, \(diagnostics.count - errors) warnings")
    exit(errors > 0 ? 1 : 0)
}
