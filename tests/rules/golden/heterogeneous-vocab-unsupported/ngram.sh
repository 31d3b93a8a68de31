#!/usr/bin/env bash
# servelint: vllm=0.33.0
vllm serve ../../../conformance/models/qwen3 \
  --speculative-config '{"method": "ngram", "num_speculative_tokens": 3, "use_heterogeneous_vocab": true, "draft_sample_method": "probabilistic"}'
