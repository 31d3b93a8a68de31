#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case kernel/deepgemm_on_mixtral_kernel_config.
vllm serve ../../../conformance/models/mixtral --kernel-config '{"moe_backend": "flashinfer_moe_ep_mega_deep_gemm"}'
