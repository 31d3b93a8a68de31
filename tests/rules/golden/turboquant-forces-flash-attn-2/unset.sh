#!/bin/sh
# servelint: vllm=0.29.0
# No FlashAttention version: vLLM picks 2 and says so.
vllm serve ../../../conformance/models/qwen3 --kv-cache-dtype=turboquant_k8v4 --attention-config '{"backend": "FLASH_ATTN"}'
