#!/bin/sh
# servelint: vllm=0.33.0
# A TurboQuant KV cache with FlashAttention 3 asked for: vLLM uses 2.
vllm serve ../../../conformance/models/qwen3 --kv-cache-dtype turboquant_4bit_nc \
    -ac.flash_attn_version=3
