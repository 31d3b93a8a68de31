"""``CompilationConfig``: CUDA graph capture sizes."""
