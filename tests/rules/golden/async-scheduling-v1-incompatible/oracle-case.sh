#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_b/async_v1_pp.
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve ../../../conformance/models/llama -pp 2 --async-scheduling
