#!/bin/sh
# servelint: vllm=0.33.0
export VLLM_ALLOW_LONG_MAX_MODEL_LENGTH=1
vllm serve ../../../conformance/models/llama --max-model-len 4096
VLLM_NOT_A_SETTING=1 vllm serve ../../../conformance/models/llama --fail-on-environ-validation
# known
VLLM_LOGGING_LEVEL=INFO vllm serve ../../../conformance/models/llama --fail-on-environ-validation
