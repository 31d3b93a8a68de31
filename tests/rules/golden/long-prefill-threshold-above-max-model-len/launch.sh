#!/bin/sh
# servelint: vllm=0.33.0
# No prompt can be longer than max_model_len.
vllm serve ../../../conformance/models/llama \
  --max-model-len 1024 --long-prefill-token-threshold 2048
