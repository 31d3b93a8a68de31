#!/usr/bin/env bash
# servelint: vllm=0.33.0
export VLLM_USE_V2_MODEL_RUNNER=0
vllm serve ../../../conformance/models/llama --compilation-config '{"cudagraph_mode": "FULL"}' --speculative-config \
  '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3, "num_speculative_tokens_per_batch_size": [[1, 8, 3], [9, 256, 1]]}'
# Model Runner V2 follows the schedule with full graphs: no warning.
VLLM_USE_V2_MODEL_RUNNER=1 vllm serve ../../../conformance/models/llama --compilation-config '{"cudagraph_mode": "FULL"}' \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3, "num_speculative_tokens_per_batch_size": [[1, 8, 3], [9, 256, 1]]}'
