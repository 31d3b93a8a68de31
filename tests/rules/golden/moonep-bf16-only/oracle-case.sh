#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case vllm_config_b/moonep_float16.
vllm serve ../../../conformance/models/mixtral --enable-expert-parallel --all2all-backend moonep --dtype float16
