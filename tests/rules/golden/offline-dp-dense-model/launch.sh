#!/bin/sh
# servelint: vllm=0.33.0
# Data parallelism from the environment, for a dense model.
VLLM_DP_SIZE=2 vllm serve ../../../conformance/models/llama
