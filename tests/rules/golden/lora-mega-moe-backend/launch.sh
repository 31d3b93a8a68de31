#!/bin/sh
# servelint: vllm=0.33.0
# The MegaMoE kernel has no LoRA path.
vllm serve ../../../conformance/models/mixtral \
  --enable-lora --moe-backend deep_gemm_mega_moe
