"""``KernelConfig``: the MoE and linear kernel backends.

``KernelConfig.set_platform_defaults`` (vllm/config/kernel.py), run from
``VllmConfig.__post_init__``, checks the MoE backend against the model's
architecture (the FlashInfer MoE-EP megakernels) and against
``--all2all-backend`` (a backend that dispatches and combines itself).
"""
