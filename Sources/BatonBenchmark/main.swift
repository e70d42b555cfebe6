print("benchmark")
runRuntimeBenchmark()
