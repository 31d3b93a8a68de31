#!/bin/sh
# servelint: vllm=0.33.0
# Four sequences of 1024 tokens cannot fill 8192 tokens.
vllm serve ../../../conformance/models/llama \
  --max-model-len 1024 --max-num-seqs 4 --max-num-batched-tokens 8192
