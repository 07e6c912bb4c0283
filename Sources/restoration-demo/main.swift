print("restoration-demo: not yet")
