#!/bin/sh
# servelint: vllm=0.33.0
VLLM_USE_V2_MODEL_RUNNER=1 vllm serve moonshotai/Kimi-Linear-48B-A3B-Instruct \
  --use-replayssm \
  --pipeline-parallel-size 2 \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 2, "prompt_lookup_max": 3}'
