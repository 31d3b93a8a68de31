"""``CompilationConfig``: CUDA graph capture sizes and ``--compilation-config``.

The checks of ``CompilationConfig`` (vllm/config/compilation.py): its field
validators and ``__post_init__`` while argparse reads ``--compilation-config``
(mode and CUDA graph mode names, ``custom_ops`` syntax, the backend against
the mode, CUDA graph sizes), and ``VllmConfig._set_cudagraph_sizes``
(vllm/config/vllm.py) for the capture sizes.
"""
