#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/qwen3 --return-sampling-mask --logprobs-mode processed_logprobs --logits-processors my_pkg.MyProcessor
vllm serve ../../../conformance/models/qwen3 --return-sampling-mask --logprobs-mode processed_logprobs \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3, "enable_adaptive_verification": true}'
