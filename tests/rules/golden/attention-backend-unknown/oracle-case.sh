#!/usr/bin/env bash
# servelint: vllm=0.33.0
# The oracle's trigger case attention/backend_flag_unknown.
vllm serve ../../../conformance/models/llama --attention-backend flash_attention
