print("benchmark")
runSyntaxBenchmark()
runRuntimeBenchmark()
runSchemaBenchmark()
