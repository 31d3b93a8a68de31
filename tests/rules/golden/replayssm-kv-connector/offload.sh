#!/bin/sh
# servelint: vllm=0.33.0
export VLLM_USE_V2_MODEL_RUNNER=0
vllm serve nvidia/Nemotron-H-8B-Base-8K --use-replayssm --kv-offloading-size 8
