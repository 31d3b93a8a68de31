#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_c/mrv2_external_launcher_pp.
VLLM_USE_V2_MODEL_RUNNER=1 vllm serve ../../../conformance/models/qwen3 -pp 2 --distributed-executor-backend external_launcher
