print("restoration-benchmarks: not yet")
