print("restoration-archive: not yet")
