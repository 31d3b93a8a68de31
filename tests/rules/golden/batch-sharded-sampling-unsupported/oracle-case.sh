#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_b/bss_tp1.
vllm serve ../../../conformance/models/llama --enable-batch-sharded-sampling
