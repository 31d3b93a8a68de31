#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/llama --speculative-config \
  '{"method": "ngram", "num_speculative_tokens": 3, "enable_adaptive_verification": true, "use_local_argmax_reduction": true}'
