#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/mixtral --enable-return-routed-experts \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3, "enable_adaptive_verification": true}'
