// Placeholder: the `stubserver` command is built by the stub-server work.
print("stubserver: not built yet")
