"""Quantization: `--quantization` against the release's methods and the checkpoint, and the dtypes a method runs in.

What vLLM ends up with (the checkpoint's method, the overrides that claim
it, the method list of the release) is ``servelint.derive.quantization``.
"""
