print("benchmark")
runRuntimeBenchmark()
runSchemaBenchmark()
