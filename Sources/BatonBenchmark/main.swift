// `BatonBenchmark [syntax|runtime|schema|lens|swiftgen|validation|kotlingen …]`: the named benchmarks, or all of them.
let requested = Set(CommandLine.arguments.dropFirst())
func wanted(_ name: String) -> Bool { requested.isEmpty || requested.contains(name) }
print("benchmark")
if wanted("syntax") { runSyntaxBenchmark() }
if wanted("runtime") { runRuntimeBenchmark() }
if wanted("schema") { runSchemaBenchmark() }
if wanted("lens") { runLensBenchmark() }
if wanted("swiftgen") { runSwiftGenBenchmark() }
if wanted("validation") { runValidationBenchmark() }
if wanted("kotlingen") { runKotlinGenerationBenchmark() }
