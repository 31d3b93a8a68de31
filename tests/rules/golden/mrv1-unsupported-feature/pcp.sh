#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_c/mrv1_pcp.
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve ../../../conformance/models/qwen3 -pcp 2
