#!/bin/sh
# servelint: vllm=0.33.0
VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vllm serve ../../../conformance/models/mistral --max-model-len 40000
