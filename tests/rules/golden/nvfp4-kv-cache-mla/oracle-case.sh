#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_b/nvfp4_mla.
vllm serve ../../../conformance/models/deepseek-v3 --kv-cache-dtype nvfp4
