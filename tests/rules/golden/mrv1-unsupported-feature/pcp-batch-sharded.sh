#!/usr/bin/env bash
# servelint: vllm=0.32.0
# Both features are listed, in vLLM's order.
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve ../../../conformance/models/qwen3 -tp 2 --enable-batch-sharded-sampling -pcp 2
