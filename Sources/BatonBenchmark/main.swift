// `BatonBenchmark [syntax|runtime|persistence|lists|schema|lens|swiftgen|validation|kotlingen|connections …]`: the named benchmarks,
// or all of them; `BatonBenchmark network` (never part of "all") against the Python test server.
// `BatonBenchmark parse-corpus [DIR]`, `BatonBenchmark schema-loop FILE [N]` and
// `BatonBenchmark validation-loop [N]` and `BatonBenchmark runtime-loop [N] [MB]` are single-shot
// modes for whole-process timing (hyperfine) and profiling (callgrind); see SchemaBenchmark.swift.
// `BatonBenchmark scale [--operations N] [--runs R] …`: the 10,000-operation project against the
// peers, whole processes side by side; see Scale/ScaleBenchmark.swift. `check-stream` is its
// prototype of a per-file, parallel check (Scale/StreamingCheckPrototype.swift). `lsp`: `baton lsp` on that
// project (LanguageServerBenchmark.swift). `compile`: swiftc and kotlinc on the generated code of the corpus apps
// and of a 1,000-operation slice of that project (CompileBenchmark.swift). `builders`: the test data builders on a
// 10,000-type schema and a corpus app (BuildersBenchmark.swift).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "parse-corpus" {
    runParseCorpus(arguments.dropFirst().first)
} else if arguments.first == "validation-loop" {
    runValidationLoop(Array(arguments.dropFirst()))
} else if arguments.first == "runtime-loop" {
    runRuntimeLoop(Array(arguments.dropFirst()))
} else if arguments.first == "check-stream" {
    runCheckStream(Array(arguments.dropFirst()))
} else if arguments.first == "scale" {
    runScaleBenchmark(Array(arguments.dropFirst()))
} else if arguments.first == "schema-loop" {
    runSchemaLoop(Array(arguments.dropFirst()))
} else if arguments.first == "lsp" {
    runLanguageServerBenchmark(Array(arguments.dropFirst()))  // LanguageServerBenchmark.swift: `baton lsp` at scale
} else if arguments.first == "compile" {
    runCompileBenchmark(Array(arguments.dropFirst()))  // CompileBenchmark.swift: compiling the generated code
} else if arguments.first == "watch" {
    runWatchBenchmark(Array(arguments.dropFirst()))  // WatchBenchmark.swift: a saved edit to the rewritten file
} else {
    let requested = Set(arguments)
    func wanted(_ name: String) -> Bool { requested.isEmpty || requested.contains(name) }
    print("benchmark")
    if wanted("syntax") { runSyntaxBenchmark() }
    if wanted("runtime") { runRuntimeBenchmark() }
    if requested == ["connection"] { runConnectionCommitBenchmark() }
    if wanted("persistence") { runPersistenceBenchmark() }
    if wanted("lists") { runListReadBenchmark() }
    if wanted("schema") { runSchemaBenchmark() }
    if wanted("lens") { runLensBenchmark() }
    if wanted("swiftgen") { runSwiftGenBenchmark() }
    if wanted("validation") { runValidationBenchmark() }
    if wanted("kotlingen") { runKotlinGenerationBenchmark() }
    if wanted("connections") { runConnectionBenchmark() }
    if wanted("builders") { runBuildersBenchmark() }
    // Only when asked: it starts the Python test server (Tests/Server).
    if requested.contains("network") { runNetworkBenchmark() }
}
