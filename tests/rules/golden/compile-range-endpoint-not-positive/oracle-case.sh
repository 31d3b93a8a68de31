#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_b/compile_range_zero.
vllm serve ../../../conformance/models/llama -cc '{"compile_ranges_endpoints": [0]}'
